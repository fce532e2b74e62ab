import { ulid } from 'ulidx';
import { deviceKeyOf, hashDeviceSecret, newDeviceSecret, parseDeviceKey, secretMatches } from '../auth/device-keys.js';
import { auditPut } from '../db/audit.js';
import {
  allDevicesOfFarm,
  createDevice,
  deleteDevice,
  deviceNotFound,
  getDevice,
  listDevicesOfFarm,
  updateDevice,
  type DeviceChanges,
  type DeviceRecord,
} from '../db/devices.js';
import { canAccessFarm } from '../domain/farm-access.js';
import type { Caller } from '../domain/caller.js';
import { expectedVersion, type Precondition } from '../domain/concurrency.js';
import { deviceStatus, type HealthFactors } from '../domain/iot/device-health.js';
import { KIND_METRICS, declaredMetricProblems } from '../domain/iot/metrics.js';
import { displayName } from '../domain/names.js';
import { Unauthenticated, ValidationFailed } from '../errors.js';
import { currentAnalyticsConfig } from './analytics-config.js';
import { farmOfListRequest, houseOfCaller } from './farms.js';
import { idempotent } from './idempotency.js';
import type { CreateDeviceBody, ListDevicesQuery, UpdateDeviceBody } from '../../schemas/iot.js';

/**
 * The device registry (`/api/v1/iot/devices`), scoped to the caller's farms like every farm record: a
 * device of a farm the caller may not see answers exactly like one that does not exist. The secret is
 * made here, shown once, and kept only as its hash; rotating it makes the old key fail at once.
 */

export const DEFAULT_REPORTING_INTERVAL_SECONDS = 60;

/** The health factors of the analytics thresholds (sensorStaleFactor, sensorOfflineFactor). */
export async function healthFactors(): Promise<HealthFactors> {
  return (await currentAnalyticsConfig()).config.thresholds;
}

/** A device's health now, from its last seen. */
export const statusOf = (d: DeviceRecord, nowMs: number, factors: HealthFactors) =>
  deviceStatus(d.lastSeen ? Date.parse(d.lastSeen) : null, d.reportingIntervalSeconds, nowMs, factors);

export function toDeviceDto(d: DeviceRecord, nowMs: number, factors: HealthFactors) {
  return {
    id: d.id,
    farmId: d.farmId,
    houseId: d.houseId,
    kind: d.kind,
    name: d.name,
    metrics: d.metrics,
    reportingIntervalSeconds: d.reportingIntervalSeconds,
    status: statusOf(d, nowMs, factors),
    lastSeen: d.lastSeen,
    keyIssuedAt: d.keyIssuedAt,
    createdBy: d.createdBy,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    version: d.version,
  };
}

/** A device DTO with its status as of now (reads the health factors). */
export async function deviceView(d: DeviceRecord) {
  return toDeviceDto(d, Date.now(), await healthFactors());
}

function metricsOrThrow(kind: CreateDeviceBody['kind'], metrics: CreateDeviceBody['metrics']): DeviceRecord['metrics'] {
  const list = metrics ?? [...KIND_METRICS[kind]];
  const problems = declaredMetricProblems(kind, list);
  if (problems.length > 0) throw new ValidationFailed(problems.map((message) => ({ field: 'metrics', message })));
  return list;
}

/** The device if the caller may see it; else the one NotFound (also for a device of another farm). */
export async function visibleDevice(user: Caller, deviceId: string): Promise<DeviceRecord> {
  const device = await getDevice(deviceId);
  if (!device || !canAccessFarm(user, device.farmId)) throw deviceNotFound(deviceId);
  return device;
}

export async function registerDevice(user: Caller, body: CreateDeviceBody, requestId: string, idempotencyKey?: string) {
  return idempotent(user.id, idempotencyKey, 'device', body, async (remember) => {
    const house = await houseOfCaller(user, body.houseId, body.farmId);
    const metrics = metricsOrThrow(body.kind, body.metrics);
    const now = new Date().toISOString();
    const secret = newDeviceSecret();
    const device: DeviceRecord = {
      id: ulid(),
      farmId: house.farmId,
      houseId: house.id,
      kind: body.kind,
      name: displayName(body.name),
      metrics,
      reportingIntervalSeconds: body.reportingIntervalSeconds ?? DEFAULT_REPORTING_INTERVAL_SECONDS,
      secretHash: hashDeviceSecret(secret),
      keyIssuedAt: now,
      lastSeen: null,
      latest: {},
      healthStatus: 'offline',
      healthChangedAt: null,
      createdBy: user.id,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const dto = toDeviceDto(device, Date.now(), await healthFactors());
    // A replay (same Idempotency-Key) answers with the device but never the secret: it is stored nowhere.
    const replay = {
      created: true,
      message: 'Device registered; its secret was shown only in the first answer (rotate it to get a new one)',
      data: dto,
    };
    const { secretHash: _h, latest: _l, ...audited } = device;
    await createDevice(device, [
      ...remember(replay),
      auditPut({ actorId: user.id, action: 'device.create', targetType: 'device', targetId: device.id, changes: audited, requestId }),
    ]);
    return {
      created: true,
      message: 'Device registered; keep the secret, it is not shown again',
      data: { ...dto, secret, deviceKey: deviceKeyOf(device.id, secret) },
    };
  });
}

export async function listDevicesFor(user: Caller, query: ListDevicesQuery) {
  const farmId = await farmOfListRequest(user, query.farmId, { houseId: query.houseId });
  const limit = query.limit ?? 25;
  const [page, factors] = await Promise.all([
    listDevicesOfFarm(farmId, { houseId: query.houseId, kind: query.kind, limit, cursor: query.cursor, postFilter: { status: query.status ?? null } }),
    healthFactors(),
  ]);
  const nowMs = Date.now();
  // Status is worked out from last seen, so it filters the page read (a page may come back shorter than `limit`).
  const items = page.items.map((d) => toDeviceDto(d, nowMs, factors)).filter((d) => !query.status || d.status === query.status);
  return { items, limit, nextCursor: page.nextCursor };
}

const DEVICE_FIELDS = ['name', 'houseId', 'metrics', 'reportingIntervalSeconds'] as const;

export async function updateDeviceFor(user: Caller, deviceId: string, body: UpdateDeviceBody, precondition: Precondition | undefined, requestId: string) {
  const current = await visibleDevice(user, deviceId);
  const version = expectedVersion(current.version, { precondition, stated: body.version }, `Device ${deviceId}`);
  const changes: DeviceChanges = {};
  if (body.name !== undefined && displayName(body.name) !== current.name) changes.name = displayName(body.name);
  if (body.houseId !== undefined && body.houseId !== current.houseId) changes.houseId = body.houseId;
  if (body.metrics !== undefined && JSON.stringify(body.metrics) !== JSON.stringify(current.metrics))
    changes.metrics = metricsOrThrow(current.kind, body.metrics);
  if (body.reportingIntervalSeconds !== undefined && body.reportingIntervalSeconds !== current.reportingIntervalSeconds) {
    changes.reportingIntervalSeconds = body.reportingIntervalSeconds;
  }
  if (Object.keys(changes).length === 0) return current;
  const now = new Date().toISOString();
  const audited = Object.fromEntries(DEVICE_FIELDS.filter((f) => f in changes).map((f) => [f, { from: current[f], to: changes[f] }]));
  await updateDevice(current, version, changes, now, [
    auditPut({ actorId: user.id, action: 'device.update', targetType: 'device', targetId: deviceId, changes: audited, requestId }),
  ]);
  return { ...current, ...changes, updatedAt: now, version: version + 1 };
}

/** A new secret; the old key stops working at once. */
export async function rotateDeviceSecret(user: Caller, deviceId: string, precondition: Precondition | undefined, requestId: string) {
  const current = await visibleDevice(user, deviceId);
  const version = expectedVersion(current.version, { precondition, stated: undefined }, `Device ${deviceId}`);
  const secret = newDeviceSecret();
  const now = new Date().toISOString();
  await updateDevice(current, version, { secretHash: hashDeviceSecret(secret), keyIssuedAt: now }, now, [
    auditPut({ actorId: user.id, action: 'device.rotate_secret', targetType: 'device', targetId: deviceId, changes: { keyIssuedAt: now }, requestId }),
  ]);
  const device = { ...current, keyIssuedAt: now, updatedAt: now, version: version + 1 };
  return { ...(await deviceView(device)), secret, deviceKey: deviceKeyOf(deviceId, secret) };
}

export async function deleteDeviceFor(user: Caller, deviceId: string, precondition: Precondition | undefined, requestId: string): Promise<void> {
  const current = await visibleDevice(user, deviceId);
  const version = expectedVersion(current.version, { precondition, stated: undefined }, `Device ${deviceId}`);
  await deleteDevice(current, version, [
    auditPut({
      actorId: user.id,
      action: 'device.delete',
      targetType: 'device',
      targetId: deviceId,
      changes: { name: current.name, houseId: current.houseId },
      requestId,
    }),
  ]);
}

/** The device a key names, if the key is right: a wrong, rotated or malformed key, or a deleted device, is the same 401. */
export async function authenticateDevice(header: string | undefined): Promise<DeviceRecord> {
  const key = parseDeviceKey(header);
  if (!key) throw new Unauthenticated(header ? 'X-Device-Key must be "<deviceId>.<secret>"' : 'Missing X-Device-Key');
  const device = await getDevice(key.deviceId);
  if (!device || !secretMatches(key.secret, device.secretHash)) throw new Unauthenticated('Invalid device key');
  return device;
}

/** A farm's devices that are not online (stale or offline), for the manager's dashboard: at most 500 devices read, the first 50 shown. */
export async function devicesNotOnline(farmId: string) {
  const [factors, pages] = await Promise.all([healthFactors(), allDevicesOfFarm(farmId, { max: 500 })]);
  const nowMs = Date.now();
  const devices = pages.map((d) => toDeviceDto(d, nowMs, factors)).filter((d) => d.status !== 'online');
  return {
    count: devices.length,
    devices: devices.slice(0, 50).map((d) => ({ id: d.id, name: d.name, kind: d.kind, houseId: d.houseId, status: d.status, lastSeen: d.lastSeen })),
  };
}
