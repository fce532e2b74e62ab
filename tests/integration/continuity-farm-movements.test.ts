/**
 * The farm export v2 carries the deliveries booked on the farm without a cycle (`farm_movement` and its
 * supplier copy `farm_delivery`); a restore brings them back under new ids, and a v1 file (written before
 * they existed) still restores.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { localExportPath } from '../../shared/aws/export-store.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const BASE = '/api/v1/continuity';

async function farmWithFarmMovements() {
  const farmId = await otherFarm('Farm stock export');
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  const book = await call('POST', '/api/v1/inventory/movements', {
    token: manager.token,
    body: { farmId, type: 'feed_delivery', date: day(-12), feedType: 'starter', quantityKg: 1500, unitPrice: 0.55 },
  });
  expect(book.status, JSON.stringify(book.body)).toBe(201);
  const c = await flockWithCycle({ token: manager.token, farmId, startDate: day(-8) });
  await c.move({ type: 'bird_inflow', date: day(-8), quantity: 500 });
  await c.move({ type: 'feed_consumption', date: day(-7), quantityKg: 200 });
  await c.move({ type: 'egg_collection', date: day(-3), totalEggs: 300 });
  return { farmId, manager, movementId: book.body.data.id as string };
}

async function exported(token: string, farmId: string) {
  const res = await call('POST', `${BASE}/exports`, { token, body: { farmId } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const e = (await call('GET', `${BASE}/exports/${res.body.data.id}`, { token })).body.data as Json;
  expect(e.status).toBe('completed');
  return e;
}

async function restored(token: string, exportId: string, farmName: string) {
  const res = await call('POST', `${BASE}/restores`, { token, body: { exportId, farmName } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return (await call('GET', `${BASE}/restores/${res.body.data.id}`, { token })).body.data as Json;
}

const farmMovementsOf = async (token: string, farmId: string) =>
  ((await call('GET', '/api/v1/inventory/movements', { token, query: { farmId, type: 'feed_delivery' } })).body.data as Json[]).filter(
    (m) => m.cycleId === null,
  );
const feedOf = async (token: string, farmId: string) => (await call('GET', '/api/v1/inventory/stock', { token, query: { farmId } })).body.data.feed;

describe('continuity: deliveries booked on the farm', () => {
  it('export v3 carries them and the egg lots; the restore brings them back with new ids, the stock equal', async () => {
    const s = await farmWithFarmMovements();
    const e = await exported(s.manager.token, s.farmId);
    expect(e.format).toBe('flockwise-farm-export/v3');
    expect(e.counts).toMatchObject({ farm_movement: 1, farm_delivery: 1, egg_lot: 1 });
    const r = await restored(s.manager.token, e.id, 'Farm stock export (restored)');
    expect(r, JSON.stringify(r)).toMatchObject({ status: 'completed', checks: { mismatches: [] } });
    const copies = await farmMovementsOf(s.manager.token, r.farmId);
    expect(copies).toEqual([expect.objectContaining({ farmId: r.farmId, date: day(-12), feedType: 'starter', quantityKg: 1500, flockId: null })]);
    expect(copies[0]!.id).not.toBe(s.movementId);
    expect(await feedOf(s.manager.token, r.farmId)).toEqual(await feedOf(s.manager.token, s.farmId));
    // the restored delivery prices the restored cycle's feed as the source's did
    const flocks = (await call('GET', '/api/v1/flocks', { token: s.manager.token, query: { farmId: r.farmId } })).body.data as Json[];
    const fin = await call('GET', `/api/v2/analytics/financials/${flocks[0]!.id}/${flocks[0]!.activeCycleId}`, { token: s.manager.token });
    expect(fin.body.data.financials.costs.feed.byType).toEqual([expect.objectContaining({ priceSource: 'farmDeliveries', unitPrice: 0.55 })]);
    // v3 carries the egg lots: the restored cycle sells its eggs from their laying day
    const sale = await call('POST', `/api/v1/flocks/${flocks[0]!.id}/cycles/${flocks[0]!.activeCycleId}/movements`, {
      token: s.manager.token,
      body: { type: 'egg_sale', date: day(0), quantity: 300 },
    });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(sale.body.data.fromLots).toEqual([{ laidOn: day(-3), quantity: 300 }]);
  });

  it('a v1 archive (no farm movements, header formatVersion 1) still restores', async () => {
    const s = await farmWithFarmMovements();
    const e = await exported(s.manager.token, s.farmId);
    // the same farm's file as v1 wrote it: no record of the types v2 added, the trailer recomputed
    const path = localExportPath(`exports/${s.farmId}/${e.id}.jsonl`);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0]!);
    header.data.formatVersion = 1;
    const records = lines.slice(1, -1).filter((l) => !/^\{"type":"farm_(movement|delivery)"/.test(l));
    const body = [JSON.stringify(header), ...records].map((l) => `${l}\n`).join('');
    const counts: Record<string, number> = {};
    for (const l of records) counts[JSON.parse(l).type] = (counts[JSON.parse(l).type] ?? 0) + 1;
    const trailer = { type: 'trailer', v: 1, data: { records: records.length, counts, sha256: createHash('sha256').update(body).digest('hex') } };
    writeFileSync(path, `${body}${JSON.stringify(trailer)}\n`);
    const r = await restored(s.manager.token, e.id, 'From a v1 file');
    expect(r, JSON.stringify(r)).toMatchObject({ status: 'completed', error: null, checks: { mismatches: [] } });
    expect(await farmMovementsOf(s.manager.token, r.farmId)).toEqual([]);
    expect(await feedOf(s.manager.token, r.farmId)).toEqual(await feedOf(s.manager.token, s.farmId));
  });
});
