import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { backtestRule } from '../../shared/services/rules/backtest.js';
import { backtestBody, ruleParams } from '../../schemas/compiled/rules.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Backtest a rule: when it would have fired over a period on a flock or a house, and on which values (writes nothing)',
    description:
      'Requires view_analytics. The same evaluation as the live one, with no firing before `from` (its cooldown applies within the period). Daily inputs replay the flock’s cycle, sensor inputs the house’s hourly rollups.',
    params: ruleParams,
    body: backtestBody,
    responses: {
      200: { description: 'The firings and every evaluated instant', schema: 'BacktestResponse' },
      404: { description: 'No such rule, or one of a farm you cannot see' },
    },
  },
  async ({ params, body, user }) => ok(await backtestRule(user, params.ruleId, body), 'Backtest'),
);
