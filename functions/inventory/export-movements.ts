import { httpHandler } from '../../shared/http/handler.js';
import { exportMovementsFor, EXPORT_MAX_ROWS } from '../../shared/services/inventory.js';
import { MOVEMENT_CSV_COLUMNS } from '../../shared/presentation/csv.js';
import { inventoryExportQuery } from '../../schemas/compiled/inventory.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Export the movements of a farm as CSV (same filters as the search)',
    description:
      `RFC 4180 CSV (UTF-8, CRLF), chronological unless \`order=desc\`, columns: ${MOVEMENT_CSV_COLUMNS.join(', ')}. ` +
      '`fields` holds every field of the movement as JSON; `lockType` is manual, automatic or empty. Text cells starting with = + - @, tab or CR ' +
      `are prefixed with a single quote so spreadsheets do not run them as formulas. At most ${EXPORT_MAX_ROWS} rows: a larger export answers 400, narrow the date range.`,
    query: inventoryExportQuery,
    responses: {
      200: {
        headers: ['Content-Disposition', 'X-Total-Count'],
        description: 'The CSV file (Content-Disposition: attachment)',
        contentType: 'text/csv',
        schema: { type: 'string' },
      },
      404: { description: 'Unknown farm, or a farm you are not assigned to' },
    },
  },
  async ({ query, user }) => {
    const { filename, csv, rows } = await exportMovementsFor(user, query);
    return {
      statusCode: 200,
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${filename}"`,
        'X-Total-Count': String(rows),
        'Access-Control-Expose-Headers': 'X-Request-Id, RateLimit, RateLimit-Policy, Retry-After, Content-Disposition, X-Total-Count',
      },
      body: csv,
    };
  },
);
