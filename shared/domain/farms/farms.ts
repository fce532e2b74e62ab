import { ulid } from 'ulidx';
import type { CreateFarmBody, UpdateFarmBody } from '../../../schemas/farms.js';
import { Conflict, ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import { recordChange, type AuditEvent, type ResourceChange } from '../decision.js';
import { displayName } from '../names.js';
import type { FarmChanges, FarmRecord } from './records.js';

/**
 * Farms, decided without I/O. A non-admin who creates a farm is assigned to it in the same commit (else
 * the creator could not see what it just made); admins see every farm and are not assigned.
 */

/** A non-admin can be assigned at most this many farms by creating them (the admin API's farmIds limit). */
export const MAX_FARMS_PER_USER = 100;
export const farmLimitReached = () =>
  new Conflict(`You are assigned to the maximum of ${MAX_FARMS_PER_USER} farms; ask an admin to unassign one before creating another (nothing was created)`);

/** Optional free text: trimmed; absent or null → null. */
export const cleanText = (text: string | null | undefined): string | null => (text === undefined || text === null ? null : text.trim());

/** The canonical spelling of an IANA time zone (`europe/paris` → `Europe/Paris`), or undefined if unknown. */
export function canonicalTimeZone(zone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

function timeZoneOrThrow(zone: string): string {
  const canonical = canonicalTimeZone(zone);
  if (!canonical) throw new ValidationFailed([{ field: 'timezone', message: `"${zone}" is not a known IANA time zone (e.g. "Africa/Dakar", "UTC")` }]);
  return canonical;
}

const farmChange = (f: FarmRecord): ResourceChange => ({ type: 'farm', id: f.id, op: 'upsert', version: f.version, farmIds: [f.id] });

/** A new farm; `assign`: the caller (not an admin) is assigned to it, within `MAX_FARMS_PER_USER`. */
export function decideFarmCreate(caller: Pick<Caller, 'id' | 'allFarms' | 'farmIds'>, body: CreateFarmBody, now: Date) {
  const timezone = body.timezone === undefined ? 'UTC' : timeZoneOrThrow(body.timezone);
  const at = now.toISOString();
  const farm: FarmRecord = {
    id: ulid(),
    name: displayName(body.name),
    location: cleanText(body.location),
    countryCode: body.countryCode ?? null,
    timezone,
    totalAreaHa: body.totalAreaHa ?? null,
    densityTier: body.densityTier ?? 33,
    waterReserveLiters: body.waterReserveLiters ?? null,
    notes: cleanText(body.notes),
    isDefault: false,
    createdBy: caller.id,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  const assign = !caller.allFarms;
  if (assign && caller.farmIds.length >= MAX_FARMS_PER_USER) throw farmLimitReached();
  const { id: _id, createdAt: _c, updatedAt: _u, version: _v, ...fields } = farm;
  const audit: AuditEvent[] = [
    { action: 'farm.create', targetType: 'farm', targetId: farm.id, changes: { ...fields, ...(assign ? { assignedTo: caller.id } : {}) } },
  ];
  if (assign) audit.push({ action: 'farm.assign-creator', targetType: 'user', targetId: caller.id, changes: { farmIds: { added: [farm.id] } } });
  return { farm, assign, audit, changes: [farmChange(farm)] };
}

const FARM_FIELDS = ['name', 'location', 'countryCode', 'timezone', 'totalAreaHa', 'densityTier', 'waterReserveLiters', 'notes'] as const;

/** An edit of a farm (its version already compared with the client's); nothing changed: `unchanged(change)`. */
export function decideFarmUpdate(current: FarmRecord, body: UpdateFarmBody, now: Date) {
  const edited: FarmRecord = {
    ...current,
    ...(body.name !== undefined ? { name: displayName(body.name) } : {}),
    ...(body.location !== undefined ? { location: cleanText(body.location) } : {}),
    ...(body.countryCode !== undefined ? { countryCode: body.countryCode } : {}),
    ...(body.timezone !== undefined ? { timezone: timeZoneOrThrow(body.timezone) } : {}),
    ...(body.totalAreaHa !== undefined ? { totalAreaHa: body.totalAreaHa } : {}),
    ...(body.densityTier !== undefined ? { densityTier: body.densityTier } : {}),
    ...(body.waterReserveLiters !== undefined ? { waterReserveLiters: body.waterReserveLiters } : {}),
    ...(body.notes !== undefined ? { notes: cleanText(body.notes) } : {}),
  };
  const change = recordChange(current, edited, FARM_FIELDS, now);
  const audit: AuditEvent[] = [{ action: 'farm.update', targetType: 'farm', targetId: current.id, changes: change.changes }];
  return { change: { ...change, fields: change.fields as FarmChanges }, audit, changes: [farmChange(change.next)] };
}
