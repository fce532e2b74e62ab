import { inputOf, unitIn } from '../../domain/rules/calculations.js';
import { getFarmAndHouse } from '../../db/farms.js';
import { houseNotFound } from '../../domain/references.js';
import { getRuleWithStates, ruleNotFound } from '../../db/rules.js';
import type { RuleRecord } from '../../domain/rules/records.js';
import type { Caller } from '../../domain/caller.js';
import { visibleTo } from '../../domain/farm-access.js';
import { evaluateRule } from '../../domain/rules/evaluation.js';
import type { Basis } from '../../domain/rules/windows.js';
import { ValidationFailed } from '../../errors.js';
import { AlarmData, type FarmData, type Target } from './alarm-data.js';
import { farmPeriodInstants } from '../periods.js';
import { flockOfFarm } from '../references.js';
import { floorTo } from '../../domain/rules/states.js';
import { DAY_MS } from '../../domain/rules/windows.js';
import { basisOf, bucketMs, farmOf, farmTarget, isFarmLevel, iso, pointsOf, specOf, windowMs } from './evaluation.js';
import type { BacktestBody } from '../../../schemas/rules.js';

/** The longest backtest period per basis. */
const BACKTEST_MAX_MS: Record<Basis, number> = { hour: 90 * DAY_MS, day: 400 * DAY_MS };

/**
 * POST /rules/{id}/test: when the rule would have fired over [from, to] on a flock or a house, and on
 * which values. The same evaluation as the live one (with no firing before `from`); writes nothing.
 */
export async function backtestRule(user: Caller, ruleId: string, body: BacktestBody, now = new Date()) {
  const { rule } = visibleTo(
    user,
    await getRuleWithStates(ruleId),
    () => ruleNotFound(ruleId),
    (found) => found.rule.farmId,
  );
  const basis = basisOf(rule);
  const step = bucketMs(basis);
  const period = await farmPeriodInstants(rule.farmId, body);
  const fromMs = floorTo(period.fromMs!, step);
  const untilMs = Math.ceil(period.endMs! / step) * step;
  if (untilMs - fromMs > BACKTEST_MAX_MS[basis]) {
    throw new ValidationFailed([
      { field: 'to', message: `a ${basis === 'hour' ? 'sensor' : 'daily'} rule is replayed over at most ${BACKTEST_MAX_MS[basis] / DAY_MS} days` },
    ]);
  }
  const data = new AlarmData(now);
  const farm = await farmOf(rule, data);
  await backtestReferences(rule.farmId, body, farm);
  const target = backtestTarget(rule, body, farm);
  const points = await pointsOf(rule, target, data, fromMs - windowMs(rule) - step, untilMs);
  const run = evaluateRule(specOf(rule), points, { after: iso(fromMs), until: iso(untilMs), lastFiredAt: null });
  const unit = inputOf(rule.input)?.unit ?? '';
  // a cost is in the farm's currency: its pricing came with the cycle the points were computed from (cached, no read)
  const cycle = unit.startsWith('currency/') && target.flockId && target.cycleId ? await data.cycle(target.flockId, target.cycleId) : null;
  return {
    ruleId: rule.id,
    target: target.id,
    unit: cycle ? unitIn(unit, cycle.ctx.config.pricing.currency) : unit,
    from: iso(fromMs),
    to: iso(untilMs),
    evaluated: run.evaluations.length,
    firings: run.firings,
    suppressedByCooldown: run.evaluations.filter((e) => e.outcome === 'cooldown').length,
    noData: run.evaluations.filter((e) => e.outcome === 'no_data').length,
    evaluations: run.evaluations.length <= 400 ? run.evaluations : [],
    context: { basis, window: rule.window, aggregation: rule.aggregation, condition: rule.condition, cooldownMinutes: rule.cooldownMinutes },
  };
}

/**
 * The flock and house a backtest names must be the rule's farm's, else the 404 of a missing one: read only
 * when the farm's active flocks and devices (already read) do not show them.
 */
async function backtestReferences(farmId: string, body: BacktestBody, farm: FarmData): Promise<void> {
  if (body.flockId && !farm.flocks.some((f) => f.id === body.flockId)) await flockOfFarm(farmId, body.flockId);
  const houseId = body.houseId;
  if (houseId && !farm.flocks.some((f) => f.houseId === houseId) && !farm.devices.some((d) => d.houseId === houseId)) {
    const { house } = await getFarmAndHouse(farmId, houseId);
    if (!house) throw houseNotFound(houseId);
  }
}

/** The flock or house a backtest replays over: one of the farm's, within the rule's scope. */
function backtestTarget(rule: RuleRecord, body: BacktestBody, farm: FarmData): Target {
  if (isFarmLevel(rule)) return farmTarget(rule.farmId);
  const basis = basisOf(rule);
  const { farmId } = rule;
  const flock = body.flockId ? farm.flocks.find((f) => f.id === body.flockId && f.activeCycleId) : undefined;
  if (body.flockId && !flock) throw new ValidationFailed([{ field: 'flockId', message: `no flock ${body.flockId} with an active cycle in farm ${farmId}` }]);
  const houseId = body.houseId ?? flock?.houseId ?? null;
  if (basis === 'day') {
    const f = flock ?? farm.flocks.find((x) => x.activeCycleId && x.houseId === body.houseId);
    if (!f) throw new ValidationFailed([{ field: 'houseId', message: `no flock with an active cycle in house ${body.houseId}` }]);
    return { id: `flock:${f.id}`, kind: 'flock', farmId, houseId: f.houseId ?? null, flockId: f.id, cycleId: f.activeCycleId! };
  }
  if (!houseId || !farm.devices.some((d) => d.houseId === houseId)) {
    throw new ValidationFailed([
      { field: body.houseId ? 'houseId' : 'flockId', message: `no sensors in house ${houseId ?? '(the flock has no house)'} of farm ${farmId}` },
    ]);
  }
  return { id: `house:${houseId}`, kind: 'house', farmId, houseId, flockId: null, cycleId: null };
}
