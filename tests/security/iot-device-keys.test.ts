/**
 * OWASP API Top 10 (2023) for the IoT group: the device keys of `POST /api/v1/iot/ingest` and the device
 * registry. API2: a missing, malformed, wrong, rotated or deleted device key (or a user's JWT in its place)
 * is 401 and writes nothing (the whole table is compared, and the device's readings, rollups and last seen
 * are read back). API1: a manager of farm A gets the 404 of an unknown id for farm B's devices, house and
 * device list, and an admin does not; a device key writes only its own device (the body cannot name
 * another). The IoT Core rule's function drops unknown or deleted devices, a topic farm that is not the
 * device's, and malformed messages without writing. API3: the secret hash is in no answer; the secret and
 * device key only in the register and rotate answers (not in an idempotent replay). API4: the batch size,
 * the route's own 512 KB body cap and its own `ingest` rate-limit class (small quota set for this file).
 * Input limits: ts, metric names (400) and physical ranges (rejected per reading).
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulidx';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashDeviceSecret } from '../../shared/auth/device-keys.js';
import { db, tableName } from '../../shared/db/client.js';
import { deviceKey } from '../../shared/db/keys.js';
import { handler as telemetryRule } from '../../functions/iot/telemetry-rule.js';
import { adminLogin } from '../support/accounts.js';
import { call, type CallResult } from '../support/api.js';
import { ingest, iotFarm, minutesAgo, registerDevice, type IotFarm } from '../support/iot.js';
import { captureLogs, type CapturedLogs } from '../support/logs.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// --- rate limits for this file: a small ingest quota, and one window for ingest and general chosen so that
// at least 20 minutes of it remain (no window boundary mid-test). Each handler reads them when its module
// is first imported, on the first call(): none of the imports above loads an HTTP handler. ----------------
const INGEST_MAX = 8;
const GENERAL_MAX = 500;
const WINDOW = (() => {
  const now = Math.floor(Date.now() / 1000);
  for (let w = 3600; ; w += 3600) if (w - (now % w) >= 1200) return w;
})();
const LIMIT_ENV: Record<string, string> = {
  RATE_LIMIT_INGEST_MAX: String(INGEST_MAX),
  RATE_LIMIT_INGEST_WINDOW_SECONDS: String(WINDOW),
  RATE_LIMIT_GENERAL_MAX: String(GENERAL_MAX),
  RATE_LIMIT_GENERAL_WINDOW_SECONDS: String(WINDOW),
};
const savedEnv = Object.fromEntries(Object.keys(LIMIT_ENV).map((k) => [k, process.env[k]]));
Object.assign(process.env, LIMIT_ENV);
afterAll(() => {
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const INGEST = '/api/v1/iot/ingest';
const DEVICES = '/api/v1/iot/devices';
const MAX_INGEST_BODY = 512 * 1024;

let ipCounter = 0;
/** A client address of its own for each use, so the per-IP limiters never interfere. */
const freshIp = () => `198.19.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
const soon = () => new Date(Date.now() + 10 * 60_000).toISOString();
/** A climate frame `minutes` before now (or before `nowMs`: one base for a whole batch keeps its times distinct across a minute boundary). */
const climate = (minutes: number, temperatureC = 22, humidityPct = 55, nowMs = Date.now()) => ({
  ts: minutesAgo(minutes, nowMs),
  metrics: { temperatureC, humidityPct },
});
const ingestWith = (headers: Record<string, string>, readings: unknown[], extra: { query?: Record<string, string> } = {}) =>
  call('POST', INGEST, { headers, body: { readings }, ip: freshIp(), ...extra });

let A: IotFarm;
let B: IotFarm;
let admin: string;
beforeAll(async () => {
  admin = await adminLogin();
  A = await iotFarm();
  B = await iotFarm();
});

// --- the table, read back: nothing written means no item added, removed or changed -------------------------

type TableState = Map<string, string>;

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((value as Json)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

/** Every item of this file's table but the rate-limit counters (and, when asked, the service metrics). */
async function tableState(opts: { withoutMetrics?: boolean } = {}): Promise<TableState> {
  const out: TableState = new Map();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of page.Items ?? []) {
      const pk = String(item.PK);
      if (pk.startsWith('RATE#') || (opts.withoutMetrics && pk.startsWith('METRICS#'))) continue;
      out.set(`${pk} | ${String(item.SK)}`, stable(item));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

async function expectNothingWritten(before: TableState, label: string, opts: { withoutMetrics?: boolean } = {}): Promise<void> {
  const after = await tableState(opts);
  const added = [...after.keys()].filter((k) => !before.has(k));
  const removed = [...before.keys()].filter((k) => !after.has(k));
  const changed = [...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k));
  expect({ added, removed, changed }, `${label}: table items written`).toEqual({ added: [], removed: [], changed: [] });
}

// --- reading a device back through the API -----------------------------------------------------------------

async function deviceOf(token: string, id: string): Promise<Json> {
  const res = await call('GET', `${DEVICES}/${id}`, { token });
  expect(res.status, res.raw).toBe(200);
  return res.body.data;
}

/** The device's raw readings (last 47 hours) and hourly rollups (last 3 days). */
async function storedReadings(token: string, id: string): Promise<{ raw: Json[]; hourly: Json[] }> {
  const raw = await call('GET', `${DEVICES}/${id}/readings`, { token, query: { resolution: 'raw', from: minutesAgo(47 * 60), to: soon() } });
  expect(raw.status, raw.raw).toBe(200);
  const hourly = await call('GET', `${DEVICES}/${id}/readings`, { token, query: { resolution: 'hour', from: minutesAgo(72 * 60), to: soon() } });
  expect(hourly.status, hourly.raw).toBe(200);
  return { raw: raw.body.data.readings, hourly: hourly.body.data.buckets };
}

const countOf = (hourly: Json[], metric: string) => hourly.reduce((n, b) => n + (b.metrics[metric]?.count ?? 0), 0);

/** An answer with the given ids replaced, to compare a refusal for a real record with one for an unknown id. */
function normalised(res: CallResult, ids: string[]): { status: number; body: string } {
  let body = res.raw;
  for (const id of ids) body = body.split(id).join('<id>');
  return { status: res.status, body };
}

// ============================================================================================================

describe('API2 broken authentication: X-Device-Key on POST /api/v1/iot/ingest', () => {
  it('a missing, malformed or wrong key, another device’s secret, or a user’s JWT is 401; nothing is written and last seen does not move', async () => {
    const d = await registerDevice(A, { name: 'Auth probe' });
    const other = await registerDevice(A, { name: 'Auth probe neighbour' });
    const secret = d.body.secret as string;
    const flipped = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    const viewBefore = await deviceOf(A.token, d.id);
    expect(viewBefore.lastSeen).toBeNull();
    const before = await tableState();
    const frames = [climate(3), climate(2)];

    const cases: Array<[string, Record<string, string>, { query?: Record<string, string> }?]> = [
      ['no X-Device-Key', {}],
      ['an empty X-Device-Key', { 'X-Device-Key': '' }],
      ['the device id alone', { 'X-Device-Key': d.id }],
      ['the secret alone', { 'X-Device-Key': secret }],
      ['id and secret without the dot', { 'X-Device-Key': `${d.id}${secret}` }],
      ['id and secret in the wrong order', { 'X-Device-Key': `${secret}.${d.id}` }],
      ['the id in lower case', { 'X-Device-Key': `${d.id.toLowerCase()}.${secret}` }],
      ['a secret one character short', { 'X-Device-Key': d.key.slice(0, -1) }],
      ['a secret one character long', { 'X-Device-Key': `${d.key}A` }],
      ['a third part', { 'X-Device-Key': `${d.key}.x` }],
      ['a scheme in front', { 'X-Device-Key': `Bearer ${d.key}` }],
      ['a non-ASCII secret', { 'X-Device-Key': `${d.id}.${'é'.repeat(43)}` }],
      ['a 10 000-character key', { 'X-Device-Key': `${d.id}.${'A'.repeat(10_000)}` }],
      ['the right id with a wrong secret', { 'X-Device-Key': `${d.id}.${'A'.repeat(43)}` }],
      ['the right id with one character of the secret changed', { 'X-Device-Key': `${d.id}.${flipped}` }],
      ['an unknown device id with the right secret', { 'X-Device-Key': `${ulid()}.${secret}` }],
      ['another device’s id with this device’s secret', { 'X-Device-Key': `${other.id}.${secret}` }],
      ['the secret’s stored hash as the secret', { 'X-Device-Key': `${d.id}.${hashDeviceSecret(secret)}` }],
      ['a manager’s JWT as a bearer token', { Authorization: `Bearer ${A.token}` }],
      ['an admin’s JWT as a bearer token', { Authorization: `Bearer ${admin}` }],
      ['a manager’s JWT as X-Device-Key', { 'X-Device-Key': A.token }],
      ['the device key as a bearer token', { Authorization: `Bearer ${d.key}` }],
      ['the device key in Authorization without a scheme', { Authorization: d.key }],
      ['the device key in another header', { 'X-Api-Key': d.key }],
      ['the device key in the query string', {}, { query: { deviceKey: d.key, 'X-Device-Key': d.key } }],
    ];
    const invalidKeyAnswers: string[] = [];
    for (const [label, headers, extra] of cases) {
      const res = await ingestWith(headers, frames, extra);
      expect(res.status, `${label} → ${res.raw.slice(0, 300)}`).toBe(401);
      expect(Object.keys(res.body), label).toEqual(['error']);
      expect(res.raw, `${label}: the answer echoes the secret`).not.toContain(secret);
      if (res.body.error === 'Invalid device key') invalidKeyAnswers.push(label);
    }
    // well-formed keys all get the one answer: it does not tell whether the device id exists
    expect(invalidKeyAnswers).toEqual(
      expect.arrayContaining([
        'the right id with a wrong secret',
        'the right id with one character of the secret changed',
        'an unknown device id with the right secret',
        'another device’s id with this device’s secret',
      ]),
    );

    await expectNothingWritten(before, 'refused keys');
    expect(await deviceOf(A.token, d.id)).toEqual(viewBefore);
    expect(await storedReadings(A.token, d.id)).toEqual({ raw: [], hourly: [] });
    expect(await storedReadings(A.token, other.id)).toEqual({ raw: [], hourly: [] });

    // control: the same frames with the right key are stored, and last seen moves
    const ok = await ingest(d.key, frames, { ip: freshIp() });
    expect(ok.status, ok.raw).toBe(200);
    expect(ok.body.data).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    expect((await deviceOf(A.token, d.id)).lastSeen).toBe(frames[1]!.ts);
    // ...and the comparison above is not blind: this accepted batch shows up in it
    const written = [...(await tableState()).keys()].filter((k) => !before.has(k));
    expect(written.some((k) => k.startsWith(`READINGS#${d.id}#`))).toBe(true);
    expect(written.some((k) => k.startsWith(`DEVICE#${d.id} | HOUR#`))).toBe(true);
  });

  it('a rotated secret: the old key is 401 at once and writes nothing; the new key works', async () => {
    const d = await registerDevice(A, { name: 'Rotated' });
    const rotated = await call('POST', `${DEVICES}/${d.id}/rotate-secret`, { token: A.token, headers: { 'If-Match': '"1"' } });
    expect(rotated.status, rotated.raw).toBe(200);
    const next = rotated.body.data as Json;
    expect(next.secret).not.toBe(d.body.secret);
    expect(next.deviceKey).toBe(`${d.id}.${next.secret}`);
    expect(rotated.headers.ETag).toBe('"2"');

    const viewBefore = await deviceOf(A.token, d.id);
    const before = await tableState();
    const old = await ingest(d.key, [climate(4)], { ip: freshIp() });
    expect(old.status, old.raw).toBe(401);
    expect(old.body).toEqual({ error: 'Invalid device key' });
    await expectNothingWritten(before, 'the old key after rotation');
    expect(await deviceOf(A.token, d.id)).toEqual(viewBefore);
    expect(await storedReadings(A.token, d.id)).toEqual({ raw: [], hourly: [] });

    const frame = climate(3, 23.5);
    const fresh = await ingest(next.deviceKey, [frame], { ip: freshIp() });
    expect(fresh.status, fresh.raw).toBe(200);
    expect(fresh.body.data).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    const seen = await deviceOf(A.token, d.id);
    expect(seen.lastSeen).toBe(frame.ts);

    // rotated again after use: the second key stops too, and neither the readings nor last seen move
    const again = await call('POST', `${DEVICES}/${d.id}/rotate-secret`, { token: A.token });
    expect(again.status, again.raw).toBe(200);
    const beforeSecond = await tableState();
    const stale = await ingest(next.deviceKey, [climate(1, 30)], { ip: freshIp() });
    expect(stale.status, stale.raw).toBe(401);
    await expectNothingWritten(beforeSecond, 'the second key after another rotation');
    const stored = await storedReadings(A.token, d.id);
    expect(stored.raw.map((r) => r.ts)).toEqual([frame.ts]);
    expect(countOf(stored.hourly, 'temperatureC')).toBe(1);
    expect((await deviceOf(A.token, d.id)).lastSeen).toBe(frame.ts);
  });

  it('a deleted device’s key is 401 and writes nothing (the registration is not brought back, its history is untouched)', async () => {
    const d = await registerDevice(A, { name: 'Deleted' });
    expect((await ingest(d.key, [climate(5)], { ip: freshIp() })).status).toBe(200);
    const deleted = await call('DELETE', `${DEVICES}/${d.id}`, { token: A.token, headers: { 'If-Match': '"1"' } });
    expect(deleted.status, deleted.raw).toBe(204);

    const before = await tableState();
    const res = await ingest(d.key, [climate(2), climate(1)], { ip: freshIp() });
    expect(res.status, res.raw).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid device key' });
    await expectNothingWritten(before, 'a deleted device’s key');
    expect(before.has(`${deviceKey(d.id).PK} | META`)).toBe(false);
    expect((await call('GET', `${DEVICES}/${d.id}`, { token: A.token })).status).toBe(404);
  });
});

// ============================================================================================================

describe('API1 object-level authorization: devices, houses and keys of another farm', () => {
  it('a manager of farm A gets, for farm B’s device, the 404 of an unknown id on every device route; farm B is unchanged', async () => {
    const dB = await registerDevice(B, { name: 'B climate' });
    const frame = climate(6);
    expect((await ingest(dB.key, [frame], { ip: freshIp() })).status).toBe(200);
    const viewBefore = await deviceOf(B.token, dB.id);
    const readingsBefore = await storedReadings(B.token, dB.id);
    const unknown = ulid();
    const before = await tableState();

    const attempts: Array<[string, (id: string) => Promise<CallResult>]> = [
      ['GET device', (id) => call('GET', `${DEVICES}/${id}`, { token: A.token })],
      ['PATCH device', (id) => call('PATCH', `${DEVICES}/${id}`, { token: A.token, headers: { 'If-Match': '"1"' }, body: { name: 'Taken over' } })],
      [
        'PATCH device (version in the body)',
        (id) => call('PATCH', `${DEVICES}/${id}`, { token: A.token, body: { reportingIntervalSeconds: 600, version: 1 } }),
      ],
      ['DELETE device', (id) => call('DELETE', `${DEVICES}/${id}`, { token: A.token, headers: { 'If-Match': '"1"' } })],
      ['DELETE device (unconditional)', (id) => call('DELETE', `${DEVICES}/${id}`, { token: A.token })],
      ['rotate secret', (id) => call('POST', `${DEVICES}/${id}/rotate-secret`, { token: A.token })],
      ['raw readings', (id) => call('GET', `${DEVICES}/${id}/readings`, { token: A.token, query: { resolution: 'raw', from: minutesAgo(600), to: soon() } })],
      [
        'hourly readings',
        (id) => call('GET', `${DEVICES}/${id}/readings`, { token: A.token, query: { resolution: 'hour', from: minutesAgo(600), to: soon() } }),
      ],
    ];
    for (const [label, attempt] of attempts) {
      const theirs = await attempt(dB.id);
      const missing = await attempt(unknown);
      expect(theirs.status, `${label} → ${theirs.raw}`).toBe(404);
      expect(normalised(theirs, [dB.id]), label).toEqual(normalised(missing, [unknown]));
      expect(theirs.raw, label).not.toContain('B climate');
    }

    await expectNothingWritten(before, 'farm A’s manager on farm B’s device');
    expect(await deviceOf(B.token, dB.id)).toEqual(viewBefore);
    expect(await storedReadings(B.token, dB.id)).toEqual(readingsBefore);
    // its key was not rotated: it still works
    expect((await ingest(dB.key, [climate(4)], { ip: freshIp() })).status).toBe(200);
  });

  it('a manager of farm A cannot list farm B’s devices, read its house’s conditions, register a device in it or move one there (404 like unknown ids)', async () => {
    const dB = await registerDevice(B, { name: 'B listed' });
    const dA = await registerDevice(A, { name: 'A own' });
    const unknownFarm = ulid();
    const unknownHouse = ulid();
    const ids = [B.farmId, B.houseId, unknownFarm, unknownHouse];
    const same = (theirs: CallResult, missing: CallResult, label: string) => {
      expect(theirs.status, `${label} → ${theirs.raw}`).toBe(404);
      expect(normalised(theirs, ids), label).toEqual(normalised(missing, ids));
    };
    const before = await tableState();

    same(
      await call('GET', DEVICES, { token: A.token, query: { farmId: B.farmId } }),
      await call('GET', DEVICES, { token: A.token, query: { farmId: unknownFarm } }),
      'list farm B',
    );
    same(
      await call('GET', DEVICES, { token: A.token, query: { farmId: B.farmId, houseId: B.houseId } }),
      await call('GET', DEVICES, { token: A.token, query: { farmId: unknownFarm, houseId: unknownHouse } }),
      'list farm B’s house',
    );
    const own = await call('GET', DEVICES, { token: A.token, query: { houseId: B.houseId } });
    expect(own.status, own.raw).toBe(200);
    expect(own.body.data).toEqual([]);
    const all = await call('GET', DEVICES, { token: A.token });
    expect(all.status, all.raw).toBe(200);
    expect(all.body.data.map((d: Json) => d.id)).toContain(dA.id);
    expect(all.body.data.map((d: Json) => d.farmId)).not.toContain(B.farmId);

    same(
      await call('GET', `/api/v1/iot/houses/${B.houseId}/conditions`, { token: A.token }),
      await call('GET', `/api/v1/iot/houses/${unknownHouse}/conditions`, { token: A.token }),
      'conditions of farm B’s house',
    );
    same(
      await call('GET', `/api/v1/iot/houses/${B.houseId}/conditions`, { token: A.token, query: { farmId: B.farmId } }),
      await call('GET', `/api/v1/iot/houses/${unknownHouse}/conditions`, { token: A.token, query: { farmId: unknownFarm } }),
      'conditions of farm B’s house, naming farm B',
    );
    same(
      await call('GET', `/api/v1/iot/houses/${B.houseId}/conditions`, { token: A.token, query: { farmId: A.farmId } }),
      await call('GET', `/api/v1/iot/houses/${unknownHouse}/conditions`, { token: A.token, query: { farmId: A.farmId } }),
      'conditions of farm B’s house, naming farm A',
    );

    const register = (body: Json) => call('POST', DEVICES, { token: A.token, body: { kind: 'climate', name: 'Intruder', ...body } });
    same(await register({ houseId: B.houseId }), await register({ houseId: unknownHouse }), 'register in farm B’s house');
    same(
      await register({ houseId: B.houseId, farmId: B.farmId }),
      await register({ houseId: unknownHouse, farmId: unknownFarm }),
      'register in farm B’s house, naming farm B',
    );
    same(
      await register({ houseId: B.houseId, farmId: A.farmId }),
      await register({ houseId: unknownHouse, farmId: A.farmId }),
      'register in farm B’s house, naming farm A',
    );
    same(
      await call('PATCH', `${DEVICES}/${dA.id}`, { token: A.token, headers: { 'If-Match': '"1"' }, body: { houseId: B.houseId } }),
      await call('PATCH', `${DEVICES}/${dA.id}`, { token: A.token, headers: { 'If-Match': '"1"' }, body: { houseId: unknownHouse } }),
      'move farm A’s device into farm B’s house',
    );

    await expectNothingWritten(before, 'farm A’s manager on farm B');
    expect(await deviceOf(A.token, dA.id)).toMatchObject({ houseId: A.houseId, farmId: A.farmId, version: 1 });
    const bList = await call('GET', DEVICES, { token: B.token });
    expect(bList.body.data.map((d: Json) => d.id)).toContain(dB.id);
    expect(bList.body.data.map((d: Json) => d.name)).not.toContain('Intruder');
  });

  it('an admin can do all of it in farm B', async () => {
    const reg = await call('POST', DEVICES, { token: admin, body: { houseId: B.houseId, farmId: B.farmId, kind: 'climate', name: 'Admin placed' } });
    expect(reg.status, reg.raw).toBe(201);
    const id = reg.body.data.id as string;
    expect(reg.body.data).toMatchObject({ farmId: B.farmId, houseId: B.houseId });
    expect((await ingest(reg.body.data.deviceKey, [climate(3)], { ip: freshIp() })).status).toBe(200);

    const listed = await call('GET', DEVICES, { token: admin, query: { farmId: B.farmId } });
    expect(listed.status, listed.raw).toBe(200);
    expect(listed.body.data.map((d: Json) => d.id)).toContain(id);
    const conditions = await call('GET', `/api/v1/iot/houses/${B.houseId}/conditions`, { token: admin, query: { farmId: B.farmId } });
    expect(conditions.status, conditions.raw).toBe(200);
    expect((await call('GET', `${DEVICES}/${id}`, { token: admin })).status).toBe(200);
    const raw = await call('GET', `${DEVICES}/${id}/readings`, { token: admin, query: { resolution: 'raw', from: minutesAgo(600), to: soon() } });
    expect(raw.status, raw.raw).toBe(200);
    expect(raw.body.data.readings).toHaveLength(1);
    const patched = await call('PATCH', `${DEVICES}/${id}`, { token: admin, headers: { 'If-Match': '"1"' }, body: { name: 'Admin renamed' } });
    expect(patched.status, patched.raw).toBe(200);
    const rotated = await call('POST', `${DEVICES}/${id}/rotate-secret`, { token: admin, headers: { 'If-Match': '"2"' } });
    expect(rotated.status, rotated.raw).toBe(200);
    expect((await ingest(rotated.body.data.deviceKey, [climate(2)], { ip: freshIp() })).status).toBe(200);
    // and farm B's own manager sees what the admin did
    expect(await deviceOf(B.token, id)).toMatchObject({ name: 'Admin renamed', version: 3 });
    const deleted = await call('DELETE', `${DEVICES}/${id}`, { token: admin, headers: { 'If-Match': '"3"' } });
    expect(deleted.status, deleted.raw).toBe(204);
    expect((await call('GET', `${DEVICES}/${id}`, { token: B.token })).status).toBe(404);
  });

  it('a device key writes only its own device: the body cannot name a device, farm or house (400), and nothing lands on another device', async () => {
    const dA = await registerDevice(A, { name: 'Writer' });
    const dB = await registerDevice(B, { name: 'Target' });
    const frame = climate(3);
    const before = await tableState();
    const bodies: Array<[Json, string]> = [
      [{ deviceId: dB.id, readings: [frame] }, 'body.deviceId'],
      [{ farmId: B.farmId, readings: [frame] }, 'body.farmId'],
      [{ houseId: B.houseId, readings: [frame] }, 'body.houseId'],
      [{ device: { id: dB.id }, readings: [frame] }, 'body.device'],
      [{ readings: [{ ...frame, deviceId: dB.id }] }, 'body.readings.0.deviceId'],
      [{ readings: [frame, { ...climate(2), deviceKey: dB.key }] }, 'body.readings.1.deviceKey'],
      [{ readings: [{ ts: frame.ts, metrics: { ...frame.metrics, deviceId: dB.id } }] }, 'body.readings.0.metrics.deviceId'],
    ];
    for (const [body, field] of bodies) {
      const res = await call('POST', INGEST, { headers: { 'X-Device-Key': dA.key }, body, ip: freshIp() });
      expect(res.status, `${field} → ${res.raw}`).toBe(400);
      expect(res.body.details, field).toContainEqual({ field, message: 'is not allowed' });
    }
    await expectNothingWritten(before, 'bodies naming another device');

    const ok = await ingest(dA.key, [frame], { ip: freshIp() });
    expect(ok.body.data).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    expect((await storedReadings(A.token, dA.id)).raw.map((r) => r.ts)).toEqual([frame.ts]);
    expect(await storedReadings(B.token, dB.id)).toEqual({ raw: [], hourly: [] });
    expect((await deviceOf(B.token, dB.id)).lastSeen).toBeNull();
  });
});

// ============================================================================================================

describe('the IoT Core rule (functions/iot/telemetry-rule.ts)', () => {
  const rule = (event: unknown) => telemetryRule(event, { awsRequestId: 't' } as never);
  /** The rule's log lines (one per message): kept quiet here, and checked to never hold the payload. */
  let logs: CapturedLogs;
  const logged = () => logs.text().split('\n').filter(Boolean);
  beforeEach(() => {
    logs = captureLogs();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('drops a message for an unknown device, a deleted device, or a topic farm that is not the device’s, and writes nothing', async () => {
    const d = await registerDevice(A, { name: 'Rule target' });
    const gone = await registerDevice(A, { name: 'Rule deleted' });
    expect((await call('DELETE', `${DEVICES}/${gone.id}`, { token: A.token })).status).toBe(204);
    const frame = climate(3);
    const viewBefore = await deviceOf(A.token, d.id);
    const before = await tableState();

    const cases: Array<[string, Json, string]> = [
      ['an unknown device', { farmId: A.farmId, deviceId: ulid() }, 'is not registered'],
      ['a deleted device', { farmId: A.farmId, deviceId: gone.id }, 'is not registered'],
      ['another farm’s topic', { farmId: B.farmId, deviceId: d.id }, `does not belong to farm ${B.farmId}`],
      ['an unknown farm’s topic', { farmId: ulid(), deviceId: d.id }, 'does not belong to farm'],
    ];
    for (const [label, topic, reason] of cases) {
      for (const message of [frame, { readings: [frame] }]) {
        const outcome = await rule({ ...message, ...topic, receivedAt: Date.now() });
        expect(outcome, label).toEqual({ status: 'dropped', reason: expect.stringContaining(reason) });
      }
    }
    expect(logged().filter((l) => l.includes('"outcome":"dropped"'))).toHaveLength(2 * cases.length);
    for (const line of logged()) expect(line, 'a log line holds the payload').not.toContain(frame.ts);
    await expectNothingWritten(before, 'dropped rule messages');
    expect(await deviceOf(A.token, d.id)).toEqual(viewBefore);
    expect(await storedReadings(A.token, d.id)).toEqual({ raw: [], hourly: [] });

    // control: the device's own topic is ingested
    expect(await rule({ ...frame, farmId: A.farmId, deviceId: d.id, receivedAt: Date.now() })).toEqual({
      status: 'done',
      result: { accepted: 1, duplicates: 0, rejected: [] },
    });
  });

  it('drops malformed messages and writes nothing', async () => {
    const d = await registerDevice(A, { name: 'Rule malformed' });
    const topic = { farmId: A.farmId, deviceId: d.id, receivedAt: Date.now() };
    const frame = climate(3);
    const before = await tableState();
    const cases: Array<[string, unknown]> = [
      ['null', null],
      ['a string', 'temperatureC=22'],
      ['an array', [frame]],
      ['an empty object', {}],
      ['no frame at all', topic],
      ['ts without metrics', { ...topic, ts: frame.ts }],
      ['metrics without ts', { ...topic, metrics: frame.metrics }],
      ['ts not a date-time', { ...topic, ts: 'yesterday', metrics: frame.metrics }],
      ['an unknown metric', { ...topic, ts: frame.ts, metrics: { oxygenPct: 20 } }],
      ['a metric that is not a number', { ...topic, ts: frame.ts, metrics: { temperatureC: '22' } }],
      ['empty metrics', { ...topic, ts: frame.ts, metrics: {} }],
      ['no receivedAt', { farmId: A.farmId, deviceId: d.id, ...frame }],
      ['a negative receivedAt', { ...topic, receivedAt: -1, ...frame }],
      ['a device id that is not a ULID', { ...topic, deviceId: `${d.id}/../x`, ...frame }],
      ['a farm id with a slash', { ...topic, farmId: `${A.farmId}/x`, ...frame }],
      ['readings not an array', { ...topic, readings: frame }],
      ['no readings', { ...topic, readings: [] }],
      ['501 readings', { ...topic, readings: Array.from({ length: 501 }, (_, i) => climate(i + 1)) }],
      ['a reading naming another device', { ...topic, readings: [{ ...frame, deviceId: ulid() }] }],
      ['a reading with a bad ts', { ...topic, readings: [frame, { ts: '2026-13-45T99:00:00Z', metrics: frame.metrics }] }],
    ];
    for (const [label, event] of cases) {
      const outcome = await rule(event);
      expect(outcome.status, `${label} → ${JSON.stringify(outcome)}`).toBe('dropped');
    }
    for (const line of logged()) expect(line, 'a log line holds the payload').not.toContain(frame.ts);
    await expectNothingWritten(before, 'malformed rule messages');
    expect((await deviceOf(A.token, d.id)).lastSeen).toBeNull();
  });
});

// ============================================================================================================

describe('API3 property-level: the secret and its hash', () => {
  it('the stored hash is in no answer; the secret and device key only in the register and rotate answers', async () => {
    const reg = await call('POST', DEVICES, { token: A.token, body: { houseId: A.houseId, kind: 'climate', name: 'Secret keeper' } });
    expect(reg.status, reg.raw).toBe(201);
    const id = reg.body.data.id as string;
    const stored = async () => (await db().send(new ScanCommand({ TableName: tableName(), ConsistentRead: true }))).Items ?? [];
    const hashOf = async () => {
      const item = (await stored()).find((i) => i.PK === deviceKey(id).PK && i.SK === 'META');
      return item?.secretHash as string;
    };
    const secret1 = reg.body.data.secret as string;
    const hash1 = await hashOf();
    expect(secret1).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(reg.body.data.deviceKey).toBe(`${id}.${secret1}`);
    expect(hash1).toBe(hashDeviceSecret(secret1));
    expect(hash1).not.toBe(secret1);

    expect((await ingest(reg.body.data.deviceKey, [climate(3)], { ip: freshIp() })).status).toBe(200);
    const answers: Array<[string, CallResult]> = [['register', reg]];
    const withoutSecret: Array<[string, CallResult]> = [];
    const add = (label: string, res: CallResult, into = withoutSecret) => {
      expect(res.status, `${label} → ${res.raw.slice(0, 300)}`).toBeLessThan(300);
      into.push([label, res]);
    };
    add('get', await call('GET', `${DEVICES}/${id}`, { token: A.token }));
    add('get as admin', await call('GET', `${DEVICES}/${id}`, { token: admin }));
    add('list', await call('GET', DEVICES, { token: A.token }));
    add('list as admin', await call('GET', DEVICES, { token: admin, query: { farmId: A.farmId } }));
    add('list by house', await call('GET', DEVICES, { token: A.token, query: { houseId: A.houseId, kind: 'climate' } }));
    add('patch', await call('PATCH', `${DEVICES}/${id}`, { token: A.token, headers: { 'If-Match': '"1"' }, body: { name: 'Secret keeper 2' } }));
    add('readings', await call('GET', `${DEVICES}/${id}/readings`, { token: A.token, query: { resolution: 'raw', from: minutesAgo(600), to: soon() } }));
    add('conditions', await call('GET', `/api/v1/iot/houses/${A.houseId}/conditions`, { token: A.token }));
    add('dashboard', await call('GET', '/api/v1/dashboard', { token: A.token, query: { farmId: A.farmId } }));
    add('ingest', await ingest(reg.body.data.deviceKey, [climate(2)], { ip: freshIp() }));
    const rotated = await call('POST', `${DEVICES}/${id}/rotate-secret`, { token: A.token });
    add('rotate', rotated, answers);
    const secret2 = rotated.body.data.secret as string;
    const hash2 = await hashOf();
    expect(secret2).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated.body.data.deviceKey).toBe(`${id}.${secret2}`);
    expect(hash2).toBe(hashDeviceSecret(secret2));
    add('get after rotation', await call('GET', `${DEVICES}/${id}`, { token: A.token }));
    add('audit log', await call('GET', '/api/v1/admin/audit', { token: admin, query: { targetId: id } }));
    const refused = await ingest(reg.body.data.deviceKey, [climate(1)], { ip: freshIp() });
    expect(refused.status).toBe(401);
    withoutSecret.push(['ingest with the old key', refused]);
    add('delete', await call('DELETE', `${DEVICES}/${id}`, { token: A.token }));

    const propertyNames = (value: unknown, out: string[] = []): string[] => {
      if (Array.isArray(value)) for (const v of value) propertyNames(v, out);
      else if (value && typeof value === 'object')
        for (const [k, v] of Object.entries(value)) {
          out.push(k);
          propertyNames(v, out);
        }
      return out;
    };
    for (const [label, res] of [...answers, ...withoutSecret]) {
      const everything = `${res.raw ?? ''}\n${JSON.stringify(res.headers)}`;
      expect(propertyNames(res.body), label).not.toContain('secretHash');
      expect(everything, `${label}: a stored hash`).not.toContain(hash1);
      expect(everything, `${label}: a stored hash`).not.toContain(hash2);
      expect(everything.toLowerCase(), label).not.toContain('secrethash');
    }
    for (const [label, res] of withoutSecret) {
      const names = propertyNames(res.body);
      expect(names, label).not.toContain('secret');
      expect(names, label).not.toContain('deviceKey');
      const everything = `${res.raw ?? ''}\n${JSON.stringify(res.headers)}`;
      expect(everything, `${label}: the first secret`).not.toContain(secret1);
      expect(everything, `${label}: the second secret`).not.toContain(secret2);
    }
    // the register answer holds only the first secret, the rotate answer only the second
    expect(reg.raw).not.toContain(secret2);
    expect(rotated.raw).not.toContain(secret1);
  });

  it('nobody chooses a device’s secret: a secret, key or hash sent to register, change or rotate is refused or ignored', async () => {
    const chosen = 'A'.repeat(43);
    const before = await tableState();
    for (const extra of [{ secret: chosen }, { deviceKey: `${ulid()}.${chosen}` }, { secretHash: hashDeviceSecret(chosen) }, { keyIssuedAt: minutesAgo(1) }]) {
      const field = `body.${Object.keys(extra)[0]}`;
      const reg = await call('POST', DEVICES, { token: A.token, body: { houseId: A.houseId, kind: 'climate', name: 'Chosen secret', ...extra } });
      expect(reg.status, `register ${field} → ${reg.raw}`).toBe(400);
      expect(reg.body.details, field).toContainEqual({ field, message: 'is not allowed' });
    }
    await expectNothingWritten(before, 'registrations choosing a secret');

    const d = await registerDevice(A, { name: 'Own secret' });
    for (const extra of [{ secret: chosen }, { secretHash: hashDeviceSecret(chosen) }]) {
      const field = `body.${Object.keys(extra)[0]}`;
      const patched = await call('PATCH', `${DEVICES}/${d.id}`, { token: A.token, body: { name: 'Own secret 2', ...extra } });
      expect(patched.status, `patch ${field} → ${patched.raw}`).toBe(400);
      expect(patched.body.details, field).toContainEqual({ field, message: 'is not allowed' });
    }
    // rotate takes no body: whatever is sent, the new secret is a fresh random one
    const rotated = await call('POST', `${DEVICES}/${d.id}/rotate-secret`, { token: A.token, body: { secret: chosen, deviceKey: `${d.id}.${chosen}` } });
    expect(rotated.status, rotated.raw).toBe(200);
    expect(rotated.body.data.secret).not.toBe(chosen);
    expect((await ingest(`${d.id}.${chosen}`, [climate(2)], { ip: freshIp() })).status).toBe(401);
  });

  it('a replayed registration (same Idempotency-Key) answers with the same device without its secret; the first key keeps working', async () => {
    const key = `device-${ulid()}`;
    const body = { houseId: A.houseId, kind: 'climate', name: 'Idempotent climate' };
    const first = await call('POST', DEVICES, { token: A.token, headers: { 'Idempotency-Key': key }, body });
    expect(first.status, first.raw).toBe(201);
    const id = first.body.data.id as string;
    const secret = first.body.data.secret as string;
    expect(first.body.data.deviceKey).toBe(`${id}.${secret}`);

    const before = await tableState();
    const again = await call('POST', DEVICES, { token: A.token, headers: { 'Idempotency-Key': key }, body });
    // 201 today like every idempotent create; the route's description says 200 (see the suite's report): either is a success
    expect([200, 201], again.raw).toContain(again.status);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.body.data.id).toBe(id);
    expect(again.body.data).not.toHaveProperty('secret');
    expect(again.body.data).not.toHaveProperty('deviceKey');
    expect(again.body.data).not.toHaveProperty('secretHash');
    expect(again.raw).not.toContain(secret);
    expect(again.raw).not.toContain(hashDeviceSecret(secret));
    await expectNothingWritten(before, 'an idempotent replay');

    // the same key with another body is refused, and shows no secret either
    const other = await call('POST', DEVICES, { token: A.token, headers: { 'Idempotency-Key': key }, body: { ...body, name: 'Other' } });
    expect(other.status, other.raw).toBe(422);
    expect(other.raw).not.toContain(secret);

    const named = (await call('GET', DEVICES, { token: A.token, query: { houseId: A.houseId } })).body.data.filter(
      (d: Json) => d.name === 'Idempotent climate',
    );
    expect(named.map((d: Json) => d.id)).toEqual([id]);
    expect((await ingest(first.body.data.deviceKey, [climate(2)], { ip: freshIp() })).status).toBe(200);
  });
});

// ============================================================================================================

describe('API4 resource consumption on POST /api/v1/iot/ingest', () => {
  it('501 readings → 400 naming body.readings (nothing written); 500 are accepted', async () => {
    const d = await registerDevice(A, { name: 'Batch size' });
    const base = Date.now();
    const frames = Array.from({ length: 501 }, (_, i) => climate(i + 1, 20 + (i % 10), 55, base));
    const before = await tableState();
    const over = await ingest(d.key, frames, { ip: freshIp() });
    expect(over.status, over.raw.slice(0, 300)).toBe(400);
    expect(over.body.details.map((x: Json) => x.field)).toEqual(['body.readings']);
    expect(over.body.details[0].message).toContain('500');
    await expectNothingWritten(before, '501 readings');

    const at = await ingest(d.key, frames.slice(0, 500), { ip: freshIp() });
    expect(at.status, at.raw.slice(0, 300)).toBe(200);
    expect(at.body.data).toEqual({ accepted: 500, duplicates: 0, rejected: [] });
  }, 60_000);

  it('a body over 512 KB → 413 and nothing written; exactly 512 KB is read', async () => {
    const d = await registerDevice(A, { name: 'Body size' });
    const padded = (readings: unknown[], bytes: number) => {
      const json = JSON.stringify({ readings });
      return `${json}${' '.repeat(bytes - Buffer.byteLength(json))}`;
    };
    const send = (rawBody: string) => call('POST', INGEST, { headers: { 'X-Device-Key': d.key }, rawBody, ip: freshIp() });

    const before = await tableState();
    const tooBig = await send(padded([climate(3)], MAX_INGEST_BODY + 1));
    expect(tooBig.status, tooBig.raw).toBe(413);
    expect(tooBig.body.error).toContain(String(MAX_INGEST_BODY));
    const huge = await send(padded([climate(3)], 4 * MAX_INGEST_BODY));
    expect(huge.status, huge.raw).toBe(413);
    await expectNothingWritten(before, 'bodies over 512 KB');
    expect((await deviceOf(A.token, d.id)).lastSeen).toBeNull();

    const frame = climate(2);
    const atCap = await send(padded([frame], MAX_INGEST_BODY));
    expect(atCap.status, atCap.raw).toBe(200);
    expect(atCap.body.data).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    expect((await storedReadings(A.token, d.id)).raw.map((r) => r.ts)).toEqual([frame.ts]);
  });

  it('ingest counts against its own `ingest` class only, other routes do not count against it, and a limited batch writes nothing', async () => {
    const d = await registerDevice(A, { name: 'Rate limited' });
    const ip = freshIp();
    const policy = (cls: string, max: number) => `"${cls}";q=${max};w=${WINDOW}`;
    const left = (res: CallResult, cls: string, r: number) => expect(res.headers.RateLimit, res.raw).toMatch(new RegExp(`^"${cls}";r=${r};t=\\d+$`));

    const first = await ingest(d.key, [climate(9)], { ip });
    expect(first.status, first.raw).toBe(200);
    expect(first.headers['RateLimit-Policy']).toBe(policy('ingest', INGEST_MAX));
    expect(first.headers['RateLimit-Policy']).not.toContain('general');
    left(first, 'ingest', INGEST_MAX - 1);

    // the same client on the device routes: general only, and general did not count the batch
    const got = await call('GET', `${DEVICES}/${d.id}`, { token: A.token, ip });
    expect(got.headers['RateLimit-Policy']).toBe(policy('general', GENERAL_MAX));
    left(got, 'general', GENERAL_MAX - 1);
    left(await call('GET', DEVICES, { token: A.token, ip }), 'general', GENERAL_MAX - 2);
    left(await call('PATCH', `${DEVICES}/${d.id}`, { token: A.token, ip, body: { name: 'Rate limited 2' } }), 'general', GENERAL_MAX - 3);
    left(await call('POST', DEVICES, { token: A.token, ip, body: { houseId: A.houseId, kind: 'light', name: 'Light' } }), 'general', GENERAL_MAX - 4);

    // ...and they did not count against ingest; a refused batch (401) does
    left(await ingest(d.key, [climate(8)], { ip }), 'ingest', INGEST_MAX - 2);
    const refused = await ingest(`${d.id}.${'A'.repeat(43)}`, [climate(7)], { ip });
    expect(refused.status).toBe(401);
    left(refused, 'ingest', INGEST_MAX - 3);
    for (let i = 3; i < INGEST_MAX; i++) {
      const res = await ingest(d.key, [climate(9)], { ip });
      expect(res.status, res.raw).toBe(200);
      left(res, 'ingest', INGEST_MAX - i - 1);
    }

    const readingsBefore = await storedReadings(A.token, d.id);
    const viewBefore = await deviceOf(A.token, d.id);
    const before = await tableState({ withoutMetrics: true });
    const limited = await ingest(d.key, [climate(1, 30)], { ip });
    expect(limited.status, limited.raw).toBe(429);
    const retryAfter = Number(limited.headers['Retry-After']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW);
    expect(limited.headers.RateLimit).toBe(`"ingest";r=0;t=${retryAfter}`);
    expect(limited.body.error).toContain(`ingest: ${INGEST_MAX} requests per ${WINDOW} s`);
    await expectNothingWritten(before, 'a rate-limited batch', { withoutMetrics: true });
    expect(await storedReadings(A.token, d.id)).toEqual(readingsBefore);
    expect(await deviceOf(A.token, d.id)).toEqual(viewBefore);

    // the client's general quota is untouched by the ingest limit; another client may still ingest
    const afterLimit = await call('GET', `${DEVICES}/${d.id}`, { token: A.token, ip });
    expect(afterLimit.status).toBe(200);
    left(afterLimit, 'general', GENERAL_MAX - 5);
    expect((await ingest(d.key, [climate(1, 30)], { ip: freshIp() })).status).toBe(200);
  });
});

// ============================================================================================================

describe('input limits of a batch', () => {
  it('a ts that is not a date-time → 400 naming it; the whole batch is refused', async () => {
    const d = await registerDevice(A, { name: 'Bad ts' });
    const before = await tableState();
    const bad = ['yesterday', '', '1700000000000', '2026-02-30', '2026-13-01T00:00:00Z', '2026-01-01T25:00:00Z', 'Tue, 01 Jan 2026 10:00:00 GMT'];
    for (const ts of bad) {
      const res = await ingest(d.key, [climate(3), { ts, metrics: { temperatureC: 21 } }], { ip: freshIp() });
      expect(res.status, `${JSON.stringify(ts)} → ${res.raw}`).toBe(400);
      expect(
        res.body.details.map((x: Json) => x.field),
        ts,
      ).toEqual(['body.readings.1.ts']);
    }
    const numeric = await ingest(d.key, [{ ts: Date.now(), metrics: { temperatureC: 21 } }], { ip: freshIp() });
    expect(numeric.status, numeric.raw).toBe(400);
    expect(numeric.body.details.map((x: Json) => x.field)).toEqual(['body.readings.0.ts']);
    await expectNothingWritten(before, 'batches with a bad ts');
  });

  it('an unknown metric name, a value that is not a number, or no metrics → 400 naming it', async () => {
    const d = await registerDevice(A, { name: 'Bad metrics' });
    const ts = minutesAgo(3);
    const before = await tableState();
    const cases: Array<[Json, string, string?]> = [
      [{ temperatureC: 21, oxygenPct: 20 }, 'body.readings.0.metrics.oxygenPct', 'is not allowed'],
      [{ TemperatureC: 21 }, 'body.readings.0.metrics.TemperatureC', 'is not allowed'],
      [{ temperatureC: '21' }, 'body.readings.0.metrics.temperatureC'],
      [{ temperatureC: null }, 'body.readings.0.metrics.temperatureC'],
      [{ temperatureC: { value: 21 } }, 'body.readings.0.metrics.temperatureC'],
      [{}, 'body.readings.0.metrics'],
    ];
    for (const [metrics, field, message] of cases) {
      const res = await ingest(d.key, [{ ts, metrics }], { ip: freshIp() });
      expect(res.status, `${JSON.stringify(metrics)} → ${res.raw}`).toBe(400);
      const named = res.body.details.filter((x: Json) => x.field === field && (message === undefined || x.message === message));
      expect(named.length, `${field} in ${res.raw}`).toBeGreaterThan(0);
    }
    await expectNothingWritten(before, 'batches with bad metrics');
  });

  it('values outside the physical range → 200 with those readings rejected by index and reason, the others stored', async () => {
    const d = await registerDevice(A, { kind: 'multi', name: 'Ranges', metrics: ['temperatureC', 'humidityPct', 'nh3Ppm'] });
    const frames = [
      { ts: minutesAgo(6), metrics: { temperatureC: 22, humidityPct: 55, nh3Ppm: 5 } },
      { ts: minutesAgo(5), metrics: { temperatureC: 23, humidityPct: 140 } },
      { ts: minutesAgo(4), metrics: { temperatureC: 24, humidityPct: 100, nh3Ppm: 0 } },
      { ts: minutesAgo(3), metrics: { temperatureC: 25, nh3Ppm: -1 } },
      { ts: minutesAgo(2), metrics: { temperatureC: 26, humidityPct: 0, nh3Ppm: 1000 } },
    ];
    const res = await ingest(d.key, frames, { ip: freshIp() });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toEqual({
      accepted: 3,
      duplicates: 0,
      rejected: [
        { index: 1, error: 'humidityPct 140 % is outside the physical range 0–100 %' },
        { index: 3, error: 'nh3Ppm -1 ppm is outside the physical range 0–1000 ppm' },
      ],
    });
    const stored = await storedReadings(A.token, d.id);
    expect(stored.raw.map((r) => r.ts)).toEqual([frames[0]!.ts, frames[2]!.ts, frames[4]!.ts]);
    // nothing of a rejected reading is stored, not even its valid values
    expect(stored.raw.map((r) => r.metrics.temperatureC)).toEqual([22, 24, 26]);
    expect(countOf(stored.hourly, 'temperatureC')).toBe(3);
    expect(countOf(stored.hourly, 'humidityPct')).toBe(3);
    expect(countOf(stored.hourly, 'nh3Ppm')).toBe(3);
  });
});
