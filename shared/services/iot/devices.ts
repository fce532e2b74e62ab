import { deviceKeyOf, hashDeviceSecret, newDeviceSecret, parseDeviceKey, secretMatches } from '../../auth/device-keys.js';
import { checkVersion, commit, type Versioned } from '../../db/commit.js';
import { allDevicesOfFarm, deviceNotFound, deviceWrites, getDevice, listDevicesOfFarm } from '../../db/devices.js';
import { visibleTo } from '../../domain/farm-access.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { unchanged } from '../../domain/decision.js';
import { deviceStatus, type HealthFactors } from '../../domain/iot/device-health.js';
import { decideDeviceRegistration, decideDeviceRemoval, decideDeviceUpdate, decideSecretRotation } from '../../domain/iot/devices.js';
import type { DeviceRecord } from '../../domain/iot/records.js';
import { Unauthenticated } from '../../errors.js';
import { currentAnalyticsConfig } from '../analytics/config.js';
import { farmOfListRequest, houseOfCaller } from '../farms.js';
import { idempotentCommand } from '../idempotency.js';
import type { CreateDeviceBody, ListDevicesQuery, UpdateDeviceBody } from '../../../schemas/iot.js';

/**
 * The device registry (`/api/v1/iot/devices`), scoped to the caller's farms like every farm record: a
 * device of a farm the caller may not see answers exactly like one that does not exist. The secret is
 * made here, shown once, and kept only as its hash; rotating it makes the old key fail at once.
 */

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

/** The device if the caller may see it; else the one NotFound (also for a device of another farm). */
export async function visibleDevice(user: Caller, deviceId: string): Promise<DeviceRecord> {
  return visibleTo(user, await getDevice(deviceId), () => deviceNotFound(deviceId));
}

export async function registerDevice(ctx: CommandContext, body: CreateDeviceBody) {
  return idempotentCommand(ctx, 'device', body, async (ctx) => {
    const house = await houseOfCaller(ctx.caller, body.houseId, body.farmId);
    const secret = newDeviceSecret();
    const { device, audit, changes } = decideDeviceRegistration(ctx.caller, house, body, hashDeviceSecret(secret), ctx.now);
    const dto = toDeviceDto(device, ctx.now.getTime(), await healthFactors());
    // A replay (same Idempotency-Key) answers with the device but never the secret: it is stored nowhere.
    const replay = {
      created: true,
      message: 'Device registered; its secret was shown only in the first answer (rotate it to get a new one)',
      data: dto,
    };
    await commit(ctx, { writes: deviceWrites.register(device), audit, changes, response: replay });
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

/** The version of the device a change was decided on: the If-Match (and a stated `version`) are about it. */
const deviceVersion = (d: DeviceRecord, stated?: number): Versioned => ({ read: d.version, what: `Device ${d.id}`, stated, subject: true });

export async function updateDeviceFor(ctx: CommandContext, deviceId: string, body: UpdateDeviceBody) {
  const current = await visibleDevice(ctx.caller, deviceId);
  const version = deviceVersion(current, body.version);
  // a stale version answers before the metrics are judged and before "nothing to change"
  checkVersion(ctx, version);
  const { change, audit, changes } = decideDeviceUpdate(current, body, ctx.now);
  if (unchanged(change)) return current;
  await commit(ctx, { writes: deviceWrites.update(current, change.fields, version), audit, changes });
  return change.next;
}

/** A new secret; the old key stops working at once. */
export async function rotateDeviceSecret(ctx: CommandContext, deviceId: string) {
  const current = await visibleDevice(ctx.caller, deviceId);
  const secret = newDeviceSecret();
  const { next, fields, audit, changes } = decideSecretRotation(current, hashDeviceSecret(secret), ctx.now);
  await commit(ctx, { writes: deviceWrites.update(current, fields, deviceVersion(current)), audit, changes });
  return { ...toDeviceDto(next, ctx.now.getTime(), await healthFactors()), secret, deviceKey: deviceKeyOf(deviceId, secret) };
}

export async function deleteDeviceFor(ctx: CommandContext, deviceId: string): Promise<void> {
  const current = await visibleDevice(ctx.caller, deviceId);
  await commit(ctx, { writes: [deviceWrites.remove(current, deviceVersion(current))], ...decideDeviceRemoval(current) });
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
