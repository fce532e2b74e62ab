/**
 * The daily series: every KPI per calendar day of a cycle (see ./types.ts for the shapes).
 *
 * - Days. The series runs from the cycle's start date to `asOf` (for a closed cycle never past its end
 *   date), one entry per calendar day; a day without a rollup is a day of zeros. Rollups outside that
 *   range are ignored. Age in days is counted from the hatch date when known, else from the start date
 *   (`agesAt` in ../../weights.ts); the phase is `phaseOf` of that age.
 */
import type { AnalyticsSections } from '../../../../schemas/analytics-config.js';
import { agesAt, phaseOf } from '../../weights.js';
import { figure, missing } from '../figures.js';
import type { CycleInputs, DayTotals } from '../inputs.js';
import { eggCalendar, type EggCalendar } from '../layer-figures.js';
import { advance, birdsOfDay, livabilityPct, mortalityPct, START, type Running } from './birds.js';
import { broilerFigures } from './broiler.js';
import { calendarDays, contextOf, D_KG, D_PCT, PCT, type Context } from './context.js';
import { dayEggFigures } from './eggs.js';
import { expectedWater, houseTemperatures, pctOfExpected, perBird, waterFeedRatio } from './feed-water.js';
import type { DailyKpis } from './types.js';
import { adgSinceLastWeighing, adgSincePlacement, liveWeightKg, stockingDensity, weightOn } from './weight.js';

function dayKpis(ctx: Context, day: DayTotals, run: Running, houseTempC: number | null, calendar: EggCalendar): DailyKpis {
  const { date } = day;
  const { daysInCycle, ageDays } = agesAt(date, ctx.inputs.cycle);
  const phase = phaseOf(ctx.inputs.cycle.birdType, ageDays);
  const b = birdsOfDay(day, run);
  const after = advance(run, day, b);
  const livabilityRaw = b.housed > 0 ? ((b.aliveEnd + after.sold + after.transferredOut) / b.housed) * 100 : 0;
  const livability = livabilityPct(b.aliveEnd, after.sold, after.transferredOut, b.housed);
  const weight = weightOn(ctx, date, ageDays);
  const expected = expectedWater(ctx, ageDays, phase, b.present, houseTempC);
  const broiler = broilerFigures(ctx, b, after.feedKg, weight, livability, livabilityRaw, ageDays);
  const density = stockingDensity(ctx, b.aliveEnd, weight);
  const eggs = dayEggFigures(ctx, day, b, after.eggs, calendar);
  return {
    date,
    dayOfCycle: daysInCycle,
    ageDays,
    phase,
    birds: b,
    deathsByCause: { ...day.deathsByCause },
    sources: { waterLiters: day.sources?.waterLiters ?? null, feedKg: day.sources?.feedConsumedKg ?? null },
    dailyMortalityPct: b.present > 0 ? figure((day.deaths / b.present) * 100, PCT, D_PCT) : missing(PCT, 'no birds in the house'),
    cumulativeMortalityPct: mortalityPct(after.deaths, b.housed),
    livabilityPct: livability,
    feedKg: figure(day.feedConsumedKg, 'kg', D_KG),
    cumulativeFeedKg: figure(after.feedKg, 'kg', D_KG),
    feedGramsPerBird: perBird(day.feedConsumedKg, b.present, 'g/bird/day', 'feed consumption'),
    waterLiters: figure(day.waterLiters, 'l', D_KG),
    waterMlPerBird: perBird(day.waterLiters, b.present, 'ml/bird/day', 'water'),
    waterFeedRatio: waterFeedRatio(day.waterLiters, day.feedConsumedKg),
    expectedWaterLiters: expected,
    waterPctOfExpected: pctOfExpected(day.waterLiters, expected),
    bodyWeight: weight.figure,
    liveWeightKg: liveWeightKg(b.aliveEnd, weight),
    ...broiler,
    adgSincePlacement: adgSincePlacement(ctx, weight),
    adgSinceLastWeighing: adgSinceLastWeighing(ctx, date),
    eggs: { collected: day.eggsCollected, cracked: day.eggsCracked, dirty: day.eggsDirty, doubleYolk: day.eggsDoubleYolk, cumulative: after.eggs },
    ...eggs,
    stockingDensityKgPerM2: density.kg,
    stockingDensityBirdsPerM2: density.birds,
  };
}

// ---------------------------------------------------------------------------------------------------
// The series

export { calendarDays };

/** Every KPI per calendar day from the cycle's start to asOf (the conventions: ./types.ts and the modules it names). */
export function dailySeries(inputs: CycleInputs, config: AnalyticsSections): DailyKpis[] {
  const ctx = contextOf(inputs, config);
  const houseTempC = houseTemperatures(inputs);
  const days = calendarDays(inputs);
  const calendar = eggCalendar(days, inputs.today);
  let run = START;
  return days.map((day) => {
    const row = dayKpis(ctx, day, run, houseTempC.get(day.date) ?? null, calendar);
    run = advance(run, day, row.birds);
    return row;
  });
}
