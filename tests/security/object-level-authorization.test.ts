/**
 * OWASP API1:2023 (broken object-level authorization), generated from the route table: a manager of farm
 * B calls every route whose path names a farm-scoped record with farm A's real ids, and gets 404 — the
 * same answer as for a missing record — on reads and writes alike, and farm A's data is unchanged.
 * Routes that take a farm in the query are checked the same way.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { loadRoutes } from '../../scripts/lib/route-table.js';
import { loadSpecs } from '../../scripts/lib/openapi.js';
import { sampleOf } from '../support/sample.js';

const SCOPED_PARAMS = ['farmId', 'houseId', 'flockId', 'cycleId', 'movementId', 'farmMovementId', 'date', 'scheduleId'];
const routes = loadRoutes().filter((r) => SCOPED_PARAMS.some((p) => r.path.includes(`{${p}}`)));
const ids: Record<string, string> = {};
let ownerToken: string;
let strangerToken: string;
let summaryBefore: unknown;

const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name] ?? `{${name}}`);

beforeAll(async () => {
  const farmA = await otherFarm('BOLA farm A');
  const owner = await userWith({ role: 'manager', farmIds: [farmA] });
  ownerToken = owner.token;
  strangerToken = (await userWith({ role: 'manager', farmIds: [await otherFarm('BOLA farm B')] })).token;
  const post = async (path: string, body: unknown) => {
    const res = await call('POST', path, { token: ownerToken, body });
    expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body.data;
  };
  ids.farmId = farmA;
  ids.houseId = (await post(`/api/v1/config/farms/${farmA}/houses`, { name: 'A1', usableAreaM2: 100, capacity: 1000 })).id;
  ids.flockId = (await post('/api/v1/flocks', { name: 'A flock', birdType: 'broiler', farmId: farmA, houseId: ids.houseId, hatchDate: '2026-11-01' })).id;
  ids.cycleId = (await post(`/api/v1/flocks/${ids.flockId}/cycles`, { startDate: '2026-11-01' })).id;
  const base = `/api/v1/flocks/${ids.flockId}/cycles/${ids.cycleId}`;
  ids.movementId = (await post(`${base}/movements`, { type: 'bird_inflow', date: '2026-11-01', quantity: 100 })).id;
  ids.farmMovementId = (
    await post('/api/v1/inventory/movements', { farmId: farmA, type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 100 })
  ).id;
  await post(`${base}/daily-records`, { date: '2026-11-02', deaths: 1, feedKg: 0, waterLiters: 10, temperatureMinC: 30, temperatureMaxC: 32, humidityPct: 60 });
  ids.date = '2026-11-02';
  await post(`${base}/weights`, { date: '2026-11-02', grams: 60 });
  ids.scheduleId = (
    await post('/api/v1/schedules', { farmId: farmA, kind: 'inspection', title: 'A rounds', timing: { every: 1, unit: 'day', from: '2026-11-01' } })
  ).id;
  summaryBefore = (await call('GET', base, { token: ownerToken })).body.data;
});

describe('object-level authorization across farms', () => {
  it('covers the farm-scoped routes', () => {
    expect(routes.length).toBeGreaterThan(20);
  });

  it('another farm’s ids answer 404 on every route, reads and writes, with a valid body, exactly as a missing record', async () => {
    const specs = await loadSpecs(routes);
    for (const r of routes) {
      const spec = specs.get(r.file)!;
      const body = spec.body ? sampleOf(spec.body.schema) : undefined;
      const res = await call(r.method, fill(r.path), { token: strangerToken, body });
      const label = `${r.method} ${r.path} ${JSON.stringify(body)}`;
      expect(res.status, `${label} → ${res.raw}`).toBe(404);
      expect(Object.keys(res.body), label).toEqual(['error']);
      expect(res.raw, label).not.toContain('A flock');
    }
  });

  it('farm A is unchanged afterwards', async () => {
    const base = `/api/v1/flocks/${ids.flockId}/cycles/${ids.cycleId}`;
    expect((await call('GET', base, { token: ownerToken })).body.data).toEqual(summaryBefore);
    const flock = (await call('GET', `/api/v1/flocks/${ids.flockId}`, { token: ownerToken })).body.data;
    expect(flock.name).toBe('A flock');
  });

  it('query-scoped routes refuse farm A for farm B’s manager and never list A’s records', async () => {
    for (const path of [
      '/api/v1/inventory/stock',
      '/api/v1/inventory/movements',
      '/api/v1/inventory/movements/export',
      '/api/v1/flocks',
      '/api/v1/schedules',
      '/api/v1/schedules/agenda',
    ]) {
      const res = await call('GET', path, { token: strangerToken, query: { farmId: ids.farmId! } });
      expect(res.status, path).toBe(404);
    }
    const own = await call('GET', '/api/v1/flocks', { token: strangerToken });
    expect(own.raw).not.toContain(ids.flockId);
    const farms = await call('GET', '/api/v1/config/farms', { token: strangerToken });
    expect(farms.raw).not.toContain(ids.farmId);
  });
});
