import { describe, expect, it } from 'vitest';
import { unchanged } from '../../shared/domain/decision.js';
import { decideFarmCreate, decideFarmUpdate, MAX_FARMS_PER_USER } from '../../shared/domain/farms/farms.js';
import { decideHouseCreate, decideHouseUpdate } from '../../shared/domain/farms/houses.js';
import type { FarmRecord, HouseRecord } from '../../shared/domain/farms/records.js';
import { Conflict, NotFound, ValidationFailed } from '../../shared/errors.js';

/** Farms and houses decided without a database: the refusals, the records and the audit they return. */

const now = new Date('2026-03-01T08:00:00.000Z');
const later = new Date('2026-03-02T09:30:00.000Z');
const manager = { id: 'u1', allFarms: false, farmIds: ['f1'] };
const admin = { id: 'a1', allFarms: true, farmIds: [] };

const farm: FarmRecord = {
  id: 'f1',
  name: 'North',
  location: null,
  countryCode: 'SN',
  timezone: 'UTC',
  totalAreaHa: null,
  densityTier: 33,
  waterReserveLiters: null,
  notes: null,
  isDefault: false,
  createdBy: 'u1',
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
  version: 3,
};

const house: HouseRecord = {
  id: 'h1',
  farmId: 'f1',
  name: 'House A',
  nameKey: 'house a',
  usableAreaM2: 1000,
  capacity: 15000,
  houseType: 'floor',
  notes: null,
  createdBy: 'u1',
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
  version: 2,
};

describe('creating a farm', () => {
  it('assigns a non-admin creator, audited twice; an admin is not assigned', () => {
    const mine = decideFarmCreate(manager, { name: '  South  farm ', timezone: 'europe/paris', notes: ' shaded ' }, now);
    expect(mine.farm).toMatchObject({ name: 'South farm', timezone: 'Europe/Paris', notes: 'shaded', densityTier: 33, createdBy: 'u1', version: 1 });
    expect(mine.farm.createdAt).toBe(now.toISOString());
    expect(mine.assign).toBe(true);
    expect(mine.audit.map((a) => a.action)).toEqual(['farm.create', 'farm.assign-creator']);
    expect(mine.audit[0]!.changes).toMatchObject({ assignedTo: 'u1' });
    expect(mine.changes).toEqual([{ type: 'farm', id: mine.farm.id, op: 'upsert', version: 1, farmIds: [mine.farm.id] }]);

    const theirs = decideFarmCreate(admin, { name: 'East' }, now);
    expect(theirs.assign).toBe(false);
    expect(theirs.farm.timezone).toBe('UTC');
    expect(theirs.audit.map((a) => a.action)).toEqual(['farm.create']);
  });

  it('refuses an unknown time zone before the farm limit, and the limit itself', () => {
    const full = { ...manager, farmIds: Array.from({ length: MAX_FARMS_PER_USER }, (_, i) => `f${i}`) };
    expect(() => decideFarmCreate(full, { name: 'X', timezone: 'Mars/Olympus' }, now)).toThrow(ValidationFailed);
    expect(() => decideFarmCreate(full, { name: 'X' }, now)).toThrow(Conflict);
  });
});

describe('editing a farm', () => {
  it('sets only the fields that differ, bumps the version and audits the diff', () => {
    const { change, audit, changes } = decideFarmUpdate(farm, { name: 'North', notes: ' wet ', densityTier: 39 }, later);
    expect(change.fields).toEqual({ notes: 'wet', densityTier: 39 });
    expect(change.next).toMatchObject({ notes: 'wet', densityTier: 39, version: 4, updatedAt: later.toISOString() });
    expect(audit).toEqual([
      { action: 'farm.update', targetType: 'farm', targetId: 'f1', changes: { densityTier: { from: 33, to: 39 }, notes: { from: null, to: 'wet' } } },
    ]);
    expect(changes).toEqual([{ type: 'farm', id: 'f1', op: 'upsert', version: 4, farmIds: ['f1'] }]);
  });

  it('nothing to change when every field is as stored; an unknown time zone is refused', () => {
    expect(unchanged(decideFarmUpdate(farm, { name: 'North', countryCode: 'SN' }, later).change)).toBe(true);
    expect(() => decideFarmUpdate(farm, { timezone: 'Nowhere/Land' }, later)).toThrow(ValidationFailed);
  });
});

describe('houses', () => {
  it('a house of a farm the caller cannot see is the 404 of a missing farm', () => {
    expect(() => decideHouseCreate(manager, 'f2', { name: 'B', usableAreaM2: 10, capacity: 100 }, now)).toThrow(NotFound);
  });

  it('a new house names its normalized key; the audit says type, not houseType', () => {
    const { house: created, audit } = decideHouseCreate(manager, 'f1', { name: ' House  B ', usableAreaM2: 500, capacity: 8000, type: 'aviary' }, now);
    expect(created).toMatchObject({ farmId: 'f1', name: 'House B', nameKey: 'house b', houseType: 'aviary', version: 1 });
    expect(audit[0]!.changes).toMatchObject({ type: 'aviary', name: 'House B' });
    expect(audit[0]!.changes).not.toHaveProperty('houseType');
  });

  it('a rename sets the new name key; a type change is audited as type', () => {
    const { change, audit } = decideHouseUpdate(house, { name: 'House C', type: 'cage' }, later);
    expect(change.fields).toEqual({ name: 'House C', nameKey: 'house c', houseType: 'cage' });
    expect(change.next.version).toBe(3);
    expect(audit[0]!.changes).toEqual({ name: { from: 'House A', to: 'House C' }, type: { from: 'floor', to: 'cage' } });
    expect(unchanged(decideHouseUpdate(house, { capacity: 15000 }, later).change)).toBe(true);
  });
});
