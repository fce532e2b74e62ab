/** Deliveries booked on the farm's stock without a cycle, decided without a database: the refusals, the records, the stock changes. */
import { describe, expect, it } from 'vitest';
import { farmFeedPrices, feedCost } from '../../shared/domain/analytics/financials/costs.js';
import { READABLE_FORMAT_VERSIONS, EXPORT_FORMAT_VERSION, lineProblem, recordTypeOf } from '../../shared/domain/continuity/format.js';
import { farmEffectsOf, movementProblems } from '../../shared/domain/ledger.js';
import {
  decideFarmMovementCreate,
  decideFarmMovementDeletion,
  decideFarmMovementUpdate,
  judgeFarmMovementEdit,
  judgeLocatedFarm,
  visibleFarmMovement,
} from '../../shared/domain/movements/farm.js';
import type { FarmMovementRecord } from '../../shared/domain/movements/record.js';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { Conflict, NotFound, ValidationFailed } from '../../shared/errors.js';
import { emptyDay } from '../../shared/domain/analytics/inputs.js';

const now = new Date('2026-03-10T09:00:00.000Z');
const HOURS = 72;
const caller = { id: 'u1', allFarms: false, farmIds: ['A'] };
const farm = { id: 'A', timezone: 'UTC' };
const facts = (over: Record<string, unknown> = {}) => ({ caller, now, farm, today: '2026-03-10', ...over });
const delivery = { type: 'feed_delivery', date: '2026-03-01', feedType: 'starter', quantityKg: 1000, unitPrice: 0.5 } as const;
const booked = (over: Partial<FarmMovementRecord> = {}): FarmMovementRecord => ({
  id: 'M1',
  cycleId: null,
  flockId: null,
  farmId: 'A',
  type: 'feed_delivery',
  date: '2026-03-01',
  fields: { feedType: 'starter', quantityKg: 1000 },
  lock: null,
  createdAt: '2026-03-09T10:00:00.000Z',
  createdBy: 'u1',
  updatedAt: '2026-03-09T10:00:00.000Z',
  version: 1,
  ...over,
});

describe('booking a delivery on the farm', () => {
  it('changes the farm’s stock only: no cycle counter, no daily rollup', () => {
    // the balance, and its change on the delivery's date (the balance at every date)
    expect(farmEffectsOf(delivery)).toEqual([
      { target: { kind: 'feed', feedType: 'starter' }, attribute: 'kg', amount: 1000 },
      { target: { kind: 'feed', feedType: 'starter' }, attribute: 'kg@2026-03-01', amount: 1000 },
    ]);
    expect(farmEffectsOf({ type: 'medicine_delivery', date: '2026-03-01', product: ' ND ', quantity: 5, unit: 'doses' }, -1)).toEqual([
      { target: { kind: 'medicine', product: 'ND', unit: 'doses' }, attribute: 'quantity', amount: -5 },
      { target: { kind: 'medicine', product: 'ND', unit: 'doses' }, attribute: 'quantity@2026-03-01', amount: -5 },
    ]);
  });

  it('refuses another farm (as a missing one), a house not of the farm, a future date; takes any past date, audited as back-dated', () => {
    expect(() => decideFarmMovementCreate('B', { ...delivery, farmId: 'B' }, facts({ farm: { id: 'B', timezone: 'UTC' } }))).toThrow(NotFound);
    expect(() => decideFarmMovementCreate('A', delivery, facts({ farm: undefined }))).toThrow('Farm A not found');
    expect(() => decideFarmMovementCreate('A', { ...delivery, houseId: 'H9' }, facts({ house: { id: 'H9', farmId: 'B' } }))).toThrow('House H9 not found');
    expect(() => decideFarmMovementCreate('A', { ...delivery, houseId: 'H9' }, facts())).toThrow('House H9 not found');
    expect(() => decideFarmMovementCreate('A', { ...delivery, date: '2026-03-12' }, facts())).toThrow(ValidationFailed);
    const d = decideFarmMovementCreate('A', { ...delivery, farmId: 'A', houseId: 'H1' }, facts({ house: { id: 'H1', farmId: 'A' } }));
    expect(d.movement).toMatchObject({ farmId: 'A', cycleId: null, flockId: null, type: 'feed_delivery', date: '2026-03-01', version: 1 });
    expect(d.movement.fields).toEqual({ feedType: 'starter', quantityKg: 1000, unitPrice: 0.5, houseId: 'H1' });
    expect(d.group).toEqual({ farmId: 'A', changes: [{ target: { kind: 'feed', feedType: 'starter' }, amounts: { kg: 1000, 'kg@2026-03-01': 1000 } }] });
    expect(d.audit[0]!.changes).toMatchObject({ backdated: { date: '2026-03-01', enteredOn: '2026-03-10' } });
    expect(decideFarmMovementCreate('A', { ...delivery, date: '2026-03-10' }, facts()).audit[0]!.changes).not.toHaveProperty('backdated');
  });

  it('a supplier or order of another farm is the 404 of a missing one', () => {
    const refs = { supplier: { farmIds: ['B'] } };
    expect(() => decideFarmMovementCreate('A', { ...delivery, supplierId: 'S1' }, facts({ references: refs }))).toThrow('Supplier S1 not found');
  });
});

describe('finding a farm movement', () => {
  it('another farm’s movement and a missing one answer alike', () => {
    expect(() => judgeLocatedFarm(caller, 'M1', 'B')).toThrow('Movement M1 not found');
    expect(() => judgeLocatedFarm(caller, 'M1', undefined)).toThrow('Movement M1 not found');
    expect(judgeLocatedFarm(caller, 'M1', 'A')).toBe('A');
    expect(() => visibleFarmMovement(caller, 'A', 'M1', { farm, movement: undefined })).toThrow('Movement M1 not found');
  });
});

describe('correcting a delivery booked on the farm', () => {
  it('refuses read-only metadata, a receipt’s movement and a locked one; a new house bin is read and judged', () => {
    expect(() => judgeFarmMovementEdit(booked(), { farmId: 'B' } as never, now, HOURS)).toThrow(ValidationFailed);
    expect(() => judgeFarmMovementEdit(booked({ fields: { ...booked().fields, receiptId: 'R1' } }), { quantityKg: 5 }, now, HOURS)).toThrow(Conflict);
    expect(() => judgeFarmMovementEdit(booked({ createdAt: '2026-03-01T00:00:00.000Z' }), { quantityKg: 5 }, now, HOURS)).toThrow(/locked/);
    expect(() => judgeFarmMovementEdit(booked(), { date: '2026-03-20' }, now, HOURS)).toThrow(ValidationFailed);
    const edit = judgeFarmMovementEdit(booked(), { houseId: 'H2', quantityKg: 800 }, now, HOURS);
    expect(edit.reads).toEqual({ houseId: 'H2', references: undefined });
    expect(() => decideFarmMovementUpdate(booked(), edit, { house: undefined }, now)).toThrow('House H2 not found');
    const d = decideFarmMovementUpdate(booked(), edit, { house: { id: 'H2', farmId: 'A' } }, now);
    expect(d.updated).toMatchObject({ version: 2, fields: { feedType: 'starter', quantityKg: 800, houseId: 'H2' } });
    expect(d.group.changes).toEqual([
      { target: { kind: 'feed', feedType: 'starter' }, amounts: { kg: -200, 'kg@2026-03-01': -200 }, requires: { attribute: 'kg', atLeast: 200 } },
    ]);
    expect(d.audit[0]!.changes).toMatchObject({ quantityKg: { from: 1000, to: 800 }, houseId: { from: null, to: 'H2' } });
  });

  it('a deletion takes back what it added (the stock must still hold it)', () => {
    const d = decideFarmMovementDeletion(booked(), now, HOURS);
    expect(d.group.changes).toEqual([
      { target: { kind: 'feed', feedType: 'starter' }, amounts: { kg: -1000, 'kg@2026-03-01': -1000 }, requires: { attribute: 'kg', atLeast: 1000 } },
    ]);
    expect(d.changes).toEqual([{ type: 'movement', id: 'M1', op: 'delete', farmIds: ['A'] }]);
  });
});

describe('a cycle’s delivery before its start points to the farm', () => {
  it('names the farm route in the date problem', () => {
    const cycle = { flockId: 'F1', startDate: '2026-03-05', endDate: null };
    expect(movementProblems(delivery, cycle, '2026-03-10')).toEqual([{ field: 'date', message: expect.stringContaining('POST /api/v1/inventory/movements') }]);
    expect(movementProblems({ type: 'bird_cull', date: '2026-03-01', quantity: 1 }, cycle, '2026-03-10')[0]!.message).toBe(
      "must not be before the cycle's start date 2026-03-05",
    );
  });
});

describe('feed cost from the farm’s deliveries', () => {
  const pricing = structuredClone(ANALYTICS_DEFAULTS).pricing;
  const day = { ...emptyDay('2026-03-08'), feedConsumedKg: 100, feedConsumedKgByType: { starter: 100 } };
  it('weighted average of the farm’s priced deliveries of the type up to the day; the cycle’s own first; else the configuration', () => {
    const facts = [
      { date: '2026-03-01', supplierId: null, feedType: 'starter', quantityKg: 1000, unitPrice: 0.5 },
      { date: '2026-03-02', supplierId: null, feedType: 'starter', quantityKg: 1000, unitPrice: 0.7 },
      { date: '2026-03-09', supplierId: null, feedType: 'starter', quantityKg: 1000, unitPrice: 9 },
      { date: '2026-03-02', supplierId: null, feedType: 'grower', quantityKg: 1000, unitPrice: null },
    ];
    const prices = farmFeedPrices(facts, '2026-03-08');
    expect(prices.get('starter')).toEqual({ kg: 2000, cost: 1200 });
    expect(prices.has('grower')).toBe(false);
    expect(feedCost([day], pricing, prices).byType).toEqual([
      { feedType: 'starter', consumedKg: 100, unitPrice: 0.6, priceSource: 'farmDeliveries', deliveredPricedKg: 2000, amount: 60 },
    ]);
    const own = { ...day, feedDeliveredPricedKgByType: { starter: 10 }, feedDeliveredCostByType: { starter: 4 } };
    expect(feedCost([own], pricing, prices).byType[0]).toMatchObject({ priceSource: 'deliveries', unitPrice: 0.4 });
    expect(feedCost([day], pricing).byType[0]!.priceSource).not.toBe('farmDeliveries');
  });
});

describe('export format v3', () => {
  it('types the farm movements and their copies, and the egg lots; reads v1, v2 and v3 headers', () => {
    expect(EXPORT_FORMAT_VERSION).toBe(3);
    expect(READABLE_FORMAT_VERSIONS).toEqual([1, 2, 3]);
    expect(recordTypeOf({ PK: 'CYCLE#C', SK: 'EGGLOT#2026-11-10' })).toBe('egg_lot');
    expect(recordTypeOf({ PK: 'FARM#A', SK: 'MOV#01J' })).toBe('farm_movement');
    expect(recordTypeOf({ PK: 'FARM#A', SK: 'DELIVERY#01J' })).toBe('farm_delivery');
    const header = (formatVersion: number) => ({ type: 'header', v: 1, data: { format: 'flockwise-farm-export', formatVersion, farmId: 'A', asOf: 'x' } });
    expect(lineProblem(header(1), 1, true)).toBeUndefined();
    expect(lineProblem(header(2), 1, true)).toBeUndefined();
    expect(lineProblem(header(3), 1, true)).toBeUndefined();
    expect(lineProblem(header(4), 1, true)).toMatch(/version 1 or 2 or 3/);
  });
});
