import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listRulesFor } from '../../shared/services/rules/definitions.js';
import { listRulesQuery } from '../../schemas/compiled/rules.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List a farm’s rules, oldest first (filters: enabled, input); a farm starts with the default rules of its thresholds',
    description:
      'Requires view_analytics. `farmId` may be left out when you are assigned to one farm. The first list of a farm older than rules writes its default rule set (once).',
    query: listRulesQuery,
    responses: { 200: { description: 'A page of rules', schema: 'RuleListResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => {
    const { items, limit, nextCursor } = await listRulesFor(user, query);
    return list(items, { limit, nextCursor });
  },
);
