/**
 * Sensor ingestion through both entry points (HTTP with a device key, the IoT Core rule's function) and
 * what users rely on afterwards: rollups equal to the raw readings (also under 20 concurrent batches),
 * duplicates never stored twice, per-reading rejections, last seen, the house's water and feed from
 * meters and silos (with their source), scale weighings, threshold breaches and the device health job.
 */
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { flockWithCycle } from '../support/cycles.js';
import { ingest, iotFarm, minutesAgo, registerDevice, type IotFarm } from '../support/iot.js';
import { db, dbCalls, resetDbCalls, tableName } from '../../shared/db/client.js';
import { breachesPartition } from '../../shared/db/keys.js';
import { checkDeviceHealth, deviceHealthCaller } from '../../shared/services/iot/device-health.js';
import { commandContext } from '../../shared/domain/command.js';
import { handler as telemetryRule } from '../../functions/iot/telemetry-rule.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const soon = () => new Date(Date.now() + 3_600_000).toISOString();
const DAY_MS = 86_400_000;

async function readings(f: IotFarm, deviceId: string, query: Record<string, string>): Promise<Json> {
  const res = await call('GET', `/api/v1/iot/devices/${deviceId}/readings`, { token: f.token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** Count and sum of a metric over the hourly buckets. */
function totals(buckets: Json[], metric: string) {
  return buckets.reduce((acc, b) => (b.metrics[metric] ? { count: acc.count + b.metrics[metric].count, sum: acc.sum + b.metrics[metric].sum } : acc), {
    count: 0,
    sum: 0,
  });
}

describe('device registry', () => {
  it('registers with the kind’s metrics, shows the secret once, and answers with health', async () => {
    const f = await iotFarm();
    const d = await registerDevice(f, { kind: 'air_quality', name: '  Air  1 ' });
    expect(d.body).toMatchObject({
      kind: 'air_quality',
      name: 'Air 1',
      metrics: ['nh3Ppm', 'co2Ppm', 'coPpm'],
      reportingIntervalSeconds: 60,
      status: 'offline',
      lastSeen: null,
    });
    expect(d.key).toBe(`${d.id}.${d.body.secret}`);
    const got = await call('GET', `/api/v1/iot/devices/${d.id}`, { token: f.token });
    expect(got.status).toBe(200);
    expect(got.headers.ETag).toBe('"1"');
    expect(got.body.data.secret).toBeUndefined();
    expect(JSON.stringify(got.body)).not.toContain('secretHash');
  });

  it('refuses metrics outside the kind and an unknown house; the house tells its farm (an admin need not name it)', async () => {
    const f = await iotFarm();
    const bad = await call('POST', '/api/v1/iot/devices', { token: f.token, body: { houseId: f.houseId, kind: 'climate', name: 'x', metrics: ['siloKg'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0]).toMatchObject({ field: 'body.metrics' });
    expect(bad.body.details[0].message).toContain('siloKg is not a metric of a climate device');
    const unknown = await call('POST', '/api/v1/iot/devices', { token: f.token, body: { houseId: '01JD3Y5A2B3C4D5E6F7G8H9J0K', kind: 'climate', name: 'x' } });
    expect(unknown.status).toBe(404);
    const admin = await userWith({ role: 'admin' });
    const noFarm = await call('POST', '/api/v1/iot/devices', { token: admin.token, body: { houseId: f.houseId, kind: 'climate', name: 'x' } });
    expect(noFarm.status, JSON.stringify(noFarm.body)).toBe(201);
    expect(noFarm.body.data).toMatchObject({ farmId: f.farmId, houseId: f.houseId });
    expect(
      (await call('POST', '/api/v1/iot/devices', { token: admin.token, body: { houseId: '01JD3Y5A2B3C4D5E6F7G8H9J0K', kind: 'climate', name: 'x' } })).status,
    ).toBe(404);
    const withFarm = await call('POST', '/api/v1/iot/devices', {
      token: admin.token,
      body: { houseId: f.houseId, farmId: f.farmId, kind: 'multi', name: 'x' },
    });
    expect(withFarm.status).toBe(201);
  });

  it('changes under If-Match, lists by house and kind, and deletes', async () => {
    const f = await iotFarm();
    const a = await registerDevice(f, { kind: 'water_meter', name: 'Meter' });
    await registerDevice(f, { kind: 'climate', name: 'Climate' });
    const stale = await call('PATCH', `/api/v1/iot/devices/${a.id}`, { token: f.token, headers: { 'If-Match': '"7"' }, body: { name: 'Renamed' } });
    expect(stale.status).toBe(412);
    const patched = await call('PATCH', `/api/v1/iot/devices/${a.id}`, {
      token: f.token,
      headers: { 'If-Match': '"1"' },
      body: { name: 'Renamed', reportingIntervalSeconds: 300 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Renamed', reportingIntervalSeconds: 300, version: 2 });
    const listed = await call('GET', '/api/v1/iot/devices', { token: f.token, query: { houseId: f.houseId, kind: 'water_meter' } });
    expect(listed.body.data.map((d: Json) => d.id)).toEqual([a.id]);
    const offline = await call('GET', '/api/v1/iot/devices', { token: f.token, query: { status: 'offline' } });
    expect(offline.body.data).toHaveLength(2);
    expect((await call('DELETE', `/api/v1/iot/devices/${a.id}`, { token: f.token, headers: { 'If-Match': '"2"' } })).status).toBe(204);
    expect((await call('GET', `/api/v1/iot/devices/${a.id}`, { token: f.token })).status).toBe(404);
    expect((await ingest(a.key, [{ ts: minutesAgo(1), metrics: { waterLitersTotal: 1 } }])).status).toBe(401);
  });
});

describe('the manager’s dashboard', () => {
  it('lists the sensors that are not online', async () => {
    const f = await iotFarm();
    const silent = await registerDevice(f, { name: 'Silent' });
    const live = await registerDevice(f, { name: 'Live' });
    await ingest(live.key, [{ ts: minutesAgo(0), metrics: { temperatureC: 22, humidityPct: 55 } }]);
    const res = await call('GET', '/api/v1/dashboard', { token: f.token, query: { farmId: f.farmId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.devicesNotOnline).toEqual({
      count: 1,
      devices: [{ id: silent.id, name: 'Silent', kind: 'climate', houseId: f.houseId, status: 'offline', lastSeen: null }],
    });
  });
});

describe('ingestion over HTTP', () => {
  it('accepts, rejects per reading with the reason, and never stores a reading twice', async () => {
    const f = await iotFarm();
    const d = await registerDevice(f);
    const res = await ingest(d.key, [
      { ts: minutesAgo(5), metrics: { temperatureC: 24, humidityPct: 60 } },
      { ts: minutesAgo(4), metrics: { temperatureC: 25, humidityPct: 140 } },
      { ts: minutesAgo(3), metrics: { temperatureC: 25.5, nh3Ppm: 4 } },
      { ts: new Date(Date.now() + 3_600_000).toISOString(), metrics: { temperatureC: 25 } },
      { ts: new Date(Date.now() - 40 * DAY_MS).toISOString(), metrics: { temperatureC: 25 } },
      { ts: minutesAgo(5), metrics: { temperatureC: 24, humidityPct: 60 } },
      { ts: minutesAgo(2), metrics: { temperatureC: 26, humidityPct: 61 } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.accepted).toBe(2);
    expect(res.body.data.duplicates).toBe(1);
    expect(res.body.data.rejected.map((r: Json) => r.index)).toEqual([1, 2, 3, 4]);
    expect(res.body.data.rejected[0].error).toContain('humidityPct 140 % is outside the physical range');
    expect(res.body.data.rejected[1].error).toContain('nh3Ppm is not a metric of this device');
    expect(res.body.data.rejected[2].error).toContain('more than 5 minutes after');
    expect(res.body.data.rejected[3].error).toContain('older than the raw readings are kept');
    const again = await ingest(d.key, [
      { ts: minutesAgo(5), metrics: { temperatureC: 24, humidityPct: 60 } },
      { ts: minutesAgo(1), metrics: { temperatureC: 27, humidityPct: 62 } },
    ]);
    expect(again.body.data).toEqual({ accepted: 1, duplicates: 1, rejected: [] });
    const raw = await readings(f, d.id, { resolution: 'raw', from: minutesAgo(60), to: soon() });
    expect(raw.readings.map((r: Json) => r.metrics.temperatureC)).toEqual([24, 26, 27]);
    const hourly = await readings(f, d.id, { from: minutesAgo(120), to: soon() });
    expect(totals(hourly.buckets, 'temperatureC')).toEqual({ count: 3, sum: 77 });
    const daily = await readings(f, d.id, { resolution: 'day', from: minutesAgo(3000), to: soon() });
    expect(totals(daily.buckets, 'humidityPct')).toEqual({ count: 3, sum: 183 });
  });

  it('20 concurrent batches with overlapping timestamps: the rollups equal what the raw readings imply', async () => {
    const f = await iotFarm();
    const d = await registerDevice(f);
    const base = Math.floor((Date.now() - 3 * 3_600_000) / 60_000) * 60_000;
    // batch i covers minutes i*5 … i*5+29: each minute is sent by up to 6 batches, the value a function of the minute
    const batches = Array.from({ length: 20 }, (_, i) =>
      Array.from({ length: 30 }, (_, k) => {
        const minute = i * 5 + k;
        return { ts: new Date(base + minute * 60_000).toISOString(), metrics: { temperatureC: 20 + (minute % 7), humidityPct: 50 + (minute % 11) } };
      }),
    );
    const results = await Promise.all(batches.map((b) => ingest(d.key, b)));
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const accepted = results.reduce((a, r) => a + r.body.data.accepted, 0);
    const duplicates = results.reduce((a, r) => a + r.body.data.duplicates, 0);
    const distinct = 19 * 5 + 30;
    expect(accepted).toBe(distinct);
    expect(accepted + duplicates).toBe(20 * 30);
    const raw = await readings(f, d.id, { resolution: 'raw', from: new Date(base).toISOString(), to: soon() });
    expect(raw.readings).toHaveLength(distinct);
    const rawSum = raw.readings.reduce((a: number, r: Json) => a + r.metrics.temperatureC, 0);
    const hourly = await readings(f, d.id, { from: new Date(base - 3_600_000).toISOString(), to: soon() });
    expect(totals(hourly.buckets, 'temperatureC').count).toBe(distinct);
    expect(totals(hourly.buckets, 'temperatureC').sum).toBeCloseTo(rawSum, 6);
    const daily = await readings(f, d.id, { resolution: 'day', from: new Date(base - DAY_MS).toISOString(), to: soon() });
    expect(totals(daily.buckets, 'humidityPct').count).toBe(distinct);
    expect(totals(daily.buckets, 'humidityPct').sum).toBeCloseTo(
      raw.readings.reduce((a: number, r: Json) => a + r.metrics.humidityPct, 0),
      6,
    );
  }, 60_000);

  it('a counter going backwards is rejected; last seen is the newest reading, never later than its arrival, written at most once a minute', async () => {
    const f = await iotFarm();
    const d = await registerDevice(f, { kind: 'water_meter', name: 'Meter', reportingIntervalSeconds: 600 });
    const r = await ingest(d.key, [
      { ts: minutesAgo(10), metrics: { waterLitersTotal: 1000 } },
      { ts: minutesAgo(9), metrics: { waterLitersTotal: 1010 } },
      { ts: minutesAgo(8), metrics: { waterLitersTotal: 1005 } },
    ]);
    expect(r.body.data.accepted).toBe(2);
    expect(r.body.data.rejected).toEqual([{ index: 2, error: expect.stringContaining('waterLitersTotal went backwards: 1005 after 1010') }]);
    const before = (await call('GET', `/api/v1/iot/devices/${d.id}`, { token: f.token })).body.data;
    expect(before.lastSeen).toBe(minutesAgo(9));
    expect(before.status).toBe('online');
    // a reading in the same minute is stored, but last seen does not move (one write per minute of readings)
    const sameMinute = new Date(Date.parse(minutesAgo(9)) + 30_000).toISOString();
    expect((await ingest(d.key, [{ ts: sameMinute, metrics: { waterLitersTotal: 1015 } }])).body.data.accepted).toBe(1);
    expect((await call('GET', `/api/v1/iot/devices/${d.id}`, { token: f.token })).body.data.lastSeen).toBe(minutesAgo(9));
    // a later minute moves it, however soon after the last write it arrives (a backlog catches up)
    expect((await ingest(d.key, [{ ts: minutesAgo(7), metrics: { waterLitersTotal: 1020 } }])).body.data.accepted).toBe(1);
    expect((await call('GET', `/api/v1/iot/devices/${d.id}`, { token: f.token })).body.data.lastSeen).toBe(minutesAgo(7));
  });

  it('raw readings are packed per hour and expire TTL days after they were measured; a repeat restores raw readings lost after counting', async () => {
    const f = await iotFarm();
    const d = await registerDevice(f);
    const start = Math.floor((Date.now() - 2 * DAY_MS) / 3_600_000) * 3_600_000;
    const frames = Array.from({ length: 500 }, (_, m) => ({
      ts: new Date(start + m * 60_000).toISOString(),
      metrics: { temperatureC: 20 + (m % 5), humidityPct: 60 },
    }));
    expect((await ingest(d.key, frames)).body.data.accepted).toBe(500);
    const packs = async () => {
      const items = [];
      for (const day of [...new Set(frames.map((fr) => fr.ts.slice(0, 10)))]) {
        const res = await db().send(
          new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `READINGS#${d.id}#${day}` } }),
        );
        items.push(...(res.Items ?? []));
      }
      return items;
    };
    const stored = await packs();
    // 500 one-minute frames span 9 UTC hours: 9 items, not 500
    expect(stored).toHaveLength(9);
    for (const item of stored) {
      const newest = Math.max(...(item.readings as Json[]).map((r) => Date.parse(r.ts)));
      expect(item.expiresAt).toBe(Math.floor(newest / 1000) + 30 * 86_400);
    }
    // a crash between the count and the raw write: the packs of two hours are lost
    for (const item of stored.slice(2, 4)) await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK } }));
    const raw = () => readings(f, d.id, { resolution: 'raw', from: new Date(start).toISOString(), to: new Date(start + DAY_MS).toISOString() });
    expect((await raw()).readings).toHaveLength(500 - 120);
    // sent again at once: all duplicates, and nothing restored yet (the first writer may still be writing them)
    expect((await ingest(d.key, frames)).body.data).toEqual({ accepted: 0, duplicates: 500, rejected: [] });
    expect((await raw()).readings).toHaveLength(500 - 120);
    // once the hours have counted nothing for a while, a repeat restores what is missing, once
    const claims = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :seen)',
        ExpressionAttributeValues: { ':pk': `DEVICE#${d.id}`, ':seen': 'SEEN#' },
      }),
    );
    for (const c of claims.Items ?? [])
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { PK: c.PK, SK: c.SK },
          UpdateExpression: 'SET updatedAt = :then',
          ExpressionAttributeValues: { ':then': new Date(Date.now() - 60_000).toISOString() },
        }),
      );
    expect((await ingest(d.key, frames)).body.data).toEqual({ accepted: 0, duplicates: 500, rejected: [] });
    const restored = (await raw()).readings;
    expect(restored.map((r: Json) => r.ts)).toEqual(frames.map((fr) => fr.ts));
    expect(await packs()).toHaveLength(9);
    expect(totals((await readings(f, d.id, { from: new Date(start).toISOString(), to: soon() })).buckets, 'temperatureC').count).toBe(500);
  });

  it('the readings endpoint bounds its periods and reads a week of hours in at most 2 Queries', async () => {
    const f = await iotFarm();
    const d = await registerDevice(f);
    const week = Array.from({ length: 168 }, (_, h) => ({
      ts: new Date(Date.now() - (h + 1) * 3_600_000).toISOString(),
      metrics: { temperatureC: 22, humidityPct: 55 },
    }));
    expect((await ingest(d.key, week)).body.data.accepted).toBe(168);
    resetDbCalls();
    const data = await readings(f, d.id, {
      resolution: 'hour',
      from: new Date(Date.now() - 7 * DAY_MS - 3_600_000).toISOString(),
      to: new Date().toISOString(),
    });
    expect(data.buckets.length).toBeGreaterThanOrEqual(168);
    expect(dbCalls.Query ?? 0).toBeLessThanOrEqual(2);
    const tooLong = await call('GET', `/api/v1/iot/devices/${d.id}/readings`, {
      token: f.token,
      query: { resolution: 'raw', from: new Date(Date.now() - 3 * DAY_MS).toISOString(), to: new Date().toISOString() },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details[0].message).toContain('at most 2 days');
    const backwards = await call('GET', `/api/v1/iot/devices/${d.id}/readings`, { token: f.token, query: { from: soon(), to: minutesAgo(5) } });
    expect(backwards.status).toBe(400);
  });
});

describe('what sensors feed', () => {
  it('water meters and silo load cells become the day’s water and feed of the house’s cycle, unless a manual figure exists', async () => {
    const f = await iotFarm();
    const c = await flockWithCycle({
      token: f.token,
      houseId: f.houseId,
      farmId: f.farmId,
      startDate: new Date(Date.now() - 10 * DAY_MS).toISOString().slice(0, 10),
    });
    const meter = await registerDevice(f, { kind: 'water_meter', name: 'Meter' });
    const silo = await registerDevice(f, { kind: 'feed_silo', name: 'Silo' });
    const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
    const at = (date: string, hh: string) => `${date}T${hh}:00:00.000Z`;
    const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS).toISOString().slice(0, 10);
    expect(
      (
        await ingest(meter.key, [
          { ts: at(twoDaysAgo, '22'), metrics: { waterLitersTotal: 5000 } },
          { ts: at(yesterday, '06'), metrics: { waterLitersTotal: 5400 } },
          { ts: at(yesterday, '18'), metrics: { waterLitersTotal: 6100 } },
        ])
      ).body.data.accepted,
    ).toBe(3);
    // silo: 8000 → 7400 → refilled to 9400 → 9000: 600 + 400 = 1000 kg eaten
    expect(
      (
        await ingest(silo.key, [
          { ts: at(yesterday, '01'), metrics: { siloKg: 8000 } },
          { ts: at(yesterday, '08'), metrics: { siloKg: 7400 } },
          { ts: at(yesterday, '09'), metrics: { siloKg: 9400 } },
          { ts: at(yesterday, '20'), metrics: { siloKg: 9000 } },
        ])
      ).body.data.accepted,
    ).toBe(4);
    const series = async () => {
      const res = await call('GET', `/api/v2/analytics/daily/${c.flock.id}/${c.cycle.id}`, { token: f.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.days as Json[];
    };
    const day = (await series()).find((d) => d.date === yesterday)!;
    expect(day.waterLiters.value).toBe(1100);
    expect(day.feedKg.value).toBe(1000);
    expect(day.sources).toEqual({ waterLiters: 'sensor', feedKg: 'sensor' });
    // a manual figure wins, and says so
    await c.move({ type: 'water_consumption', date: yesterday, liters: 900 });
    const after = (await series()).find((d) => d.date === yesterday)!;
    expect(after.waterLiters.value).toBe(900);
    expect(after.sources).toEqual({ waterLiters: 'manual', feedKg: 'sensor' });
  });

  it('a scale device’s weighings become the cycle’s automatic_scale session', async () => {
    const f = await iotFarm();
    const c = await flockWithCycle({ token: f.token, houseId: f.houseId, farmId: f.farmId });
    const scale = await registerDevice(f, { kind: 'scale', name: 'Scale' });
    const weighings = [1800, 1850, 1900, 1950, 2000].map((g, i) => ({ ts: minutesAgo(10 - i), metrics: { birdWeightGrams: g } }));
    expect((await ingest(scale.key, weighings)).body.data.accepted).toBe(5);
    const weights = (await call('GET', `${c.base}/weights`, { token: f.token })).body.data as Json[];
    const session = weights.find((w) => w.method === 'automatic_scale');
    expect(session).toMatchObject({ id: scale.id, grams: 1900, sampleSize: 5, deviceId: scale.id });
  });

  it('readings outside the thresholds are recorded as breaches for the rules, and shown in the house conditions', async () => {
    const f = await iotFarm();
    await flockWithCycle({ token: f.token, houseId: f.houseId, farmId: f.farmId, startDate: new Date(Date.now() - 3 * DAY_MS).toISOString().slice(0, 10) });
    const air = await registerDevice(f, { kind: 'multi', name: 'Multi', metrics: ['temperatureC', 'nh3Ppm', 'co2Ppm'] });
    await ingest(air.key, [
      { ts: minutesAgo(3), metrics: { temperatureC: 31.5, nh3Ppm: 25, co2Ppm: 2000 } },
      { ts: minutesAgo(2), metrics: { temperatureC: 24, nh3Ppm: 28, co2Ppm: 2100 } },
    ]);
    const stored = await db().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': breachesPartition(f.farmId) } }),
    );
    const byMetric = Object.fromEntries((stored.Items ?? []).map((i) => [`${i.metric}:${i.direction}`, i]));
    expect(byMetric['nh3Ppm:high']).toMatchObject({ readings: 2, deviceId: air.id, houseId: f.houseId, worstInLastBatch: 28 });
    // day 3 of a broiler flock: about 31.7 °C ± 2, so 24 °C is too cold and 31.5 °C is fine
    expect(byMetric['temperatureC:low']).toMatchObject({ readings: 1 });
    expect(byMetric['temperatureC:high']).toBeUndefined();
    expect(byMetric['co2Ppm:high']).toBeUndefined();
    const conditions = (await call('GET', `/api/v1/iot/houses/${f.houseId}/conditions`, { token: f.token })).body.data;
    expect(conditions.flock).toMatchObject({ birdType: 'broiler', ageDays: 3 });
    const byName = Object.fromEntries(conditions.conditions.map((c: Json) => [c.metric, c]));
    expect(byName.nh3Ppm).toMatchObject({ value: 28, status: 'high', expected: { min: null, max: 20 } });
    expect(byName.temperatureC).toMatchObject({ value: 24, status: 'low' });
    expect(byName.co2Ppm.status).toBe('ok');
  });
});

describe('the IoT Core rule and the health job', () => {
  it('the rule’s function ingests through the same use case: same answer, same rollups', async () => {
    const f = await iotFarm();
    const viaRule = await registerDevice(f, { name: 'Rule' });
    const viaHttp = await registerDevice(f, { name: 'Http' });
    const frames = [1, 2, 3].map((m) => ({ ts: minutesAgo(10 - m), metrics: { temperatureC: 20 + m, humidityPct: 55 + m } }));
    const outcomes = [];
    for (const frame of [...frames, frames[0]!]) {
      outcomes.push(await telemetryRule({ ...frame, farmId: f.farmId, deviceId: viaRule.id, receivedAt: Date.now() }, { awsRequestId: 'rule-test' } as never));
    }
    expect(outcomes.map((o) => o.status)).toEqual(['done', 'done', 'done', 'done']);
    expect(outcomes[3]).toEqual({ status: 'done', result: { accepted: 0, duplicates: 1, rejected: [] } });
    await ingest(viaHttp.key, frames);
    const q = { from: minutesAgo(120), to: soon() };
    expect((await readings(f, viaRule.id, q)).buckets).toEqual((await readings(f, viaHttp.id, q)).buckets);
    const batch = await telemetryRule({ readings: frames, farmId: f.farmId, deviceId: viaRule.id, receivedAt: Date.now() }, {
      awsRequestId: 'rule-batch',
    } as never);
    expect(batch).toEqual({ status: 'done', result: { accepted: 0, duplicates: 3, rejected: [] } });
  });

  it('the health job records devices going stale and offline, and a new reading brings one back', async () => {
    const f = await iotFarm();
    const d = await registerDevice(f);
    await ingest(d.key, [{ ts: minutesAgo(1), metrics: { temperatureC: 22, humidityPct: 55 } }]);
    const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
    const mine = (r: Awaited<ReturnType<typeof checkDeviceHealth>>) => r.transitions.filter((t) => t.deviceId === d.id);
    expect(mine(await checkDeviceHealth(commandContext(deviceHealthCaller, { now: later(0) })))).toEqual([]);
    expect(mine(await checkDeviceHealth(commandContext(deviceHealthCaller, { now: later(2) })))).toMatchObject([
      { from: 'online', to: 'stale', farmId: f.farmId, houseId: f.houseId },
    ]);
    expect(mine(await checkDeviceHealth(commandContext(deviceHealthCaller, { now: later(2) })))).toEqual([]);
    expect(mine(await checkDeviceHealth(commandContext(deviceHealthCaller, { now: later(5) })))).toMatchObject([{ from: 'stale', to: 'offline' }]);
    expect(mine(await checkDeviceHealth(commandContext(deviceHealthCaller, { now: later(60) })))).toEqual([]);
  });
});
