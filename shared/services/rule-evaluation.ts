import { getFarmAndHouse, houseNotFound } from '../db/farms.js';
import { allFarmIds } from '../db/flocks.js';
import {
  NO_TARGET,
  allEnabledRules,
  enabledRulesOfFarm,
  getRuleWithStates,
  putRuleStates,
  ruleNotFound,
  statesOf,
  type RuleRecord,
  type RuleState,
} from '../db/rules.js';
import { rankHypotheses } from '../domain/diagnosis/hypotheses.js';
import { incidentCategoryOf, incidentSeverityOf, seenAt } from '../domain/anomalies.js';
import { signalsOfDay } from '../domain/diagnosis/signals.js';
import type { Caller } from '../domain/caller.js';
import { canAccessFarm } from '../domain/farm-access.js';
import { dailyPoints, farmPoints, hourlyPoints, inputOf } from '../domain/rules/calculations.js';
import { evaluateRule, parseWindow, type Basis, type Evaluation, type SeriesPoint } from '../domain/rules/evaluation.js';
import { ValidationFailed } from '../errors.js';
import { AlarmData, climateAround, rulesCaller, type FarmData, type Target } from './alarm-data.js';
import { raiseAnomaly } from './anomalies.js';
import { detectOnFlock, runDetectorJob } from './detections.js';
import { flockOn } from './house-flocks.js';
import { farmPeriodInstants } from './periods.js';
import { openIncident } from './incidents.js';
import { ensureDefaultRules } from './default-rules.js';
import { domainCondition } from './rules.js';
import { flockOfFarm } from './references.js';
import type { BacktestBody, NewDataEventBody } from '../../schemas/rules.js';

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
 * house), one BatchGetItem of states for the whole pass, one Put per state. Never a Scan.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** How far back a live run catches up after a pause (a longer backlog is left to a backtest). */
const CATCH_UP_MS: Record<Basis, number> = { hour: 7 * DAY_MS, day: 35 * DAY_MS };
/** The longest backtest period per basis. */
const BACKTEST_MAX_MS: Record<Basis, number> = { hour: 90 * DAY_MS, day: 400 * DAY_MS };

const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;
const iso = (ms: number) => new Date(ms).toISOString();
const bucketMs = (basis: Basis) => (basis === 'hour' ? HOUR_MS : DAY_MS);
const windowMs = (rule: RuleRecord): number => {
  const w = parseWindow(rule.window);
  return 'ms' in w ? w.ms : 0;
};
const basisOf = (rule: RuleRecord): Basis => inputOf(rule.input)?.basis ?? 'day';
const isFarmLevel = (rule: RuleRecord): boolean => inputOf(rule.input)?.appliesTo === 'farm';
const farmTarget = (farmId: string): Target => ({ id: `farm:${farmId}`, kind: 'farm', farmId, houseId: null, flockId: null, cycleId: null });
/** The UTC days whose bucket lies within [fromMs, toMs). */
function daysBetween(fromMs: number, toMs: number): string[] {
  const days: string[] = [];
  for (let t = floorTo(fromMs, DAY_MS); t < toMs; t += DAY_MS) days.push(iso(t).slice(0, 10));
  return days;
}
/** A stored rule as the engine evaluates it (live and backtest alike). */
const specOf = (rule: RuleRecord) => ({
  input: rule.input,
  window: rule.window,
  aggregation: rule.aggregation,
  condition: domainCondition(rule.condition),
  cooldownMinutes: rule.cooldownMinutes,
  basis: basisOf(rule),
});

/** What a rule's targets are chosen from: the farm's active flocks, and its devices for a sensor input. */
async function farmOf(rule: RuleRecord, data: AlarmData): Promise<FarmData> {
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
async function pointsOf(rule: RuleRecord, target: Target, data: AlarmData, fromMs: number, toMs: number): Promise<SeriesPoint[]> {
  if (target.kind === 'farm') return farmPoints(rule.input, await data.farm(target.farmId), daysBetween(fromMs, toMs));
  if (target.kind === 'flock') {
    const { ctx, series } = await data.cycle(target.flockId!, target.cycleId!);
    return dailyPoints(rule.input, { inputs: ctx.inputs, config: ctx.config, series });
  }
  const house = await data.house(target.farmId, target.houseId!, fromMs, toMs);
  return hourlyPoints(
    rule.input,
    house.hours,
    house.flock ? { birdType: house.flock.cycle.birdType, ageDaysAt: (hour) => flockOn(house.flock, hour.slice(0, 10))?.ageDays ?? 0 } : null,
  );
}

async function houseFlockOf(target: Target, data: AlarmData): Promise<{ flockId: string; cycleId: string } | null> {
  const flocks = await data.flocks(target.farmId);
  const f = flocks.find((x) => x.houseId === target.houseId && x.activeCycleId);
  return f ? { flockId: f.id, cycleId: f.activeCycleId! } : null;
}

/** The limit a short condition compares with (the nearer bound of a range), for `expected`; json-logic: none. */
function expectedOf(condition: Record<string, unknown>, value: number | null): number | null {
  if ('value' in condition && typeof condition.value === 'number') return condition.value;
  if ('range' in condition && Array.isArray(condition.range) && value !== null) {
    const [lo, hi] = condition.range as [number, number];
    return Math.abs(value - lo) <= Math.abs(value - hi) ? lo : hi;
  }
  return null;
}

/** What to do about a farm-level alarm (the generator drill): its one cause and check. */
function farmHypotheses(rule: RuleRecord, firing: Evaluation) {
  if (rule.input !== 'generatorDrillOverdueDays') return [];
  return [
    {
      cause: 'The weekly generator drill is overdue',
      score: 1,
      supporting: [`${firing.value ?? '?'} days past the due date of the next generator drill`],
      contradicting: [],
      check: 'Run the standby generator under load for 30–60 minutes, check the transfer switch, then record the drill (POST /api/v1/continuity/drills)',
    },
  ];
}

/** What a firing does: raise (or update) the rule's anomaly for the target, and/or open (or join) its incident. */
async function act(rule: RuleRecord, target: Target, firing: Evaluation, data: AlarmData, requestId: string): Promise<void> {
  const input = inputOf(rule.input)!;
  const { climate, houseName } = await climateAround(target, data, firing.at);
  const where =
    target.kind === 'flock'
      ? `flock ${target.flockId}`
      : target.kind === 'farm'
        ? `farm ${(await data.farm(target.farmId)).name ?? target.farmId}`
        : `house ${houseName ?? target.houseId}`;
  // a house's alarm is read against the house flock's days too (mortality, water and feed around it); a farm's against none
  const flockOfTarget =
    target.kind === 'flock' ? { flockId: target.flockId!, cycleId: target.cycleId! } : target.kind === 'house' ? await houseFlockOf(target, data) : null;
  const cycle = flockOfTarget ? await data.cycle(flockOfTarget.flockId, flockOfTarget.cycleId) : null;
  const series = cycle?.series ?? [];
  const thresholds = cycle?.ctx.config.thresholds;
  const signals = signalsOfDay(series, firing.bucket.slice(0, 10), {
    metric: rule.input,
    houseName,
    climate,
    // a water-drop rule's own figure is the water change it saw
    waterChangePct: rule.input === 'waterDropPct' && firing.value !== null ? -firing.value : null,
    thresholds: thresholds && {
      ammoniaMaxPpm: thresholds.ammoniaMaxPpm,
      humidityMaxPct: thresholds.humidityMaxPct,
      dailyMortalityPct: thresholds.dailyMortalityPct,
    },
  });
  const expected = expectedOf(rule.condition, firing.value);
  const title = `${rule.name}: ${firing.value === null ? 'no value' : `${Math.round(firing.value * 100) / 100} ${input.unit}`.trim()} (${where})`;
  const dedupKey = `rule:${rule.id}:${target.id}`;
  const raised = rule.actions.includes('raise_anomaly')
    ? await raiseAnomaly({
        farmId: target.farmId,
        houseId: target.houseId,
        flockId: target.flockId,
        cycleId: target.cycleId,
        source: 'rule',
        ruleId: rule.id,
        detector: null,
        metric: rule.input,
        unit: input.unit,
        observed: firing.value ?? 0,
        expected,
        deviation: expected === null || firing.value === null ? null : Math.round((firing.value - expected) * 1000) / 1000,
        window: { from: firing.windowFrom, to: firing.windowTo, duration: rule.window },
        severity: rule.severity,
        title,
        evidence: {
          rule: { id: rule.id, name: rule.name, aggregation: rule.aggregation, condition: rule.condition },
          inputs: firing.inputs,
          target: target.id,
          signals,
        },
        hypotheses: target.kind === 'farm' ? farmHypotheses(rule, firing) : rankHypotheses(signals),
        dedupKey,
        at: firing.at,
      })
    : null;
  if (rule.actions.includes('open_incident')) {
    await openIncident(
      rulesCaller,
      {
        farmId: target.farmId,
        title,
        description: `Rule "${rule.name}" fired at ${seenAt(firing.at, new Date().toISOString())}: ${rule.aggregation} of ${rule.input} over the ${rule.window} up to ${firing.at} = ${firing.value}.`,
        category: incidentCategoryOf(rule.input),
        severity: incidentSeverityOf(rule.severity),
        links: { ...(raised ? { anomalyIds: [raised.anomaly.id] } : {}), ...(target.flockId ? { flockIds: [target.flockId] } : {}) },
        dedupKey,
      },
      requestId,
    );
  }
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
async function evaluatePass(
  rules: readonly RuleRecord[],
  data: AlarmData,
  opts: { now: Date; requestId: string; only?: { targetId?: string; houseId?: string; day?: string } },
): Promise<PassResult> {
  const pairs: Array<{ rule: RuleRecord; target: Target }> = [];
  // a rule with nothing to judge in its scope says so in its status (the job's full passes only)
  const idle: RuleRecord[] = [];
  for (const rule of rules) {
    const targets = targetsOf(rule, await farmOf(rule, data));
    if (targets.length === 0 && !opts.only) idle.push(rule);
    for (const target of targets) {
      if (opts.only?.targetId && target.id !== opts.only.targetId) continue;
      if (opts.only?.houseId && target.houseId !== opts.only.houseId) continue;
      pairs.push({ rule, target });
    }
  }
  const keys = [...pairs.map((p) => ({ ruleId: p.rule.id, target: p.target.id })), ...idle.map((r) => ({ ruleId: r.id, target: NO_TARGET }))];
  const states = keys.length > 0 ? await statesOf(keys) : new Map<string, RuleState>();
  const result: PassResult = { rules: rules.length, targets: pairs.length, evaluations: 0, firings: 0, errors: [] };
  const written: Array<{ ruleId: string; state: RuleState }> = [];
  for (const rule of idle) {
    const reason = basisOf(rule) === 'day' ? 'no flock with an active cycle in its scope' : 'no sensor in its scope: register a device in the house';
    const stored = states.get(`${rule.id}|${NO_TARGET}`);
    if (stored?.ruleVersion === rule.version && stored.reason === reason) continue;
    written.push({
      ruleId: rule.id,
      state: {
        target: NO_TARGET,
        state: 'no_data',
        reason,
        lastEvaluatedAt: null,
        lastFiredAt: null,
        evaluatedAt: null,
        firedAt: null,
        ruleVersion: rule.version,
      },
    });
  }
  for (const { rule, target } of pairs) {
    try {
      const basis = basisOf(rule);
      const step = bucketMs(basis);
      const stored = states.get(`${rule.id}|${target.id}`);
      const state = stored && stored.ruleVersion === rule.version ? stored : undefined;
      const nowMs = opts.now.getTime();
      let afterMs: number;
      let untilMs: number;
      if (opts.only?.day && basis === 'day') {
        afterMs = Date.parse(`${opts.only.day}T00:00:00.000Z`);
        untilMs = afterMs + DAY_MS;
      } else {
        untilMs = floorTo(nowMs, step);
        const last = state?.lastEvaluatedAt ? Date.parse(state.lastEvaluatedAt) : untilMs - step;
        afterMs = Math.max(last, untilMs - CATCH_UP_MS[basis]);
        if (afterMs >= untilMs) continue;
      }
      const points = await pointsOf(rule, target, data, afterMs - windowMs(rule) - step, untilMs);
      const run = evaluateRule(specOf(rule), points, { after: iso(afterMs), until: iso(untilMs), lastFiredAt: state?.lastFiredAt ?? null });
      result.evaluations += run.evaluations.length;
      for (const firing of run.firings) {
        await act(rule, target, firing, data, opts.requestId);
        result.firings++;
      }
      const newest = iso(Math.max(untilMs, state?.lastEvaluatedAt ? Date.parse(state.lastEvaluatedAt) : 0));
      const next: RuleState = {
        target: target.id,
        state: run.status.state,
        reason: run.status.reason,
        lastEvaluatedAt: newest,
        lastFiredAt: run.lastFiredAt ?? state?.lastFiredAt ?? null,
        evaluatedAt: opts.now.toISOString(),
        firedAt: run.firings.length > 0 ? opts.now.toISOString() : (state?.firedAt ?? null),
        ruleVersion: rule.version,
      };
      // a day judged again (a corrected record) that changes nothing is not written again
      if (!state || JSON.stringify(stateOf(state)) !== JSON.stringify(stateOf(next))) written.push({ ruleId: rule.id, state: next });
    } catch (err) {
      const error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      console.warn(JSON.stringify({ level: 'warn', msg: 'rule evaluation failed', ruleId: rule.id, target: target.id, error }));
      result.errors.push({ ruleId: rule.id, target: target.id, error });
    }
  }
  await putRuleStates(written);
  return result;
}

const stateOf = (s: RuleState) => [s.state, s.reason, s.lastEvaluatedAt, s.lastFiredAt, s.ruleVersion];

/**
 * The alarm job (every 15 minutes): writes the default rules of farms older than rules, evaluates every
 * enabled rule of every farm up to the last complete hour or day, and runs the detectors on the days
 * completed since their last run. A failing rule, target or flock is recorded and the job goes on.
 */
export async function runAlarmJob(requestId: string, now = new Date()) {
  const farmIds = await allFarmIds();
  const seeded = await Promise.all(farmIds.map((id) => ensureDefaultRules(id).catch(() => false)));
  const data = new AlarmData(now);
  const rules = await evaluatePass(await allEnabledRules(), data, { now, requestId });
  const detectors = await runDetectorJob(farmIds, data, now, requestId);
  return { farms: farmIds.length, defaultRulesWritten: seeded.filter(Boolean).length, rules, detectors };
}

/**
 * New data of a flock (a daily record, a movement, a weighing on `day`): its farm's enabled daily rules
 * that apply to the flock and the detectors, over that day, on one read of the cycle.
 */
export async function onNewFlockData(flock: { farmId: string; flockId: string }, day: string, now = new Date()): Promise<PassResult> {
  const requestId = `new-data:${flock.flockId}:${day}`;
  const data = new AlarmData(now);
  const rules = (await enabledRulesOfFarm(flock.farmId)).filter((r) => basisOf(r) === 'day');
  const result = await evaluatePass(rules, data, { now, requestId, only: { targetId: `flock:${flock.flockId}`, day } });
  await detectOnFlock(data, flock, { day }, requestId);
  return result;
}

/** New sensor hours of a house (a device crossed into a new hour): its farm's enabled sensor rules for the house, up to the last complete hour. */
export async function rulesOnSensorData(house: { farmId: string; houseId: string }, now = new Date()): Promise<PassResult> {
  const rules = (await enabledRulesOfFarm(house.farmId)).filter((r) => basisOf(r) === 'hour');
  return evaluatePass(rules, new AlarmData(now), { now, requestId: `new-data:${house.houseId}`, only: { houseId: house.houseId } });
}

/** The event `rulesOnNewData` is started with (./new-data.ts): a flock's day, or a house's completed hours. */
export async function onNewData(event: NewDataEventBody, now = new Date()): Promise<PassResult> {
  return event.kind === 'flock' ? onNewFlockData(event, event.day, now) : rulesOnSensorData(event, now);
}

/**
 * POST /rules/{id}/test: when the rule would have fired over [from, to] on a flock or a house, and on
 * which values. The same evaluation as the live one (with no firing before `from`); writes nothing.
 */
export async function backtestRule(user: Caller, ruleId: string, body: BacktestBody, now = new Date()) {
  const found = await getRuleWithStates(ruleId);
  if (!found || !canAccessFarm(user, found.rule.farmId)) throw ruleNotFound(ruleId);
  const rule = found.rule;
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
  return {
    ruleId: rule.id,
    target: target.id,
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
