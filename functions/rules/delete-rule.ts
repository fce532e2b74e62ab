import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { noContent } from '../../shared/http/responses.js';
import { deleteRuleFor } from '../../shared/services/rules/definitions.js';
import { ruleParams } from '../../schemas/compiled/rules.js';

export const handler = httpHandler(
  {
    capability: 'manage_rules',
    summary: 'Delete a rule (its anomalies stay; a deleted default rule is not written again)',
    description: 'Requires manage_rules. `If-Match` makes the delete conditional.',
    params: ruleParams,
    headers: IF_MATCH,
    responses: { 204: { description: 'Deleted' }, 404: { description: 'No such rule, or one of a farm you cannot see' }, ...IF_MATCH_RESPONSES },
  },
  async ({ params, ctx }) => {
    await deleteRuleFor(ctx, params.ruleId);
    return noContent();
  },
);
