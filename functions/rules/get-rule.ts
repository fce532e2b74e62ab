import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { ruleFor } from '../../shared/services/rules/definitions.js';
import { ruleParams } from '../../schemas/compiled/rules.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'One rule, with the status of its last evaluation per flock or house (ok, fired, or no_data with the reason)',
    description:
      'Requires view_analytics. `status` has one entry per flock (daily inputs) or house (sensor inputs) the rule was evaluated on since its last change: the last instant judged, the last firing, and why it could not be evaluated (`no_data`).',
    params: ruleParams,
    responses: {
      200: { headers: ['ETag'], description: 'The rule', schema: 'RuleResponse' },
      404: { description: 'No such rule, or one of a farm you cannot see' },
    },
  },
  async ({ params, user }) => {
    const rule = await ruleFor(user, params.ruleId);
    return ok(rule, 'Rule', { ETag: `"${rule.version}"` });
  },
);
