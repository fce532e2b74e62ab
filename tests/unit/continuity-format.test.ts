/** The export format's pure pieces: record types, owned ids and their remapping, the checksum, line checks, sets, figure comparison. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  comparable,
  differences,
  ExportDigest,
  fromJsonItem,
  IdMap,
  lineOf,
  lineProblem,
  ownedIdsOf,
  recordTypeOf,
  toJsonItem,
} from '../../shared/domain/continuity/format.js';

const FARM = '01JD3Y4Z9V6Q8K2M5N7P0R1S3T';
const FLOCK = '01JD3Y4Z9V6Q8K2M5N7P0R1S3V';
const CYCLE = '01JD3Y4Z9V6Q8K2M5N7P0R1S3W';
const MOV = '01JD3Y4Z9V6Q8K2M5N7P0R1S3X';
const USER = '01JD3Y4Z9V6Q8K2M5N7P0R1S3Y';
let n = 0;
const map = () => new IdMap((old) => `${old.slice(0, 10)}NEW${String(++n).padStart(13, '0')}`);

describe('record types', () => {
  it('by partition and sort-key prefix; exact keys stay exact', () => {
    expect(recordTypeOf({ PK: `FARM#${FARM}`, SK: 'META' })).toBe('farm');
    expect(recordTypeOf({ PK: `FARM#${FARM}`, SK: 'HOUSE#x' })).toBe('house');
    expect(recordTypeOf({ PK: `FARM#${FARM}`, SK: 'HOUSENAME#h1' })).toBe('house_name');
    expect(recordTypeOf({ PK: `FARM#${FARM}`, SK: 'RESTRICTIONS' })).toBe('restriction_flag');
    expect(recordTypeOf({ PK: `FARM#${FARM}`, SK: `RESTRICTION#${MOV}` })).toBe('restriction');
    expect(recordTypeOf({ PK: `CYCLE#${CYCLE}`, SK: `MOV#${MOV}` })).toBe('movement');
    expect(recordTypeOf({ PK: `CYCLE#${CYCLE}`, SK: 'DAY#2026-01-01' })).toBe('day_rollup');
    expect(recordTypeOf({ PK: `DEVICE#${MOV}`, SK: 'DAY#2026-01-01' })).toBe('device_day');
    expect(recordTypeOf({ PK: `READINGS#${MOV}#2026-01-01`, SK: 'x' })).toBeUndefined();
    expect(recordTypeOf({ PK: `IDEMPOTENCY#${USER}#k`, SK: 'RESPONSE' })).toBeUndefined();
  });
});

describe('id remapping', () => {
  it('owns the ids of partitions and entity sort keys, not the ids an item only mentions', () => {
    expect(ownedIdsOf({ PK: `FLOCK#${FLOCK}`, SK: `CYCLE#${CYCLE}` })).toEqual([FLOCK, CYCLE]);
    expect(ownedIdsOf({ PK: `CYCLE#${CYCLE}`, SK: `MOV#${MOV}` })).toEqual([CYCLE, MOV]);
    expect(ownedIdsOf({ PK: `CYCLE#${CYCLE}`, SK: `WEIGHT#2026-01-01#manual#${MOV}` })).toEqual([CYCLE, MOV]);
    expect(ownedIdsOf({ PK: `FARM#${FARM}`, SK: `DRILL#2026-01-01#${MOV}` })).toEqual([FARM, MOV]);
    expect(ownedIdsOf({ PK: `FARM#${FARM}`, SK: 'STOCK#FEED#starter' })).toEqual([FARM]);
  });

  it('replaces every owned id in keys, composite strings, map keys, lists and sets; leaves the others', () => {
    const ids = map();
    for (const id of [FARM, FLOCK, CYCLE, MOV]) ids.own(id);
    ids.own(FLOCK); // once
    expect(ids.size).toBe(4);
    const item = {
      PK: `CYCLE#${CYCLE}`,
      SK: `MOV#${MOV}`,
      GSI2PK: `MOVEMENTS#${FARM}`,
      GSI1SK: `2026-01-01#${MOV}`,
      farmId: FARM,
      createdBy: USER,
      fields: { counterpartCycleId: CYCLE, target: `flock:${FLOCK}`, [`sensorFeedKg.${MOV}`]: 3 },
      ids: [FLOCK, USER],
      set: new Set([FLOCK]),
      quantity: 12,
    };
    const out = ids.value(item);
    const f = ids.map.get(FARM)!;
    const c = ids.map.get(CYCLE)!;
    const m = ids.map.get(MOV)!;
    expect(out).toEqual({
      PK: `CYCLE#${c}`,
      SK: `MOV#${m}`,
      GSI2PK: `MOVEMENTS#${f}`,
      GSI1SK: `2026-01-01#${m}`,
      farmId: f,
      createdBy: USER,
      fields: { counterpartCycleId: c, target: `flock:${ids.map.get(FLOCK)}`, [`sensorFeedKg.${m}`]: 3 },
      ids: [ids.map.get(FLOCK), USER],
      set: new Set([ids.map.get(FLOCK)]),
      quantity: 12,
    });
    expect(item.PK).toBe(`CYCLE#${CYCLE}`); // a copy
    expect(c.slice(0, 10)).toBe(CYCLE.slice(0, 10));
  });
});

describe('lines, checksum and sets', () => {
  it('the digest is the sha256 of every line before the trailer; counts leave the header out', () => {
    const digest = new ExportDigest();
    const lines = [lineOf('header', { format: 'flockwise-farm-export' }), lineOf('farm', { PK: 'FARM#1', SK: 'META' }), lineOf('check', { kind: 'stock' })];
    digest.add(lines[0]!, 'header');
    digest.add(lines[1]!, 'farm');
    digest.add(lines[2]!, 'check');
    expect(digest.trailer()).toEqual({ records: 2, counts: { farm: 1, check: 1 }, sha256: createHash('sha256').update(lines.join('')).digest('hex') });
  });

  it('checks each line: shape, version, header first, known type, keys of its type', () => {
    const header = { format: 'flockwise-farm-export', formatVersion: 1, farmId: FARM, asOf: '2026-01-01T00:00:00.000Z' };
    expect(lineProblem({ type: 'header', v: 1, data: header }, 1, true)).toBeUndefined();
    expect(lineProblem({ type: 'farm', v: 1, data: { PK: `FARM#${FARM}`, SK: 'META' } }, 2, false)).toBeUndefined();
    expect(lineProblem({ type: 'farm', v: 1, data: {} }, 1, true)).toMatch(/first line must be the header/);
    expect(lineProblem({ type: 'farm', v: 2, data: {} }, 2, false)).toMatch(/version 2 of farm is not supported/);
    expect(lineProblem({ type: 'farm', v: 1, data: {}, x: 1 }, 2, false)).toMatch(/exactly type, v and data/);
    expect(lineProblem({ type: 'bogus', v: 1, data: {} }, 2, false)).toMatch(/unknown record type bogus/);
    expect(lineProblem({ type: 'movement', v: 1, data: { PK: `FARM#${FARM}`, SK: 'META' } }, 3, false)).toMatch(/not those of a movement/);
    expect(lineProblem({ type: 'header', v: 1, data: header }, 3, false)).toMatch(/second header/);
    expect(lineProblem({ type: 'trailer', v: 1, data: { records: 1 } }, 3, false)).toMatch(/trailer without/);
  });

  it('DynamoDB sets travel as {"$set": […]} and come back as sets', () => {
    const item = { incidentIds: new Set(['b', 'a']), seen: new Set([3, 1]), list: ['x'], nested: { s: new Set(['z']) } };
    const json = JSON.parse(JSON.stringify(toJsonItem(item)));
    expect(json).toEqual({ incidentIds: { $set: ['a', 'b'] }, seen: { $set: [1, 3] }, list: ['x'], nested: { s: { $set: ['z'] } } });
    expect(fromJsonItem(json)).toEqual({ incidentIds: new Set(['a', 'b']), seen: new Set([1, 3]), list: ['x'], nested: { s: new Set(['z']) } });
  });
});

describe('figure comparison', () => {
  it('ignores asOf and key order, rounds the last bits of floating-point sums, names each difference', () => {
    expect(comparable({ b: 0.1 + 0.2, a: 1, asOf: 'x' })).toEqual(comparable({ a: 1, b: 0.3, asOf: 'y' }));
    expect(differences({ a: { b: 1, c: [1, 2] } }, { a: { b: 2, c: [1] } })).toEqual(['a.b: expected 1, got 2', 'a.c.1: expected 2, got undefined']);
    expect(differences({ a: 1 }, { a: 1 })).toEqual([]);
  });
});
