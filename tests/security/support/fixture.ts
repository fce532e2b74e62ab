/**
 * A farm with one record of every kind, written through the API by the farm's manager: house, flock,
 * active cycle, a movement, a daily record, a weighing, a sensor and a bird scale, an incident, a transfer to a
 * partner farm and one from it (requested), a piece of equipment received from it, a purchase order placed with
 * its supplier, a second flock, plus a second user for the admin routes.
 * Generated checks fill path parameters from `ids` (and body references: tests/security/body-references.test.ts),
 * so every farm-scoped route reaches its handler.
 */
import { expect } from 'vitest';
import { call, type CallResult } from '../../support/api.js';
import { otherFarm } from '../../support/farms.js';
import { account, type Account } from './accounts.js';

export interface Fixture {
  /** Path parameter → a real id (farmId, houseId, flockId, cycleId, movementId, date, userId). */
  ids: Record<string, string>;
  /**
   * Other real ids of the farm that no path parameter takes: a second flock with an active cycle
   * (`secondFlockId`), the bird scale (`scaleId`), the weighing (`weighingId`), a placed order
   * (`placedOrderId`, its line `lineId`), a transfer from the partner farm awaiting approval
   * (`incomingTransferId`), the equipment received from it (`equipmentId`), the partner farm (`partnerFarmId`), a
   * weighing schedule of the cycle (`weighingScheduleId`).
   */
  more: Record<string, string>;
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
  const more: Record<string, string> = {};
  more.weighingId = (await post(`${base}/weights`, { date: ids.date, grams: 58 })).id;
  const device = await post('/api/v1/iot/devices', { farmId, houseId: ids.houseId, kind: 'climate', name: `${tag} climate` });
  ids.deviceId = device.id;
  more.scaleId = (await post('/api/v1/iot/devices', { farmId, houseId: ids.houseId, kind: 'scale', name: `${tag} scale` })).id;
  // a second flock with an active cycle (the other side of a transfer between two flocks of the farm)
  const secondHouse = (await post(`/api/v1/config/farms/${farmId}/houses`, { name: `${tag} house 2`, usableAreaM2: 500, capacity: 5000 })).id;
  more.secondFlockId = (await post('/api/v1/flocks', { name: `${tag} flock 2`, birdType: 'broiler', farmId, houseId: secondHouse, hatchDate: start })).id;
  more.secondCycleId = (await post(`/api/v1/flocks/${more.secondFlockId}/cycles`, { startDate: start })).id;
  ids.incidentId = (await post('/api/v1/operations/incidents', { farmId, title: `${tag} fan failure`, category: 'equipment', severity: 'low' })).id;
  // a daily schedule of the farm (its occurrence routes take ids.date) and a programme template
  ids.scheduleId = (await post('/api/v1/schedules', { farmId, kind: 'inspection', title: `${tag} rounds`, timing: { every: 1, unit: 'day', from: start } })).id;
  ids.programmeId = 'broiler-typical';
  // a weighing schedule of the cycle (a completion names the weighing it was done with)
  more.weighingScheduleId = (
    await post('/api/v1/schedules', {
      farmId,
      flockId: ids.flockId,
      cycleId: ids.cycleId,
      kind: 'weighing',
      title: `${tag} weighing`,
      timing: { every: 1, unit: 'day', from: start },
    })
  ).id;
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
  // an order placed with the supplier (receipts are taken on placed orders)
  const placed = await post('/api/v1/procurement/orders', {
    farmId,
    supplierId: ids.supplierId,
    expectedDate: day(5),
    lines: [{ itemKind: 'feed', feedType: 'starter', quantity: 1000, unit: 'kg', unitPrice: 0.5 }],
  });
  more.placedOrderId = placed.id;
  more.lineId = placed.lines[0].id;
  await post(`/api/v1/procurement/orders/${placed.id}/place`, {});
  // a delivery booked on the farm's stock (no cycle): the farm movement routes get a real id
  ids.farmMovementId = (await post('/api/v1/inventory/movements', { farmId, type: 'feed_delivery', date: start, feedType: 'starter', quantityKg: 500 })).id;
  // a transfer the farm sends to a partner farm (the sharing routes), a piece of equipment received from it, and birds it offers
  const partnerFarmId = await otherFarm(`${tag} partner farm`);
  more.partnerFarmId = partnerFarmId;
  ids.transferId = (
    await post('/api/v1/sharing/transfers', { kind: 'equipment', from: { farmId }, to: { farmId: partnerFarmId }, items: [{ name: `${tag} egg grader` }] })
  ).id;
  const partner = await account({ role: 'manager', farmIds: [partnerFarmId] });
  const byPartner = async (path: string, body: unknown) => {
    const res = await call('POST', path, { token: partner.token, body });
    expect(res.status, `${path} ${res.raw}`).toBeLessThan(300);
    return res.body.data;
  };
  const lent = await byPartner('/api/v1/sharing/transfers', {
    kind: 'equipment',
    from: { farmId: partnerFarmId },
    to: { farmId },
    items: [{ name: `${tag} weighing crate` }],
  });
  await post(`/api/v1/sharing/transfers/${lent.id}/approve`, {});
  await post(`/api/v1/sharing/transfers/${lent.id}/complete`, {});
  more.equipmentId = lent.items[0].equipmentId;
  const partnerHouse = (await byPartner(`/api/v1/config/farms/${partnerFarmId}/houses`, { name: `${tag} partner house`, usableAreaM2: 500, capacity: 5000 }))
    .id;
  const partnerFlock = (
    await byPartner('/api/v1/flocks', { name: `${tag} partner flock`, birdType: 'broiler', farmId: partnerFarmId, houseId: partnerHouse, hatchDate: start })
  ).id;
  await byPartner(`/api/v1/flocks/${partnerFlock}/cycles`, { startDate: start });
  more.incomingTransferId = (
    await byPartner('/api/v1/sharing/transfers', {
      kind: 'birds',
      quantity: 10,
      from: { farmId: partnerFarmId, flockId: partnerFlock },
      to: { farmId, flockId: ids.flockId },
    })
  ).id;
  // an export of the farm (by its manager) and its restore into a new farm (by the admin, so the manager's farms stay as they are)
  ids.exportId = (await post('/api/v1/continuity/exports', { farmId })).id;
  const restore = await call('POST', '/api/v1/continuity/restores', { token: admin.token, body: { exportId: ids.exportId, farmName: `${tag} restored` } });
  responses.push({ label: 'fixture POST /api/v1/continuity/restores', res: restore });
  expect(restore.status, restore.raw).toBe(202);
  ids.restoreId = restore.body.data.id;
  return { ids, more, admin, manager, deviceKey: device.deviceKey, responses };
}
