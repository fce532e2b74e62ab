import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { complianceReportCsv, complianceReportFor } from '../../shared/services/compliance/report.js';
import { complianceReportParams } from '../../schemas/compiled/compliance.js';

const wantsCsv = (accept = '') => /text\/csv/i.test(accept) && !/application\/json/i.test(accept);

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The compliance report of a cycle: pass, warn or fail per rule, with its public source and the findings (JSON, or CSV with Accept: text/csv)',
    description:
      'Requires view_analytics. Rules: withdrawal_sales (sales during a withdrawal period, overridden or not), medicine_records (Reg. (EU) 2019/6 Art. 108 fields), ' +
      'stocking_density (per day: broilers live kg/m² against the farm’s tier 33/39/42, Directive 2007/43/EC; layers hens/m² against 9, Directive 1999/74/EC), ' +
      'salmonella_sampling (Reg. (EC) 2160/2003, (EU) 517/2011, (EU) 200/2012), record_completeness (daily records, causes of mortality, weekly weighings) and ' +
      'lighting (each daily record’s lightHours and longestDarkHours: broilers from day 7 at least 6 h dark with 4 h uninterrupted, Directive 2007/43/EC, fail; ' +
      'laying hens about a third of the day dark, Directive 1999/74/EC, warn; the breed’s programme where sourced and step-ups over 1 h a week, warn). ' +
      'With `Accept: text/csv`: one line per finding and one per rule without findings (columns rule, title, source, ruleStatus, summary, findingStatus, date, message, evidence).',
    params: complianceReportParams,
    responses: {
      200: {
        alternatives: { 'text/csv': { type: 'string', description: 'The report as RFC 4180 CSV' } },
        headers: ['Vary'],
        description: 'The report',
        schema: 'ComplianceReportResponse',
      },
      404: { description: 'No such cycle, or not one of yours' },
    },
  },
  async ({ params, headers, user }) => {
    if (!wantsCsv(headers.accept)) return ok(await complianceReportFor(user, params.flockId, params.cycleId), 'Compliance report', { Vary: 'Accept' });
    const { filename, csv } = await complianceReportCsv(user, params.flockId, params.cycleId);
    return {
      statusCode: 200,
      headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"`, Vary: 'Accept' },
      body: csv,
    };
  },
);
