/**
 * Anomalies (GET /api/v2/analytics/anomalies/{flockId}/{cycleId}), pure: the days whose KPIs break the
 * `thresholds` of the analytics configuration, one anomaly per day and rule broken.
 * Each rule, when it is critical, and the low water day: docs/analytics-reports.md ("Anomalies").
 */
import type { AnalyticsSections } from '../../../schemas/analytics-config.js';
import { round } from '../weights.js';
import { compareWithStandard, type BreedComparison } from './comparison.js';
import { ANOMALY_METRICS, type AnomalyMetric } from '../../../schemas/vocabulary.js';
import { fmt } from './figures.js';
import type { CycleInputs } from './inputs.js';
import { calendarDays, effectiveWeighings, isLayingType, seriesEnd } from './kpis/context.js';
import { dailySeries } from './kpis/daily.js';
import { layerDayOfRow } from './kpis/eggs.js';
import { countsForEggs, eggCalendar, henDayRatio, type EggCalendar } from './layer-figures.js';
import { baselineMl } from './kpis/feed-water.js';
import type { DailyKpis } from './kpis/types.js';

export type BreachSeverity = 'warning' | 'critical';

export interface ThresholdBreach {
  date: string;
  metric: AnomalyMetric;
  /** The figure that broke the rule, in `unit`. */
  value: number;
  /** The limit it broke, in `unit`. */
  threshold: number;
  unit: string;
  severity: BreachSeverity;
  message: string;
  /** The figures that triggered it. */
  evidence: Record<string, number | string | null>;
}

type Thresholds = AnalyticsSections['thresholds'];

const sev = (critical: boolean): BreachSeverity => (critical ? 'critical' : 'warning');
const r2 = (n: number) => round(n, 2) + 0;

function dailyMortality(rows: readonly DailyKpis[], t: Thresholds): ThresholdBreach[] {
  return rows.flatMap((r) => {
    const v = r.dailyMortalityPct.value;
    if (v === null || v <= t.dailyMortalityPct) return [];
    const causes = Object.entries(r.deathsByCause)
      .map(([c, n]) => `${c}: ${n}`)
      .join(', ');
    return [
      {
        date: r.date,
        metric: 'dailyMortality',
        value: v,
        threshold: t.dailyMortalityPct,
        unit: '%',
        severity: sev(v >= 2 * t.dailyMortalityPct),
        message: `Daily mortality ${fmt(v)} % (${r.birds.deaths} of ${r.birds.present} birds died) is above the ${fmt(t.dailyMortalityPct)} % alarm level.`,
        evidence: { deaths: r.birds.deaths, birdsPresent: r.birds.present, causes: causes || null, ageDays: r.ageDays },
      },
    ];
  });
}

function cumulativeMortality(rows: readonly DailyKpis[], t: Thresholds): ThresholdBreach[] {
  return rows.flatMap((r) => {
    const v = r.cumulativeMortalityPct.value;
    const limit = r2(t.cumulativeMortalityBasePct + t.cumulativeMortalityPerAgeDayPct * r.ageDays);
    if (v === null || v <= limit) return [];
    return [
      {
        date: r.date,
        metric: 'cumulativeMortality',
        value: v,
        threshold: limit,
        unit: '%',
        severity: sev(v >= 2 * limit),
        message: `Cumulative mortality ${fmt(v)} % at ${r.ageDays} days of age is above the ${fmt(limit)} % limit (${fmt(t.cumulativeMortalityBasePct)} % + ${fmt(t.cumulativeMortalityPerAgeDayPct)} % × age).`,
        evidence: { ageDays: r.ageDays, birdsHoused: r.birds.housed, cumulativeMortalityPct: v },
      },
    ];
  });
}

function waterFeedRatio(rows: readonly DailyKpis[], t: Thresholds): ThresholdBreach[] {
  const width = t.waterFeedRatioMax - t.waterFeedRatioMin;
  return rows.flatMap((r) => {
    const v = r.waterFeedRatio.value;
    if (v === null || (v >= t.waterFeedRatioMin && v <= t.waterFeedRatioMax)) return [];
    const low = v < t.waterFeedRatioMin;
    const threshold = low ? t.waterFeedRatioMin : t.waterFeedRatioMax;
    return [
      {
        date: r.date,
        metric: 'waterFeedRatio',
        value: v,
        threshold,
        unit: 'l/kg',
        severity: sev(Math.abs(v - threshold) >= width),
        message: `Water:feed ratio ${fmt(v)} l/kg is ${low ? 'below' : 'above'} the normal ${fmt(t.waterFeedRatioMin)}–${fmt(t.waterFeedRatioMax)} (${low ? 'birds drink too little for what they eat: check drinkers and water supply' : 'birds drink much more than they eat: heat stress or gut trouble'}).`,
        evidence: { waterLiters: r.waterLiters.value, feedKg: r.feedKg.value },
      },
    ];
  });
}

function lowWaterIntake(rows: readonly DailyKpis[], t: Thresholds, tolerance: number): ThresholdBreach[] {
  const out: ThresholdBreach[] = [];
  let run = 0;
  let runStart = 0;
  rows.forEach((r, i) => {
    const ml = r.waterMlPerBird.value;
    if (ml === null) {
      run = 0;
      return;
    }
    const pct = r.waterPctOfExpected.value;
    const base = baselineMl(rows, run > 0 ? runStart : i);
    const belowExpected = pct !== null ? 100 - pct : null;
    const belowBaseline = base !== null && base > 0 ? ((base - ml) / base) * 100 : null;
    const shortfall = Math.max(belowExpected ?? -Infinity, belowBaseline ?? -Infinity);
    if (!(shortfall > tolerance)) {
      run = 0;
      return;
    }
    if (run === 0) runStart = i;
    run += 1;
    if (run < t.waterLowIntakeDays) return;
    out.push({
      date: r.date,
      metric: 'lowWaterIntake',
      value: r2(shortfall),
      threshold: tolerance,
      unit: '% below reference',
      severity: sev(run >= 2 * t.waterLowIntakeDays || shortfall >= 2 * tolerance),
      message: `Water intake low for ${run} consecutive days: ${fmt(ml)} ml per bird, ${fmt(r2(shortfall))} % below ${belowExpected !== null && belowExpected >= (belowBaseline ?? -Infinity) ? 'the expected intake' : 'the days before'} (tolerance ${fmt(tolerance)} %). Two or more days of low intake are an early disease signal.`,
      evidence: {
        consecutiveDays: run,
        since: rows[runStart]!.date,
        waterLiters: r.waterLiters.value,
        waterMlPerBird: ml,
        expectedWaterLiters: r.expectedWaterLiters.value,
        waterPctOfExpected: pct,
        baselineMlPerBird: base === null ? null : round(base, 1),
      },
    });
  });
  return out;
}

/**
 * Hen-day % of the last 7 days against the 7 before, judged on each day that counts in hen-day
 * (../layer-figures.ts). Like with like: a day of either week counts only with its twin of the other week
 * (the same weekday), so a week with a day missing (not over yet, its eggs not recorded; before lay) is
 * compared over the days both weeks have.
 */
function henDayDrop(rows: readonly DailyKpis[], t: Thresholds, calendar: EggCalendar | null): ThresholdBreach[] {
  if (!calendar || rows.length < 14) return [];
  const counts = rows.map((r) => countsForEggs(calendar, r.date, r.eggs.collected));
  const out: ThresholdBreach[] = [];
  for (let i = 13; i < rows.length; i++) {
    if (!counts[i]) continue;
    const twins = [0, 1, 2, 3, 4, 5, 6].filter((k) => counts[i - 13 + k] && counts[i - 6 + k]);
    const prevRows = rows.slice(i - 13, i - 6);
    const curRows = rows.slice(i - 6, i + 1);
    const prevRatio = henDayRatio(twins.map((k) => layerDayOfRow(prevRows[k]!)));
    const curRatio = henDayRatio(twins.map((k) => layerDayOfRow(curRows[k]!)));
    if (prevRatio === null || curRatio === null) continue;
    const [prev, cur] = [prevRatio * 100, curRatio * 100];
    const drop = r2(prev - cur);
    if (drop <= t.henDayWeeklyDropPoints) continue;
    const over = twins.length < 7 ? ` (the ${twins.length} days both weeks have)` : '';
    out.push({
      date: rows[i]!.date,
      metric: 'henDayDrop',
      value: drop,
      threshold: t.henDayWeeklyDropPoints,
      unit: 'points',
      severity: sev(drop >= 2 * t.henDayWeeklyDropPoints),
      message: `Hen-day production fell ${fmt(drop)} points in a week (${fmt(r2(prev))} % → ${fmt(r2(cur))} %${over}), more than ${fmt(t.henDayWeeklyDropPoints)}: check water first, then call the vet.`,
      evidence: {
        previousWeekHenDayPct: r2(prev),
        previousFrom: prevRows[0]!.date,
        previousTo: prevRows.at(-1)!.date,
        currentWeekHenDayPct: r2(cur),
        currentFrom: curRows[0]!.date,
        currentTo: curRows.at(-1)!.date,
      },
    });
  }
  return out;
}

function standardDeviations(cmp: BreedComparison, t: Thresholds): ThresholdBreach[] {
  const name = cmp.standard?.name ?? '';
  return cmp.days.flatMap((d) => {
    const out: ThresholdBreach[] = [];
    const w = d.bodyWeight;
    if (w.deviationPct !== null && -w.deviationPct > t.weightBelowStandardPct) {
      const below = -w.deviationPct;
      out.push({
        date: d.date,
        metric: 'weightBelowStandard',
        value: below,
        threshold: t.weightBelowStandardPct,
        unit: '% below standard',
        severity: sev(below >= 2 * t.weightBelowStandardPct),
        message: `Body weight ${fmt(w.actual!)} g at ${d.ageDays} days is ${fmt(below)} % below the ${name} standard (${fmt(w.standard!)} g${w.interpolated ? ', interpolated' : ''}).`,
        evidence: { ageDays: d.ageDays, actualGrams: w.actual, standardGrams: w.standard, deviationPct: w.deviationPct },
      });
    }
    const f = d.cumulativeFcr;
    if (f.deviationPct !== null && f.deviationPct > t.fcrAboveStandardPct) {
      out.push({
        date: d.date,
        metric: 'fcrAboveStandard',
        value: f.deviationPct,
        threshold: t.fcrAboveStandardPct,
        unit: '% above standard',
        severity: sev(f.deviationPct >= 2 * t.fcrAboveStandardPct),
        message: `FCR ${fmt(f.actual!)} at ${d.ageDays} days is ${fmt(f.deviationPct)} % above the ${name} standard (${fmt(f.standard!)}${f.interpolated ? ', interpolated' : ''}).`,
        evidence: { ageDays: d.ageDays, actualFcr: f.actual, standardFcr: f.standard, deviationPct: f.deviationPct },
      });
    }
    return out;
  });
}

function lowUniformity(inputs: CycleInputs, t: Thresholds): ThresholdBreach[] {
  const end = seriesEnd(inputs);
  const floor = t.uniformityMinPct;
  return effectiveWeighings(inputs.weighings)
    .filter((w) => w.date >= inputs.cycle.startDate && w.date <= end && w.uniformityPct !== null && w.uniformityPct < floor)
    .map((w) => ({
      date: w.date,
      metric: 'lowUniformity' as const,
      value: w.uniformityPct!,
      threshold: floor,
      unit: '%',
      severity: sev(w.uniformityPct! < floor - (100 - floor)),
      message: `Uniformity ${fmt(w.uniformityPct!)} % (birds within ±10 % of the mean) is below the ${fmt(floor)} % goal.`,
      evidence: { grams: w.grams, sampleSize: w.sampleSize, cv: w.cv, method: w.method },
    }));
}

function crackedEggs(rows: readonly DailyKpis[], t: Thresholds): ThresholdBreach[] {
  return rows.flatMap((r) => {
    const v = r.crackedPct.value;
    if (v === null || v <= t.crackedEggsMaxPct) return [];
    return [
      {
        date: r.date,
        metric: 'crackedEggs',
        value: v,
        threshold: t.crackedEggsMaxPct,
        unit: '%',
        severity: sev(v >= 2 * t.crackedEggsMaxPct),
        message: `Cracked eggs ${fmt(v)} % (${r.eggs.cracked} of ${r.eggs.collected}) are above the ${fmt(t.crackedEggsMaxPct)} % limit.`,
        evidence: { cracked: r.eggs.cracked, collected: r.eggs.collected },
      },
    ];
  });
}

/** Drinking-water pH outside [waterPhMin, waterPhMax] (POST …/water-readings keeps each day's readings on its rollup). */
function waterPh(inputs: CycleInputs, t: Thresholds): ThresholdBreach[] {
  const end = seriesEnd(inputs);
  return inputs.days.flatMap((d) => {
    const readings = d.waterPh ?? [];
    if (readings.length === 0 || d.date > end) return [];
    const low = Math.min(...readings);
    const high = Math.max(...readings);
    const out: ThresholdBreach[] = [];
    const evidence = { readings: readings.length, lowest: low, highest: high, acceptableMin: t.waterPhMin, acceptableMax: t.waterPhMax };
    if (low < t.waterPhMin) {
      out.push({
        date: d.date,
        metric: 'waterPh',
        value: low,
        threshold: t.waterPhMin,
        unit: 'pH',
        severity: sev(t.waterPhMin - low >= 1),
        message: `Drinking water pH ${fmt(low)} is below the acceptable ${fmt(t.waterPhMin)}: acid water lowers intake and corrodes lines; check the acidifier dose.`,
        evidence,
      });
    }
    if (high > t.waterPhMax) {
      out.push({
        date: d.date,
        metric: 'waterPh',
        value: high,
        threshold: t.waterPhMax,
        unit: 'pH',
        severity: sev(high - t.waterPhMax >= 1),
        message: `Drinking water pH ${fmt(high)} is above the acceptable ${fmt(t.waterPhMax)}: alkaline water weakens chlorine and water-borne vaccines.`,
        evidence,
      });
    }
    return out;
  });
}

/** Every threshold breach of the cycle, by date then rule (see the module note). The series and comparison may be passed in when already computed. */
export function thresholdBreaches(
  inputs: CycleInputs,
  config: AnalyticsSections,
  precomputed: { series?: readonly DailyKpis[]; comparison?: BreedComparison } = {},
): ThresholdBreach[] {
  const rows = precomputed.series ?? dailySeries(inputs, config);
  const cmp = precomputed.comparison ?? compareWithStandard(inputs, config, rows);
  const t = config.thresholds;
  const all = [
    ...dailyMortality(rows, t),
    ...cumulativeMortality(rows, t),
    ...waterFeedRatio(rows, t),
    ...lowWaterIntake(rows, t, config.consumption.lowIntakeTolerancePct),
    ...henDayDrop(rows, t, isLayingType(inputs.cycle.birdType) ? eggCalendar(calendarDays(inputs), inputs.today) : null),
    ...standardDeviations(cmp, t),
    ...lowUniformity(inputs, t),
    ...crackedEggs(rows, t),
    ...waterPh(inputs, t),
  ];
  const order = (m: AnomalyMetric) => ANOMALY_METRICS.indexOf(m);
  return all.sort((a, b) => a.date.localeCompare(b.date) || order(a.metric) - order(b.metric));
}
