/**
 * The whole-cycle KPIs, from the daily series (./daily.ts).
 */
import type { AnalyticsSections } from '../../../../schemas/analytics-config.js';
import { agesAt } from '../../weights.js';
import { figure, missing } from '../figures.js';
import type { CycleInputs, DayTotals, Figure } from '../inputs.js';
import { calendarDays, contextOf, D_KG, INDEX, PCT, seriesEnd } from './context.js';
import { dailySeries } from './daily.js';
import { eggFiguresOf, peakProduction } from './eggs.js';
import { countsForEggs, cycleLayerFigures } from '../layer-figures.js';
import { cycleWaterFeedRatio } from './feed-water.js';
import type { CycleKpis, DailyKpis, WeightFigure } from './types.js';
import { weighingFigure } from './weight.js';

function causesOf(rows: readonly DailyKpis[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) for (const [cause, n] of Object.entries(r.deathsByCause)) out[cause] = (out[cause] ?? 0) + n;
  return out;
}

/**
 * The whole-cycle figures from the daily series. Counts and totals run to asOf; weight, FCR, ADG and
 * EPEF are those of the last day with birds in the house (`performanceDate`: the depletion day of a
 * depleted flock); stocking density and live weight are those of asOf. The egg figures are the cycle's
 * layer figures (../layer-figures.ts): the laying period from the first day eggs were collected, each day
 * counted once it is over or has its eggs recorded; the laying period's feed.
 */
export function cycleKpis(inputs: CycleInputs, config: AnalyticsSections, series?: readonly DailyKpis[]): CycleKpis {
  const ctx = contextOf(inputs, config);
  const rows = series ?? dailySeries(inputs, config);
  const last = rows.at(-1);
  const perf = [...rows].reverse().find((r) => r.birds.present > 0) ?? last;
  const days = calendarDays(inputs);
  const total = (pick: (d: DayTotals) => number) => days.reduce((a, d) => a + pick(d), 0);
  const housed = last?.birds.housed ?? 0;
  const layer = cycleLayerFigures(inputs, config.fallbacks.eggWeightGrams);
  const laying = rows.filter((r) => countsForEggs(layer.calendar, r.date, r.eggs.collected));
  const eggs = eggFiguresOf(ctx, layer, layer.henHousedEggs, {
    collected: total((d) => d.eggsCollected),
    cracked: total((d) => d.eggsCracked),
    dirty: total((d) => d.eggsDirty),
  });
  const latest = ctx.weighings.at(-1);
  const noDays = `the cycle has no day up to ${inputs.asOf}`;
  const pick = (r: DailyKpis | undefined, f: (r: DailyKpis) => Figure, unit: string): Figure => (r ? f(r) : missing(unit, noDays));
  const perfWeight: WeightFigure = perf ? perf.bodyWeight : { ...missing('g', noDays), date: null, source: null };
  return {
    cycleId: inputs.cycle.cycleId,
    flockId: inputs.cycle.flockId,
    birdType: inputs.cycle.birdType,
    breed: inputs.cycle.breed,
    breedStandard: ctx.standard ? { id: ctx.standard.id, name: ctx.standard.name, status: ctx.standard.status } : null,
    status: inputs.cycle.status,
    startDate: inputs.cycle.startDate,
    asOf: seriesEnd(inputs),
    days: rows.length,
    ageDays: last?.ageDays ?? null,
    phase: last?.phase ?? null,
    performanceDate: perf?.date ?? null,
    birds: {
      placed: total((d) => d.placed),
      transferredIn: total((d) => d.transferredIn),
      housed,
      deaths: total((d) => d.deaths),
      culls: total((d) => d.culls),
      sold: total((d) => d.sold),
      transferredOut: total((d) => d.transferredOut),
      alive: last?.birds.aliveEnd ?? 0,
    },
    deathsByCause: causesOf(rows),
    mortalityPct: pick(last, (r) => r.cumulativeMortalityPct, PCT),
    livabilityPct: pick(last, (r) => r.livabilityPct, PCT),
    feedConsumedKg: figure(
      total((d) => d.feedConsumedKg),
      'kg',
      D_KG,
    ),
    feedDeliveredKg: figure(
      total((d) => d.feedDeliveredKg),
      'kg',
      D_KG,
    ),
    waterLiters: figure(
      total((d) => d.waterLiters),
      'l',
      D_KG,
    ),
    waterFeedRatio: cycleWaterFeedRatio(rows),
    bodyWeight: perfWeight,
    liveWeightKg: pick(last, (r) => r.liveWeightKg, 'kg'),
    fcr: pick(perf, (r) => r.fcr, 'kg/kg'),
    correctedFcr: pick(perf, (r) => r.correctedFcr, 'kg/kg'),
    adgSincePlacement: pick(perf, (r) => r.adgSincePlacement, 'g/day'),
    adgSinceLastWeighing: pick(perf, (r) => r.adgSinceLastWeighing, 'g/day'),
    epef: pick(perf, (r) => r.epef, INDEX),
    latestWeighing: latest
      ? {
          date: latest.date,
          ageDays: agesAt(latest.date, inputs.cycle).ageDays,
          grams: latest.grams,
          method: latest.method,
          confidence: latest.confidence,
          sampleSize: latest.sampleSize,
        }
      : null,
    uniformityPct: weighingFigure(latest, 'uniformityPct'),
    cvPct: weighingFigure(latest, 'cv'),
    eggs: {
      collected: total((d) => d.eggsCollected),
      cracked: total((d) => d.eggsCracked),
      dirty: total((d) => d.eggsDirty),
      doubleYolk: total((d) => d.eggsDoubleYolk),
    },
    layingPeriod: layer.counted,
    henDayPct: eggs.henDayPct,
    henHousedPct: eggs.henHousedPct,
    henHousedEggs: eggs.henHousedEggs,
    peakProduction: peakProduction(ctx, laying),
    eggWeightGrams: eggs.eggWeightGrams,
    eggMassGrams: eggs.eggMassGrams,
    feedPerKgEgg: eggs.feedPerKgEgg,
    feedPerDozenEggs: eggs.feedPerDozenEggs,
    crackedPct: eggs.crackedPct,
    dirtyPct: eggs.dirtyPct,
    stockingDensityKgPerM2: pick(last, (r) => r.stockingDensityKgPerM2, 'kg/m²'),
    stockingDensityBirdsPerM2: pick(last, (r) => r.stockingDensityBirdsPerM2, 'birds/m²'),
  };
}
