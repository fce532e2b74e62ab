/**
 * A farm with one record of every kind, written through the API by the farm's manager: house, flock,
 * active cycle, a movement, a daily record, a weighing, a sensor and a transfer to a partner farm, plus a second user for the admin routes.
 * Generated checks fill path parameters from `ids`, so every farm-scoped route reaches its handler.
 */
import { expect } from 'vitest';
import { call, type CallResult } from '../../support/api.js';
import { otherFarm } from '../../support/farms.js';
import { account, type Account } from './accounts.js';

export interface Fixture {
  /** Path parameter → a real id (farmId, houseId, flockId, cycleId, movementId, date, userId). */
  ids: Record<string, string>;
  admin: Account;
  manager: Account;
  /** The `X-Device-Key` of the farm's sensor (`ids.deviceId`), for the device-key route. */
  deviceKey: string;
  /** Every response the fixture received, for the secret-field scan. */
  responses: Array<{ label: string; res: CallResult }>;
}

export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export async function farmFixture(tag: string): Promise<Fixture> {
  const farmId = await otherFarm(`${tag} farm`);
  const [admin, manager, victim] = await Promise.all([
    account({ role: 'admin' }),
    account({ role: 'manager', farmIds: [farmId] }),
    account({ farmIds: [farmId] }),
  ]);
  const responses: Fixture['responses'] = [];
  const post = async (path: string, body: unknown) => {
    const res = await call('POST', path, { token: manager.token, body });
    responses.push({ label: `fixture POST ${path}`, res });
    expect(res.status, `${path} ${res.raw}`).toBeLessThan(300);
    return res.body.data;
  };
  const start = day(-10);
  const ids: Record<string, string> = { farmId, userId: victim.id, date: day(-9) };
  ids.houseId = (await post(`/api/v1/config/farms/${farmId}/houses`, { name: `${tag} house`, usableAreaM2: 500, capacity: 5000 })).id;
  ids.flockId = (await post('/api/v1/flocks', { name: `${tag} flock`, birdType: 'broiler', farmId, houseId: ids.houseId, hatchDate: start })).id;
  ids.cycleId = (await post(`/api/v1/flocks/${ids.flockId}/cycles`, { startDate: start })).id;
  const base = `/api/v1/flocks/${ids.flockId}/cycles/${ids.cycleId}`;
  // a rule that the daily record below fires: the rule and anomaly routes get real ids
  ids.ruleId = (
    await post('/api/v1/rules', {
      name: `${tag} mortality`,
      scope: { farmId },
      input: 'dailyMortalityPct',
      window: 'P1D',
      aggregation: 'last',
      condition: { op: '>', value: 0 },
      severity: 'warning',
      actions: ['raise_anomaly'],
    })
  ).id;
  ids.movementId = (await post(`${base}/movements`, { type: 'bird_inflow', date: start, quantity: 1000 })).id;
  await post(`${base}/daily-records`, { date: ids.date, deaths: 2, feedKg: 0, waterLiters: 50, temperatureMinC: 31, temperatureMaxC: 33, humidityPct: 60 });
  await post(`${base}/weights`, { date: ids.date, grams: 58 });
  const device = await post('/api/v1/iot/devices', { farmId, houseId: ids.houseId, kind: 'climate', name: `${tag} climate` });
  ids.deviceId = device.id;
  // a daily schedule of the farm (its occurrence routes take ids.date) and a programme template
  ids.scheduleId = (await post('/api/v1/schedules', { farmId, kind: 'inspection', title: `${tag} rounds`, timing: { every: 1, unit: 'day', from: start } })).id;
  ids.programmeId = 'broiler-typical';
  const anomalies = await call('GET', '/api/v1/anomalies', { token: manager.token, query: { farmId } });
  ids.anomalyId = anomalies.body.data[0]?.id;
  expect(ids.anomalyId, 'the fixture rule raised an anomaly').toBeDefined();
  // a supplier of the farm and a draft purchase order with it (the procurement routes)
  ids.supplierId = (await post('/api/v1/procurement/suppliers', { name: `${tag} mill`, kinds: ['feed'], farmIds: [farmId] })).id;
  ids.orderId = (
    await post('/api/v1/procurement/orders', {
      farmId,
      supplierId: ids.supplierId,
      expectedDate: day(5),
      lines: [{ itemKind: 'feed', feedType: 'starter', quantity: 1000, unit: 'kg', unitPrice: 0.5 }],
    })
  ).id;
  // a transfer the farm sends to a partner farm (the sharing routes)
  const partnerFarmId = await otherFarm(`${tag} partner farm`);
  ids.transferId = (
    await post('/api/v1/sharing/transfers', { kind: 'equipment', from: { farmId }, to: { farmId: partnerFarmId }, items: [{ name: `${tag} egg grader` }] })
  ).id;
  // an export of the farm (by its manager) and its restore into a new farm (by the admin, so the manager's farms stay as they are)
  ids.exportId = (await post('/api/v1/continuity/exports', { farmId })).id;
  const restore = await call('POST', '/api/v1/continuity/restores', { token: admin.token, body: { exportId: ids.exportId, farmName: `${tag} restored` } });
  responses.push({ label: 'fixture POST /api/v1/continuity/restores', res: restore });
  expect(restore.status, restore.raw).toBe(202);
  ids.restoreId = restore.body.data.id;
  return { ids, admin, manager, deviceKey: device.deviceKey, responses };
}
