import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { standardFeedIntake } from '../../shared/domain/analytics/breed-standards.js';
import { emptyDay, type CycleInputs, type DayTotals } from '../../shared/domain/analytics/inputs.js';
import { dailySeries } from '../../shared/domain/analytics/kpis/daily.js';
import { ROSS_308 } from '../../shared/domain/analytics/standards/ross-308.js';
import { rankHypotheses } from '../../shared/domain/diagnosis/hypotheses.js';
import { NO_CLIMATE, signalsOfDay } from '../../shared/domain/diagnosis/signals.js';
import { rossBroilerCycle } from '../support/cycle-facts.js';

/**
 * A feed outage (bins empty, auger stopped): feed far below the breed's intake for a day or two while
 * water falls less, mortality and temperature normal. The causes rank the feed supply first, on the
 * first day and on the second (whose change is read against the days before the outage, not against its
 * first day), and the patterns of the other causes keep their rank.
 */

const B0 = '2026-03-01';
const dateOf = (n: number) => new Date(Date.parse(B0) + n * 86_400_000).toISOString().slice(0, 10);
const OUTAGE = [22, 23];
const LAST = 23;
const FEED_SUPPLY = 'Empty silo or bridged feed line';

/** 1000 Ross 308 on the breed's intake and 1.7 l of water per kg of it; on the outage days feed −60 %, water −20 %. */
function outageSeries() {
  const feedKg = (n: number) => standardFeedIntake(ROSS_308, n)!.grams;
  const out = (n: number, drop: number) => (OUTAGE.includes(n) ? 1 - drop : 1);
  const days: DayTotals[] = Array.from({ length: LAST + 1 }, (_, n) => ({
    ...emptyDay(dateOf(n)),
    placed: n === 0 ? 1000 : 0,
    deaths: n % 4 === 0 ? 1 : 0,
    feedConsumedKg: n === 0 ? 0 : feedKg(n) * out(n, 0.6),
    waterLiters: n === 0 ? 0 : feedKg(n) * 1.7 * out(n, 0.2),
  }));
  const inputs: CycleInputs = { cycle: rossBroilerCycle(B0), days, weighings: [], asOf: dateOf(LAST) };
  return dailySeries(inputs, structuredClone(ANALYTICS_DEFAULTS));
}

const signalsOn = (day: number, metric = 'feedGramsPerBird') =>
  signalsOfDay(outageSeries(), dateOf(day), { metric, houseName: 'House 3', climate: { ...NO_CLIMATE, temperatureDeviationC: 0.3 }, thresholds: undefined });

describe('the signals of a feed outage', () => {
  it('on its first day: feed about 60 % below its trend, water about 20 % below the days before', () => {
    const s = signalsOn(22);
    expect(s.feedChangePct).toBeLessThan(-55);
    expect(s.waterChangePct).toBeCloseTo(-20, 0);
  });

  it('on its second day, against the days before the outage (not against its first day, which read as a 70 % rise)', () => {
    const s = signalsOn(23);
    expect(s.feedChangePct).toBeLessThan(-55);
    expect(s.waterChangePct).toBeCloseTo(-20, 0);
  });

  it('the day after a normal day is read against the three days before, as always', () => {
    const s = signalsOn(21);
    expect(Math.abs(s.feedChangePct!)).toBeLessThan(5);
    expect(Math.abs(s.waterChangePct!)).toBeLessThan(1);
  });
});

describe('the causes of a feed outage', () => {
  it('rank the feed supply first on both days, whatever fired (the feed detector, the water rules), with the check of the house', () => {
    for (const day of OUTAGE) {
      for (const metric of ['feedGramsPerBird', 'waterPctOfExpected', 'waterDropPct', 'waterFeedRatio']) {
        const h = rankHypotheses(signalsOn(day, metric));
        expect(h[0]!.cause, `${metric} on day ${day}: ${JSON.stringify(h)}`).toBe(FEED_SUPPLY);
        expect(h[0]!.check).toMatch(/house 3/);
        expect(h[0]!.supporting.join('; ')).toMatch(/birds drink and do not get feed/);
      }
    }
  });

  it('feed down far more than water, mortality and temperature normal: the feed supply before disease and the drinker line', () => {
    const h = rankHypotheses({
      metric: 'feedGramsPerBird',
      houseName: 'House 3',
      feedChangePct: -60,
      waterChangePct: -20,
      mortalityPct: 0.05,
      mortalityBaselinePct: 0.05,
      temperatureDeviationC: 0,
    });
    expect(h.map((x) => x.cause)).toEqual([FEED_SUPPLY, 'Disease', 'Drinker line or nipple fault']);
  });

  it('leaves the other patterns their cause: water and feed down together with deaths is disease, water down with feed normal the drinker line, heat the heat', () => {
    const base = { metric: 'waterDropPct', houseName: 'House 3', mortalityBaselinePct: 0.05 };
    expect(rankHypotheses({ ...base, waterChangePct: -25, feedChangePct: -20, mortalityPct: 0.6 })[0]!.cause).toBe('Disease');
    expect(rankHypotheses({ ...base, waterChangePct: -25, feedChangePct: -2, mortalityPct: 0.05 })[0]!.cause).toBe('Drinker line or nipple fault');
    expect(rankHypotheses({ ...base, waterChangePct: 20, feedChangePct: -15, mortalityPct: 0.6, temperatureDeviationC: 4 })[0]!.cause).toBe('Heat stress');
    // feed down with deaths up: the birds, not the feeders
    const sick = rankHypotheses({ ...base, waterChangePct: -8, feedChangePct: -30, mortalityPct: 0.6 });
    expect(sick[0]!.cause).toBe('Disease');
  });
});
