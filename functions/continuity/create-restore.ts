import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { accepted } from '../../shared/http/responses.js';
import { requestRestore } from '../../shared/services/continuity/restores.js';
import { createRestoreBody } from '../../schemas/compiled/continuity.js';

export const handler = httpHandler(
  {
    capability: 'manage_continuity',
    summary: 'Restore an export into a new, empty farm (asynchronous)',
    description:
      'Requires manage_continuity and manage_farms (it creates a farm), as a user of the exported farm. Answers 202 with the restore (`pending`) and the new ' +
      'farm’s id. The worker checks the whole file first (format, counts, sha256), writes every record with new ids (every reference remapped), then ' +
      'compares the new farm’s cycle summaries, KPIs and stock with the figures the export recorded. Only then does the farm appear (in the farm list, ' +
      'and in your farms); on any failure everything written is removed and the restore is `failed` naming why. Not restored: raw sensor readings, ' +
      'audit entries, users, forecasts, transfers (docs/export-format.md). Send an Idempotency-Key: a retry gets the first answer and starts nothing.',
    body: createRestoreBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      202: { headers: ['Location'], description: 'Restore started', schema: 'RestoreResponse' },
      403: { description: 'Without manage_farms' },
      404: { description: 'No such export, or one of a farm you cannot see' },
      409: { description: 'The export is not completed, or you hold the most farms a user may' },
    },
  },
  async ({ body, ctx }) => accepted(await requestRestore(ctx, body), '/api/v1/continuity/restores/'),
);
