/**
 * The daily detectors judge a flock against its breed's expected trajectory: a Ross 308 flock fed and
 * watered on the breed's curve raises nothing, while a real drop in feed still stands out.
 */
import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { standardFeedIntake } from '../../shared/domain/analytics/breed-standards.js';
import { emptyDay, type CycleInputs, type DayTotals } from '../../shared/domain/analytics/inputs.js';
import { dailySeries } from '../../shared/domain/analytics/kpis/daily.js';
import { ROSS_308 } from '../../shared/domain/analytics/standards/ross-308.js';
import { detectCycleDays, detectDaily } from '../../shared/domain/detection/daily.js';
import { rossBroilerCycle } from '../support/cycle-facts.js';

const B0 = '2026-05-01';
const dateOf = (n: number) => new Date(Date.parse(B0) + n * 86_400_000).toISOString().slice(0, 10);
const NOISE = [0, 0.02, -0.015, 0.01, -0.02, 0.015, -0.005, 0.025, -0.01, 0.005, -0.025, 0.02, -0.01, 0.01];
const BIRDS = 20_000;

/** 20,000 Ross 308 placed on day 0, 8 deaths a day, feed and water on the breed's curve with ±2.5 % noise. */
function onTheCurve(days: number, feedFactor: (n: number) => number = () => 1): CycleInputs {
  const ledger: DayTotals[] = Array.from({ length: days + 1 }, (_, n) => {
    const present = BIRDS - 8 * Math.max(0, n - 1);
    const feedKg = n === 0 ? 0 : ((standardFeedIntake(ROSS_308, n)!.grams * present) / 1000) * (1 + NOISE[(n + 5) % 14]!) * feedFactor(n);
    const waterLiters = n === 0 ? 0 : ((standardFeedIntake(ROSS_308, n)!.grams * present) / 1000) * 1.7 * (1 + NOISE[n % 14]!);
    return { ...emptyDay(dateOf(n)), placed: n === 0 ? BIRDS : 0, deaths: n === 0 ? 0 : 8, feedConsumedKg: feedKg, waterLiters };
  });
  return {
    cycle: rossBroilerCycle(B0),
    days: ledger,
    weighings: [],
    asOf: dateOf(days),
  };
}

const config = () => structuredClone(ANALYTICS_DEFAULTS);

describe('detectors against the breed curve', () => {
  it('a flock fed and watered on the Ross 308 curve raises nothing over 42 days', () => {
    const inputs = onTheCurve(42);
    expect(detectCycleDays(inputs, dailySeries(inputs, config()))).toEqual([]);
  });

  it("against the flock's own growth line the same normal flock looks like feed above usual (why the breed curve is the reference)", () => {
    const inputs = onTheCurve(42);
    const own = detectDaily(dailySeries(inputs, config())).filter((d) => d.metric === 'feedGramsPerBird');
    expect(own.length).toBeGreaterThan(0);
  });

  it('a 15 % drop in feed on days 25–27 still stands out, as % of the breed intake', () => {
    const inputs = onTheCurve(30, (n) => (n >= 25 && n <= 27 ? 0.85 : 1));
    const feed = detectCycleDays(inputs, dailySeries(inputs, config())).filter((d) => d.metric === 'feedGramsPerBird');
    expect(feed.filter((d) => d.bucket < dateOf(25))).toEqual([]);
    const first = feed.find((d) => d.detector === 'robust_z')!;
    expect([first.bucket, first.direction]).toEqual([dateOf(25), 'down']);
    expect(first.evidence).toMatchObject({ reference: expect.any(Number) });
  });
});
