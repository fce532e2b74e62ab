/** The detectors over a cycle's daily KPI series (the engine and its module note: ./engine.ts). */
import { findBreedStandard, standardFeedIntake, standardWeightGrams } from '../analytics/breed-standards.js';
import type { CycleInputs } from '../analytics/inputs.js';
import type { DailyKpis } from '../analytics/kpis/types.js';
import { cmp, compareDetections, DAY_MS, detectSeries, minPointsOf, type Detection, type Mode, type Obs } from './engine.js';
import { practicallySignificant } from './significance.js';
import type { SignificanceConfig } from '../../../schemas/analytics-config.js';
import { ANALYTICS_DEFAULTS } from '../../../schemas/compiled/constants/analytics-config.js';

const DEFAULT_BASELINE_DAYS = 14;

const dayNumber = (date: string): number => Math.round(Date.parse(date.slice(0, 10)) / DAY_MS);

/**
 * Every detection over a cycle's daily series (each detector, each metric), by bucket then metric then
 * detector (module note). Deterministic: same series → same detections. `baselineDays` (14) is how many
 * days before a day form its baseline; `standardWeightGrams` (the breed standard's weight at an age, or
 * null) enables bodyWeightVsStandard.
 */
export function detectDaily(
  series: readonly DailyKpis[],
  opts: {
    baselineDays?: number;
    standardWeightGrams?: (ageDays: number) => number | null;
    /** The breed's daily feed intake per bird at an age (g): feed is judged as % of it (else against the flock's own growth line). */
    standardFeedGrams?: (ageDays: number) => number | null;
  } = {},
): Detection[] {
  const baselineDays = opts.baselineDays ?? DEFAULT_BASELINE_DAYS;
  if (!(Number.isInteger(baselineDays) && baselineDays >= 3)) throw new RangeError(`baselineDays must be an integer ≥ 3 (got ${baselineDays})`);
  const rows = [...series].sort((a, b) => cmp(a.date, b.date));
  const obsOf = (
    pick: (d: DailyKpis) => { value: number | null; ref?: number | null; floor: number } | null,
    extra?: (d: DailyKpis) => Record<string, number | string | null>,
  ) =>
    rows.flatMap((d): Obs[] => {
      const v = pick(d);
      if (!v || v.value === null || !Number.isFinite(v.value)) return [];
      return [
        {
          bucket: d.date,
          t: dayNumber(d.date),
          x: d.ageDays,
          value: v.value,
          ref: v.ref ?? null,
          floor: v.floor,
          context: { ageDays: d.ageDays, ...extra?.(d) },
        },
      ];
    });
  const window = (all: readonly Obs[]) => {
    return (o: Obs) => all.filter((p) => p.t < o.t && p.t >= o.t - baselineDays);
  };
  const common = {
    minPoints: minPointsOf(baselineDays),
    baselineParam: ['baselineDays', baselineDays] as [string, number],
    whose: 'for the age',
    when: (b: string) => `on ${b}`,
    label: (b: string) => b,
  };
  const run = (metric: string, mode: Mode, residualUnit: string, directions: ReadonlyArray<'up' | 'down'>, obs: Obs[]) =>
    detectSeries({ ...common, metric, mode, residualUnit, directions, baselineOf: window(obs) }, obs);

  const std = opts.standardWeightGrams;
  const all = [
    ...run(
      'waterPctOfExpected',
      'level',
      '% of expected',
      ['up', 'down'],
      obsOf((d) => ({ value: d.waterPctOfExpected.value, floor: 2 })),
    ),
    ...(opts.standardFeedGrams
      ? run(
          'feedGramsPerBird',
          'ratioRef',
          '% of the breed’s intake for the age',
          ['up', 'down'],
          obsOf((d) => {
            const ref = opts.standardFeedGrams!(d.ageDays);
            return ref !== null && ref > 0 ? { value: d.feedGramsPerBird.value, ref, floor: 2 } : null;
          }),
        )
      : run(
          'feedGramsPerBird',
          'ratioTrend',
          '% of the flock’s growth line',
          ['up', 'down'],
          obsOf((d) => ({ value: d.feedGramsPerBird.value, floor: 2 })),
        )),
    ...run(
      'dailyMortalityPct',
      'level',
      '%',
      ['up'],
      obsOf(
        (d) => (d.birds.present > 0 ? { value: d.dailyMortalityPct.value, floor: 100 / d.birds.present } : null),
        (d) => ({ deaths: d.birds.deaths, birdsPresent: d.birds.present }),
      ),
    ),
    ...(std
      ? run(
          'bodyWeightVsStandard',
          'ratioRef',
          '% of the breed standard',
          ['up', 'down'],
          obsOf((d) => {
            const w = d.bodyWeight;
            if (w.source !== 'weighing' || w.date !== d.date || w.value === null) return null;
            const ref = std(d.ageDays);
            return ref !== null && ref > 0 ? { value: w.value, ref, floor: 1 } : null;
          }),
        )
      : []),
  ];
  return all.sort(compareDetections);
}

/**
 * The daily detectors of a cycle, judged against its breed's expected trajectory where the breed has a
 * standard: feed as % of the breed's intake for the age (a standard with a feed intake table: the broiler
 * objectives, Hy-Line Brown from rearing to the end of lay), weight as % of the breed's weight (water is
 * already % of the expected intake). A normal flock on its breed's curve then raises nothing, however
 * its growth bends; a breed without a standard (or without a feed table) is judged against the flock's own growth line. A detection
 * is kept only when it also crosses the practical threshold of the cycle's bird type (`significance`: the
 * analytics configuration's `thresholds.significance`, ./significance.ts).
 */
export function detectCycleDays(
  inputs: Pick<CycleInputs, 'cycle'>,
  series: readonly DailyKpis[],
  significance: SignificanceConfig = ANALYTICS_DEFAULTS.thresholds.significance,
): Detection[] {
  const standard = findBreedStandard(inputs.cycle.breed, inputs.cycle.birdType);
  const found = standard
    ? detectDaily(series, {
        standardWeightGrams: (age) => standardWeightGrams(standard, age)?.grams ?? null,
        standardFeedGrams: standard.series.some((s) => s.key === 'dailyFeedIntake') ? (age) => standardFeedIntake(standard, age)?.grams ?? null : undefined,
      })
    : detectDaily(series);
  return practicallySignificant(found, inputs.cycle.birdType, significance);
}
