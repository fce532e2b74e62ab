/**
 * A layer flock's compliance without I/O: laying maturity (first egg, else the point of lay), the stocking
 * density rule of each day (pullets not judged, laying hens by the house's system: barn 9/m² of usable
 * area, enriched cages 750 cm² of cage area per hen, free range with its run, breeders as a reference),
 * a placement's check on the day the birds reach laying maturity, a rearing flock's Salmonella samples
 * (day-old, pre-move) and what an official sample does to the laying hens' 15-week clock.
 */
import { describe, expect, it } from 'vitest';
import { birdsPerDay, firstDayOver } from '../../shared/domain/compliance/density.js';
import { cycleDensityDays, stockingDensityRule } from '../../shared/domain/compliance/density-report.js';
import { densityAreaOf, densityRuleFor, DENSITY_RULES } from '../../shared/domain/compliance/density-rules.js';
import { densityWarningsOf, type Placement } from '../../shared/domain/compliance/density-warnings.js';
import { birdsGoneOn, rearingPlanFromCounters, rearingPlanOf } from '../../shared/domain/compliance/rearing.js';
import { salmonellaRule } from '../../shared/domain/compliance/salmonella-report.js';
import { cycleSampling, openSampling, operatorSampleDates } from '../../shared/domain/compliance/sampling.js';
import { firstEggOf, layingMaturityOn, pointOfLayAgeDays } from '../../shared/domain/laying-maturity.js';
import { addDays } from '../../shared/platform/calendar.js';

const HATCH = '2025-01-06';
const age = (days: number) => addDays(HATCH, days);

describe('laying maturity', () => {
  it('is the first egg, else the point of lay (layers 126 days, breeders 168); broilers never', () => {
    expect([pointOfLayAgeDays('layer'), pointOfLayAgeDays('breeder'), pointOfLayAgeDays('broiler')]).toEqual([126, 168, null]);
    expect(layingMaturityOn({ birdType: 'layer', ageOrigin: HATCH, firstEggOn: null })).toBe(age(126));
    expect(layingMaturityOn({ birdType: 'layer', ageOrigin: HATCH, firstEggOn: age(120) })).toBe(age(120));
    expect(layingMaturityOn({ birdType: 'layer', ageOrigin: HATCH, firstEggOn: age(140) })).toBe(age(126));
    expect(layingMaturityOn({ birdType: 'broiler', ageOrigin: HATCH, firstEggOn: null })).toBeNull();
    const eggs = (date: string, totalEggs: number) => ({ type: 'egg_collection', date, fields: { totalEggs } });
    expect(firstEggOf([eggs(age(130), 10), eggs(age(122), 0), eggs(age(124), 3), { type: 'bird_mortality', date: age(100), fields: {} }])).toBe(age(124));
  });
});

describe('the stocking density rule of a day', () => {
  const rule = (birdType: string, houseType: string | null, layingHens = true) => densityRuleFor({ birdType, houseType, tier: 33, layingHens }).id;

  it('by bird type, stage and housing system', () => {
    expect(rule('layer', 'floor', false)).toBe('rearing');
    expect(['floor', 'aviary', 'other', null].map((t) => rule('layer', t))).toEqual(['alternative', 'alternative', 'alternative', 'alternative']);
    expect(rule('layer', 'cage')).toBe('enriched_cage');
    expect(rule('layer', 'free_range')).toBe('free_range');
    expect(rule('breeder', 'floor')).toBe('breeder');
    expect(rule('broiler', 'cage', false)).toBe('broiler');
    expect(DENSITY_RULES.enriched_cage.limit).toBeCloseTo(13.333, 3);
    expect(DENSITY_RULES.rearing.limit).toBeNull();
  });

  it('barns and free range take the configured hens per m² (default the Directive’s 9); cages, breeders and pullets do not', () => {
    const at = (birdType: string, houseType: string | null, layerMaxHensPerM2?: number) =>
      densityRuleFor({ birdType, houseType, tier: 33, layingHens: true, layerMaxHensPerM2 }).limit;
    expect([at('layer', 'floor'), at('layer', 'free_range'), at('layer', 'floor', 9)]).toEqual([9, 9, 9]);
    expect([at('layer', 'floor', 7), at('layer', 'free_range', 7), at('layer', null, 7)]).toEqual([7, 7, 7]);
    expect(at('layer', 'cage', 7)).toBeCloseTo(13.333, 3);
    expect(at('breeder', 'floor', 7)).toBe(9);
    expect(densityRuleFor({ birdType: 'layer', houseType: 'floor', tier: 33, layingHens: true, layerMaxHensPerM2: 7 }).source).toMatch(
      /^the configured limit of 7 laying hens per m² of usable area \(thresholds.layerMaxHensPerM2\), stricter than Council Directive 1999\/74\/EC/,
    );
  });

  it('a cage rule measures on the cage area, else on the usable area (which can only overstate the density)', () => {
    expect(densityAreaOf(DENSITY_RULES.enriched_cage, { usableAreaM2: 2000, cageAreaM2: 2400 })).toEqual({ areaM2: 2400, basis: 'cage_area' });
    expect(densityAreaOf(DENSITY_RULES.enriched_cage, { usableAreaM2: 2000, cageAreaM2: null })).toEqual({ areaM2: 2000, basis: 'usable_area_as_cage_area' });
    expect(densityAreaOf(DENSITY_RULES.alternative, { usableAreaM2: 2000, cageAreaM2: 2400 })).toEqual({ areaM2: 2000, basis: 'usable_area' });
  });
});

/** `birds` from age `from` to `to` in a house, the laying maturity at 126 days. */
function report(
  house: { houseType: string | null; usableAreaM2: number; cageAreaM2?: number; rangeAreaM2?: number },
  birds: number,
  from: number,
  to: number,
  birdType = 'layer',
) {
  const days = birdsPerDay([{ type: 'bird_inflow', date: age(from), quantity: birds }], age(from), age(to), addDays);
  const layingFrom = layingMaturityOn({ birdType, ageOrigin: HATCH, firstEggOn: null });
  const density = cycleDensityDays({ days, house: { id: 'H', ...house }, birdType, tier: 33, layingFrom, weightAt: () => null });
  return stockingDensityRule({ houseId: 'H', areaM2: house.usableAreaM2, birdType, days: density, layingFrom });
}

describe('the report’s stocking density', () => {
  it('a rearing flock of 30,800 pullets at 16.21 birds/m² up to day 119 does not fail: no EU limit applies before laying maturity', () => {
    const r = report({ houseType: 'floor', usableAreaM2: 1900 }, 30_800, 0, 119);
    expect(r.status).toBe('pass');
    expect(r.findings).toEqual([]);
    expect(r.summary).toContain('pullets before laying maturity, 120 day(s)');
    expect(r.summary).toContain('no EU stocking limit applies');
    expect(r.summary).toContain('peak 16.21 birds/m2');
    expect(r.source).toContain('No EU stocking limit for pullets');
  });

  it('an enriched-cage house at 13 hens/m² passes where a barn fails; a barn at 10 hens/m² fails from laying maturity on', () => {
    const cage = report({ houseType: 'cage', usableAreaM2: 2305 }, 30_064, 119, 140);
    expect(cage.status).toBe('pass');
    expect(cage.summary).toContain('laying hens, enriched cages: peak 13.04 birds/m2');
    expect(cage.summary).toContain('limit 13.33 birds/m2');
    expect(cage.source).toContain('Art. 6(1)(a)');
    const barn = report({ houseType: 'floor', usableAreaM2: 2305 }, 30_064, 119, 140);
    expect(barn.status).toBe('fail');
    // the pullets' days (119–125) are not judged; every hen day from 126 is over 9
    expect(barn.findings.map((f) => f.date)).toEqual(Array.from({ length: 15 }, (_, i) => age(126 + i)));
    const ten = report({ houseType: 'floor', usableAreaM2: 1000 }, 10_000, 130, 135);
    expect(ten.status).toBe('fail');
    expect(ten.findings[0]).toMatchObject({
      status: 'fail',
      evidence: { value: 10, limit: 9, unit: 'birds/m2', rule: 'alternative', binding: true, areaBasis: 'usable_area' },
    });
    expect(ten.findings[0]!.message).toContain('over the limit of 9 birds/m2 (laying hens, alternative system (barn, aviary))');
  });

  it('a cage house measured on its usable area says so when it fails; its cage area puts it right', () => {
    const usable = report({ houseType: 'cage', usableAreaM2: 2000 }, 30_000, 130, 130);
    expect(usable.status).toBe('fail');
    expect(usable.findings[0]!.message).toContain('record it if larger');
    expect(usable.findings[0]!.evidence).toMatchObject({ areaBasis: 'usable_area_as_cage_area', limit: 13.33 });
    expect(report({ houseType: 'cage', usableAreaM2: 2000, cageAreaM2: 2400 }, 30_000, 130, 130).status).toBe('pass');
  });

  it('free range: 9/m² indoors and 4 m² of run per hen; without a run area it is not checked (warn)', () => {
    expect(report({ houseType: 'free_range', usableAreaM2: 1000, rangeAreaM2: 40_000 }, 9000, 130, 131).status).toBe('pass');
    const short = report({ houseType: 'free_range', usableAreaM2: 1000, rangeAreaM2: 30_000 }, 9000, 130, 131);
    expect(short.status).toBe('fail');
    expect(short.findings[0]).toMatchObject({ status: 'fail', evidence: { m2PerHen: 3.33, limit: 4 } });
    const unknown = report({ houseType: 'free_range', usableAreaM2: 1000 }, 9000, 130, 131);
    expect(unknown.status).toBe('warn');
    expect(unknown.findings[0]!.message).toContain('records no range area');
  });

  it('breeders in lay above 9/m² warn: Directive 1999/74/EC does not cover them', () => {
    const r = report({ houseType: 'floor', usableAreaM2: 1000 }, 10_000, 170, 170, 'breeder');
    expect(r.status).toBe('warn');
    expect(r.findings[0]).toMatchObject({ status: 'warn', evidence: { rule: 'breeder', binding: false } });
  });
});

describe('a placement’s check ahead for layers', () => {
  const placement = (over: Partial<Placement['cycle']>, house: Placement['house']): Placement => ({
    cycle: {
      id: 'C',
      flockId: 'F',
      alive: 0,
      birdType: 'layer',
      hatchDate: HATCH,
      startDate: HATCH,
      targetWeightGrams: null,
      targetAgeDays: null,
      ...over,
    },
    flock: { breed: 'Hy-Line Brown', houseId: 'H' },
    forecast: undefined,
    house,
    farm: { densityTier: 33 },
  });
  const floor = { id: 'H', name: 'Rearing', usableAreaM2: 1900, houseType: 'floor' };

  it('day-old pullets at 16/m²: no warning when the cycle plans their move before laying maturity, a warning dated at maturity when they stay', () => {
    expect(densityWarningsOf(placement({ targetAgeDays: 119 }, floor), 30_800, HATCH, true)).toEqual([]);
    const stay = densityWarningsOf(placement({}, floor), 30_800, HATCH, true);
    expect(stay).toEqual([expect.objectContaining({ date: age(126), value: 16.21, limit: 9 })]);
    expect(stay[0]!.message).toContain('(the day they reach laying maturity)');
  });

  it('pullets moved into a barn at 17 weeks warn for the day they mature; into enriched cages at 13/m² they do not', () => {
    const barn = densityWarningsOf(placement({}, { id: 'H', name: 'Barn', usableAreaM2: 2305, houseType: 'floor' }), 30_064, age(119));
    expect(barn).toEqual([expect.objectContaining({ date: age(126), value: 13.04, limit: 9, areaM2: 2305 })]);
    expect(densityWarningsOf(placement({}, { id: 'H', name: 'Cages', usableAreaM2: 2305, houseType: 'cage' }), 30_064, age(119))).toEqual([]);
    // without a headcount rule the hens' 9/m² is applied on the day itself, as before
    expect(firstDayOver({ birds: 9001, areaM2: 1000, birdType: 'layer', tier: 33, from: age(1), until: age(1), weightAt: () => null }, addDays)).toMatchObject({
      limit: 9,
      rule: 'alternative',
    });
  });
});

describe('a rearing flock’s Salmonella samples', () => {
  const placed = [{ type: 'bird_inflow', date: age(0), quantity: 30_800 }];
  const moved = [...placed, { type: 'bird_mortality', date: age(50), quantity: 736 }, { type: 'bird_transfer_out', date: age(119), quantity: 30_064 }];
  const plan = (movements: typeof moved, asOf: string, targetAgeDays: number | null = null) =>
    rearingPlanOf({
      birdType: 'layer',
      ageOrigin: HATCH,
      movements,
      days: birdsPerDay(movements, age(0), asOf < age(200) ? asOf : age(200), addDays),
      firstEggOn: null,
      targetAgeDays,
      asOf,
    });
  const sampling = (movements: typeof moved, samples: string[], asOf: string) =>
    cycleSampling(
      { birdType: 'layer', hatchDate: HATCH, targetAgeDays: null, endDate: null, rearing: plan(movements, asOf), birdsGoneOn: birdsGoneOn(movements) },
      samples,
      null,
      asOf,
    ).occurrences;

  it('the plan: day-old chicks placed on day 0 (sample to age 2), the pullets moved on day 119', () => {
    expect(plan(moved, age(130))).toEqual({ dayOld: { from: age(0), until: age(2) }, move: { on: age(119), actual: true } });
    // not moved yet: the planned transfer, else the point of lay; a few birds sold are not the move
    expect(plan(placed, age(60), 119).move).toEqual({ on: age(119), actual: false });
    expect(plan([...placed, { type: 'bird_sale', date: age(40), quantity: 100 }], age(60)).move).toEqual({ on: age(126), actual: false });
    // still there at laying maturity: they came into lay in place that day
    expect(plan(placed, age(130)).move).toEqual({ on: age(126), actual: true });
    // a laying cycle stocked by a transfer reared nothing
    expect(plan([{ type: 'bird_transfer_in', date: age(119), quantity: 30_064 }], age(200))).toEqual({ dayOld: null, move: null });
  });

  it('with both samples it passes, and the laying hens’ samplings do not follow birds that left', () => {
    const occ = sampling(moved, [age(0), age(110)], age(250));
    expect(occ.map((o) => [o.kind, o.status, o.sampleDate])).toEqual([
      ['day_old', 'done', age(0)],
      ['pre_move', 'done', age(110)],
    ]);
    const rule = salmonellaRule('layer', occ, null);
    expect(rule.status).toBe('pass');
    expect(rule.summary).toBe(`2 sampling(s) on time (day-old on ${age(0)}, pre-move on ${age(110)})`);
  });

  it('the pre-move sample missing fails naming it; late (after the move) fails too, and one taken before its two weeks does not stand for it', () => {
    const missing = salmonellaRule('layer', sampling(moved, [age(1)], age(130)), null);
    expect(missing.status).toBe('fail');
    expect(missing.findings).toEqual([
      expect.objectContaining({ status: 'fail', date: age(118), message: expect.stringContaining(`No pre-move sample of the pullets`) }),
    ]);
    expect(missing.findings[0]!.message).toContain(`between ${age(105)} and ${age(118)}`);
    const late = salmonellaRule('layer', sampling(moved, [age(1), age(121)], age(130)), null);
    expect(late.findings).toEqual([expect.objectContaining({ status: 'fail', evidence: expect.objectContaining({ kind: 'pre_move', status: 'late' }) })]);
    const early = salmonellaRule('layer', sampling(moved, [age(1), age(90)], age(130)), null);
    expect(early.findings).toEqual([expect.objectContaining({ status: 'fail', evidence: expect.objectContaining({ kind: 'pre_move', status: 'missed' }) })]);
  });

  it('the day-old sample: due on arrival, late after 2 days of age (fail), missed without any', () => {
    expect(sampling(placed, [], age(1)).map((o) => [o.kind, o.status])).toContainEqual(['day_old', 'due']);
    const late = salmonellaRule('layer', sampling(moved, [age(5), age(110)], age(130)), null);
    expect(late.findings).toEqual([
      expect.objectContaining({
        status: 'fail',
        message: `The day-old chick sample (chick box liners on arrival) was taken on ${age(5)}, after it was due by ${age(2)}`,
      }),
    ]);
  });

  it('the dashboards read the plan from the counters: the pre-move sample is due in the two weeks before the planned move', () => {
    const cycle = { birdType: 'layer', placedOn: age(0), targetAgeDays: 119, placed: 30_800, transferredIn: 0, transferredOut: 0, sold: 0, eggsCollected: 0 };
    const today = age(110);
    const counters = rearingPlanFromCounters(cycle, HATCH, today);
    expect(counters).toEqual({ dayOld: { from: age(0), until: age(2) }, move: { on: age(119), actual: false } });
    const occ = cycleSampling({ birdType: 'layer', hatchDate: HATCH, targetAgeDays: 119, endDate: null, rearing: counters }, [age(0)], null, today).occurrences;
    expect(
      openSampling(
        occ.filter((o) => o.kind === 'pre_move'),
        [age(0)],
        today,
      ),
    ).toEqual([expect.objectContaining({ status: 'due', dueBy: age(118), daysLeft: 9 })]);
    // moved out: nothing left to do before the move
    expect(rearingPlanFromCounters({ ...cycle, transferredOut: 30_064 }, HATCH, age(125)).move).toBeNull();
  });
});

describe('an official sample and the laying hens’ 15-week clock', () => {
  it('an official sample neither stands for the operator’s nor restarts the clock: the next is due 15 weeks after the operator’s', () => {
    const samples = [
      { date: age(168), kind: 'boot_swabs' },
      { date: age(210), kind: 'official' },
    ];
    const dates = operatorSampleDates(samples);
    expect(dates).toEqual([age(168)]);
    const occ = cycleSampling({ birdType: 'layer', hatchDate: HATCH, targetAgeDays: null, endDate: null }, dates, null, age(280)).occurrences;
    expect(occ.map((o) => [o.kind, o.status, o.dueBy])).toEqual([
      ['laying', 'done', age(182)],
      ['laying', 'missed', age(168 + 105)],
      ['laying', 'upcoming', age(273 + 105)],
    ]);
    const rule = salmonellaRule('layer', occ, null, samples.length - dates.length);
    expect(rule.status).toBe('fail');
    expect(rule.summary).toContain('1 official sample(s) recorded, not counted as the operator’s');
  });

  it('a sample more than 15 weeks after a deadline is not that occurrence’s late one: the 15 weeks between passed without a sample (missed)', () => {
    const occ = cycleSampling(
      { birdType: 'layer', hatchDate: HATCH, targetAgeDays: null, endDate: null },
      [age(168), age(168 + 105 + 120)],
      null,
      age(400),
    ).occurrences;
    expect(occ.map((o) => [o.status, o.dueBy, o.sampleDate])).toEqual([
      ['done', age(182), age(168)],
      ['missed', age(273), null],
      ['late', age(378), age(393)],
      ['upcoming', age(393 + 105), null],
    ]);
  });
});
