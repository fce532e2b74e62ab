import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { ZERO_COUNTERS } from '../../shared/domain/cycle-summary.js';
import { emptyDay } from '../../shared/domain/analytics/inputs.js';
import { cycleLayerFiguresOn } from '../../shared/domain/analytics/layer-figures.js';
import { cycleSummaryKpis, noKpis, type CycleSummaryInput } from '../../shared/domain/flock-analytics.js';
import { parseCompareSelection } from '../../shared/domain/flock-compare-selection.js';
import { KPI_CATALOGUE, RANKABLE_KPIS, bestPerKpi, changesBetween, rankBy } from '../../shared/domain/flock-kpi-ranking.js';

/**
 * Flock analytics from a cycle record's running counters. Every expected number is worked out by hand in
 * the comment next to it (formulas of docs/domain.md), never read back from the implementation.
 */

/** The analytics configuration's default weight fallbacks (a weighing at most 7 days old, else the breed standard). */
const F = ANALYTICS_DEFAULTS.fallbacks;
const ROSS = { birdType: 'broiler' as const, breed: 'Ross 308', hatchDate: '2026-03-01' };
const at = (date: string) => new Date(`${date}T12:00:00Z`);

/**
 * The broiler reference: Ross 308 day-old chicks, hatch = start = 2026-03-01, seen on 2026-04-05 (age 35).
 *   placed 1,000, deaths 15, culls 5 → alive 980; feed consumed 3,250 kg; water 5,850 l; weighed 2,300 g on 2026-04-05.
 */
const broiler = (over: Partial<CycleSummaryInput> = {}): CycleSummaryInput => ({
  ...ZERO_COUNTERS,
  birdType: 'broiler',
  startDate: '2026-03-01',
  endDate: null,
  hatchDate: '2026-03-01',
  placed: 1000,
  deaths: 15,
  culls: 5,
  alive: 980,
  feedDeliveredKg: 4000,
  feedConsumedKg: 3250,
  waterLiters: 5850,
  latestWeight: { date: '2026-04-05', grams: 2300 },
  ...over,
});

describe('cycleSummaryKpis: a broiler cycle', () => {
  const k = cycleSummaryKpis(broiler(), ROSS, F, at('2026-04-05'));

  it('birds, mortality, livability, feed, age', () => {
    expect(k.birdsHoused).toEqual({ value: 1000, unit: 'birds' }); // placed 1,000 + transferred in 0
    expect(k.birdsAlive).toEqual({ value: 980, unit: 'birds' });
    expect(k.mortalityPct).toEqual({ value: 1.5, unit: '%' }); // 15 ÷ 1,000 × 100
    expect(k.livabilityPct).toEqual({ value: 98, unit: '%' }); // (980 + 0 sold + 0 out) ÷ 1,000 × 100
    expect(k.feedConsumedKg).toEqual({ value: 3250, unit: 'kg' });
    expect(k.ageDays).toEqual({ value: 35, unit: 'days' }); // 2026-03-01 → 2026-04-05
    expect(k.avgWeight).toEqual({ value: 2300, unit: 'g', date: '2026-04-05' });
  });

  it('FCR, ADG, EPEF, water:feed', () => {
    // FCR = 3,250 ÷ (980 × 2.3 kg = 2,254 kg) = 1.441881 → 1.442
    expect(k.fcr).toEqual({ value: 1.442, unit: 'kg/kg' });
    // ADG = (2,300 − 44 g Ross 308 day 0) ÷ 35 days = 2,256 ÷ 35 = 64.457 → 64.5
    expect(k.adg.value).toBe(64.5);
    expect(k.adg.unit).toBe('g/day');
    expect(k.adg.assumptions?.[0]).toMatch(/Ross 308 standard at day 0 \(44 g\)/);
    // EPEF = 98 × 2.3 × 100 ÷ (35 × 1.441881) = 22,540 ÷ 50.46584 = 446.64 → 447
    expect(k.epef).toEqual({ value: 447, unit: 'index' });
    // water:feed = 5,850 l ÷ 3,250 kg = 1.8
    expect(k.waterFeedRatio).toEqual({ value: 1.8, unit: 'l/kg' });
  });

  it('egg KPIs are for layers only', () => {
    expect(k.eggsCollected).toEqual({ value: 0, unit: 'eggs' });
    for (const f of [k.henHousedEggs, k.feedPerEgg, k.feedPerDozenEggs]) expect(f).toMatchObject({ value: null, reason: 'layers and breeders only' });
  });

  it('a weighing older than today is used and said so; age and EPEF move on', () => {
    const later = cycleSummaryKpis(broiler(), ROSS, F, at('2026-04-08'));
    expect(later.ageDays.value).toBe(38); // 2026-03-01 → 2026-04-08
    // the 2,300 g of day 35 grown along the Ross 308 curve to day 38: × (2597 ÷ 2296 = 1.1311) = 2,601.53 g
    // FCR = 1.441881 × 2.3 ÷ 2.60153 = 1.274760 (the same feed and birds, a heavier flock)
    expect(later.fcr.value).toBe(1.275);
    expect(later.fcr.assumptions).toEqual([
      'estimated from the weighing on 2026-04-05 (3 days earlier, 2300 g) grown along the Ross 308 curve: × 1.1311 (standard day 38 ÷ day 35)',
    ]);
    // EPEF = 98 × 2.60153 × 100 ÷ (38 × 1.274760 = 48.44088) = 526.31 → 526
    expect(later.epef.value).toBe(526);
  });

  it('a weighing older than fallbacks.carryForwardWeightDays: the breed standard stands in, or null (the analytics rule)', () => {
    // 2026-04-05 → 2026-04-15: 10 days, more than 7; age 45
    const stale = 'the latest weighing (2026-04-05) is 10 days old, more than fallbacks.carryForwardWeightDays (7)';
    const none = cycleSummaryKpis(broiler(), ROSS, F, at('2026-04-15'));
    expect(none.fcr).toEqual({ value: null, unit: 'kg/kg', reason: `no body weight: ${stale}` });
    expect(none.epef).toMatchObject({ value: null, reason: `no body weight: ${stale}` });
    expect(none.avgWeight).toEqual({ value: 2300, unit: 'g', date: '2026-04-05' }); // the measurement stays
    const std = cycleSummaryKpis(broiler(), ROSS, { ...F, weightFromBreedStandard: true }, at('2026-04-15'));
    expect(std.fcr.value).not.toBeNull();
    expect(std.fcr.assumptions).toEqual([`${stale}: Ross 308 standard weight at day 45 stands in (fallbacks.weightFromBreedStandard)`]);
    expect(std.epef.assumptions).toEqual(std.fcr.assumptions);
    const noBreed = cycleSummaryKpis(broiler(), { ...ROSS, breed: null }, { ...F, weightFromBreedStandard: true }, at('2026-04-15'));
    expect(noBreed.fcr.reason).toBe(`no body weight: ${stale}; no breed standard for a flock without a breed`);
  });

  it('a closed cycle is aged at its end date, whatever today is', () => {
    const closed = cycleSummaryKpis(broiler({ endDate: '2026-04-05' }), ROSS, F, at('2026-06-01'));
    expect(closed.ageDays.value).toBe(35);
    expect(closed.epef.value).toBe(447);
    expect(closed.fcr.assumptions).toBeUndefined();
  });

  it('transfers in count as housed', () => {
    // housed 800 + 200 = 1,000; mortality 15 ÷ 1,000 = 1.5 %
    const t = cycleSummaryKpis(broiler({ placed: 800, transferredIn: 200 }), ROSS, F, at('2026-04-05'));
    expect(t.birdsHoused.value).toBe(1000);
    expect(t.mortalityPct.value).toBe(1.5);
  });
});

describe('cycleSummaryKpis: edge cases', () => {
  it('no weighing: FCR, ADG and EPEF are null with the reason; the rest stands', () => {
    const k = cycleSummaryKpis(broiler({ latestWeight: null }), ROSS, F, at('2026-04-05'));
    expect(k.avgWeight).toEqual({ value: null, unit: 'g', reason: 'no weighing yet', date: null });
    expect(k.fcr).toEqual({ value: null, unit: 'kg/kg', reason: 'no body weight: no weighing yet' });
    expect(k.epef).toMatchObject({ value: null, reason: 'no body weight: no weighing yet' });
    expect(k.adg).toEqual({ value: null, unit: 'g/day', reason: 'no weighing yet' });
    expect(k.mortalityPct.value).toBe(1.5);
  });

  it('all dead: mortality 100 %, livability 0 %, no FCR', () => {
    // 100 placed, 100 dead → 100 ÷ 100 × 100 = 100 %; (0 + 0 + 0) ÷ 100 = 0 %
    const k = cycleSummaryKpis(broiler({ placed: 100, deaths: 100, culls: 0, alive: 0, feedConsumedKg: 50 }), ROSS, F, at('2026-04-05'));
    expect(k.mortalityPct.value).toBe(100);
    expect(k.livabilityPct.value).toBe(0);
    expect(k.fcr).toMatchObject({ value: null, reason: 'no live birds: every bird died or was culled' });
    expect(k.epef.value).toBeNull();
  });

  it('depleted by sale: the birds shipped alive stand for the birds alive', () => {
    // 1,000 placed, 20 dead, 980 sold → alive 0; FCR = 3,250 ÷ (980 × 2.3) = 1.442 as before
    const k = cycleSummaryKpis(broiler({ deaths: 20, culls: 0, sold: 980, alive: 0, endDate: '2026-04-05' }), ROSS, F, at('2026-04-10'));
    expect(k.livabilityPct.value).toBe(98); // (0 + 980) ÷ 1,000
    expect(k.fcr.value).toBe(1.442);
    expect(k.fcr.assumptions).toEqual(['depleted: the 980 birds shipped alive stand for the birds alive']);
    expect(k.epef.value).toBe(447); // 98 × 2.3 × 100 ÷ (35 × 1.441881)
  });

  it('nothing placed yet', () => {
    const k = cycleSummaryKpis({ ...broiler(), ...ZERO_COUNTERS, latestWeight: null }, ROSS, F, at('2026-03-01'));
    expect(k.mortalityPct).toEqual({ value: null, unit: '%', reason: 'no birds placed yet' });
    expect(k.fcr.reason).toBe('no birds placed yet');
    expect(k.ageDays.value).toBe(0);
    expect(k.waterFeedRatio.value).toBeNull();
  });

  it('no feed recorded: no FCR', () => {
    expect(cycleSummaryKpis(broiler({ feedConsumedKg: 0 }), ROSS, F, at('2026-04-05')).fcr.reason).toBe('no feed consumption recorded');
  });

  it('an unknown breed has no placement weight, so no ADG', () => {
    const k = cycleSummaryKpis(broiler(), { ...ROSS, breed: 'Village mix' }, F, at('2026-04-05'));
    expect(k.adg.value).toBeNull();
    expect(k.adg.reason).toMatch(/no breed standard for breed Village mix/);
    expect(k.fcr.value).toBe(1.442);
  });

  it('Cobb 500: day-0 weight 42 g', () => {
    // (2,300 − 42) ÷ 35 = 64.514 → 64.5
    const k = cycleSummaryKpis(broiler(), { ...ROSS, breed: 'Cobb 500' }, F, at('2026-04-05'));
    expect(k.adg.value).toBe(64.5);
    expect(k.adg.assumptions?.[0]).toMatch(/Cobb 500 standard at day 0 \(42 g\)/);
  });
});

describe('cycleSummaryKpis: a layer cycle', () => {
  /**
   * Hy-Line Brown pullets hatched 2025-09-01, placed 2026-01-05 (age 126 days = week 18), seen 2026-03-16 (age 196).
   *   placed 5,000, deaths 50 → alive 4,950; eggs 300,000; feed consumed 33,000 kg; water 66,000 l; weighed 1,850 g on 2026-03-16.
   * The layer figures that count days come from the cycle's days (here all its eggs and feed on 2026-03-15, so the
   * laying period's feed is the whole cycle's; 2026-03-16 is today, not over and without eggs).
   */
  const layer: CycleSummaryInput = {
    ...ZERO_COUNTERS,
    birdType: 'layer',
    startDate: '2026-01-05',
    endDate: null,
    hatchDate: '2025-09-01',
    placed: 5000,
    deaths: 50,
    alive: 4950,
    feedConsumedKg: 33000,
    waterLiters: 66000,
    eggsCollected: 300000,
    latestWeight: { date: '2026-03-16', grams: 1850 },
  };
  const days = (eggs: number) => [
    { ...emptyDay('2026-01-05'), placed: 5000 },
    { ...emptyDay('2026-02-01'), deaths: 50 },
    { ...emptyDay('2026-03-15'), eggsCollected: eggs, feedConsumedKg: 33000 },
  ];
  const layerFigures = (eggs: number) => cycleLayerFiguresOn(layer, days(eggs), '2026-03-16', null);
  const k = cycleSummaryKpis(layer, { birdType: 'layer', breed: 'Hy-Line Brown', hatchDate: '2025-09-01' }, F, at('2026-03-16'), layerFigures(300000));

  it('eggs per hen housed, feed per egg and per dozen', () => {
    expect(k.henHousedEggs).toEqual({ value: 60, unit: 'eggs/hen' }); // 300,000 ÷ 5,000
    expect(k.feedPerEgg).toEqual({ value: 110, unit: 'g/egg' }); // 33,000,000 g ÷ 300,000
    expect(k.feedPerDozenEggs).toEqual({ value: 1.32, unit: 'kg/dozen' }); // 33,000 × 12 ÷ 300,000
    expect(k.mortalityPct.value).toBe(1); // 50 ÷ 5,000
    expect(k.livabilityPct.value).toBe(99); // 4,950 ÷ 5,000
    expect(k.waterFeedRatio.value).toBe(2); // 66,000 ÷ 33,000
    expect(k.ageDays.value).toBe(196); // 2025-09-01 → 2026-03-16
  });

  it('ADG from the standard at the age at placement; no FCR or EPEF', () => {
    // Hy-Line Brown week 18 (day 126) = midpoint of the 1,550–1,670 g band = 1,610 g; (1,850 − 1,610) ÷ 70 days (2026-01-05 → 2026-03-16) = 3.4286 → 3.4
    expect(k.adg.value).toBe(3.4);
    expect(k.fcr).toMatchObject({ value: null, reason: 'broilers only (layers: feed per egg and per dozen eggs)' });
    expect(k.epef.value).toBeNull();
  });

  it('a layer without eggs yet', () => {
    const none = cycleSummaryKpis({ ...layer, eggsCollected: 0 }, { birdType: 'layer', breed: null, hatchDate: null }, F, at('2026-03-16'), layerFigures(0));
    expect(none.henHousedEggs.value).toBe(0); // 0 ÷ 5,000
    expect(none.feedPerEgg).toMatchObject({ value: null, reason: 'no eggs collected' });
    expect(none.feedPerDozenEggs.value).toBeNull();
  });
});

describe('changes, best, ranking', () => {
  const first = cycleSummaryKpis(broiler({ deaths: 30, alive: 965, feedConsumedKg: 3400 }), ROSS, F, at('2026-04-05'));
  const second = cycleSummaryKpis(broiler(), ROSS, F, at('2026-04-05'));

  it('the catalogue names every rankable KPI with its direction', () => {
    const dir = Object.fromEntries(KPI_CATALOGUE.map((k) => [k.name, k.better]));
    expect(dir).toMatchObject({
      fcr: 'lower',
      livabilityPct: 'higher',
      mortalityPct: 'lower',
      epef: 'higher',
      adg: 'higher',
      avgWeight: 'higher',
      henHousedEggs: 'higher',
      feedPerDozenEggs: 'lower',
    });
    for (const name of RANKABLE_KPIS) expect(Object.keys(second)).toContain(name);
  });

  it('change vs the previous cycle: delta and whether it improved', () => {
    // first: mortality 30 ÷ 1,000 = 3 %, livability 965 ÷ 1,000 = 96.5 %, FCR 3,400 ÷ (965 × 2.3 = 2,219.5) = 1.5319 → 1.532
    expect(first.fcr.value).toBe(1.532);
    const c = changesBetween(first, second);
    expect(c.fcr).toEqual({ previous: 1.532, delta: -0.09, unit: 'kg/kg', improved: true }); // 1.442 − 1.532: lower is better
    expect(c.mortalityPct).toEqual({ previous: 3, delta: -1.5, unit: '%', improved: true });
    expect(c.livabilityPct).toEqual({ previous: 96.5, delta: 1.5, unit: '%', improved: true });
    expect(c.avgWeight).toEqual({ previous: 2300, delta: 0, unit: 'g', improved: false }); // unchanged is not better
    expect(c.feedConsumedKg).toEqual({ previous: 3400, delta: -150, unit: 'kg', improved: null }); // no direction
    expect(changesBetween(second, first).fcr.improved).toBe(false);
    const noWeight = cycleSummaryKpis(broiler({ latestWeight: null }), ROSS, F, at('2026-04-05'));
    expect(changesBetween(noWeight, second).fcr).toEqual({ previous: null, delta: null, unit: 'kg/kg', improved: null });
  });

  it('best per KPI: lowest FCR, highest livability; null when nobody has a value', () => {
    const best = bestPerKpi([
      { key: 'a', kpis: first },
      { key: 'b', kpis: second },
    ]);
    expect(best.fcr).toEqual({ key: 'b', figure: { value: 1.442, unit: 'kg/kg' } });
    expect(best.livabilityPct).toEqual({ key: 'b', figure: { value: 98, unit: '%' } });
    expect(best.avgWeight).toEqual({ key: 'a', figure: { value: 2300, unit: 'g' } }); // equal: the first; the plain Figure (no date)
    expect(best.henHousedEggs).toBeNull();
  });

  it('ranking: best first, ties share a rank, no value last with its reason', () => {
    const fig = (value: number | null) => (value === null ? { value, unit: 'kg/kg', reason: 'no weighing yet' } : { value, unit: 'kg/kg' });
    const entries = [
      { item: 1, id: '1', name: 'D', figure: fig(1.5) },
      { item: 2, id: '2', name: 'C', figure: fig(null) },
      { item: 3, id: '3', name: 'B', figure: fig(1.4) },
      { item: 4, id: '4', name: 'A', figure: fig(1.4) },
      { item: 5, id: '5', name: 'E', figure: fig(1.6) },
    ];
    const fcr = rankBy('fcr', entries);
    expect(fcr.map((r) => [r.name, r.rank])).toEqual([
      ['A', 1],
      ['B', 1],
      ['D', 3],
      ['E', 4],
      ['C', null],
    ]);
    expect(fcr.at(-1)!.figure.reason).toBe('no weighing yet');
    const epef = rankBy('epef', entries); // higher is better
    expect(epef.map((r) => r.name)).toEqual(['E', 'D', 'A', 'B', 'C']);
  });

  it('noKpis: every figure null with the reason', () => {
    const none = noKpis('flock X has no cycle yet');
    for (const f of Object.values(none)) expect(f).toMatchObject({ value: null, reason: 'flock X has no cycle yet' });
  });
});

describe('parseCompareSelection', () => {
  const F = ['01JD3Y4Z9V6Q8K2M5N7P0R1S3A', '01JD3Y4Z9V6Q8K2M5N7P0R1S3B', '01JD3Y4Z9V6Q8K2M5N7P0R1S3C'];
  const C = '01JD3Y4Z9V6Q8K2M5N7P0R1S3D';
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `01JD3Y4Z9V6Q8K2M5N7P0R1S${String(i).padStart(2, '0')}`).join(',');

  it('flocks and cycles together, in order', () => {
    expect(parseCompareSelection({ flockIds: `${F[0]}, ${F[1]}`, cycles: `${F[2]}:${C}` })).toEqual({
      refs: [
        { kind: 'flock', flockId: F[0] },
        { kind: 'flock', flockId: F[1] },
        { kind: 'cycle', flockId: F[2], cycleId: C },
      ],
      problems: [],
    });
  });

  it('1 or 11 items, nothing named, duplicates and malformed pairs are problems naming the field', () => {
    expect(parseCompareSelection({ flockIds: F[0] }).problems).toEqual([
      { field: 'flockIds', message: 'compare takes 2 to 10 items (flocks and cycles together); got 1' },
    ]);
    expect(parseCompareSelection({ flockIds: ids(10) }).problems).toEqual([]);
    expect(parseCompareSelection({ flockIds: ids(11) }).problems[0]!.message).toBe('compare takes 2 to 10 items (flocks and cycles together); got 11');
    expect(parseCompareSelection({}).problems[0]!.field).toBe('flockIds');
    expect(parseCompareSelection({ flockIds: `${F[0]},${F[0]}` }).problems).toEqual([{ field: 'flockIds', message: `flock ${F[0]} is named twice` }]);
    expect(parseCompareSelection({ cycles: `${F[0]}:${C},${F[0]}:${C}` }).problems[0]!.message).toBe(`cycle ${C} of flock ${F[0]} is named twice`);
    expect(parseCompareSelection({ cycles: `${F[0]}:${C},${F[1]}` }).problems[0]).toEqual({
      field: 'cycles',
      message: `item 2 "${F[1]}" is not flockId:cycleId (two ULIDs)`,
    });
    expect(parseCompareSelection({ cycles: `${F[0]}:${C}:x,${F[1]}:${C}` }).problems[0]!.field).toBe('cycles');
    expect(parseCompareSelection({ flockIds: `${F[0]},nope` }).problems[0]!.message).toBe('item 2 "nope" is not a flock id (a ULID)');
    expect(parseCompareSelection({ flockIds: `${F[0]},,${F[1]}` }).problems[0]!.message).toBe('item 2 is empty');
  });
});
