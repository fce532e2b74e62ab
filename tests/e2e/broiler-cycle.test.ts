/**
 * A broiler cycle end to end over HTTP, as a farm client runs it: farm and house, flock, cycle, chicks
 * placed, feed delivered, a week of daily records (one resubmitted), weighings, the summary and the
 * weights, a lock and an unlock, a retried write with an Idempotency-Key, the cycle closed. Every number
 * of the summary is checked against what the ledger implies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOffline, type Offline } from '../support/offline.js';
import { client } from '../support/http.js';
import { checkedClient } from '../support/contract.js';

describe('a broiler cycle over HTTP', () => {
  let api: Offline;
  const http = checkedClient(client(() => api));
  let token: string;
  let base: string;
  let farmId: string;

  beforeAll(async () => {
    api = await startOffline();
    token = (await http('POST', '/api/v1/auth/login', { body: { email: api.admin.email, password: api.admin.password } })).body.token;
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('sets up a farm, a house, a flock and its cycle', async () => {
    const farm = await http('POST', '/api/v1/config/farms', { token, body: { name: 'E2E broiler farm', timezone: 'Europe/Amsterdam' } });
    expect(farm.status, farm.text).toBe(201);
    farmId = farm.body.data.id;
    const house = await http('POST', `/api/v1/config/farms/${farm.body.data.id}/houses`, {
      token,
      body: { name: 'House 1', usableAreaM2: 1000, capacity: 20000 },
    });
    expect(house.status, house.text).toBe(201);
    const flock = await http('POST', '/api/v1/flocks', {
      token,
      body: { name: 'Batch 47', birdType: 'broiler', breed: 'Ross 308', farmId: farm.body.data.id, houseId: house.body.data.id, hatchDate: '2026-11-01' },
    });
    expect(flock.status, flock.text).toBe(201);
    const cycle = await http('POST', `/api/v1/flocks/${flock.body.data.id}/cycles`, { token, body: { startDate: '2026-11-01', targetAgeDays: 42 } });
    expect(cycle.status, cycle.text).toBe(201);
    base = `/api/v1/flocks/${flock.body.data.id}/cycles/${cycle.body.data.id}`;
  });

  it('places chicks and feed, records a week of daily records (one resubmitted) and a weighing', async () => {
    const key = { 'Idempotency-Key': 'placement-batch-47' };
    const placement = { type: 'bird_inflow', date: '2026-11-01', quantity: 10000, averageWeightGrams: 42 };
    const first = await http('POST', `${base}/movements`, { token, body: placement, headers: key });
    const retry = await http('POST', `${base}/movements`, { token, body: placement, headers: key });
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.body.data.id).toBe(first.body.data.id);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(
      (await http('POST', `${base}/movements`, { token, body: { type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 5000 } })).status,
    ).toBe(201);

    for (let day = 2; day <= 8; day++) {
      const date = `2026-11-0${day}`;
      const res = await http('POST', `${base}/daily-records`, {
        token,
        body: { date, deaths: { unknown: 10 }, culls: 2, feedKg: 200, waterLiters: 360, temperatureMinC: 30, temperatureMaxC: 33, humidityPct: 60 },
      });
      expect(res.status, `${date} ${res.text}`).toBe(201);
    }
    const fix = await http('POST', `${base}/daily-records`, {
      token,
      body: {
        date: '2026-11-08',
        deaths: { unknown: 12, heat: 3 },
        culls: 2,
        feedKg: 210,
        waterLiters: 380,
        temperatureMinC: 30,
        temperatureMaxC: 34,
        humidityPct: 58,
      },
    });
    expect(fix.status, fix.text).toBe(200);
    const weighing = await http('POST', `${base}/weights`, {
      token,
      body: { date: '2026-11-08', samples: [190, 200, 205, 210, 195, 215, 185, 200, 205, 195] },
    });
    expect(weighing.status, weighing.text).toBe(201);
  });

  it('the summary equals what the ledger implies, and the weights read back in the contract’s shape', async () => {
    const s = (await http('GET', base, { token })).body.data;
    // deaths: 6 days × 10 + 15 on day 8 = 75; culls 7 × 2 = 14; alive 10000 − 75 − 14 = 9911
    expect(s.birds).toEqual({ placed: 10000, transferredIn: 0, deaths: 75, culls: 14, sold: 0, transferredOut: 0, alive: 9911 });
    // feed consumed 6 × 200 + 210 = 1410 kg; water 6 × 360 + 380 = 2540 l
    expect(s.feed).toEqual({ deliveredKg: 5000, consumedKg: 1410 });
    expect(s.waterLiters).toBe(2540);
    expect(s.latestWeight).toEqual({ date: '2026-11-08', grams: 200 });
    // mortality 75 / 10000 = 0.75 %; livability 9911 / 10000 = 99.11 %; FCR takes its weight by the analytics'
    // rule: the only weighing (8 Nov) is more than fallbacks.carryForwardWeightDays (7) before today, so no FCR
    // (the default fallbacks take no breed standard), and it says why, as /api/v2/analytics/cycle does
    expect(s.kpis).toMatchObject({
      mortalityPct: { value: 0.75, unit: '%' },
      livabilityPct: { value: 99.11, unit: '%' },
      fcr: {
        value: null,
        unit: 'kg/kg',
        reason: expect.stringMatching(
          /^no body weight: the latest weighing \(2026-11-08\) is \d+ days old, more than fallbacks\.carryForwardWeightDays \(7\)$/,
        ),
      },
    });
    const weights = (await http('GET', `${base}/weights`, { token })).body.data;
    expect(weights).toHaveLength(1);
    expect(weights[0]).toMatchObject({ date: '2026-11-08', grams: 200, method: 'manual_sample', phase: 'brooding', daysInCycle: 7 });
    expect(['high', 'medium', 'low']).toContain(weights[0].confidence);
    const stock = (await http('GET', `/api/v1/inventory/stock?farmId=${farmId}`, { token })).body.data;
    expect(stock.birds.total).toBe(9911);
    expect(stock.feed.byType).toEqual([{ feedType: 'starter', kg: 3590, shortfalls: [] }]);
  });

  it('analytics over HTTP: cycle KPIs, the day series, the Ross 308 comparison as JSON and as an SVG chart, financials', async () => {
    const ids = base.replace('/api/v1/flocks/', '').replace('/cycles/', '/');
    const { kpis } = (await http('GET', `/api/v2/analytics/cycle/${ids}`, { token })).body.data;
    expect(kpis.mortalityPct).toEqual({ value: 0.75, unit: '%' });
    expect(kpis.livabilityPct).toEqual({ value: 99.11, unit: '%' });
    expect(kpis.deathsByCause).toEqual({ unknown: 72, heat: 3 });
    // the only weighing (8 Nov) is more than fallbacks.carryForwardWeightDays (7) before today: no FCR, and it says why
    expect(kpis.fcr).toMatchObject({ value: null, reason: expect.any(String) });
    const { days } = (await http('GET', `/api/v2/analytics/daily/${ids}`, { token })).body.data;
    expect(days[7]).toMatchObject({ date: '2026-11-08', birds: { deaths: 15, culls: 2 } });
    // 15 dead ÷ 9,926 present at the start of 8 Nov (10,000 − 6 × 12) = 0.151 %
    expect(days[7].dailyMortalityPct.value).toBeCloseTo(0.15, 2);
    const { comparison } = (await http('GET', `/api/v2/analytics/breed/${ids}`, { token })).body.data;
    const day7 = comparison.days.find((d: { date: string }) => d.date === '2026-11-08');
    // 200 g at 7 days vs Ross 308 213 g: (200 − 213) ÷ 213 = −6.10 %
    expect(day7.bodyWeight).toMatchObject({ actual: 200, standard: 213 });
    expect(day7.bodyWeight.deviationPct).toBeCloseTo(-6.1, 1);
    const chart = await http('GET', `/api/v2/analytics/breed/${ids}`, { token, headers: { Accept: 'image/svg+xml' } });
    expect(chart.status).toBe(200);
    expect(chart.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(chart.text).toMatch(/^<svg[\s\S]*Ross 308 standard[\s\S]*<\/svg>$/);
    // default prices: 10,000 chicks × 0.55 = 5,500; 1,410 kg starter × 0.45 = 634.50
    const { financials } = (await http('GET', `/api/v2/analytics/financials/${ids}`, { token })).body.data;
    expect(financials.costs.chicks.amount).toBe(5500);
    expect(financials.costs.feed.amount).toBe(634.5);
  });

  it('locks and unlocks a movement, then closing the cycle locks everything for good', async () => {
    const movements = (await http('GET', `${base}/movements`, { token })).body.data;
    const placement = movements.find((m: { type: string }) => m.type === 'bird_inflow');
    const url = `${base}/movements/${placement.id}`;
    expect((await http('PUT', `${url}/lock`, { token, body: { reason: 'placement checked against delivery note' } })).body.data.lock.type).toBe('manual');
    expect((await http('PUT', `${url}/unlock`, { token, body: {} })).status).toBe(400);
    expect((await http('PUT', `${url}/unlock`, { token, body: { reason: 'count corrected by hatchery' } })).body.data.lock).toBeNull();
    const closed = await http('POST', `${base}/close`, { token, body: { endDate: '2026-11-12' } });
    expect(closed.status, closed.text).toBe(200);
    expect((await http('GET', url, { token })).body.data.lock).toMatchObject({ type: 'automatic' });
    expect((await http('PUT', `${url}/unlock`, { token, body: { reason: 'x' } })).status).toBe(409);
    expect((await http('POST', `${base}/movements`, { token, body: { type: 'bird_mortality', date: '2026-11-12', quantity: 1 } })).status).toBe(409);
  });
});
