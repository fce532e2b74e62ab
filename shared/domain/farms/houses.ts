import { ulid } from 'ulidx';
import type { CreateHouseBody, UpdateHouseBody } from '../../../schemas/farms.js';
import type { Caller } from '../caller.js';
import { recordChange, type AuditEvent, type ResourceChange, upsertOf } from '../decision.js';
import { canAccessFarm } from '../farm-access.js';
import { displayName, nameKey } from '../names.js';
import { farmNotFound } from '../references.js';
import { cleanText } from './farms.js';
import type { HouseChanges, HouseRecord } from './records.js';

/**
 * Houses, decided without I/O. A house's name is unique within its farm, compared by its normalized key
 * (`nameKey`): the commit claims the key, so the decision only names it. The audit speaks the API's
 * names: `type`, not the stored `houseType`.
 */

const houseChange = (h: HouseRecord): ResourceChange => upsertOf('house', h);

/** A new house of `farmId` (a farm the caller cannot see is the 404 of a missing one; the commit checks that it exists). */
export function decideHouseCreate(caller: Pick<Caller, 'id' | 'allFarms' | 'farmIds'>, farmId: string, body: CreateHouseBody, now: Date) {
  if (!canAccessFarm(caller, farmId)) throw farmNotFound(farmId);
  const at = now.toISOString();
  const name = displayName(body.name);
  const house: HouseRecord = {
    id: ulid(),
    farmId,
    name,
    nameKey: nameKey(name),
    usableAreaM2: body.usableAreaM2,
    capacity: body.capacity,
    houseType: body.type ?? null,
    cageAreaM2: body.cageAreaM2 ?? null,
    rangeAreaM2: body.rangeAreaM2 ?? null,
    notes: cleanText(body.notes),
    createdBy: caller.id,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  const { id: _id, nameKey: _k, createdAt: _c, updatedAt: _u, version: _v, houseType, ...fields } = house;
  const audit: AuditEvent[] = [{ action: 'house.create', targetType: 'house', targetId: house.id, changes: { ...fields, type: houseType } }];
  return { house, audit, changes: [houseChange(house)] };
}

const HOUSE_FIELDS = ['name', 'usableAreaM2', 'capacity', 'houseType', 'cageAreaM2', 'rangeAreaM2', 'notes'] as const;

/** An edit of a house (its version already compared with the client's); a rename also sets the new `nameKey`. */
export function decideHouseUpdate(current: HouseRecord, body: UpdateHouseBody, now: Date) {
  const name = body.name !== undefined ? displayName(body.name) : undefined;
  const edited: HouseRecord = {
    ...current,
    ...(name !== undefined ? { name, nameKey: nameKey(name) } : {}),
    ...(body.usableAreaM2 !== undefined ? { usableAreaM2: body.usableAreaM2 } : {}),
    ...(body.capacity !== undefined ? { capacity: body.capacity } : {}),
    ...(body.type !== undefined ? { houseType: body.type } : {}),
    ...(body.cageAreaM2 !== undefined ? { cageAreaM2: body.cageAreaM2 } : {}),
    ...(body.rangeAreaM2 !== undefined ? { rangeAreaM2: body.rangeAreaM2 } : {}),
    ...(body.notes !== undefined ? { notes: cleanText(body.notes) } : {}),
  };
  const change = recordChange(current, edited, HOUSE_FIELDS, now);
  const fields: HouseChanges = { ...change.fields, ...(change.changes.name ? { nameKey: edited.nameKey } : {}) };
  const { houseType: typeChange, ...rest } = change.changes;
  const audit: AuditEvent[] = [
    { action: 'house.update', targetType: 'house', targetId: current.id, changes: typeChange ? { ...rest, type: typeChange } : rest },
  ];
  return { change: { ...change, fields }, audit, changes: [houseChange(change.next)] };
}
