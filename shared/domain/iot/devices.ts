import { ulid } from 'ulidx';
import { ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import { diff } from '../changes.js';
import { type AuditEvent, type RecordChange, type ResourceChange, upsertOf, deleteOf } from '../decision.js';
import { displayName } from '../names.js';
import { declaredMetricProblems, KIND_METRICS } from './metrics.js';
import type { DeviceChanges, DeviceRecord } from './records.js';
import type { CreateDeviceBody, UpdateDeviceBody } from '../../../schemas/iot.js';

/**
 * The device registry's changes, decided without I/O: a device registered in a house the caller may see,
 * a change of its name, house, metrics or reporting interval, a new secret (made and hashed by the use
 * case: the decision only keeps its hash) and a removal, each with its audit event.
 */

export const DEFAULT_REPORTING_INTERVAL_SECONDS = 60;

const EDITABLE = ['name', 'houseId', 'metrics', 'reportingIntervalSeconds'] as const;

/** The metrics a device of this kind declares (its kind's, when none are named); an impossible list is a 400 on `metrics`. */
export function metricsOrThrow(kind: CreateDeviceBody['kind'], metrics: CreateDeviceBody['metrics']): DeviceRecord['metrics'] {
  const list = metrics ?? [...KIND_METRICS[kind]];
  const problems = declaredMetricProblems(kind, list);
  if (problems.length > 0) throw new ValidationFailed(problems.map((message) => ({ field: 'metrics', message })));
  return list;
}

const deviceChange = (d: DeviceRecord): ResourceChange => upsertOf('device', d);

/** A device registered by the caller in `house` (read and scoped), with the hash of its new secret; audited without the hash. */
export function decideDeviceRegistration(
  caller: Pick<Caller, 'id'>,
  house: { id: string; farmId: string },
  body: CreateDeviceBody,
  secretHash: string,
  now: Date,
) {
  const metrics = metricsOrThrow(body.kind, body.metrics);
  const at = now.toISOString();
  const device: DeviceRecord = {
    id: ulid(),
    farmId: house.farmId,
    houseId: house.id,
    kind: body.kind,
    name: displayName(body.name),
    metrics,
    reportingIntervalSeconds: body.reportingIntervalSeconds ?? DEFAULT_REPORTING_INTERVAL_SECONDS,
    secretHash,
    keyIssuedAt: at,
    lastSeen: null,
    latest: {},
    healthStatus: 'offline',
    healthChangedAt: null,
    createdBy: caller.id,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  const { secretHash: _h, latest: _l, ...audited } = device;
  const audit: AuditEvent[] = [{ action: 'device.create', targetType: 'device', targetId: device.id, changes: audited }];
  return { device, audit, changes: [deviceChange(device)] };
}

/**
 * A change of a device (its version already compared with the client's): the metrics are judged only when
 * they change; nothing to write when no field differs.
 */
export function decideDeviceUpdate(current: DeviceRecord, body: UpdateDeviceBody, now: Date) {
  const edited: DeviceRecord = {
    ...current,
    ...(body.name !== undefined ? { name: displayName(body.name) } : {}),
    ...(body.houseId !== undefined ? { houseId: body.houseId } : {}),
    ...(body.metrics !== undefined ? { metrics: body.metrics } : {}),
    ...(body.reportingIntervalSeconds !== undefined ? { reportingIntervalSeconds: body.reportingIntervalSeconds } : {}),
  };
  const changes = diff(current, edited, EDITABLE);
  if (changes.metrics) metricsOrThrow(current.kind, edited.metrics);
  const fields: DeviceChanges = Object.fromEntries(Object.keys(changes).map((f) => [f, edited[f as (typeof EDITABLE)[number]]]));
  const next: DeviceRecord = { ...current, ...fields, updatedAt: now.toISOString(), version: current.version + 1 };
  const change: RecordChange<DeviceRecord> = { current, next, fields, changes };
  return {
    change,
    audit: [{ action: 'device.update', targetType: 'device', targetId: current.id, changes }] as AuditEvent[],
    changes: [deviceChange(next)],
  };
}

/** A new secret (its hash): the old key stops working once it is written. */
export function decideSecretRotation(current: DeviceRecord, secretHash: string, now: Date) {
  const at = now.toISOString();
  const fields: DeviceChanges = { secretHash, keyIssuedAt: at };
  const next: DeviceRecord = { ...current, ...fields, updatedAt: at, version: current.version + 1 };
  return {
    next,
    fields,
    audit: [{ action: 'device.rotate_secret', targetType: 'device', targetId: current.id, changes: { keyIssuedAt: at } }] as AuditEvent[],
    changes: [deviceChange(next)],
  };
}

/** A device removed (its rollups stay as history). */
export function decideDeviceRemoval(current: DeviceRecord) {
  return {
    audit: [{ action: 'device.delete', targetType: 'device', targetId: current.id, changes: { name: current.name, houseId: current.houseId } }] as AuditEvent[],
    changes: [deleteOf('device', current)],
  };
}
