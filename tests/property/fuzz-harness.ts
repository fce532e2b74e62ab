/**
 * Runs generated requests (openapi-requests.ts) in-process through `call()` against DynamoDB Local and
 * checks every response against the OpenAPI document:
 * - never a 5xx;
 * - every status is one the operation documents, and the body matches the documented schema for it
 *   (success bodies and error bodies), in the documented media type, with every object of the schema
 *   closed (a field the document does not declare fails);
 * - an invalid request is refused (4xx) with the error envelope `{error[, details]}` (a body nested deeper
 *   than the document allows, `x-maxDepth` of a recursive schema included, is invalid); a request invalid
 *   only by its schema gets 400 with `details`; no token → 401; a missing capability → 403;
 * - a refused request (4xx) wrote nothing but rate-limit counters (`RATE#…`, `METRICS#RATE_LIMITED`) and, on operations that
 *   document a lockout after failed attempts, the failure counter; a GET writes nothing else either.
 * Violations are collected for the whole run (every distinct problem is reported with its smallest
 * reproduction, not just the first), matched against KNOWN_FAILURES, and counted.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { call, type CallOptions, type CallResult } from '../support/api.js';
import { ADMIN, PASSWORD, adminLogin, uniqueEmail } from '../support/accounts.js';
import { ROOT } from '../../scripts/lib/route-table.js';
import { WRITE_CALL_NAMES, installWriteRecorder, recordWrites, type WrittenItem } from './db-writes.js';
import { dbCalls, resetDbCalls } from '../../shared/db/client.js';
import { LOGIN_THROTTLE_SK_PREFIX } from '../../shared/db/keys.js';
import {
  DocValidators,
  concretePath,
  deref,
  documentsStatus,
  operationsOf,
  parametersSchema,
  requestArb,
  responseDoc,
  type Caller,
  type GeneratedRequest,
  type Json,
  type Operation,
  type Pools,
} from './openapi-requests.js';
import { KNOWN_FAILURES, type KnownFailure } from './known-failures.js';
import { contractChecker, isJsonMedia, type ContractChecker } from '../support/contract.js';
import { maxDepthOf, within } from '../../schemas/input-limits.js';

// The fuzzer sends thousands of requests, some as the same account: lift the per-client limiters so they
// never answer for the request under test (call() already uses a random client IP per request). Read by
// the rate-limit middleware when a handler module is first loaded, which is after this line.
for (const cls of ['GENERAL', 'AUTH', 'READ', 'DATE']) process.env[`RATE_LIMIT_${cls}_MAX`] ??= '1000000';
installWriteRecorder();

export const DOCUMENT_FILE = join(ROOT, 'schemas', 'compiled', 'openapi.json');

export function loadDocument(): Json {
  return JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Json;
}

/** Safe methods first and DELETE last, so the fixtures live as long as possible within one world. */
const ORDER = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'];
export function orderedOperations(doc: Json): Operation[] {
  return operationsOf(doc).sort((a, b) => ORDER.indexOf(a.method) - ORDER.indexOf(b.method) || a.path.localeCompare(b.path));
}

// ---------------------------------------------------------------------------------------------------
// Sessions and fixtures

interface Session {
  email: string;
  password: string;
  token: string;
  capabilities: Set<string>;
}

async function signIn(email: string, password: string): Promise<Session> {
  const res = await call('POST', '/api/v1/auth/login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${res.raw}`);
  return { email, password, token: res.body.token, capabilities: new Set(res.body.user.capabilities as string[]) };
}

async function must(method: string, path: string, opts: CallOptions, status = [200, 201]): Promise<any> {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await call(method, path, opts);
  if (!status.includes(res.status)) throw new Error(`fixture ${method} ${path}: ${res.status} ${res.raw}`);
  return res.body;
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

export interface World {
  doc: Json;
  validators: DocValidators;
  /** Response bodies are checked against closed copies of the document's schemas (tests/support/contract.ts). */
  contract: ContractChecker;
  admin: Session;
  low: Session[];
  pools: Pools;
  /** A write with real ids succeeded since the records were made (a flock archived, a cycle closed…). */
  dirty: boolean;
  farmIds: string[];
  userIds: string[];
  movementTypes: string[];
  /** `X-Device-Key`s of the fixture farms' sensors (sensor ingestion). */
  deviceKeys: string[];
}

/**
 * Real objects for the path parameters, as coherent records (a flock with ITS cycle and movement): a farm
 * with a house, a layer flock there and a broiler flock on the default farm, each with an active cycle,
 * movements (placement, feed, eggs, mortality), a daily record and a weighing; and a flock without a cycle.
 */
async function makeRecords(token: string, existingFarmId?: string): Promise<Array<Record<string, string>>> {
  const farmId =
    existingFarmId ??
    ((await must('POST', '/api/v1/config/farms', { token, body: { name: `Fuzz farm ${randomBytes(3).toString('hex')}` } })).data.id as string);
  const houseId = (
    await must('POST', `/api/v1/config/farms/${farmId}/houses`, {
      token,
      body: { name: `Fuzz house ${randomBytes(3).toString('hex')}`, usableAreaM2: 1200, capacity: 20000 },
    })
  ).data.id as string;
  // a rule of the farm that fires on the daily records below (the rule and anomaly routes)
  const rule = (
    await must('POST', '/api/v1/rules', {
      token,
      body: {
        name: 'Fuzz mortality',
        scope: { farmId },
        input: 'dailyMortalityPct',
        window: 'P1D',
        aggregation: 'last',
        condition: { op: '>', value: 0 },
        severity: 'warning',
        actions: ['raise_anomaly'],
      },
    })
  ).data;
  const records: Array<Record<string, string>> = [];
  for (const [birdType, useFarm] of [
    ['layer', true],
    ['broiler', false],
  ] as const) {
    const flock = (
      await must('POST', '/api/v1/flocks', {
        token,
        body: { name: `Fuzz ${birdType}`, birdType, hatchDate: daysAgo(30), ...(useFarm ? { farmId, houseId } : {}) },
      })
    ).data;
    const cycle = (await must('POST', `/api/v1/flocks/${flock.id}/cycles`, { token, body: { startDate: daysAgo(20) } })).data;
    const base = `/api/v1/flocks/${flock.id}/cycles/${cycle.id}`;
    const movementIds: string[] = [];
    for (const body of [
      { type: 'bird_inflow', date: daysAgo(20), quantity: 10000 },
      { type: 'feed_delivery', date: daysAgo(19), feedType: 'starter', quantityKg: 5000 },
      { type: 'egg_collection', date: daysAgo(3), totalEggs: 800 },
      { type: 'bird_mortality', date: daysAgo(2), quantity: 3 },
    ]) {
      movementIds.push((await must('POST', `${base}/movements`, { token, body })).data.id as string);
    }
    const date = daysAgo(5);
    await must('POST', `${base}/daily-records`, {
      token,
      body: { date, deaths: 1, feedKg: 100, feedType: 'starter', waterLiters: 200, temperatureMinC: 28, temperatureMaxC: 32, humidityPct: 60 },
    });
    await must('POST', `${base}/weights`, { token, body: { date: daysAgo(4), grams: 480, sampleSize: 50 } });
    for (const movementId of movementIds)
      records.push({ farmId: flock.farmId, houseId: flock.houseId ?? houseId, flockId: flock.id, cycleId: cycle.id, movementId, date });
  }
  // and a flock without a cycle (a cycle can start on it, it can be archived)
  const idle = (await must('POST', '/api/v1/flocks', { token, body: { name: 'Fuzz idle', birdType: 'breeder', farmId, houseId } })).data;
  records.push({ ...records[0]!, flockId: idle.id });
  // a sensor of the farm's house (device routes, and the key sensor ingestion authenticates with)
  const device = (await must('POST', '/api/v1/iot/devices', { token, body: { farmId, houseId, kind: 'multi', name: 'Fuzz sensor' } })).data;
  // and an incident of the farm, linked to that sensor (the operations routes)
  const incident = (
    await must('POST', '/api/v1/operations/incidents', {
      token,
      body: { farmId, title: 'Fuzz incident', category: 'equipment', severity: 'medium', links: { deviceIds: [device.id] } },
    })
  ).data;
  // and a daily schedule of the farm (its occurrence routes take `date`)
  const schedule = (
    await must('POST', '/api/v1/schedules', {
      token,
      body: { farmId, kind: 'inspection', title: 'Fuzz rounds', timing: { every: 1, unit: 'day', from: daysAgo(30) } },
    })
  ).data;
  const anomaly = (await must('GET', '/api/v1/anomalies', { token, query: { farmId } })).data[0];
  if (!anomaly) throw new Error('the fuzz rule raised no anomaly');
  // a supplier of the farm and a draft purchase order with it (the procurement routes)
  const supplier = (await must('POST', '/api/v1/procurement/suppliers', { token, body: { name: 'Fuzz mill', kinds: ['feed'], farmIds: [farmId] } })).data;
  const order = (
    await must('POST', '/api/v1/procurement/orders', {
      token,
      body: {
        farmId,
        supplierId: supplier.id,
        expectedDate: daysAgo(-5),
        lines: [{ itemKind: 'feed', feedType: 'starter', quantity: 1000, unit: 'kg', unitPrice: 0.5 }],
      },
    })
  ).data;
  // and a transfer the farm sends to a partner farm (the sharing routes); a fuzzed edit may have turned an
  // incident into a disease suspicion, which restricts the farm's movements: back to equipment, which lifts it
  await liftRestrictions(token, farmId);
  const partnerFarmId = (await must('POST', '/api/v1/config/farms', { token, body: { name: `Fuzz partner ${randomBytes(3).toString('hex')}` } })).data
    .id as string;
  const transfer = (
    await must('POST', '/api/v1/sharing/transfers', {
      token,
      body: { kind: 'equipment', from: { farmId }, to: { farmId: partnerFarmId }, items: [{ name: 'Fuzz egg grader' }] },
    })
  ).data;
  // an export of the farm and its restore into a new farm (the continuity routes)
  const exportId = (await must('POST', '/api/v1/continuity/exports', { token, body: { farmId } }, [202])).data.id as string;
  const restoreId = (
    await must('POST', '/api/v1/continuity/restores', { token, body: { exportId, farmName: `Fuzz restored ${randomBytes(3).toString('hex')}` } }, [202])
  ).data.id as string;
  for (const r of records)
    Object.assign(r, {
      exportId,
      restoreId,
      deviceId: device.id,
      deviceKey: device.deviceKey,
      incidentId: incident.id,
      ruleId: rule.id,
      anomalyId: anomaly.id,
      scheduleId: schedule.id,
      programmeId: 'broiler-typical',
      supplierId: supplier.id,
      orderId: order.id,
      transferId: transfer.id,
    });
  return records;
}

function setRecords(world: World, records: Array<Record<string, string>>): void {
  // device keys authenticate; they are not values of any parameter
  world.deviceKeys = [...new Set(records.map((r) => r.deviceKey!))];
  for (const r of records) delete r.deviceKey;
  for (const [i, r] of records.entries())
    Object.assign(r, { userId: world.userIds[i % world.userIds.length]!, movementType: world.movementTypes[i % world.movementTypes.length]! });
  const values: Record<string, string[]> = {};
  for (const r of records) {
    for (const [k, v] of Object.entries(r)) {
      values[k] ??= [];
      if (!values[k].includes(v)) values[k].push(v);
    }
  }
  values.movementType = world.movementTypes;
  world.pools = { records, values };
  world.dirty = false;
}

/** The admin, low-privilege users (a viewer and a worker on the fixture farms), users to administer, and the records. */
export async function setUpWorld(doc: Json): Promise<World> {
  // the seeded admin of tests/support/accounts.ts (its capabilities are all; the low users' are read from their login)
  const admin: Session = { email: ADMIN.email, password: ADMIN.password, token: await adminLogin(), capabilities: new Set() };
  const token = admin.token;
  const records = await makeRecords(token);
  const farmIds = [...new Set(records.map((r) => r.farmId!))];
  const low: Session[] = [];
  for (const role of ['viewer', 'worker']) {
    const email = uniqueEmail(`fuzz-${role}`);
    await must('POST', '/api/v1/admin/users', { token, body: { email, password: PASSWORD, name: `Fuzz ${role}`, role, farmIds } });
    low.push(await signIn(email, PASSWORD));
  }
  // users to administer (never the callers themselves: locking or demoting them would end the run)
  const userIds: string[] = [];
  for (const role of ['worker']) {
    userIds.push(
      (
        await must('POST', '/api/v1/admin/users', {
          token,
          body: { email: uniqueEmail('fuzz-target'), password: PASSWORD, name: 'Fuzz target', role, farmIds },
        })
      ).data.id as string,
    );
  }
  const movementTypes = Object.keys((await must('GET', '/api/v1/inventory/input-schema', { token })).data as object);
  const world: World = {
    doc,
    validators: new DocValidators(doc),
    contract: contractChecker(doc),
    admin,
    low,
    pools: { records: [], values: {} },
    deviceKeys: [],
    dirty: false,
    farmIds,
    userIds,
    movementTypes,
  };
  setRecords(world, records);
  return world;
}

/** Every open incident of the farm that restricts its movements becomes an equipment incident again (the edit lifts the restriction). */
async function liftRestrictions(token: string, farmId: string): Promise<void> {
  const open = (await must('GET', '/api/v1/operations/incidents', { token, query: { farmId, limit: '100' } })).data as Array<{
    id: string;
    status: string;
    restrictsMovements: boolean;
    version: number;
  }>;
  for (const i of open.filter((x) => x.restrictsMovements))
    await must('PATCH', `/api/v1/operations/incidents/${i.id}`, { token, body: { category: 'equipment', version: i.version } });
}

/** New records when earlier writes changed the old ones (the next operation starts from live objects again). */
export const refreshes = { count: 0, ms: 0 };
export async function refreshRecords(world: World): Promise<void> {
  const started = performance.now();
  await stillSignedIn(world.admin, newCounts());
  // the same fixture farm (the low-privilege users are scoped to it), a new house, flocks, cycles, movements
  setRecords(world, await makeRecords(world.admin.token, world.pools.records[0]!.farmId));
  refreshes.count++;
  refreshes.ms += performance.now() - started;
}

// ---------------------------------------------------------------------------------------------------
// Classification: is the request valid by the document?

interface Classification {
  /** Why the request is invalid by the document (empty: valid). */
  reasons: string[];
  /** Rejected before authentication: too large, wrong content type, malformed JSON. */
  transport?: 'too-large' | 'content-type' | 'malformed-json';
  auth: 'ok' | 'unauthenticated' | 'forbidden';
}

function sentBody(req: GeneratedRequest): string | undefined {
  return req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
}

function classify(world: World, op: Operation, req: GeneratedRequest): Classification {
  const reasons: string[] = [];
  let transport: Classification['transport'];
  const raw = sentBody(req);
  let data: unknown = {};
  if (raw !== undefined && raw !== '') {
    const ct = Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? 'application/json';
    const media = ct.split(';')[0]!.trim().toLowerCase();
    const accepted = Object.keys(op.op.requestBody ? (deref(world.doc, op.op.requestBody).content ?? {}) : { 'application/json': {} });
    if (Buffer.byteLength(raw) > op.maxBodyBytes) transport = 'too-large';
    else if (media !== '' && !accepted.includes(media)) transport = 'content-type';
    else {
      try {
        data = JSON.parse(raw);
      } catch {
        transport = 'malformed-json';
      }
    }
  }
  if (transport) reasons.push(transport);
  else if (op.body) {
    // deeper than the document lets the body be (x-maxDepth of a recursive schema): invalid, and not for ajv to walk
    const limit = maxDepthOf(op.body, world.doc);
    const errs = within(data, limit) ? world.validators.errors(op.body, data) : [`nested deeper than ${limit} levels`];
    if (errs.length) reasons.push(`body: ${errs.slice(0, 3).join('; ')}`);
  }
  const p = world.validators.errors(parametersSchema(op, 'path'), req.params, true);
  if (p.length) reasons.push(`path: ${p.slice(0, 3).join('; ')}`);
  const q = world.validators.errors(parametersSchema(op, 'query'), req.query ?? {}, true);
  if (q.length) reasons.push(`query: ${q.slice(0, 3).join('; ')}`);
  let auth: Classification['auth'] = 'ok';
  if (op.capability === 'device') {
    // sensor ingestion: the admin caller sends a real device key, every other caller none or a wrong one
    if (req.caller !== 'admin') auth = 'unauthenticated';
  } else if (!op.isPublic) {
    if (req.caller === 'none' || req.caller === 'garbage-token') auth = 'unauthenticated';
    else if (req.caller === 'low' && op.capability !== 'none' && !lowSession(world, req).capabilities.has(op.capability)) auth = 'forbidden';
  }
  if (auth !== 'ok') reasons.push(auth);
  return { reasons, ...(transport ? { transport } : {}), auth };
}

function lowSession(world: World, req: GeneratedRequest): Session {
  // the same request always goes with the same low user (a stable function of the request)
  return world.low[(JSON.stringify(req.params).length + req.kind.length) % world.low.length]!;
}

/** A device route's key: a registered device's for the admin caller; a wrong secret, garbage or none for the others. */
function deviceKeyOf(world: World, req: GeneratedRequest): string | undefined {
  const key = world.deviceKeys[req.kind.length % world.deviceKeys.length]!;
  switch (req.caller) {
    case 'admin':
      return key;
    case 'low':
      return `${key.split('.')[0]}.${'A'.repeat(43)}`;
    case 'garbage-token':
      return ['garbage', `${key}x`, 'a'.repeat(5000)][req.kind.length % 3];
    default:
      return undefined;
  }
}

function tokenOf(world: World, req: GeneratedRequest): string | undefined {
  switch (req.caller) {
    case 'admin':
      return world.admin.token;
    case 'low':
      return lowSession(world, req).token;
    case 'garbage-token':
      return ['garbage', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', `${world.admin.token.slice(0, -4)}AAAA`, 'a'.repeat(5000)][req.kind.length % 4];
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// Checks

export interface Violation {
  check: string;
  operation: string;
  status: number;
  kind: string;
  message: string;
  reproduction: string;
}

/** The rate limiter's own writes: its counters, and the daily count of clients over a limit (admin dashboard). */
const isLimiterWrite = (w: WrittenItem) => w.PK.startsWith('RATE#') || w.PK === 'METRICS#RATE_LIMITED';

const ALLOWED_REFUSAL_WRITE = (op: Operation) => {
  const text = [op.op.summary, op.op.description, ...Object.values((op.op.responses ?? {}) as Record<string, Json>).map((r) => r.description)].join(' ');
  // sign-in counts refused attempts (per client, per account: docs/security.md)
  const throttle = /fail\w*[^.]*\b(lock|throttl)|\b(lock|throttl)\w*[^.]*after failed/i.test(text);
  return (w: WrittenItem) => isLimiterWrite(w) || (throttle && w.SK.startsWith(LOGIN_THROTTLE_SK_PREFIX));
};

function mediaOf(headers: Record<string, string>): string {
  const ct = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  return ct.split(';')[0]!.trim().toLowerCase();
}

function check(
  world: World,
  op: Operation,
  _req: GeneratedRequest,
  cls: Classification,
  res: CallResult,
  writes: WrittenItem[],
  sessionLost: boolean,
): Array<Omit<Violation, 'operation' | 'status' | 'kind' | 'reproduction'>> {
  const out: Array<{ check: string; message: string }> = [];
  const fail = (checkName: string, message: string) => out.push({ check: checkName, message });
  const s = res.status;
  if (s >= 500) fail('no-5xx', `${s} ${res.raw.slice(0, 300)}`);
  if (!documentsStatus(op, s))
    fail('documented-status', `status ${s} is not documented for ${op.label} (documented: ${Object.keys(op.op.responses).join(', ')})`);

  const rdoc = responseDoc(world.doc, op, s);
  const content = (rdoc?.content ?? {}) as Record<string, Json>;
  const media = mediaOf(res.headers);
  if (rdoc && Object.keys(content).length === 0 && res.raw) fail('documented-content', `${s} has a ${media || 'body'} body but the document describes none`);
  if (Object.keys(content).length > 0 && !(media in content))
    fail('documented-content', `${s} answered ${media || 'no content type'}, documented ${Object.keys(content).join(', ')}`);
  const schema = content[media]?.schema as Json | undefined;
  if (schema && isJsonMedia(media)) {
    // Every object closed: a field the API returns but the document does not declare is a violation.
    const errs = res.body === undefined ? ['body is not JSON'] : world.contract.operationErrors(op.method, op.path, s, media, res.body);
    if (errs.length)
      fail(
        s < 400 ? 'success-schema' : 'error-schema',
        `${s} body does not match the documented schema: ${errs.slice(0, 4).join('; ')} — ${res.raw.slice(0, 200)}`,
      );
  }

  if (s >= 400) {
    const b = res.body;
    const ok =
      b &&
      typeof b === 'object' &&
      !Array.isArray(b) &&
      typeof b.error === 'string' &&
      b.error.length > 0 &&
      Object.keys(b).every((k) => k === 'error' || k === 'details');
    if (!ok) fail('error-envelope', `${s} body is not {error[, details]}: ${res.raw.slice(0, 200)}`);
    if (b?.details !== undefined && !(Array.isArray(b.details) && b.details.every((d: Json) => typeof d?.field === 'string' && typeof d?.message === 'string')))
      fail('error-envelope', `details is not [{field, message}]: ${res.raw.slice(0, 200)}`);
    const allowed = ALLOWED_REFUSAL_WRITE(op);
    const wrote = writes.filter((w) => !allowed(w));
    if (wrote.length) fail('refusal-wrote', `${s} but wrote ${wrote.map((w) => `${w.op} ${w.PK} ${w.SK}`).join(', ')}`);
  } else if (op.method === 'GET') {
    const wrote = writes.filter((w) => !isLimiterWrite(w));
    if (wrote.length) fail('safe-method-wrote', `GET wrote ${wrote.map((w) => `${w.op} ${w.PK} ${w.SK}`).join(', ')}`);
  }

  if (sessionLost) return out; // the caller's token was revoked by an earlier request: only the checks above apply
  if (cls.reasons.length > 0 && s < 400) fail('invalid-refused', `invalid (${cls.reasons.join(' | ')}) but answered ${s}`);
  if (cls.transport) {
    const expected = { 'too-large': 413, 'content-type': 415, 'malformed-json': 400 }[cls.transport];
    if (s !== expected) fail('transport-status', `${cls.transport} answered ${s}, expected ${expected}`);
  } else if (cls.auth === 'unauthenticated') {
    if (s !== 401) fail('auth-status', `no valid token answered ${s}, expected 401`);
  } else if (cls.auth === 'forbidden') {
    if (s !== 403) fail('auth-status', `caller without ${op.capability} answered ${s}, expected 403`);
  } else if (cls.reasons.length > 0) {
    if (s !== 400) fail('validation-status', `invalid by its schema (${cls.reasons.join(' | ')}) answered ${s}, expected 400`);
    else if (!Array.isArray(res.body?.details) || res.body.details.length === 0)
      fail('validation-details', `400 for a schema violation without details: ${res.raw.slice(0, 200)}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Running and counting

export interface Counts {
  requests: number;
  valid: number;
  invalid: number;
  realIds: number;
  byClass: Record<string, number>;
  byStatus: Record<string, number>;
  byKind: Record<string, number>;
  sessionRefreshes: number;
}

const newCounts = (): Counts => ({ requests: 0, valid: 0, invalid: 0, realIds: 0, byClass: {}, byStatus: {}, byKind: {}, sessionRefreshes: 0 });
export const perOperation = new Map<string, Counts>();
export const violations: Violation[] = [];
export const knownHits = new Map<string, number>();

function bump(rec: Record<string, number>, key: string) {
  rec[key] = (rec[key] ?? 0) + 1;
}

/** A readable reproduction: method, path, query, headers, caller, body (long strings shortened). */
export function reproduction(op: Operation, req: GeneratedRequest): string {
  const short = (x: string) => (x.length > 160 ? `${JSON.stringify(x.slice(0, 60)).slice(0, -1)}…" (${x.length} chars)` : JSON.stringify(x));
  const shorten = (v: unknown, depth = 0): unknown => {
    if (typeof v === 'string') return v.length > 80 ? `${v.slice(0, 40)}…(${v.length} chars)` : v;
    if (Array.isArray(v))
      return depth > 3
        ? `[…${v.length} items]`
        : v.length > 8
          ? [...v.slice(0, 3).map((x) => shorten(x, depth + 1)), `…(${v.length} items)`]
          : v.map((x) => shorten(x, depth + 1));
    if (v && typeof v === 'object') return depth > 3 ? '{…}' : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shorten(x, depth + 1)]));
    return v;
  };
  const path = concretePath(op, req.params);
  const q = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
  const body = req.rawBody !== undefined ? `raw ${short(req.rawBody)}` : req.body !== undefined ? JSON.stringify(shorten(req.body)) : '(none)';
  const headers = Object.keys(req.headers).length ? ` headers ${JSON.stringify(shorten(req.headers))}` : '';
  return `${op.method} ${path.length > 200 ? `${path.slice(0, 200)}…(${path.length} chars)` : path}${q.length > 200 ? `${q.slice(0, 200)}…` : q} as ${req.caller}${headers} body ${body}`;
}

/** The request as KNOWN_FAILURES.request sees it: like the reproduction, but the path, query and headers in full. */
function requestLine(op: Operation, req: GeneratedRequest): string {
  const q = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
  return `${op.method} ${concretePath(op, req.params)}${q} as ${req.caller} headers ${JSON.stringify(req.headers)}`;
}

function known(v: Violation, line: string): KnownFailure | undefined {
  return KNOWN_FAILURES.find(
    (k) =>
      (Array.isArray(k.check) ? k.check.includes(v.check) : k.check === v.check) &&
      (k.request === undefined || k.request.test(line)) &&
      (k.status === undefined || (Array.isArray(k.status) ? k.status.includes(v.status) : k.status === v.status)) &&
      (k.operation === undefined || (typeof k.operation === 'string' ? k.operation === v.operation : k.operation.test(v.operation))) &&
      (k.kind === undefined || k.kind.test(v.kind)) &&
      (k.message === undefined || k.message.test(v.message)),
  );
}

/** Is the session's token still good? (It is not after a fuzzed logout.) Re-signs in when not. */
async function stillSignedIn(session: Session, counts: Counts): Promise<boolean> {
  const res = await call('POST', '/api/v1/auth/verify-token', { token: session.token, body: {} });
  if (res.status === 200) return true;
  const fresh = await signIn(session.email, session.password);
  session.token = fresh.token;
  counts.sessionRefreshes++;
  return false;
}

/** Sends one request and checks it; returns the violations not covered by KNOWN_FAILURES. */
export async function runOne(world: World, op: Operation, req: GeneratedRequest): Promise<Violation[]> {
  const counts = perOperation.get(op.label) ?? newCounts();
  perOperation.set(op.label, counts);
  const cls = classify(world, op, req);
  const device = op.capability === 'device';
  const token = device ? undefined : tokenOf(world, req);
  const opts: CallOptions = { headers: { ...req.headers }, ...(token ? { token } : {}), ...(req.query ? { query: req.query } : {}) };
  if (device) {
    const key = deviceKeyOf(world, req);
    if (key) opts.headers!['X-Device-Key'] = key;
  }
  const raw = sentBody(req);
  if (raw !== undefined) opts.rawBody = raw;
  if (raw !== undefined && !Object.keys(req.headers).some((h) => h.toLowerCase() === 'content-type')) opts.headers!['Content-Type'] = 'application/json';

  resetDbCalls();
  const done = recordWrites();
  // the service logs an unhandled error (name and message) as a JSON line on stderr: keep it for the report
  const serverLog: string[] = [];
  const stderrWrite = process.stderr.write;
  process.stderr.write = ((chunk: unknown) => {
    serverLog.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  }) as typeof process.stderr.write;
  let res: CallResult;
  try {
    res = await call(op.method, concretePath(op, req.params), opts);
  } catch (err) {
    // the handler threw past its own error middleware: as bad as a 500
    res = { status: 599, headers: {}, body: undefined, raw: `handler threw: ${(err as Error).stack?.slice(0, 500)}` };
  } finally {
    process.stderr.write = stderrWrite;
  }
  const { written: writes, attempted } = done();
  // the service's own counters (shared/db/client.ts) must see the same write calls as the recorder: a write
  // sent through another client would be invisible to the refusal check
  const counted = WRITE_CALL_NAMES.reduce((n, k) => n + (dbCalls[k] ?? 0), 0);

  // A 401/403 for a caller whose token should be good (a 403 expected for want of a capability included):
  // was it revoked meanwhile (a fuzzed logout)?
  let sessionLost = false;
  const unexpected = cls.auth === 'ok' ? res.status === 401 || res.status === 403 : cls.auth === 'forbidden' && res.status === 401;
  if (unexpected && (req.caller === 'admin' || req.caller === 'low') && !op.isPublic) {
    const session = req.caller === 'admin' ? world.admin : lowSession(world, req);
    sessionLost = !(await stillSignedIn(session, counts));
  }

  if (op.method !== 'GET' && res.status < 300 && req.realIds) world.dirty = true;
  counts.requests++;
  cls.reasons.length ? counts.invalid++ : counts.valid++;
  if (req.realIds) counts.realIds++;
  bump(counts.byClass, `${String(res.status)[0]}xx`);
  bump(counts.byStatus, String(res.status));
  bump(counts.byKind, req.kind.split('+')[0]!);

  const found: Violation[] = [];
  const logged = serverLog.map((l) => {
    try {
      const e = JSON.parse(l) as { error?: string; message?: string };
      return `${e.error ?? ''}: ${e.message ?? ''}`;
    } catch {
      return l.slice(0, 300);
    }
  });
  const found0 = check(world, op, req, cls, res, writes, sessionLost);
  if (counted !== attempted)
    found0.push({ check: 'write-recorder', message: `dbCalls counted ${counted} write call(s), the recorder saw ${attempted}: ${JSON.stringify(dbCalls)}` });
  for (const v of found0) {
    const message = res.status >= 500 && logged.length ? `${v.message} — server log: ${logged.join(' | ')}` : v.message;
    const withRepro = { ...v, message, operation: op.label, status: res.status, kind: req.kind, reproduction: reproduction(op, req) };
    const k = known(withRepro, requestLine(op, req));
    if (k) {
      knownHits.set(k.id, (knownHits.get(k.id) ?? 0) + 1);
      violations.push({ ...withRepro, check: `known:${k.id}` });
    } else {
      violations.push(withRepro);
      found.push(withRepro);
    }
  }
  return found;
}

/**
 * Requests per operation: FUZZ_RUNS if set, else FUZZ_TOTAL spread over the operations (the long
 * profile sets it, so a grown document still gets its total), else the quick profile's number.
 */
export function runsPerOperation(quick: number, operations: number): number {
  const positive = (v: string | undefined) => (v !== undefined && Number.isInteger(Number(v)) && Number(v) > 0 ? Number(v) : undefined);
  const runs = positive(process.env.FUZZ_RUNS);
  if (runs) return runs;
  const total = positive(process.env.FUZZ_TOTAL);
  return total ? Math.ceil(total / Math.max(1, operations)) : quick;
}

/**
 * The quick profile replays one fixed seed (npm test stays deterministic: a new failure there comes from
 * a change, not from luck); the long profile (FUZZ_PROFILE=long) draws a new one each run. FUZZ_SEED wins.
 */
export const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_PROFILE === 'long' ? Date.now() % 2 ** 31 : 424242;

/**
 * Fuzzes one operation with `runs` generated requests. Throws, listing each distinct new violation
 * (check × status × request kind) once with its smallest reproduction, when any is not in KNOWN_FAILURES.
 */
export async function fuzzOperation(world: World, op: Operation, runs: number): Promise<void> {
  // fresh records for an operation on real ids, and for sensor ingestion (a fuzzed rotate or delete may have spent the device keys)
  if (world.dirty && (op.parameters.some((p) => p.in === 'path') || op.capability === 'device')) await refreshRecords(world);
  const fresh: Violation[] = [];
  await fc.assert(
    fc.asyncProperty(requestArb(op, world.pools, world.doc), async (req) => {
      fresh.push(...(await runOne(world, op, req)));
    }),
    { numRuns: runs, seed: SEED + hash(op.label), endOnFailure: true },
  );
  if (fresh.length === 0) return;
  const groups = new Map<string, Violation>();
  for (const v of fresh) {
    const key = `${v.check} ${v.status} ${v.kind.split('+')[0]}`;
    const prev = groups.get(key);
    if (!prev || v.reproduction.length < prev.reproduction.length) groups.set(key, v);
  }
  const lines = [...groups.values()].map((v) => `- [${v.check}] ${v.message}\n    reproduce: ${v.reproduction}`);
  throw new Error(`${op.label}: ${fresh.length} violation(s) in ${runs} requests (seed ${SEED + hash(op.label)}):\n${lines.join('\n')}`);
}

function hash(s: string): number {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) | 0;
  return Math.abs(h) % 100_000;
}

/** The closing figures: requests per operation, per status class, valid vs invalid, known failures (`totalsOnly`: without the per-kind and per-operation lines). */
export function summary(totalsOnly = false): string {
  const total = newCounts();
  const rows: string[] = [];
  for (const [label, c] of perOperation) {
    total.requests += c.requests;
    total.valid += c.valid;
    total.invalid += c.invalid;
    total.realIds += c.realIds;
    total.sessionRefreshes += c.sessionRefreshes;
    for (const [k, n] of Object.entries(c.byClass)) total.byClass[k] = (total.byClass[k] ?? 0) + n;
    for (const [k, n] of Object.entries(c.byStatus)) total.byStatus[k] = (total.byStatus[k] ?? 0) + n;
    for (const [k, n] of Object.entries(c.byKind)) total.byKind[k] = (total.byKind[k] ?? 0) + n;
    const classes = ['2xx', '4xx', '5xx'].map((k) => `${k} ${String(c.byClass[k] ?? 0).padStart(4)}`).join('  ');
    const statuses = Object.entries(c.byStatus)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${k}×${n}`)
      .join(' ');
    rows.push(
      `  ${label.padEnd(80)} ${String(c.requests).padStart(5)}  valid ${String(c.valid).padStart(4)}  invalid ${String(c.invalid).padStart(4)}  ${classes}  (${statuses})`,
    );
  }
  const sorted = (r: Record<string, number>) =>
    Object.entries(r)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ');
  const stale = KNOWN_FAILURES.filter((k) => !knownHits.has(k.id)).map((k) => k.id);
  return [
    `OpenAPI fuzz (seed ${SEED}): ${total.requests} requests over ${perOperation.size} operations — valid ${total.valid}, invalid ${total.invalid}; real ids in the path: ${total.realIds}`,
    `  sign-ins again after a fuzzed logout: ${total.sessionRefreshes}; fixture records remade after writes changed them: ${refreshes.count} (${Math.round(refreshes.ms)} ms)`,
    `  per status class: ${sorted(total.byClass)}`,
    `  per status: ${sorted(total.byStatus)}`,
    ...(totalsOnly
      ? []
      : [`  per request kind: ${sorted(total.byKind)}`, `  per operation (requests, valid/invalid by the document, status classes, statuses):`, ...rows]),
    `  known failures hit (KNOWN_FAILURES): ${knownHits.size ? [...knownHits].map(([k, n]) => `${k} ×${n}`).join(', ') : 'none'}`,
    ...(stale.length ? [`  KNOWN_FAILURES entries that matched nothing this run: ${stale.join(', ')}`] : []),
    `  new violations: ${violations.filter((v) => !v.check.startsWith('known:')).length}`,
  ].join('\n');
}

export type { Caller };
