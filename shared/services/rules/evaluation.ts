import { log } from '../../platform/log.js';
import { commit, MAX_TRANSACTION_ITEMS } from '../../db/commit.js';
import { ruleStateWrite, StaleRuleState, statesOf } from '../../db/rules.js';
import type { CommandContext } from '../../domain/command.js';
import { inputOf } from '../../domain/rules/calculations.js';
import { dailyPoints } from '../../domain/rules/daily-points.js';
import { breachOf, evaluateRule, type SeriesPoint } from '../../domain/rules/evaluation.js';
import { farmPoints } from '../../domain/rules/farm-points.js';
import { hourlyPoints } from '../../domain/rules/hourly-points.js';
import { domainCondition } from '../../domain/rules/definitions.js';
import { NO_TARGET, type RuleRecord, type RuleState } from '../../domain/rules/records.js';
import { continuedState, evaluationSpan, floorTo, idleRuleState, nextRuleState } from '../../domain/rules/states.js';
import { BUCKET_MS, DAY_MS, parseWindow, type Basis } from '../../domain/rules/windows.js';
import { Conflict } from '../../errors.js';
import type { AlarmData, FarmData, Target } from './alarm-data.js';
import { flockOn } from '../flocks/house-flocks.js';
import { act } from './firing.js';

/**
 * Rule evaluation: the one path from a rule and its data to firings, shared by the live evaluation
 * (new daily records, movements, weighings and sensor hours), the rule job (every 15 minutes) and the
 * backtest (POST /rules/{id}/test, which writes nothing). A rule applies to targets: the active flocks of
 * its scope for daily inputs (`flock:<id>`), the houses of its scope for sensor inputs (`house:<id>`), the
 * farm itself for farm-level inputs (`farm:<id>`, the generator drill).
 *
 * Instants: a daily input is evaluated at the end of each day (00:00 UTC after it), a sensor input at
 * the end of each hour; an instant is evaluated once the bucket is complete (the job), or as soon as the
 * day's record arrives (a daily record says the day is done). Per target, the state item remembers the
 * last instant evaluated and the last firing, so a live run continues exactly where the last one stopped
 * and fires exactly what a backtest over the same period fires.
 *
 * Cost per rule and target: the cycle's facts (two round trips, shared by every daily rule of the flock
 * in one pass) or one Query of hourly rollups per device of the house (shared by the hourly rules of the
 * house), one BatchGetItem of states for the whole pass, one Put per state (one transaction for the pass's
 * states). Never a Scan. What a firing does: ./firing.ts; the jobs: ./jobs.ts; the backtest: ./backtest.ts.
 */

export const iso = (ms: number) => new Date(ms).toISOString();
export const bucketMs = (basis: Basis) => BUCKET_MS[basis];
export const windowMs = (rule: RuleRecord): number => {
  const w = parseWindow(rule.window);
  return 'ms' in w ? w.ms : 0;
};
export const basisOf = (rule: RuleRecord): Basis => inputOf(rule.input)?.basis ?? 'day';
export const isFarmLevel = (rule: RuleRecord): boolean => inputOf(rule.input)?.appliesTo === 'farm';
export const farmTarget = (farmId: string): Target => ({ id: `farm:${farmId}`, kind: 'farm', farmId, houseId: null, flockId: null, cycleId: null });
/** The UTC days whose bucket lies within [fromMs, toMs). */
function daysBetween(fromMs: number, toMs: number): string[] {
  const days: string[] = [];
  for (let t = floorTo(fromMs, DAY_MS); t < toMs; t += DAY_MS) days.push(iso(t).slice(0, 10));
  return days;
}
/** A stored rule as the engine evaluates it (live and backtest alike). */
export const specOf = (rule: RuleRecord) => ({
  input: rule.input,
  window: rule.window,
  aggregation: rule.aggregation,
  condition: domainCondition(rule.condition),
  cooldownMinutes: rule.cooldownMinutes,
  basis: basisOf(rule),
});

/** What a rule's targets are chosen from: the farm's active flocks, and its devices for a sensor input. */
export async function farmOf(rule: RuleRecord, data: AlarmData): Promise<FarmData> {
  const [flocks, devices] = await Promise.all([data.flocks(rule.farmId), basisOf(rule) === 'hour' ? data.devices(rule.farmId) : []]);
  return { flocks, devices };
}

/** The targets of a rule in its farm now. */
function targetsOf(rule: RuleRecord, farm: FarmData): Target[] {
  const { farmId, houseId, flockId } = rule.scope;
  if (isFarmLevel(rule)) return [farmTarget(farmId)];
  if (basisOf(rule) === 'day') {
    return farm.flocks
      .filter((f) => f.activeCycleId && (!flockId || f.id === flockId) && (!houseId || f.houseId === houseId))
      .map((f) => ({ id: `flock:${f.id}`, kind: 'flock', farmId, houseId: f.houseId ?? null, flockId: f.id, cycleId: f.activeCycleId! }));
  }
  const flockHouse = flockId ? (farm.flocks.find((f) => f.id === flockId)?.houseId ?? null) : null;
  const houses = new Set(farm.devices.map((d) => d.houseId));
  return [...houses]
    .filter((h) => (!houseId || h === houseId) && (!flockId || h === flockHouse))
    .sort()
    .map((h) => ({ id: `house:${h}`, kind: 'house', farmId, houseId: h, flockId: null, cycleId: null }));
}

/** The points of a rule's input for a target, and what the signals of a firing are built from. */
export async function pointsOf(rule: RuleRecord, target: Target, data: AlarmData, fromMs: number, toMs: number): Promise<SeriesPoint[]> {
  if (target.kind === 'farm') return farmPoints(rule.input, await data.farm(target.farmId), daysBetween(fromMs, toMs));
  if (target.kind === 'flock') {
    const { ctx: analytics, series } = await data.cycle(target.flockId!, target.cycleId!);
    return dailyPoints(rule.input, { inputs: analytics.inputs, config: analytics.config, series });
  }
  const house = await data.house(target.farmId, target.houseId!, fromMs, toMs);
  return hourlyPoints(
    rule.input,
    house.hours,
    house.flock ? { birdType: house.flock.cycle.birdType, ageDaysAt: (hour) => flockOn(house.flock, hour.slice(0, 10))?.ageDays ?? 0 } : null,
  );
}

export interface PassResult {
  rules: number;
  targets: number;
  evaluations: number;
  firings: number;
  errors: Array<{ ruleId: string; target: string; error: string }>;
}

/**
 * One evaluation pass over these rules: per (rule, target) from its last evaluated instant to `untilMs`
 * (or over exactly the bucket `only` — a daily record for that day), acting on each firing and moving the
 * state forward. A failing pair is recorded and the pass goes on with the others.
 */
export async function evaluatePass(
  ctx: CommandContext,
  rules: readonly RuleRecord[],
  data: AlarmData,
  only?: { targetId?: string; houseId?: string; day?: string },
): Promise<PassResult> {
  const pairs: Array<{ rule: RuleRecord; target: Target }> = [];
  // a rule with nothing to judge in its scope says so in its status (the job's full passes only)
  const idle: RuleRecord[] = [];
  for (const rule of rules) {
    const targets = targetsOf(rule, await farmOf(rule, data));
    if (targets.length === 0 && !only) idle.push(rule);
    for (const target of targets) {
      if (only?.targetId && target.id !== only.targetId) continue;
      if (only?.houseId && target.houseId !== only.houseId) continue;
      pairs.push({ rule, target });
    }
  }
  const keys = [...pairs.map((p) => ({ ruleId: p.rule.id, target: p.target.id })), ...idle.map((r) => ({ ruleId: r.id, target: NO_TARGET }))];
  const states = keys.length > 0 ? await statesOf(keys) : new Map<string, RuleState>();
  const result: PassResult = { rules: rules.length, targets: pairs.length, evaluations: 0, firings: 0, errors: [] };
  const written: Array<{ ruleId: string; state: RuleState }> = [];
  for (const rule of idle) {
    const state = idleRuleState(rule.version, basisOf(rule), states.get(`${rule.id}|${NO_TARGET}`));
    if (state) written.push({ ruleId: rule.id, state });
  }
  for (const { rule, target } of pairs) {
    try {
      const basis = basisOf(rule);
      const state = continuedState(states.get(`${rule.id}|${target.id}`), rule.version);
      const span = evaluationSpan(basis, state, ctx.now.getTime(), only?.day);
      if (!span) continue;
      const { afterMs, untilMs } = span;
      const points = await pointsOf(rule, target, data, afterMs - windowMs(rule) - bucketMs(basis), untilMs);
      const spec = specOf(rule);
      const run = evaluateRule(spec, points, { after: iso(afterMs), until: iso(untilMs), lastFiredAt: state?.lastFiredAt ?? null });
      result.evaluations += run.evaluations.length;
      for (const firing of run.firings) {
        await act(ctx, rule, target, firing, data, breachOf(spec, points, firing));
        result.firings++;
      }
      const next = nextRuleState(target.id, rule.version, state, run, untilMs, ctx.now);
      if (next) written.push({ ruleId: rule.id, state: next });
    } catch (err) {
      const error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      log.warn('rule evaluation failed', { ruleId: rule.id, target: target.id, error });
      result.errors.push({ ruleId: rule.id, target: target.id, error });
    }
  }
  await recordStates(ctx, written);
  return result;
}

/**
 * Records the evaluations of a pass: one commit per 100 (one call for the usual handful; a lone state is
 * a plain Put); when one of them lost to a newer state, each is written on its own so the others still
 * move forward.
 */
async function recordStates(ctx: CommandContext, states: ReadonlyArray<{ ruleId: string; state: RuleState }>): Promise<void> {
  const one = async (s: { ruleId: string; state: RuleState }) => {
    try {
      await commit(ctx, { writes: [ruleStateWrite(s.ruleId, s.state)] });
    } catch (err) {
      if (!(err instanceof StaleRuleState)) throw err;
    }
  };
  for (let i = 0; i < states.length; i += MAX_TRANSACTION_ITEMS) {
    const chunk = states.slice(i, i + MAX_TRANSACTION_ITEMS);
    if (chunk.length === 1) {
      await one(chunk[0]!);
      continue;
    }
    try {
      await commit(ctx, { writes: chunk.map((s) => ruleStateWrite(s.ruleId, s.state)) });
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
      for (const s of chunk) await one(s);
    }
  }
}
