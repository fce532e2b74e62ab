import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { replaceRuleFor } from '../../shared/services/rules/definitions.js';
import { replaceRuleBody, ruleParams } from '../../schemas/compiled/rules.js';

export const handler = httpHandler(
  {
    capability: 'manage_rules',
    summary: 'Replace a rule’s definition (its farm stays)',
    description: 'Requires manage_rules. Send the version you read as `If-Match` (412) or `version` (409). A changed rule starts its evaluation afresh.',
    params: ruleParams,
    body: replaceRuleBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The rule as replaced', schema: 'RuleResponse' },
      404: { description: 'No such rule, or one of a farm you cannot see' },
      ...IF_MATCH_RESPONSES,
    },
  },
  async ({ params, body, ctx }) => {
    const rule = await replaceRuleFor(ctx, params.ruleId, body);
    return ok(rule, 'Rule replaced', { ETag: `"${rule.version}"` });
  },
);
