import { beforeAll, describe, expect, it } from 'vitest';
import { call as inProcessCall } from '../support/api.js';
import { checkedCall } from '../support/contract.js';
import { userWith } from '../support/accounts.js';
import { day, flockWithCycle, type CycleFixture } from '../support/cycles.js';
import { otherFarm } from '../support/farms.js';
import { dbCalls, resetDbCalls } from '../../shared/db/client.js';

/** Every JSON response is checked against the closed schema of its operation (tests/support/contract.ts). */
const call = checkedCall(inProcessCall);

/**
 * A Ross 308 broiler cycle built over the API, checked figure by figure against the arithmetic below.
 * The cycle started 35 days ago (age 0 = start = hatch), so "today" is age 35.
 *
 *   age 0   bird_inflow 1,000 at 42 g, 0.50 each; feed_delivery starter 2,000 kg at 0.50/kg (supplier S1, on time, as ordered)
 *   age 1   10 dead (unknown)            age 10  5 dead (heat)           age 20  5 culled
 *   age 14  feed_delivery grower 3,000 kg, no price (supplier S2: promised 2 days earlier, 3,100 kg ordered, wet)
 *   feed    age 6: 150 kg starter, age 13: 400 kg starter, age 20: 700 kg grower, age 27: 1,000 kg grower, age 34: 1,000 kg grower
 *   weighed age 28: 1,600 g; age 35: 2,300 g (100 birds)
 *   water pH 5.5 at age 33
 *
 *   birds: housed 1,000, deaths 15, culls 5, alive 980
 *   mortality 15 ÷ 1,000 = 1.5 %; livability 980 ÷ 1,000 = 98 %
 *   FCR age 35 = 3,250 kg ÷ (980 × 2.3 kg = 2,254 kg) = 1.44188 → 1.442
 *   corrected FCR = 1.44188 + 0.02 × (2,500 − 2,300) ÷ 100 = 1.48188 → 1.482
 *   ADG since placement = (2,300 − 42) ÷ 35 = 64.514 g/day
 *   EPEF = 98 × 2.3 × 100 ÷ (35 × 1.44188) = 22,540 ÷ 50.4658 = 446.6
 *   Ross 308 at 35 d: 2,296 g, FCR 1.399 → weight +0.17 %, FCR +3.07 %; at 28 d: 1,616 g → 1,600 is −0.99 %
 *   FCR age 28 = 2,250 kg ÷ (980 × 1.6) = 1.43495 vs 1.269 → +13.1 % (> 5 %: anomaly, ≥ 10 %: critical)
 *   daily mortality age 1 = 10 ÷ 1,000 = 1.0 % (≥ 2 × 0.5: critical); age 10 = 5 ÷ 990 = 0.505 % (> 0.5: warning)
 *   costs: chicks 1,000 × 0.50 = 500; feed starter 550 kg × 0.50 (delivered price) = 275, grower 2,700 kg × 0.45 (default) = 1,215
 *          total 1,990; kg produced 2,254 (alive × weight) → 0.8829 per kg; per bird placed 1.99
 *   suppliers: S1 on time, 0 % variance, no issue → 100; S2 late, |3,000 − 3,100| ÷ 3,100 = 3.2258 % variance, 1 issue in 1
 *              → 0.40 × 0 + 0.35 × 0 + 0.25 × 96.774 = 24.19
 */
const A = '/api/v2/analytics';
let c: CycleFixture;
/** The two suppliers of the deliveries (suppliers serving the farm: a delivery names a supplier of its farm). */
const suppliers = { S1: '', S2: '' };
const age = (n: number) => day(n - 35);

beforeAll(async () => {
  c = await flockWithCycle({ breed: 'Ross 308', startDate: age(0), cycle: { targetAgeDays: 42, targetWeightGrams: 2800 } });
  for (const name of ['S1', 'S2'] as const) {
    const res = await call('POST', '/api/v1/procurement/suppliers', { token: c.token, body: { name, kinds: ['feed'], farmIds: [c.flock.farmId] } });
    expect(res.status, res.raw).toBe(201);
    suppliers[name] = res.body.data.id;
  }
  await c.move({ type: 'bird_inflow', date: age(0), quantity: 1000, averageWeightGrams: 42, unitCost: 0.5 });
  await c.move({
    type: 'feed_delivery',
    date: age(0),
    feedType: 'starter',
    quantityKg: 2000,
    unitPrice: 0.5,
    supplierId: suppliers.S1,
    orderedDate: age(0),
    expectedDate: age(0),
    orderedQuantityKg: 2000,
  });
  await c.move({ type: 'bird_mortality', date: age(1), quantity: 10 });
  await c.move({ type: 'feed_consumption', date: age(6), quantityKg: 150, feedType: 'starter' });
  await c.move({ type: 'bird_mortality', date: age(10), quantity: 5, cause: 'heat' });
  await c.move({ type: 'feed_consumption', date: age(13), quantityKg: 400, feedType: 'starter' });
  await c.move({
    type: 'feed_delivery',
    date: age(14),
    feedType: 'grower',
    quantityKg: 3000,
    supplierId: suppliers.S2,
    orderedDate: age(5),
    expectedDate: age(12),
    orderedQuantityKg: 3100,
    qualityIssues: ['wet'],
  });
  await c.move({ type: 'bird_cull', date: age(20), quantity: 5 });
  await c.move({ type: 'feed_consumption', date: age(20), quantityKg: 700, feedType: 'grower' });
  await c.move({ type: 'feed_consumption', date: age(27), quantityKg: 1000, feedType: 'grower' });
  await c.move({ type: 'feed_consumption', date: age(34), quantityKg: 1000, feedType: 'grower' });
  for (const [a, grams] of [
    [28, 1600],
    [35, 2300],
  ] as const) {
    const res = await call('POST', `${c.base}/weights`, { token: c.token, body: { date: age(a), grams, sampleSize: 100 } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  expect((await call('POST', `${A}/water-readings`, { token: c.token, body: { flockId: c.flock.id, pH: 5.5, date: age(33) } })).status).toBe(201);
});

const get = async (path: string, query?: Record<string, string>) => {
  const res = await call('GET', path, { token: c.token, query });
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
  return res.body.data;
};
const ids = () => `${c.flock.id}/${c.cycle.id}`;

describe('Analytics V2 on a hand-computed broiler cycle', () => {
  it('cycle KPIs equal the reference', async () => {
    const { cycle, kpis } = await get(`${A}/cycle/${ids()}`);
    expect(cycle).toMatchObject({ flockId: c.flock.id, cycleId: c.cycle.id, breed: 'Ross 308', asOf: age(35), configVersion: expect.any(Number) });
    expect(kpis.birds).toMatchObject({ housed: 1000, deaths: 15, culls: 5, alive: 980 });
    expect(kpis.mortalityPct).toMatchObject({ value: 1.5, unit: '%' });
    expect(kpis.livabilityPct.value).toBe(98);
    expect(kpis.feedConsumedKg.value).toBe(3250);
    expect(kpis.bodyWeight).toMatchObject({ value: 2300, date: age(35) });
    expect(kpis.fcr.value).toBeCloseTo(1.442, 3);
    expect(kpis.correctedFcr.value).toBeCloseTo(1.482, 3);
    expect(kpis.adgSincePlacement.value).toBeCloseTo(64.51, 1);
    expect(kpis.epef.value).toBeCloseTo(446.6, 0);
    expect(kpis.liveWeightKg.value).toBeCloseTo(2254, 1);
    expect(kpis.deathsByCause).toEqual({ unknown: 10, heat: 5 });
    expect(kpis.breedStandard).toMatchObject({ name: 'Ross 308', status: 'official' });
    expect(kpis.henDayPct.value).toBeNull();
    expect(kpis.henDayPct.reason).toEqual(expect.any(String));
  });

  it('the daily series has every calendar day, with the day’s mortality against the birds at its start', async () => {
    const { days } = await get(`${A}/daily/${ids()}`);
    expect(days).toHaveLength(36);
    expect(days[0]).toMatchObject({ date: age(0), ageDays: 0 });
    expect(days[1].dailyMortalityPct.value).toBeCloseTo(1.0, 2);
    expect(days[10].dailyMortalityPct.value).toBe(0.51); // 0.505 % at 2 decimals
    expect(days[3].birds.deaths).toBe(0); // a day without movements is a zero day
    expect(days[35].fcr.value).toBeCloseTo(1.442, 3);
  });

  it('the breed comparison gives actual vs Ross 308 with deviations', async () => {
    const { comparison } = await get(`${A}/breed/${ids()}`);
    expect(comparison.standard).toMatchObject({ name: 'Ross 308' });
    const at = (a: number) => comparison.days.find((d: { ageDays: number }) => d.ageDays === a);
    expect(at(35).bodyWeight).toMatchObject({ actual: 2300, standard: 2296 });
    expect(at(35).bodyWeight.deviationPct).toBeCloseTo(0.17, 1);
    expect(at(28).bodyWeight.deviationPct).toBeCloseTo(-0.99, 1);
    expect(at(35).cumulativeFcr.standard).toBe(1.399);
    expect(at(35).cumulativeFcr.deviationPct).toBeCloseTo(3.07, 1);
    expect(at(10).bodyWeight.standard).toBe(330); // the published daily objective (weekly points interpolated gave 350.1)
    expect(at(10).bodyWeight.interpolated).toBe(false);
  });

  it('financials price movements (their own price first, then the pricing config)', async () => {
    const { financials } = await get(`${A}/financials/${ids()}`);
    expect(financials.costs.chicks.amount).toBe(500);
    expect(financials.costs.feed.amount).toBe(1490);
    expect(financials.costs.feed.byType).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ feedType: 'starter', consumedKg: 550, unitPrice: 0.5, amount: 275 }),
        expect.objectContaining({ feedType: 'grower', consumedKg: 2700, unitPrice: 0.45, amount: 1215 }),
      ]),
    );
    expect(financials.costs.total).toBe(1990);
    expect(financials.revenue.total).toBe(0);
    expect(financials.margin.value).toBe(-1990);
    expect(financials.costPerKgLiveweight.value).toBeCloseTo(0.8829, 4);
    expect(financials.costPerBirdPlaced.value).toBeCloseTo(1.99, 2);
    expect(financials.assumptions.join(' ')).toMatch(/grower/);
  });

  it('anomalies: the mortality days, FCR at the 28-day weighing and the acid water reading', async () => {
    const { anomalies } = await get(`${A}/anomalies/${ids()}`);
    expect(anomalies.map((a: Record<string, unknown>) => [a.date, a.metric, a.severity])).toEqual([
      [age(1), 'dailyMortality', 'critical'],
      [age(10), 'dailyMortality', 'warning'],
      [age(28), 'fcrAboveStandard', 'critical'],
      [age(33), 'waterPh', 'warning'],
    ]);
    const critical = await get(`${A}/anomalies/${ids()}`, { severity: 'critical' });
    expect(critical.anomalies).toHaveLength(2);
  });

  it('predictions fit the weighings to the breed curve and date the target weight', async () => {
    const { predictions } = await get(`${A}/predictions/${ids()}`);
    const w = predictions.weight;
    expect(w.fit.method).toBe('breed_curve_scaled');
    // both weighings sit within 1 % of Ross 308: the scaled curve stays close to the standard (2,998 g at 42 d)
    expect(w.atTargetAge.ageDays).toBe(42);
    expect(w.atTargetAge.weight.value).toBeGreaterThan(2998 * 0.98);
    expect(w.atTargetAge.weight.value).toBeLessThan(2998 * 1.02);
    expect(w.targetWeight.grams).toBe(2800);
    expect(w.targetWeight.ageDays).toBeGreaterThanOrEqual(39);
    expect(w.targetWeight.ageDays).toBeLessThanOrEqual(41);
  });

  it('supplier reliability from the cycle’s deliveries', async () => {
    const report = await get(`${A}/cycle/${ids()}/suppliers`);
    const s1 = report.suppliers.find((s: { supplierId: string }) => s.supplierId === suppliers.S1);
    const s2 = report.suppliers.find((s: { supplierId: string }) => s.supplierId === suppliers.S2);
    expect(s1.score).toEqual({ value: 100, unit: 'index' });
    expect(s2.onTime.ratePct).toEqual({ value: 0, unit: '%' });
    expect(s2.quantity.meanAbsVariancePct.unit).toBe('%');
    expect(s2.quantity.meanAbsVariancePct.value).toBeCloseTo(3.23, 1);
    expect(s2.quality.issuesByKind).toEqual({ wet: 1 });
    expect(s2.score.unit).toBe('index');
    expect(s2.score.value).toBeCloseTo(24.19, 1);
  });

  it('answers SVG charts on Accept: image/svg+xml', async () => {
    for (const [path, chart] of [
      [`${A}/daily/${ids()}`, 'mortality'],
      [`${A}/breed/${ids()}`, 'weight'],
      [`${A}/breed/${ids()}`, 'fcr'],
    ] as const) {
      const res = await call('GET', path, { token: c.token, headers: { Accept: 'image/svg+xml' }, query: { chart } });
      expect(res.status).toBe(200);
      expect(res.headers['Content-Type']).toMatch(/^image\/svg\+xml/);
      expect(res.raw).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(res.raw).toMatch(/<\/svg>$/);
      expect(res.raw).toContain('<path d="M');
    }
    const weight = await call('GET', `${A}/breed/${ids()}`, { token: c.token, headers: { Accept: 'image/svg+xml' } });
    expect(weight.raw).toContain('Ross 308 standard');
    const bad = await call('GET', `${A}/daily/${ids()}`, { token: c.token, headers: { Accept: 'image/svg+xml' }, query: { chart: 'pie' } });
    expect(bad.status).toBe(400);
  });

  it('the system proposes recommendations from the analytics, with evidence, once per rule and cycle', async () => {
    // In the last 7 days only the acid water reading (age 33) breaks a rule: the FCR at the latest weighing is
    // 3.07 % over (limit 5 %), weight +0.17 %, the mortality alarms are older than a week.
    const GEN = '/api/v1/optimization/recommendations/generate';
    const first = await call('POST', GEN, { token: c.token, body: { flockId: c.flock.id } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.created.map((r: { rule: string }) => r.rule)).toEqual(['water_ph_out_of_range']);
    expect(first.body.data.created[0]).toMatchObject({
      source: 'system',
      status: 'open',
      category: 'water',
      cycleId: c.cycle.id,
      evidence: [expect.objectContaining({ metric: 'waterPh', value: 5.5, reference: 6 })],
    });
    expect(first.body.data.checked).toContain('fcr_above_standard');
    const racers = await Promise.all([1, 2, 3].map(() => call('POST', GEN, { token: c.token, body: { flockId: c.flock.id, cycleId: c.cycle.id } })));
    for (const r of racers) expect(r.body.data).toMatchObject({ created: [], alreadyProposed: ['water_ph_out_of_range'] });
    const listed = await call('GET', '/api/v1/optimization/recommendations', { token: c.token, query: { flockId: c.flock.id, source: 'system' } });
    expect(listed.body.data).toHaveLength(1);
  });

  it('a read of one cycle costs the same DynamoDB calls however many movements it has', async () => {
    resetDbCalls();
    await get(`${A}/cycle/${ids()}`);
    const before = { ...dbCalls };
    for (let i = 0; i < 10; i++) await c.move({ type: 'water_consumption', date: age(i), liters: 100 + i });
    resetDbCalls();
    await get(`${A}/cycle/${ids()}`);
    expect({ ...dbCalls }).toEqual(before);
    expect(dbCalls.Query).toBe(2); // daily rollups + weighings (the flock has no house)
  });

  it('another farm’s cycle is 404 on every analytics read; viewers read, nobody without view_analytics', async () => {
    const outsider = await userWith({ role: 'manager', farmIds: [await otherFarm()] });
    for (const path of ['daily', 'cycle', 'breed', 'financials', 'predictions', 'anomalies']) {
      expect((await call('GET', `${A}/${path}/${ids()}`, { token: outsider.token })).status, path).toBe(404);
    }
    expect((await call('GET', `${A}/cycle/${ids()}/suppliers`, { token: outsider.token })).status).toBe(404);
    expect((await call('GET', `${A}/egg-quality-trend/${c.flock.id}`, { token: outsider.token })).status).toBe(404);
    const none = await userWith({ role: 'viewer', capabilities: [] });
    expect((await call('GET', `${A}/cycle/${ids()}`, { token: none.token })).status).toBe(403);
  });
});

describe('Analytics V2 overview, breeds and a layer flock', () => {
  it('the overview lists every Analytics V2 endpoint with its capability; breeds lists the shipped standards', async () => {
    const viewer = await userWith({ role: 'viewer' });
    const res = await call('GET', A, { token: viewer.token });
    expect(res.status).toBe(200);
    const paths = res.body.data.endpoints.map((e: { method: string; path: string }) => `${e.method} ${e.path}`);
    for (const p of [
      'POST /api/v2/analytics/egg-production',
      'POST /api/v2/analytics/water-readings',
      'POST /api/v2/analytics/validate-daily-data',
      'GET /api/v2/analytics/cycle/{flockId}/{cycleId}/suppliers',
      'GET /api/v2/analytics/egg-quality-trend/{flockId}',
    ]) {
      expect(paths).toContain(p);
    }
    expect(res.body.data.endpoints.find((e: { path: string }) => e.path.endsWith('/egg-production')).capability).toBe('edit_analytics');
    const breeds = await call('GET', `${A}/breeds`, { token: viewer.token });
    expect(breeds.body.data.map((b: { name: string }) => b.name)).toEqual(expect.arrayContaining(['Ross 308', 'Cobb 500', 'Hy-Line Brown']));
    const ross = breeds.body.data.find((b: { name: string }) => b.name === 'Ross 308');
    expect(ross).toMatchObject({ status: 'official', edition: 2022 });
  });

  it('a layer flock: hen-day % and the egg-quality trend from egg-production records', async () => {
    const layer = await flockWithCycle({ birdType: 'layer', breed: 'Hy-Line Brown', startDate: day(-6), hatchDate: day(-6 - 30 * 7) });
    await layer.move({ type: 'bird_inflow', date: day(-6), quantity: 1000 });
    // 6 days: 900 eggs a day; cracked 9, 18, 27, 36, 45, 54 (1 % → 6 %)
    for (let i = 0; i < 6; i++) {
      const res = await call('POST', `${A}/egg-production`, {
        token: layer.token,
        body: { flockId: layer.flock.id, date: day(-6 + i), totalEggs: 900, cracked: 9 * (i + 1), averageEggWeightGrams: 62 },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const { kpis } = await (await call('GET', `${A}/cycle/${layer.flock.id}/${layer.cycle.id}`, { token: layer.token })).body.data;
    // laying period = first collection to yesterday = 6 days: today is not over and its eggs are not recorded yet,
    // so it is missing, not a day of zero eggs (counting it gave 5,400 ÷ 7,000 = 77.14 %):
    // hen-day = 5,400 eggs ÷ (1,000 hens × 6 days) = 90 %
    expect(kpis.henDayPct.value).toBe(90);
    expect(kpis.eggWeightGrams.value).toBe(62);
    const trend = await call('GET', `${A}/egg-quality-trend/${layer.flock.id}`, { token: layer.token, query: { window: 'day' } });
    expect(trend.status, JSON.stringify(trend.body)).toBe(200);
    const periods = trend.body.data.periods.filter((p: { eggsCollected: number }) => p.eggsCollected > 0);
    expect(periods.map((p: { crackedPct: { value: number; unit: string } }) => p.crackedPct)).toEqual(
      [1, 2, 3, 4, 5, 6].map((value) => ({ value, unit: '%' })),
    );
    expect(trend.body.data.trend.crackedPct.direction).toBe('worsening');
    // cracked % rises 1 point a day: 7 percentage points a week
    expect(trend.body.data.trend.crackedPct.slopePerWeek).toEqual({ value: 7, unit: 'pp/week' });
  });
});
