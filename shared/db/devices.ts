import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from './client.js';
import type { Versioned, Write } from './commit.js';
import { absent, all, any, eq, exists, isNew, lt, withCondition } from './conditions.js';
import { DEVICES_DUE, deviceDueSortKey, deviceKey, deviceOfFarmSortKey, devicesOfFarm, houseKey } from './keys.js';
import { houseNotFound } from '../domain/references.js';
import { queryPage } from './pagination.js';
import { pick } from './items.js';
import { Conflict, NotFound } from '../errors.js';
import type { DeviceChanges, DeviceRecord } from '../domain/iot/records.js';
import type { DeviceKind, DeviceStatus } from '../../schemas/vocabulary.js';

/**
 * The device registry: `DEVICE#<id>`/`META`, listed per farm through GSI1 `DEVICES#<farmId>` (sorted by
 * house), and, while it reports, on GSI2 `DEVICES_DUE` at the time its health changes if it falls silent
 * (the health job's Query). The secret is kept only as its SHA-256 hash.
 */
const FIELDS = [
  'id',
  'farmId',
  'houseId',
  'kind',
  'name',
  'metrics',
  'reportingIntervalSeconds',
  'secretHash',
  'keyIssuedAt',
  'lastSeen',
  'latest',
  'healthStatus',
  'healthChangedAt',
  'createdBy',
  'createdAt',
  'updatedAt',
  'version',
] as const satisfies readonly (keyof DeviceRecord)[];

export const deviceNotFound = (deviceId: string) => new NotFound(`Device ${deviceId} not found`);

export function deviceFromItem(item: Record<string, unknown> | undefined): DeviceRecord | undefined {
  if (!item) return undefined;
  const d = pick<DeviceRecord>(item, FIELDS);
  return { ...d, lastSeen: d.lastSeen ?? null, latest: d.latest ?? {}, healthStatus: d.healthStatus ?? 'offline', healthChangedAt: d.healthChangedAt ?? null };
}

function item(d: DeviceRecord) {
  return { ...deviceKey(d.id), ...devicesOfFarm(d.farmId), GSI1SK: deviceOfFarmSortKey(d.houseId, d.id), type: 'Device', ...d };
}

export async function getDevice(deviceId: string, opts: { consistent?: boolean } = {}): Promise<DeviceRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: deviceKey(deviceId), ConsistentRead: opts.consistent ?? true }));
  return deviceFromItem(res.Item);
}

const changedConcurrently = (deviceId: string) => () => new Conflict(`Device ${deviceId} was changed concurrently; read it again and retry`);
const houseExists = (farmId: string, houseId: string): Write => ({ check: houseKey(farmId, houseId), when: exists(), failed: () => houseNotFound(houseId) });

/**
 * The writes of the registry: a device registered in its house (which must exist → NotFound); a change
 * at the version read (a move to another house re-sorts it in the farm's list and checks that house
 * exists); a removal at the version read (its rollups stay as history; raw readings expire).
 */
export const deviceWrites = {
  register: (device: DeviceRecord): Write[] => [
    houseExists(device.farmId, device.houseId),
    { put: item(device), when: isNew(), failed: () => new Conflict('A device with this id already exists') },
  ],
  update: (current: DeviceRecord, changes: DeviceChanges, version: Versioned): Write[] => {
    const moved = changes.houseId !== undefined && changes.houseId !== current.houseId;
    const set = { ...changes, ...(moved ? { GSI1SK: deviceOfFarmSortKey(changes.houseId!, current.id) } : {}) };
    return [
      ...(moved ? [houseExists(current.farmId, changes.houseId!)] : []),
      { update: deviceKey(current.id), set, version, failed: changedConcurrently(current.id) },
    ];
  },
  remove: (current: DeviceRecord, version: Versioned): Write => ({ delete: deviceKey(current.id), version, failed: changedConcurrently(current.id) }),
};

/** A page of a farm's devices, by house then id (one Query on GSI1; `houseId` narrows the key, `kind` filters). */
export async function listDevicesOfFarm(
  farmId: string,
  opts: { houseId?: string; kind?: DeviceKind; limit: number; cursor?: string; postFilter?: unknown },
): Promise<{ items: DeviceRecord[]; nextCursor: string | null }> {
  const partition = devicesOfFarm(farmId);
  const prefix = opts.houseId ? `${opts.houseId}#` : '';
  const page = await queryPage(
    {
      IndexName: 'GSI1',
      KeyConditionExpression: prefix ? 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)' : 'GSI1PK = :pk',
      ...(opts.kind ? { FilterExpression: '#kind = :kind', ExpressionAttributeNames: { '#kind': 'kind' } } : {}),
      ExpressionAttributeValues: { ':pk': partition.GSI1PK, ...(prefix ? { ':prefix': prefix } : {}), ...(opts.kind ? { ':kind': opts.kind } : {}) },
    },
    opts,
  );
  return { items: page.items.map((i) => deviceFromItem(i)!), nextCursor: page.nextCursor };
}

/** A farm's devices (of one house), page after page up to `max` (a house has a handful: one Query). */
export async function allDevicesOfFarm(farmId: string, opts: { houseId?: string; max?: number } = {}): Promise<DeviceRecord[]> {
  const out: DeviceRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await listDevicesOfFarm(farmId, { houseId: opts.houseId, limit: 100, cursor });
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && out.length < (opts.max ?? Number.POSITIVE_INFINITY));
  return out;
}

/**
 * Records that the device was seen at `lastSeen` with these latest values, unless the stored last seen is
 * already in that minute or later (`minuteStart`): at most one write per minute of readings. The
 * device is online from then on (`healthChangedAt` moves when it was not: a recovery); `dueAt` (when it
 * turns stale if it falls silent) files it for the health job. Returns whether it was written.
 */
export async function recordLastSeen(
  deviceId: string,
  seen: { lastSeen: string; latest: DeviceRecord['latest']; dueAt: string; now: string; minuteStart: string; recovering: boolean },
): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand(
        withCondition(
          {
            TableName: tableName(),
            Key: deviceKey(deviceId),
            UpdateExpression:
              'SET lastSeen = :seen, latest = :latest, healthStatus = :online, GSI2PK = :due, GSI2SK = :dueSk' +
              (seen.recovering ? ', healthChangedAt = :now' : ''),
            ExpressionAttributeValues: {
              ':seen': seen.lastSeen,
              ':latest': seen.latest,
              ...(seen.recovering ? { ':now': seen.now } : {}),
              ':online': 'online',
              ':due': DEVICES_DUE.GSI2PK,
              ':dueSk': deviceDueSortKey(seen.dueAt, deviceId),
            },
          },
          all(exists(), any(absent('lastSeen'), eq('lastSeen', null), lt('lastSeen', seen.minuteStart))),
        ),
      ),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** Devices whose health is due to change by `nowIso` (the health job; one Query on GSI2, oldest first). */
export async function devicesDue(nowIso: string, limit: number): Promise<DeviceRecord[]> {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK <= :now',
      ExpressionAttributeValues: { ':pk': DEVICES_DUE.GSI2PK, ':now': `${nowIso}#~` },
      Limit: limit,
    }),
  );
  return (res.Items ?? []).map((i) => deviceFromItem(i)!);
}

/**
 * Records a health transition found by the job, if the device was not seen meanwhile (its lastSeen is
 * still `lastSeen`): the new status, and when it is next due (or off the due index once offline).
 * Returns whether it was recorded.
 */
export async function recordHealth(deviceId: string, t: { lastSeen: string; status: DeviceStatus; dueAt: string | null; now: string }): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand(
        withCondition(
          {
            TableName: tableName(),
            Key: deviceKey(deviceId),
            UpdateExpression: t.dueAt
              ? 'SET healthStatus = :s, healthChangedAt = :now, GSI2SK = :dueSk'
              : 'SET healthStatus = :s, healthChangedAt = :now REMOVE GSI2PK, GSI2SK',
            ExpressionAttributeValues: { ':s': t.status, ':now': t.now, ...(t.dueAt ? { ':dueSk': deviceDueSortKey(t.dueAt, deviceId) } : {}) },
          },
          all(exists(), eq('lastSeen', t.lastSeen)),
        ),
      ),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}
