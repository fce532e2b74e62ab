import { beforeAll, describe, expect, it } from 'vitest';
import { call as inProcessCall } from '../support/api.js';
import { checkedCall } from '../support/contract.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { day, flockWithCycle, type CycleFixture } from '../support/cycles.js';
import { otherFarm } from '../support/farms.js';
import { dbCalls, resetDbCalls } from '../../shared/db/client.js';

/** Every JSON response is checked against the closed schema of its operation (tests/support/contract.ts). */
const call = checkedCall(inProcessCall);

const DASH = '/api/v1/dashboard';
let farmId: string;
let manager: { token: string };
let layers: CycleFixture;
let broilers: CycleFixture;

/**
 * One farm, two active flocks:
 *   Broilers: 1,000 placed 10 days ago; 8 dead today (8 ÷ 1,000 = 0.8 % > 0.5: warning); water 100 l yesterday, 50 l today (−50 %);
 *             a medication 2 days ago with 5 withdrawal days (last day = today + 3: 4 days left); no daily record today, never weighed.
 *   Layers:   500 placed 10 days ago; today’s daily record filed; weighed today.
 */
beforeAll(async () => {
  const admin = await adminLogin();
  farmId = (await call('POST', '/api/v1/config/farms', { token: admin, body: { name: 'Dashboard farm' } })).body.data.id;
  manager = await userWith({ role: 'manager', farmIds: [farmId] });
  broilers = await flockWithCycle({ token: manager.token, farmId, startDate: day(-10) });
  await broilers.move({ type: 'bird_inflow', date: day(-10), quantity: 1000 });
  await broilers.move({ type: 'bird_mortality', date: day(0), quantity: 8, cause: 'disease' });
  await broilers.move({ type: 'water_consumption', date: day(-1), liters: 100 });
  await broilers.move({ type: 'water_consumption', date: day(0), liters: 50 });
  await broilers.move({ type: 'medication', date: day(-2), product: 'Amoxicillin', dose: '15 mg/kg', withdrawalDays: 5 });
  layers = await flockWithCycle({ token: manager.token, farmId, birdType: 'layer', startDate: day(-10) });
  await layers.move({ type: 'bird_inflow', date: day(-10), quantity: 500 });
  const form = await call('POST', `${layers.base}/daily-records`, {
    token: manager.token,
    body: { date: day(0), deaths: 0, feedKg: 0, waterLiters: 40, temperatureMinC: 31, temperatureMaxC: 33, humidityPct: 60 },
  });
  expect(form.status, JSON.stringify(form.body)).toBe(201);
  expect((await call('POST', `${layers.base}/weights`, { token: manager.token, body: { date: day(0), grams: 120 } })).status).toBe(201);
});

describe('dashboard per role', () => {
  it('manager: farm KPIs and totals, alerts, stock, running withdrawals', async () => {
    const res = await call('GET', DASH, { token: manager.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ role: 'manager', farmId, date: day(0) });
    expect(d.totals).toMatchObject({ activeFlocks: 2, birdsAlive: 1492, deathsToday: 8, waterLitersToday: 90, dailyRecordsMissing: 1 });
    const b = d.flocks.find((f: { flockId: string }) => f.flockId === broilers.flock.id);
    expect(b).toMatchObject({
      birdsAlive: 992,
      mortalityPct: { value: 0.8, unit: '%' },
      livabilityPct: { value: 99.2, unit: '%' },
      fcr: { value: null, unit: 'kg/kg', reason: 'no body weight: no weighing yet' },
      ageDays: 10,
      today: { deaths: 8, waterLiters: 50 },
      yesterday: { waterLiters: 100 },
      dailyRecordToday: false,
    });
    expect(d.alerts.map((a: { flockId: string; metric: string; severity: string }) => [a.flockId, a.metric, a.severity])).toEqual(
      expect.arrayContaining([
        [broilers.flock.id, 'dailyMortality', 'warning'],
        [broilers.flock.id, 'waterDrop', 'warning'],
      ]),
    );
    expect(d.withdrawals).toEqual([expect.objectContaining({ flockId: broilers.flock.id, product: 'Amoxicillin', endDate: day(3), daysLeft: 4 })]);
    expect(d.stock).toEqual({ feed: [], eggs: 0, medicines: [] });
    expect(d.openRecommendations).toMatchObject({ count: 0 });
  });

  it('worker: today’s tasks (daily forms not filed, weighings due)', async () => {
    const worker = await userWith({ role: 'worker', farmIds: [farmId] });
    const d = (await call('GET', DASH, { token: worker.token })).body.data;
    expect(d.role).toBe('worker');
    const tasks = d.tasks.map((t: { kind: string; flockId: string }) => `${t.kind}:${t.flockId}`).sort();
    expect(tasks).toEqual([`daily_record:${broilers.flock.id}`, `weighing:${broilers.flock.id}`].sort());
    expect(d.alerts).toBeUndefined();
  });

  it('veterinarian: health alerts and withdrawal periods', async () => {
    const vet = await userWith({ role: 'veterinarian', farmIds: [farmId] });
    const d = (await call('GET', DASH, { token: vet.token })).body.data;
    expect(d.role).toBe('veterinarian');
    expect(d.healthAlerts.map((a: { metric: string }) => a.metric).sort()).toEqual(['dailyMortality', 'waterDrop']);
    expect(d.withdrawals[0]).toMatchObject({ product: 'Amoxicillin', daysLeft: 4 });
    expect(d.stock).toBeUndefined();
  });

  it('viewer: read-only KPIs; admin: users, system, audit, and a farm’s view with farmId', async () => {
    const viewer = await userWith({ role: 'viewer', farmIds: [farmId] });
    const v = (await call('GET', DASH, { token: viewer.token })).body.data;
    expect(v.role).toBe('viewer');
    expect(v.totals.birdsAlive).toBe(1492);
    expect(Object.keys(v.flocks[0]).sort()).toEqual([
      'ageDays',
      'birdType',
      'birdsAlive',
      'epef',
      'fcr',
      'flockId',
      'latestWeight',
      'livabilityPct',
      'mortalityPct',
      'name',
    ]);
    const admin = await adminLogin();
    const a = (await call('GET', DASH, { token: admin })).body.data;
    expect(a.role).toBe('admin');
    expect(a.users.total).toBeGreaterThanOrEqual(5);
    expect(a.users.byRole).toMatchObject({ admin: expect.any(Number), manager: expect.any(Number) });
    expect(a.system).toMatchObject({ version: '2.0.0', database: 'ok' });
    expect(a.recentAudit.length).toBeGreaterThan(0);
    expect(a.farm).toBeUndefined();
    const withFarm = (await call('GET', DASH, { token: admin, query: { farmId } })).body.data;
    expect(withFarm.farm.totals.activeFlocks).toBe(2);
  });

  it('costs the same DynamoDB calls for 2 and for 4 flocks; another farm is 404', async () => {
    resetDbCalls();
    await call('GET', DASH, { token: manager.token });
    const two = { ...dbCalls };
    for (let i = 0; i < 2; i++) await flockWithCycle({ token: manager.token, farmId });
    resetDbCalls();
    const res = await call('GET', DASH, { token: manager.token });
    expect(res.body.data.totals.activeFlocks).toBe(4);
    expect({ ...dbCalls }).toEqual(two);
    expect((await call('GET', DASH, { token: manager.token, query: { farmId: await otherFarm() } })).status).toBe(404);
  });

  it('the withdrawal index follows the medication: edited period moves it, deletion removes it', async () => {
    const med = await call('POST', `${layers.base}/movements`, {
      token: manager.token,
      body: { type: 'medication', date: day(-1), product: 'Tylosin', dose: '1 g/l', withdrawalDays: 3 },
    });
    expect(med.status).toBe(201);
    const running = async () =>
      (await call('GET', DASH, { token: manager.token })).body.data.withdrawals.filter((w: { product: string }) => w.product === 'Tylosin');
    expect(await running()).toEqual([expect.objectContaining({ endDate: day(2), daysLeft: 3 })]);
    const edited = await call('PATCH', `${layers.base}/movements/${med.body.data.id}`, { token: manager.token, body: { withdrawalDays: 10 } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await running()).toEqual([expect.objectContaining({ endDate: day(9), daysLeft: 10 })]);
    const short = await call('PATCH', `${layers.base}/movements/${med.body.data.id}`, { token: manager.token, body: { withdrawalDays: 1 } });
    expect(short.status).toBe(200);
    expect(await running()).toEqual([expect.objectContaining({ endDate: day(0), daysLeft: 1 })]); // treated yesterday + 1 full day: today is the last
    await call('PATCH', `${layers.base}/movements/${med.body.data.id}`, { token: manager.token, body: { withdrawalDays: 0 } });
    expect(await running()).toEqual([]);
    await call('PATCH', `${layers.base}/movements/${med.body.data.id}`, { token: manager.token, body: { withdrawalDays: 4 } });
    expect(await running()).toHaveLength(1);
    expect((await call('DELETE', `${layers.base}/movements/${med.body.data.id}`, { token: manager.token })).status).toBe(204);
    expect(await running()).toEqual([]);
  });
});
