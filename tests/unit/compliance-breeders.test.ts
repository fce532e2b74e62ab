/**
 * A breeding flock's Salmonella sampling without I/O: reared from day-old chicks it is sampled as chicks,
 * at four weeks of age and two weeks before it comes into lay (Reg. (EC) No 2160/2003, Annex II, Part B,
 * point 1), then every second week of the laying period (Reg. (EU) No 200/2010, Annex, 2.2.2.1), not on
 * the laying hens' 15-week clock.
 */
import { describe, expect, it } from 'vitest';
import { birdsPerDay } from '../../shared/domain/compliance/density.js';
import { birdsGoneOn, rearingPlanFromCounters, rearingPlanOf } from '../../shared/domain/compliance/rearing.js';
import { salmonellaRule } from '../../shared/domain/compliance/salmonella-report.js';
import { cycleSampling, openSampling } from '../../shared/domain/compliance/sampling.js';
import { layingMaturityOn } from '../../shared/domain/laying-maturity.js';
import { addDays } from '../../shared/platform/calendar.js';

const HATCH = '2025-01-06';
const age = (days: number) => addDays(HATCH, days);
/** 9,000 day-old breeders reared and laying in the same house: the first egg at 23 weeks. */
const placed = [{ type: 'bird_inflow', date: age(0), quantity: 9000 }];
const FIRST_EGG = 161;

const plan = (asOf: string, firstEggOn: string | null = age(FIRST_EGG)) =>
  rearingPlanOf({
    birdType: 'breeder',
    ageOrigin: HATCH,
    movements: placed,
    days: birdsPerDay(placed, age(0), asOf, addDays),
    firstEggOn,
    targetAgeDays: null,
    asOf,
  });
const sampling = (samples: string[], asOf: string) =>
  cycleSampling(
    {
      birdType: 'breeder',
      hatchDate: HATCH,
      targetAgeDays: null,
      endDate: null,
      rearing: plan(asOf),
      layingFrom: layingMaturityOn({ birdType: 'breeder', ageOrigin: HATCH, firstEggOn: age(FIRST_EGG) }),
      birdsGoneOn: birdsGoneOn(placed),
    },
    samples,
    null,
    asOf,
  ).occurrences;
/** Every sample on time: day-old, four weeks, pre-lay, then every 14 days from the first egg. */
const onTime = [0, 30, 150, ...Array.from({ length: 8 }, (_, i) => FIRST_EGG + 4 + 14 * i)].map(age);

describe('a breeding flock’s Salmonella samples', () => {
  it('the rearing plan: day-old chicks (to age 2), four weeks (28–34 days old), and the pre-lay sample before the first egg', () => {
    expect(plan(age(200))).toEqual({
      dayOld: { from: age(0), until: age(2) },
      fourWeeks: { from: age(28), until: age(34) },
      move: { on: age(FIRST_EGG), actual: true },
    });
    // a layer flock has no four-week sample
    const layer = rearingPlanOf({
      birdType: 'layer',
      ageOrigin: HATCH,
      movements: placed,
      days: birdsPerDay(placed, age(0), age(60), addDays),
      firstEggOn: null,
      targetAgeDays: null,
      asOf: age(60),
    });
    expect(layer).not.toHaveProperty('fourWeeks');
  });

  it('with every sample on time it passes: three rearing samples, then one in every second week of lay', () => {
    const asOf = age(FIRST_EGG + 4 + 14 * 7 + 3);
    const occ = sampling(onTime, asOf);
    expect(occ.slice(0, 3).map((o) => [o.kind, o.status, o.sampleDate])).toEqual([
      ['day_old', 'done', age(0)],
      ['four_weeks', 'done', age(30)],
      ['pre_move', 'done', age(150)],
    ]);
    const inLay = occ.slice(3);
    expect(inLay.filter((o) => o.status === 'done').map((o) => o.sampleDate)).toEqual(onTime.slice(3));
    expect(inLay[0]).toMatchObject({ kind: 'breeding', from: age(FIRST_EGG), dueBy: age(FIRST_EGG + 13) });
    // the next: its two weeks are running (due), to 14 days after the last sample
    expect(inLay.at(-1)).toMatchObject({ kind: 'breeding', status: 'due', from: addDays(onTime.at(-1)!, 1), dueBy: addDays(onTime.at(-1)!, 14) });
    expect(salmonellaRule('breeder', occ, null).status).toBe('pass');
  });

  it('sampled on the laying hens’ 15-week clock, a breeding flock fails: each two-week period without a sample is named', () => {
    const layerClock = [0, 30, 150, 168, 273].map(age);
    const rule = salmonellaRule('breeder', sampling(layerClock, age(280)), null);
    expect(rule.status).toBe('fail');
    const missed = rule.findings.filter((f) => f.evidence.kind === 'breeding' && f.evidence.status === 'missed');
    expect(missed.length).toBeGreaterThanOrEqual(6);
    expect(missed[0]!.message).toBe(`No breeding-flock sample (at the operator’s initiative, every second week in lay) between ${age(169)} and ${age(182)}`);
  });

  it('the four-week sample: missing fails, taken after the chicks are 34 days old is late and fails', () => {
    const withoutIt = salmonellaRule('breeder', sampling([age(0), age(150), ...onTime.slice(3)], age(FIRST_EGG + 20)), null);
    expect(withoutIt.findings).toEqual([
      expect.objectContaining({
        status: 'fail',
        date: age(34),
        message: `No four-week sample of the breeders’ rearing flock (28–34 days of age) between ${age(28)} and ${age(34)}`,
      }),
    ]);
    const late = salmonellaRule('breeder', sampling([age(0), age(40), age(150), ...onTime.slice(3)], age(FIRST_EGG + 20)), null);
    expect(late.findings).toEqual([
      expect.objectContaining({ status: 'fail', evidence: expect.objectContaining({ kind: 'four_weeks', status: 'late', sampleDate: age(40) }) }),
    ]);
  });

  it('the dashboards read it from the counters: the four-week sample is due while the chicks are 28–34 days old', () => {
    const cycle = { birdType: 'breeder', placedOn: age(0), targetAgeDays: null, placed: 9000, transferredIn: 0, transferredOut: 0, sold: 0, eggsCollected: 0 };
    const today = age(30);
    const counters = rearingPlanFromCounters(cycle, HATCH, today);
    expect(counters.fourWeeks).toEqual({ from: age(28), until: age(34) });
    const occ = cycleSampling(
      { birdType: 'breeder', hatchDate: HATCH, targetAgeDays: null, endDate: null, rearing: counters },
      [age(0)],
      null,
      today,
    ).occurrences;
    expect(openSampling(occ, [age(0)], today)).toEqual([expect.objectContaining({ status: 'due', from: age(28), dueBy: age(34), daysLeft: 5 })]);
  });
});
