import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { updateRuleFor } from '../../shared/services/rules/definitions.js';
import { ruleParams, updateRuleBody } from '../../schemas/compiled/rules.js';

export const handler = httpHandler(
  {
    capability: 'manage_rules',
    summary: 'Change a rule (any field; `enabled: false` switches it off)',
    description:
      'Requires manage_rules. Send the version you read as `If-Match` (412) or `version` (409). The rule is checked as a whole after the change (a new input may need another window).',
    params: ruleParams,
    body: updateRuleBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The rule as changed', schema: 'RuleResponse' },
      404: { description: 'No such rule, or one of a farm you cannot see' },
      ...IF_MATCH_RESPONSES,
    },
  },
  async ({ params, body, ctx }) => {
    const rule = await updateRuleFor(ctx, params.ruleId, body);
    return ok(rule, 'Rule updated', { ETag: `"${rule.version}"` });
  },
);
