import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { validateDailyData } from '../../shared/services/flocks/daily-records.js';
import { validateDailyDataBody } from '../../schemas/compiled/daily-records.js';

export const handler = httpHandler(
  {
    capability: 'edit_analytics',
    summary: 'Check a daily record against the mandatory fields of its production stage, without saving',
    description:
      'Body: `dailyRecord` (the record’s date or id), `productionStage` (brooding, growing, finishing, rearing, laying, molting) and the record’s fields ' +
      '(extra properties allowed). 200 `{message, data: {valid, missingFields, warnings, …}}`; 400 when the body itself is malformed.',
    body: validateDailyDataBody,
    responses: { 200: { description: 'The check', schema: 'DailyCheckResponse' } },
  },
  async ({ body }) => {
    const { valid, ...check } = validateDailyData(body as Record<string, unknown>, body.productionStage);
    return ok(
      { valid, dailyRecord: body.dailyRecord, ...check },
      valid ? 'Daily record has every mandatory field' : `Daily record is missing ${check.missingFields.join(', ')} for the ${check.productionStage} stage`,
    );
  },
);
