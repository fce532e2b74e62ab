import { beforeAll, describe, expect, it } from 'vitest';
import { call as inProcessCall } from '../support/api.js';
import { checkedCall } from '../support/contract.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { day, flockWithCycle, type CycleFixture } from '../support/cycles.js';

/** Every JSON response is checked against the closed schema of its operation (tests/support/contract.ts). */
const call = checkedCall(inProcessCall);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The layer figures of one laying flock, the same on every route, counted over the days that are over
 * (today = day 0, on a UTC farm of its own; nothing is recorded for today before the last test):
 *
 *   Barn 1  layer, Hy-Line Brown: 1,000 pullets moved in on day −18; 4 days before lay (−18 … −15);
 *           800 eggs of 62 g a day from day −14 to day −1 (14 days), graded for double yolks on two days:
 *           6 on day −14 and 5 on day −7; 110 kg of feed a day from day −18 to day −1 (18 days); 10 dead on day −10.
 *           hens present: 1,000 to day −10 (the dead leave at its end), 990 from day −9
 *     laying days that count: −14 … −1 (today is not over and has no eggs yet): 14 days
 *     hen-days 5 × 1,000 + 9 × 990 = 13,910; eggs 14 × 800 = 11,200
 *     hen-day = 11,200 ÷ 13,910 = 80.5176 % → 80.52   (today counted as a zero day: ÷ 14,900 = 75.17 %;
 *                                                       the trend from day −18 with the pre-lay days and today: ÷ 18,900 = 59.26 %)
 *     egg mass = 0.805176 × 62 = 49.92 g/hen/day
 *     feed of the laying period = 14 × 110 = 1,540 kg (the whole cycle's 1,980 kg has the 4 pre-lay days' 440 kg)
 *     feed per dozen = 1,540 × 12 ÷ 11,200 = 1.65 (whole cycle: 1,980 × 12 ÷ 11,200 = 2.121); per egg 137.5 g
 *     feed per kg egg = 1,540 ÷ (11,200 × 0.062 = 694.4 kg) = 2.2177 → 2.218
 *     double-yolk rate = 11 ÷ (800 + 800 graded eggs) = 0.6875 → 0.69 % (over every egg: 11 ÷ 11,200 = 0.1 %)
 *     livability 990 ÷ 1,000 = 99 %, mortality 1 %
 *     weekly hen-day check on day 0: the current week −6 … 0 has no day 0 yet, so both weeks count their 6 twin days:
 *       −6 … −1: 4,800 ÷ (6 × 990) = 80.81 %; −13 … −8: 4,800 ÷ (4 × 1,000 + 2 × 990 = 5,980) = 80.27 %: no drop
 *       (with day 0 as a zero day: 4,800 ÷ 6,930 = 69.26 % against 5,600 ÷ 6,970 = 80.34 %: an 11.08-point "critical drop")
 *   Barn 2  layer: 500 hens moved in on day −10, 450 eggs a day from day −7 to day −1 → 3,150 ÷ 3,500 = 90 %
 *   Shed 3  broiler: 100 chicks on day −5
 */
const A = '/api/v2/analytics';
const FA = '/api/v1/flock-analytics';
let farmId: string;
let token: string;
let barn1: CycleFixture;
let barn2: CycleFixture;
let shed3: CycleFixture;

const get = async (path: string, query?: Record<string, string>) => {
  const res = await call('GET', path, { token, query });
  expect(res.status, res.raw.slice(0, 500)).toBe(200);
  return res.body.data;
};

beforeAll(async () => {
  const admin = await adminLogin();
  farmId = (await call('POST', '/api/v1/config/farms', { token: admin, body: { name: 'Layer figures farm', timezone: 'UTC' } })).body.data.id;
  token = (await userWith({ role: 'manager', farmIds: [farmId] })).token;
  barn1 = await flockWithCycle({ token, farmId, birdType: 'layer', breed: 'Hy-Line Brown', startDate: day(-18), hatchDate: day(-18 - 119) });
  await barn1.move({ type: 'bird_inflow', date: day(-18), quantity: 1000 });
  await barn1.move({ type: 'feed_delivery', date: day(-18), feedType: 'layer', quantityKg: 5000 });
  await barn1.move({ type: 'bird_mortality', date: day(-10), quantity: 10 });
  for (let d = -18; d <= -1; d++) {
    await barn1.move({ type: 'feed_consumption', date: day(d), feedType: 'layer', quantityKg: 110 });
    if (d < -14) continue;
    const graded = d === -14 ? { doubleYolk: 6 } : d === -7 ? { doubleYolk: 5 } : {};
    await barn1.move({ type: 'egg_collection', date: day(d), totalEggs: 800, averageEggWeightGrams: 62, ...graded });
  }
  barn2 = await flockWithCycle({ token, farmId, birdType: 'layer', startDate: day(-10) });
  await barn2.move({ type: 'bird_inflow', date: day(-10), quantity: 500 });
  for (let d = -7; d <= -1; d++) await barn2.move({ type: 'egg_collection', date: day(d), totalEggs: 450 });
  shed3 = await flockWithCycle({ token, farmId, startDate: day(-5) });
  await shed3.move({ type: 'bird_inflow', date: day(-5), quantity: 100 });
});

const ids = (fx: CycleFixture) => `${fx.flock.id}/${fx.cycle.id}`;

describe('layer figures: today is not a finished day', () => {
  it('hen-day counts the laying days that are over: today, before its eggs are recorded, is missing, not zero', async () => {
    const { kpis } = await get(`${A}/cycle/${ids(barn1)}`);
    expect(kpis.henDayPct).toEqual({ value: 80.52, unit: '%' }); // 11,200 ÷ 13,910
    expect(kpis.layingPeriod).toEqual({ from: day(-14), to: day(-1), days: 14 });
    expect(kpis.henHousedPct).toEqual({ value: 80, unit: '%' }); // 11,200 ÷ (1,000 × 14)
    expect(kpis.eggMassGrams).toEqual({ value: 49.92, unit: 'g/hen/day' });
    const { days } = await get(`${A}/daily/${ids(barn1)}`);
    const today = days.at(-1);
    expect(today.date).toBe(day(0));
    expect(today.henDayPct).toEqual({ value: null, unit: '%', reason: 'the day is not over and its eggs are not recorded yet' });
    expect(days.at(-2).henDayPct).toEqual({ value: 80.81, unit: '%' }); // 800 ÷ 990
    // before the first egg the flock is not laying: no hen-day, rather than 0 %
    expect(days[0].henDayPct.reason).toBe('before the laying period (it starts on the first day with eggs collected)');
  });

  it('a week cut short by today compares like with like: no hen-day drop, no call for the vet', async () => {
    const { anomalies } = await get(`${A}/anomalies/${ids(barn1)}`);
    expect(anomalies.filter((a: Json) => a.metric === 'henDayDrop')).toEqual([]);
    const generated = await call('POST', '/api/v1/optimization/recommendations/generate', { token, body: { flockId: barn1.flock.id } });
    expect(generated.status, generated.raw).toBe(200);
    expect(generated.body.data.created.map((r: Json) => r.rule)).not.toContain('hen_day_drop');
    expect(generated.body.data.checked).toContain('hen_day_drop');
  });

  it('the production forecast stands on the last 7 days that are over', async () => {
    const { predictions } = await get(`${A}/predictions/${ids(barn1)}`);
    // days −7 … −1: 5,600 ÷ 6,930 = 80.81 %
    expect(predictions.production.basis).toMatchObject({ from: day(-7), to: day(-1), eggs: 5600, henDayPct: { value: 80.81, unit: '%' } });
  });
});

describe('layer figures: one figure, one value', () => {
  it('the egg-quality trend and the cycle KPIs give the same hen-day (the pre-lay days are not laying days)', async () => {
    const { kpis } = await get(`${A}/cycle/${ids(barn1)}`);
    const trend = await get(`${A}/egg-quality-trend/${barn1.flock.id}`, { window: 'week' });
    expect(trend.from).toBe(day(-18));
    expect(trend.overall.henDayPct).toEqual(kpis.henDayPct);
    expect(trend.overall).toMatchObject({ henDays: 13_910, henDayPct: { value: 80.52, unit: '%' } });
  });

  it('feed per dozen eggs is the laying period’s feed, the same in Analytics V2 and flock analytics', async () => {
    const { kpis } = await get(`${A}/cycle/${ids(barn1)}`);
    expect(kpis.feedPerDozenEggs).toEqual({ value: 1.65, unit: 'kg/dozen' });
    expect(kpis.feedPerKgEgg).toEqual({ value: 2.218, unit: 'kg/kg' });
    const history = await get(`${FA}/${barn1.flock.id}`);
    const compared = await get(`${FA}/compare`, { flockIds: `${barn1.flock.id},${barn2.flock.id}` });
    for (const fa of [history.cycles[0].kpis, compared.items[0].kpis]) {
      expect(fa).toMatchObject({
        feedPerDozenEggs: kpis.feedPerDozenEggs,
        henDayPct: kpis.henDayPct,
        eggMassGrams: kpis.eggMassGrams,
        feedPerKgEgg: kpis.feedPerKgEgg,
        feedPerEgg: { value: 137.5, unit: 'g/egg' },
        feedConsumedKg: { value: 1980, unit: 'kg' }, // the whole cycle's feed is still what it is
      });
    }
  });

  it('the double-yolk rate divides by the graded eggs (the days that recorded double yolks)', async () => {
    const trend = await get(`${A}/egg-quality-trend/${barn1.flock.id}`, { window: 'week' });
    expect(trend.overall).toMatchObject({ eggsCollected: 11_200, eggsDoubleYolk: 11, doubleYolkPct: { value: 0.69, unit: '%' } });
    // the week of day −14 (one graded day; −7 is always in the next week): 6 ÷ its 800 graded eggs = 0.75 %
    const weeks = trend.periods.filter((p: Json) => p.eggsCollected > 0);
    const graded = weeks.find((p: Json) => p.from <= day(-14) && p.to >= day(-14));
    expect(graded.doubleYolkPct).toEqual({ value: 0.75, unit: '%' });
    // a day with eggs but not graded: no rate (its eggs were never looked at for double yolks)
    const daily = await get(`${A}/egg-quality-trend/${barn1.flock.id}`, { window: 'day' });
    const ungraded = daily.periods.find((p: Json) => p.period === day(-13));
    expect(ungraded).toMatchObject({ eggsCollected: 800, eggsDoubleYolk: 0, doubleYolkPct: { value: null, unit: '%' } });
  });
});

describe('layer KPIs where managers look', () => {
  it('dashboard: a laying flock has a layer card (hen-day, egg mass, feed per kg egg, livability); a broiler keeps its card', async () => {
    const d = (await call('GET', '/api/v1/dashboard', { token })).body.data;
    expect(d.role).toBe('manager');
    const card = d.flocks.find((f: Json) => f.flockId === barn1.flock.id);
    expect(card).toMatchObject({
      kind: 'layer',
      birdType: 'layer',
      birdsAlive: 990,
      henDayPct: { value: 80.52, unit: '%' },
      eggMassGrams: { value: 49.92, unit: 'g/hen/day' },
      feedPerKgEgg: { value: 2.218, unit: 'kg/kg' },
      livabilityPct: { value: 99, unit: '%' },
      mortalityPct: { value: 1, unit: '%' },
    });
    expect(card.fcr).toBeUndefined();
    expect(card.epef).toBeUndefined();
    const broiler = d.flocks.find((f: Json) => f.flockId === shed3.flock.id);
    expect(broiler).toMatchObject({ kind: 'broiler', fcr: { value: null }, epef: { value: null } });
    expect(broiler.henDayPct).toBeUndefined();
  });

  it('ranking by hen-day: highest first, broilers without a value', async () => {
    const r = await get(`${FA}/ranking`, { kpi: 'henDayPct' });
    expect(r.kpi).toMatchObject({ name: 'henDayPct', unit: '%', better: 'higher' });
    expect(r.flocks.map((f: Json) => [f.flock.id, f.rank, f.figure.value])).toEqual([
      [barn2.flock.id, 1, 90],
      [barn1.flock.id, 2, 80.52],
      [shed3.flock.id, null, null],
    ]);
    expect(r.flocks[2].figure.reason).toBe('layers and breeders only');
    // lower is better for the feed per kg egg: Barn 2 recorded no feed, so Barn 1 ranks alone
    const feed = await get(`${FA}/ranking`, { kpi: 'feedPerKgEgg' });
    expect(feed.kpi.better).toBe('lower');
    expect(feed.flocks[0]).toMatchObject({ rank: 1, flock: { id: barn1.flock.id }, figure: { value: 2.218, unit: 'kg/kg' } });
  });

  it('today counts once its eggs are recorded', async () => {
    await barn1.move({ type: 'egg_collection', date: day(0), totalEggs: 800, averageEggWeightGrams: 62 });
    const { kpis } = await get(`${A}/cycle/${ids(barn1)}`);
    // 12,000 ÷ (13,910 + 990) = 80.5369 %
    expect(kpis.henDayPct).toEqual({ value: 80.54, unit: '%' });
    expect(kpis.layingPeriod).toEqual({ from: day(-14), to: day(0), days: 15 });
    const r = await get(`${FA}/ranking`, { kpi: 'henDayPct' });
    expect(r.flocks[1]).toMatchObject({ flock: { id: barn1.flock.id }, figure: { value: 80.54 } });
  });
});
