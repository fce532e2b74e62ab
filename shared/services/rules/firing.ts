import type { RuleRecord } from '../../domain/rules/records.js';
import { incidentCategoryOf, incidentSeverityOf, seenAt } from '../../domain/anomalies/lifecycle.js';
import type { CommandContext } from '../../domain/command.js';
import { detectCycleDays } from '../../domain/detection/daily.js';
import { detectedByDetectors, ruleEventStart } from '../../domain/detection/onset.js';
import { rankHypotheses } from '../../domain/diagnosis/hypotheses.js';
import { signalsOfDay } from '../../domain/diagnosis/signals.js';
import { intakeLevels } from '../../domain/analytics/kpis/feed-water.js';
import { inputOf, unitIn } from '../../domain/rules/calculations.js';
import type { Evaluation } from '../../domain/rules/evaluation.js';
import { climateAround, rulesCaller, type AlarmData, type Target } from './alarm-data.js';
import { raiseAnomaly } from '../anomalies/raising.js';
import { openIncident } from '../incidents.js';

/** What a rule's firing does (./evaluation.ts finds the firings): its anomaly, its incident, and what they say. */

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

/**
 * What a firing does: raise (or update) the rule's anomaly for the target, and/or open (or join) its
 * incident. `breach`: the days its condition has held (`breachOf`), where the event's start is read.
 */
export async function act(
  ctx: CommandContext,
  rule: RuleRecord,
  target: Target,
  firing: Evaluation,
  data: AlarmData,
  breach: { from: string; to: string },
): Promise<void> {
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
    // water up or down against the birds' growth alone: a hot day raises what they should drink, not what they drink
    waterLevel: cycle ? intakeLevels(cycle.ctx.inputs, cycle.ctx.config) : undefined,
    thresholds: thresholds && {
      ammoniaMaxPpm: thresholds.ammoniaMaxPpm,
      humidityMaxPct: thresholds.humidityMaxPct,
      dailyMortalityPct: thresholds.dailyMortalityPct,
    },
  });
  // the detectors' view of the same change, so that both anomalies name the same start
  const detections = cycle && detectedByDetectors(rule.input) ? detectCycleDays(cycle.ctx.inputs, series, cycle.ctx.config.thresholds.significance) : [];
  const expected = expectedOf(rule.condition, firing.value);
  // a cost is in the farm's currency (its pricing, read with the cycle)
  const unit = cycle ? unitIn(input.unit, cycle.ctx.config.pricing.currency) : input.unit;
  const title = `${rule.name}: ${firing.value === null ? 'no value' : `${Math.round(firing.value * 100) / 100} ${unit}`.trim()} (${where})`;
  const dedupKey = `rule:${rule.id}:${target.id}`;
  const raised = rule.actions.includes('raise_anomaly')
    ? await raiseAnomaly(ctx, {
        farmId: target.farmId,
        houseId: target.houseId,
        flockId: target.flockId,
        cycleId: target.cycleId,
        source: 'rule',
        ruleId: rule.id,
        detector: null,
        metric: rule.input,
        unit,
        observed: firing.value ?? 0,
        expected,
        deviation: expected === null || firing.value === null ? null : Math.round((firing.value - expected) * 1000) / 1000,
        window: { from: firing.windowFrom, to: firing.windowTo, duration: rule.window },
        startedOn: ruleEventStart(rule.input, breach, detections),
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
      { ...ctx, caller: rulesCaller, idempotencyKey: undefined },
      {
        farmId: target.farmId,
        title,
        description: `Rule "${rule.name}" fired at ${seenAt(firing.at, ctx.now.toISOString())}: ${rule.aggregation} of ${rule.input} over the ${rule.window} up to ${firing.at} = ${firing.value}.`,
        category: incidentCategoryOf(rule.input),
        severity: incidentSeverityOf(rule.severity),
        links: { ...(raised ? { anomalyIds: [raised.anomaly.id] } : {}), ...(target.flockId ? { flockIds: [target.flockId] } : {}) },
        dedupKey,
      },
    );
  }
}
