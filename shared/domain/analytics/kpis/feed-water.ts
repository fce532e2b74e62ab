/**
 * Feed and water of a day per bird, the water:feed ratio and the expected water intake.
 *
 * - Water: a day with no water (or no feed) recorded has no per-bird figure and no water:feed ratio (a
 *   zero in the ledger cannot be told from a missing record).
 * - Expected intake (docs/analytics.md, "Expected water"): broilers drink the breed standard's feed
 *   intake for the age × consumption.broilerWaterFeedRatio (l/kg at 21 °C), plus
 *   consumption.waterIncreasePctPerDegC per °C above 21 °C (above the broiler curve's target for the age
 *   while it is warmer: the brooding weeks) when the house temperature is known (the day's
 *   mean of the house's climate sensors, `CycleInputs.houseDays`; without one, the ratio alone); a breed
 *   without a standard falls back to age × consumption.broilerWaterMlPerBirdPerAgeDay. Layers whose breed
 *   standard has a water table (Hy-Line Brown, weeks 1–100: the midpoint of the published band) drink
 *   that, from the first week of rearing to the end of lay; other laying hens (laying phase, or a layer past
 *   its table): consumption.layerWaterMlPerBirdPerDay (20 °C). Other pullets in rearing have no expected
 *   intake: their water has no "% of expected", never a figure in another unit in its place.
 */
import { round, type Phase } from '../../weights.js';
import { standardFeedIntake, standardWaterIntake } from '../breed-standards.js';
import { temperatureRange } from '../../iot/climate.js';
import { figure, missing } from '../figures.js';
import type { CycleInputs, Figure } from '../inputs.js';
import type { AnalyticsSections } from '../../../../schemas/analytics-config.js';
import { contextOf, D_G, D_KG, D_PCT, PCT, sum, type Context } from './context.js';
import type { DailyKpis } from './types.js';

/** Per bird per day: `amount` (kg or l) × 1000 ÷ birds present → g or ml. */
export function perBird(amount: number, present: number, unit: string, what: string): Figure {
  if (present <= 0) return missing(unit, 'no birds in the house');
  if (amount <= 0) return missing(unit, `no ${what} recorded that day`);
  return figure((amount * 1000) / present, unit, D_G);
}

/** Litres of water ÷ kg of feed (same day). */
export function waterFeedRatio(waterLiters: number, feedKg: number): Figure {
  if (feedKg <= 0) return missing('l/kg', 'no feed consumption recorded');
  if (waterLiters <= 0) return missing('l/kg', 'no water recorded');
  return figure(waterLiters / feedKg, 'l/kg', 2);
}

/** The reference temperature of the water:feed ratio (°C). */
const RATIO_AT_C = 21;

/**
 * The temperature above which a broiler drinks more: 21 °C, or the broiler curve's target for the age when
 * warmer (33 °C at placement down to 21 °C on day 28). A house kept on the brooding curve is the chicks'
 * comfort, not heat: correcting for it would make every young flock on the curve look short of water.
 */
function warmAboveC(ageDays: number): number {
  const curve = temperatureRange({ birdType: 'broiler', ageDays });
  return curve.min !== null && curve.max !== null ? Math.max(RATIO_AT_C, (curve.min + curve.max) / 2) : RATIO_AT_C;
}

/** Expected water of one broiler (ml) at an age, with the basis of the figure. */
export function broilerWaterMl(ctx: Pick<Context, 'config' | 'standard'>, ageDays: number, houseTempC: number | null): { ml: number; basis: string } {
  const c = ctx.config.consumption;
  const intake = ctx.standard ? standardFeedIntake(ctx.standard, ageDays) : null;
  if (!intake) {
    const why = ctx.standard ? `age ${ageDays} days is outside the ${ctx.standard.name} feed table` : 'no breed standard';
    return {
      ml: ageDays * c.broilerWaterMlPerBirdPerAgeDay,
      basis: `${why}: age × ${c.broilerWaterMlPerBirdPerAgeDay} ml (consumption.broilerWaterMlPerBirdPerAgeDay)`,
    };
  }
  const reference = warmAboveC(ageDays);
  const above = houseTempC === null ? 0 : Math.max(0, houseTempC - reference);
  const ratio = c.broilerWaterFeedRatio * (1 + (above * c.waterIncreasePctPerDegC) / 100);
  const temperature =
    houseTempC === null
      ? `at ${RATIO_AT_C} °C (no house temperature for the day)`
      : `at ${houseTempC} °C (+${c.waterIncreasePctPerDegC} % per °C above ${round(reference, 1)} °C${reference > RATIO_AT_C ? ', the age curve' : ''})`;
  return { ml: intake.grams * ratio, basis: `${intake.basis} (${round(intake.grams, 1)} g) × ${round(ratio, 3)} l/kg water:feed ${temperature}` };
}

/** The mean house temperature of each farm-local day (its climate sensors), by date: what the expected water is corrected with. */
export const houseTemperatures = (inputs: CycleInputs): Map<string, number | null> =>
  new Map((inputs.houseDays ?? []).map((d) => [d.date, d.meanTemperatureC]));

/**
 * Water as % of the expected intake without the temperature correction (the breed intake × the
 * water:feed ratio): the birds' drinking against their growth alone. What "water intake up / down"
 * means when causes are weighed: a hot day raises the expectation, not the intake, and heat stress shows as
 * intake going up. Days without a house temperature (and birds other than broilers): `waterLevel`.
 */
export function intakeLevels(inputs: CycleInputs, config: AnalyticsSections): (row: DailyKpis) => number | null {
  const ctx = contextOf(inputs, config);
  const temps = houseTemperatures(inputs);
  return (row) => {
    const pct = row.waterPctOfExpected.value;
    const t = temps.get(row.date) ?? null;
    if (pct === null || t === null || !ctx.broiler) return waterLevel(row);
    const atTemperature = broilerWaterMl(ctx, row.ageDays, t).ml;
    const at21 = broilerWaterMl(ctx, row.ageDays, null).ml;
    return at21 > 0 ? (pct * atTemperature) / at21 : pct;
  };
}

/**
 * Expected water intake of the birds present, litres (see the module doc), with the basis it rests on.
 * `houseTempC`: the day's mean house temperature, or null when the house has no climate sensor reading that day.
 */
export function expectedWater(ctx: Context, ageDays: number, phase: Phase, present: number, houseTempC: number | null): Figure {
  const c = ctx.config.consumption;
  if (present <= 0) return missing('l', 'no birds in the house');
  if (ctx.broiler) {
    const per = broilerWaterMl(ctx, ageDays, houseTempC);
    return figure((per.ml * present) / 1000, 'l', D_KG, [per.basis]);
  }
  const guide = ctx.standard ? standardWaterIntake(ctx.standard, ageDays) : null;
  if (guide) return figure((guide.ml * present) / 1000, 'l', D_KG, [guide.basis]);
  if (phase !== 'laying') {
    const table = ctx.standard ? `the ${ctx.standard.name} standard has no water intake at day ${ageDays}` : 'no breed standard with a water table';
    return missing('l', `no expected water intake for ${phase} birds (${table}; the consumption config gives broilers and laying hens)`);
  }
  const breeder = ctx.inputs.cycle.birdType === 'breeder' ? ['breeder: the laying hen figure consumption.layerWaterMlPerBirdPerDay used'] : [];
  return figure((c.layerWaterMlPerBirdPerDay * present) / 1000, 'l', D_KG, breeder);
}

export function pctOfExpected(waterLiters: number, expected: Figure): Figure {
  if (expected.value === null) return missing(PCT, expected.reason ?? 'no expected intake');
  if (expected.value <= 0) return missing(PCT, 'expected intake is zero at age 0');
  if (waterLiters <= 0) return missing(PCT, 'no water recorded that day');
  return figure((waterLiters / expected.value) * 100, PCT, D_PCT, expected.assumptions);
}

export function cycleWaterFeedRatio(rows: readonly DailyKpis[]): Figure {
  const both = rows.filter((r) => (r.waterLiters.value ?? 0) > 0 && (r.feedKg.value ?? 0) > 0);
  if (!both.length) return missing('l/kg', 'no day with both water and feed recorded');
  return waterFeedRatio(
    sum(both, (r) => r.waterLiters.value!),
    sum(both, (r) => r.feedKg.value!),
  );
}

/**
 * Mean of a daily figure over the 3 calendar days before index `i` of the daily series (all three known),
 * else null: the reference a drop in intake is measured against.
 */
export function baselineOf(rows: readonly DailyKpis[], i: number, pick: (r: DailyKpis) => number | null): number | null {
  if (i < 3) return null;
  const prev = rows.slice(i - 3, i).map(pick);
  return prev.every((v): v is number => v !== null) ? prev.reduce((a, b) => a + b, 0) / 3 : null;
}

/** Mean water per bird of the 3 days before index `i` (the low-intake anomaly's baseline). */
export const baselineMl = (rows: readonly DailyKpis[], i: number): number | null => baselineOf(rows, i, (r) => r.waterMlPerBird.value);

/**
 * The figure a drop in water intake is judged on: water as % of the expected intake for the birds' age
 * (a growing flock drinks more every day, which would hide a developing fault against plain ml per bird).
 * One unit from the first day to depletion: a day without an expected intake has no level (null), never
 * its ml per bird in its place, so no baseline or spell mixes ml with %.
 */
export const waterLevel = (r: DailyKpis): number | null => r.waterPctOfExpected.value;
