/**
 * Continuity through the real middleware, DynamoDB Local and the in-process Lambda stand-in (the worker
 * runs before the 202 reaches the test): a farm with two cycles (movements, daily records, weighings) is
 * exported — every line validates against the format, the trailer's counts and checksum hold — and
 * restored under a new name: summaries, KPIs and stock equal. A restore failing on purpose mid-way, or
 * reading a corrupted file, leaves nothing; the same Idempotency-Key gives the same restore; another
 * farm's user gets 404.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { ingest, iotFarm, minutesAgo, registerDevice } from '../support/iot.js';
import { db, tableName } from '../../shared/db/client.js';
import { lineProblem, recordTypeOf } from '../../shared/domain/continuity/format.js';
import { localExportPath } from '../../shared/aws/export-store.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BASE = '/api/v1/continuity';
let farmId: string;
let manager: { id: string; token: string };
let exportId: string;
const cycles: Array<{ flockId: string; cycleId: string }> = [];

async function seedCycle(name: string, startOffset: number) {
  const c = await flockWithCycle({ token: manager.token, farmId, startDate: day(startOffset) });
  await call('PATCH', `/api/v1/flocks/${c.flock.id}`, { token: manager.token, body: { name } });
  await c.move({ type: 'bird_inflow', date: day(startOffset), quantity: 1000 });
  await c.move({ type: 'feed_delivery', date: day(startOffset), feedType: 'starter', quantityKg: 2000, unitPrice: 0.5 });
  await c.move({ type: 'feed_consumption', date: day(startOffset + 1), feedType: 'starter', quantityKg: 120.5 });
  await c.move({ type: 'bird_mortality', date: day(startOffset + 2), quantity: 7 });
  // the medicine stock and a treatment taken from it, a withdrawal window and a Salmonella sample
  await c.move({ type: 'medicine_delivery', date: day(startOffset), product: 'ND clone 30', quantity: 2000, unit: 'doses' });
  await c.move({ type: 'vaccination', date: day(startOffset + 1), vaccine: 'ND clone 30', fromStock: { quantity: 1000, unit: 'doses' } });
  await c.move({ type: 'medication', date: day(startOffset + 1), product: 'Amoxicillin', dose: '20 mg/kg', withdrawalDays: 3, treatmentDays: 2 });
  const sample = await call('POST', '/api/v1/compliance/samples', {
    token: manager.token,
    body: { flockId: c.flock.id, date: day(startOffset + 2), kind: 'boot_swabs' },
  });
  expect(sample.status, JSON.stringify(sample.body)).toBe(201);
  for (const [i, offset] of [startOffset + 3, startOffset + 4].entries()) {
    const res = await call('POST', `${c.base}/daily-records`, {
      token: manager.token,
      body: { date: day(offset), deaths: i + 1, feedKg: 110, feedType: 'starter', waterLiters: 200, temperatureMinC: 28, temperatureMaxC: 32, humidityPct: 60 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  const w = await call('POST', `${c.base}/weights`, { token: manager.token, body: { date: day(startOffset + 4), grams: 180, sampleSize: 50 } });
  expect(w.status, JSON.stringify(w.body)).toBe(201);
  cycles.push({ flockId: c.flock.id, cycleId: c.cycle.id });
}

/** A value without the ids that differ by design between a farm and its restored copy. */
const withoutIds = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(withoutIds)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v).flatMap(([k, x]) => (['id', 'flockId', 'cycleId', 'farmId', 'houseId', 'movementId'].includes(k) ? [] : [[k, withoutIds(x)]])),
        )
      : v;

/** What a farm looks like through the API: each cycle's summary and KPIs (by flock name), the stock. */
async function figures(token: string, farm: string) {
  const flocks = (await call('GET', '/api/v1/flocks', { token, query: { farmId: farm, limit: '100' } })).body.data as Json[];
  const out: Json = {};
  for (const f of flocks) {
    const cycleList = (await call('GET', `/api/v1/flocks/${f.id}/cycles`, { token })).body.data as Json[];
    for (const c of cycleList) {
      const summary = (await call('GET', `/api/v1/flocks/${f.id}/cycles/${c.id}`, { token })).body.data as Json;
      const kpis = (await call('GET', `/api/v2/analytics/cycle/${f.id}/${c.id}`, { token })).body.data as Json;
      out[`${f.name}/${c.startDate}`] = withoutIds({ summary, kpis: kpis.kpis });
    }
  }
  const { asOf: _a, ...stock } = (await call('GET', '/api/v1/inventory/stock', { token, query: { farmId: farm } })).body.data as Json;
  const compliance = async (path: string) => withoutIds((await call('GET', `/api/v1/compliance/${path}`, { token, query: { farmId: farm } })).body.data);
  return { cycles: out, stock: withoutIds(stock), samples: await compliance('samples'), withdrawals: await compliance('withdrawals') };
}

async function partitionCount(pk: string, index?: { name: string; attr: string }) {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      ...(index ? { IndexName: index.name } : {}),
      KeyConditionExpression: `${index?.attr ?? 'PK'} = :pk`,
      ExpressionAttributeValues: { ':pk': pk },
      Select: 'COUNT',
    }),
  );
  return res.Count ?? 0;
}

const restore = (token: string, body: Json, headers: Record<string, string> = {}) => call('POST', `${BASE}/restores`, { token, body, headers });

beforeAll(async () => {
  farmId = await otherFarm('Continuity farm');
  manager = await userWith({ role: 'manager', farmIds: [farmId] });
  await seedCycle('Flock A', -20);
  await seedCycle('Flock B', -12);
}, 120_000);

afterEach(() => {
  delete process.env.CONTINUITY_FAIL_AFTER_BATCHES;
});

describe('continuity: export', () => {
  it('202 with the export; the worker streams it; GET gives status, counts per type and the checksum; every line follows the format', async () => {
    const res = await call('POST', `${BASE}/exports`, { token: manager.token, body: { farmId }, headers: { 'Idempotency-Key': 'export-1' } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    exportId = res.body.data.id;
    expect(res.headers.Location).toBe(`${BASE}/exports/${exportId}`);
    const again = await call('POST', `${BASE}/exports`, { token: manager.token, body: { farmId }, headers: { 'Idempotency-Key': 'export-1' } });
    expect(again.status).toBe(202);
    expect(again.body.data.id).toBe(exportId);
    expect(again.headers['Idempotent-Replayed']).toBe('true');

    const got = await call('GET', `${BASE}/exports/${exportId}`, { token: manager.token });
    expect(got.status).toBe(200);
    const e = got.body.data as Json;
    expect(e).toMatchObject({ status: 'completed', farmId, format: 'flockwise-farm-export/v3', download: `${BASE}/exports/${exportId}/download` });
    expect(e.counts).toMatchObject({ farm: 1, flock: 2, cycle: 2, daily_record: 4, weight: 2, feed_stock: 1, check: 3 });
    expect(e.counts.movement).toBeGreaterThanOrEqual(8);
    expect(e.sha256).toMatch(/^[0-9a-f]{64}$/);

    const file = await call('GET', `${BASE}/exports/${exportId}/download`, { token: manager.token });
    expect(file.status).toBe(200);
    expect(file.headers['Content-Type']).toMatch(/application\/x-ndjson/);
    const lines = file.raw.trimEnd().split('\n');
    expect(lines.length).toBe(e.records + 2);
    for (const [i, text] of lines.entries()) expect(lineProblem(JSON.parse(text), i + 1, i === 0), text.slice(0, 120)).toBeUndefined();
    const trailer = JSON.parse(lines.at(-1)!);
    expect(trailer).toMatchObject({ type: 'trailer', v: 1, data: { records: e.records, counts: e.counts, sha256: e.sha256 } });
    const body = file.raw.slice(0, file.raw.length - lines.at(-1)!.length - 1);
    expect(createHash('sha256').update(body).digest('hex')).toBe(e.sha256);
  });

  it('every item of the farm’s own partition has a record type (a new kind of farm item cannot be dropped silently)', async () => {
    const items = (
      await db().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `FARM#${farmId}` } }))
    ).Items!;
    expect(items.length).toBeGreaterThan(5);
    expect(items.filter((i) => recordTypeOf(i) === undefined).map((i) => i.SK)).toEqual([]);
  });

  it('another farm’s user: 404 on the export, its download and its restore; a viewer may not export', async () => {
    const stranger = await userWith({ role: 'manager', farmIds: [await otherFarm('Stranger farm')] });
    expect((await call('GET', `${BASE}/exports/${exportId}`, { token: stranger.token })).status).toBe(404);
    expect((await call('GET', `${BASE}/exports/${exportId}/download`, { token: stranger.token })).status).toBe(404);
    expect((await restore(stranger.token, { exportId, farmName: 'Stolen' })).status).toBe(404);
    expect((await call('POST', `${BASE}/exports`, { token: stranger.token, body: { farmId } })).status).toBe(404);
    const viewer = await userWith({ role: 'viewer', farmIds: [farmId] });
    expect((await call('POST', `${BASE}/exports`, { token: viewer.token, body: { farmId } })).status).toBe(403);
  });
});

describe('continuity: restore', () => {
  it('into a new farm with new ids: summaries, KPIs and stock equal the source’s; the same key gives the same restore', async () => {
    const res = await restore(manager.token, { exportId, farmName: 'Continuity farm (restored)' }, { 'Idempotency-Key': 'restore-1' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const r = (await call('GET', `${BASE}/restores/${res.body.data.id}`, { token: manager.token })).body.data as Json;
    expect(r, JSON.stringify(r)).toMatchObject({ status: 'completed', exportId, sourceFarmId: farmId, error: null, checks: { compared: 3, mismatches: [] } });
    expect(r.farmId).not.toBe(farmId);

    const replay = await restore(manager.token, { exportId, farmName: 'Continuity farm (restored)' }, { 'Idempotency-Key': 'restore-1' });
    expect(replay.status).toBe(202);
    expect(replay.body.data.id).toBe(r.id);
    expect(replay.headers['Idempotent-Replayed']).toBe('true');
    const otherBody = await restore(manager.token, { exportId, farmName: 'Another name' }, { 'Idempotency-Key': 'restore-1' });
    expect(otherBody.status).toBe(422);

    const farm = await call('GET', `/api/v1/config/farms/${r.farmId}`, { token: manager.token });
    expect(farm.status).toBe(200);
    expect(farm.body.data.name).toBe('Continuity farm (restored)');
    const source = await figures(manager.token, farmId);
    const restored = await figures(manager.token, r.farmId);
    expect(Object.keys(source.cycles)).toHaveLength(2);
    expect((source.stock as Json).medicines).toEqual([{ product: 'ND clone 30', unit: 'doses', quantity: 2000, shortfalls: [] }]);
    expect(source.samples).toHaveLength(2);
    expect(source.withdrawals).toHaveLength(2);
    expect(restored).toEqual(source);
    // every reference points into the new farm: no old id is left in its flocks and cycles
    const flocks = (await call('GET', '/api/v1/flocks', { token: manager.token, query: { farmId: r.farmId } })).body.data as Json[];
    for (const f of flocks) {
      expect(cycles.map((c) => c.flockId)).not.toContain(f.id);
      expect(f.farmId).toBe(r.farmId);
      const movements = (await call('GET', `/api/v1/flocks/${f.id}/cycles/${f.activeCycleId}/movements`, { token: manager.token })).body.data as Json[];
      expect(movements.length).toBeGreaterThan(0);
      for (const m of movements) expect(cycles.map((c) => c.cycleId)).not.toContain(m.cycleId);
    }
  });

  it('a restore failing after its first batch leaves no half-written farm (everything removed, the restore failed)', async () => {
    process.env.CONTINUITY_FAIL_AFTER_BATCHES = '1';
    const res = await restore(manager.token, { exportId, farmName: 'Interrupted' });
    expect(res.status).toBe(202);
    const r = (await call('GET', `${BASE}/restores/${res.body.data.id}`, { token: manager.token })).body.data as Json;
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/injected failure/);
    expect((await call('GET', `/api/v1/config/farms/${r.farmId}`, { token: manager.token })).status).toBe(404);
    expect(await partitionCount(`FARM#${r.farmId}`)).toBe(0);
    expect(await partitionCount(`FLOCKS#${r.farmId}`, { name: 'GSI1', attr: 'GSI1PK' })).toBe(0);
    expect(await partitionCount(`MOVEMENTS#${r.farmId}`, { name: 'GSI2', attr: 'GSI2PK' })).toBe(0);
  });

  it('a corrupted export line is refused before anything is written', async () => {
    const fresh = await call('POST', `${BASE}/exports`, { token: manager.token, body: { farmId } });
    const e = (await call('GET', `${BASE}/exports/${fresh.body.data.id}`, { token: manager.token })).body.data as Json;
    expect(e.status).toBe('completed');
    const path = localExportPath(`exports/${farmId}/${e.id}.jsonl`);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[3] = lines[3]!.replace(/"v":1/, '"v":1,"x":');
    writeFileSync(path, lines.join('\n'));
    const res = await restore(manager.token, { exportId: e.id, farmName: 'From a corrupted file' });
    const r = (await call('GET', `${BASE}/restores/${res.body.data.id}`, { token: manager.token })).body.data as Json;
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/line 4/);
    expect(await partitionCount(`FARM#${r.farmId}`)).toBe(0);
  });

  it('needs manage_farms too (403), and a completed export', async () => {
    const only = await userWith({ role: 'manager', farmIds: [farmId], capabilities: ['view_analytics', 'manage_continuity'] });
    expect((await restore(only.token, { exportId, farmName: 'No' })).status).toBe(403);
  });
});

describe('continuity: status, drills, readiness', () => {
  it('status: PITR not available locally, the objectives, the farm’s last export', async () => {
    const res = await call('GET', `${BASE}/status`, { token: manager.token });
    expect(res.status).toBe(200);
    expect(res.body.data.pointInTimeRecovery).toMatchObject({ available: false, note: expect.stringMatching(/not available locally/) });
    expect(res.body.data.objectives.rpo).toMatch(/5 minutes/);
    const mine = (res.body.data.farms as Json[]).find((f) => f.farmId === farmId);
    expect(mine?.lastExport).toMatchObject({ status: 'completed' });
  });

  it('drills are recorded (idempotent, audited) and listed; readiness reports feed days and overdue drills', async () => {
    const before = (await call('GET', `${BASE}/farms/${farmId}/readiness`, { token: manager.token })).body.data as Json;
    // never drilled: a farm created today has one interval to run its first drill
    expect(before.drills.find((d: Json) => d.kind === 'generator')).toMatchObject({
      overdue: false,
      lastDate: null,
      everyDays: 7,
      dueDate: day(7),
      daysOverdue: 0,
    });
    expect(before.drills.every((d: Json) => !d.overdue)).toBe(true);
    expect(before.ready).toBe(!before.feed.low);
    const body = { farmId, kind: 'generator', date: day(-1), durationMinutes: 45, result: 'passed' };
    const first = await call('POST', `${BASE}/drills`, { token: manager.token, body, headers: { 'Idempotency-Key': 'drill-1' } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await call('POST', `${BASE}/drills`, { token: manager.token, body, headers: { 'Idempotency-Key': 'drill-1' } });
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await call('POST', `${BASE}/drills`, { token: manager.token, body: { ...body, date: day(2) } })).status).toBe(400);
    const listed = (await call('GET', `${BASE}/drills`, { token: manager.token, query: { farmId } })).body.data as Json[];
    expect(listed.map((d) => d.id)).toEqual([first.body.data.id]);
    const after = (await call('GET', `${BASE}/farms/${farmId}/readiness`, { token: manager.token })).body.data as Json;
    expect(after.drills.find((d: Json) => d.kind === 'generator')).toMatchObject({ overdue: false, lastDate: day(-1), dueDate: day(6) });
    expect(after.feed.stockKg).toBeGreaterThan(0);
    const stranger = await userWith({ role: 'manager', farmIds: [await otherFarm('Elsewhere')] });
    expect((await call('GET', `${BASE}/farms/${farmId}/readiness`, { token: stranger.token })).status).toBe(404);
  });

  it('days of feed come from the silo sensors when the farm has some with a reading (kg in the bins ÷ their outflow)', async () => {
    const f = await iotFarm();
    const silo = await registerDevice(f, { kind: 'feed_silo', name: 'Silo 1' });
    const readiness = async () => (await call('GET', `${BASE}/farms/${f.farmId}/readiness`, { token: f.token })).body.data as Json;
    expect((await readiness()).feed).toMatchObject({ source: 'stock', stockKg: 0, daysLeft: null });
    // three days of outflow, 300 kg a day, then 1,500 kg in the bin now
    const at = (offset: number, hh: string) => `${day(offset)}T${hh}:00:00.000Z`;
    const frames = [-3, -2, -1].flatMap((d, i) => [
      { ts: at(d, '01'), metrics: { siloKg: 2400 - i * 300 } },
      { ts: at(d, '23'), metrics: { siloKg: 2100 - i * 300 } },
    ]);
    expect((await ingest(silo.key, [...frames, { ts: minutesAgo(5), metrics: { siloKg: 1500 } }])).body.data.accepted).toBe(7);
    expect((await readiness()).feed).toEqual({ source: 'silos', stockKg: 1500, dailyConsumptionKg: 300, daysLeft: 5, low: false });
  });

  it('a declared water reserve is reported in days at the last 3 days’ drinking; undeclared, it says so', async () => {
    const farm = await otherFarm('Water farm');
    const m = await userWith({ role: 'manager', farmIds: [farm] });
    const c = await flockWithCycle({ token: m.token, farmId: farm, startDate: day(-10) });
    await c.move({ type: 'bird_inflow', date: day(-10), quantity: 1000 });
    for (const [offset, liters] of [
      [-3, 180],
      [-2, 200],
      [-1, 220],
    ] as const)
      await c.move({ type: 'water_consumption', date: day(offset), liters });
    const readiness = async () => (await call('GET', `${BASE}/farms/${farm}/readiness`, { token: m.token })).body.data as Json;
    expect((await readiness()).water).toEqual({
      reserveLiters: null,
      dailyConsumptionLiters: null,
      daysLeft: null,
      note: 'no water reserve declared for this farm',
    });
    const patched = await call('PATCH', `/api/v1/config/farms/${farm}`, { token: m.token, body: { waterReserveLiters: 1000 } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.waterReserveLiters).toBe(1000);
    expect((await readiness()).water).toEqual({ reserveLiters: 1000, dailyConsumptionLiters: 200, daysLeft: 5, note: null });
    expect((await call('PATCH', `/api/v1/config/farms/${farm}`, { token: m.token, body: { waterReserveLiters: -1 } })).status).toBe(400);
    expect(
      (await call('PATCH', `/api/v1/config/farms/${farm}`, { token: m.token, body: { waterReserveLiters: null } })).body.data.waterReserveLiters,
    ).toBeNull();
  });
});
