import { ulid } from 'ulidx';
import type { MovementInput, MovementType } from '../../../schemas/movements.js';
import { effectiveLock, type NetChange, type StoredLock } from '../ledger.js';
import { MOVEMENT_METADATA } from '../../../schemas/compiled/constants/movements.js';

/** One movement of the ledger, as stored. `fields` are the type-specific fields of its schema. */
export interface MovementRecord {
  id: string;
  cycleId: string;
  flockId: string;
  farmId: string;
  type: MovementType;
  date: string;
  fields: Record<string, unknown>;
  lock: StoredLock | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  version: number;
}

/** A delivery booked on the farm's stock, without a cycle (its house bin, when named, is the field `houseId`). */
export interface FarmMovementRecord extends Omit<MovementRecord, 'cycleId' | 'flockId'> {
  cycleId: null;
  flockId: null;
}
/** A movement as stored: of a cycle, or of the farm (a delivery without a cycle). */
export type StoredMovement = MovementRecord | FarmMovementRecord;
export const isFarmMovement = (m: StoredMovement): m is FarmMovementRecord => m.cycleId === null;

/** The cycle a group of changes belongs to (transfers change two cycles in one transaction). */
export interface CycleRef {
  flockId: string;
  cycleId: string;
  farmId: string;
}

/** The net changes of one cycle's ledger records (the cycle, its farm's stocks, its day rollups). */
export interface LedgerGroup {
  ref: CycleRef;
  changes: NetChange[];
  /**
   * A sale checked against the cycle's withdrawal windows: the cycle's `withdrawalRev` as read before the
   * windows were (0 when absent). The write commits only if no medication changed a window since.
   */
  withdrawalRev?: number | undefined;
}

export const refOf = (c: { flockId: string; id: string; farmId: string }): CycleRef => ({ flockId: c.flockId, cycleId: c.id, farmId: c.farmId });

/** A new movement of `input` in the cycle, created by `userId` at `now`, with fields the service adds. */
export function newMovement(input: MovementInput, ref: CycleRef, userId: string, now: string, extraFields: Record<string, unknown> = {}): MovementRecord {
  const { type, date, ...fields } = input;
  return { id: ulid(), ...ref, type, date, fields: { ...fields, ...extraFields }, lock: null, createdAt: now, createdBy: userId, updatedAt: now, version: 1 };
}

/** A stored movement as the input that made it (type, date and fields). */
export const inputOf = (m: StoredMovement) => ({ type: m.type, date: m.date, ...m.fields }) as MovementInput;

const METADATA = new Set<string>(MOVEMENT_METADATA);

/**
 * A movement as answered: the metadata and, at the same level, its fields (the type's and the
 * service's), the names a write uses, so what is read can be sent back. A stored field never hides the
 * metadata (the catalogue uses none of its names: tests/unit/movement-shape.test.ts).
 */
export function movementAnswer(m: StoredMovement) {
  const fields = Object.fromEntries(Object.entries(m.fields).filter(([k]) => !METADATA.has(k)));
  return {
    id: m.id,
    flockId: m.flockId,
    cycleId: m.cycleId,
    farmId: m.farmId,
    type: m.type,
    date: m.date,
    ...fields,
    lock: m.lock,
    createdAt: m.createdAt,
    createdBy: m.createdBy,
    updatedAt: m.updatedAt,
    version: m.version,
  };
}

/** The movement as answered, with the lock that applies at `now`: its own, else automatic (cycle closed, or older than `autoLockHours`). */
export function movementDto(m: StoredMovement, cycle: { status: string; closedAt: string | null }, now: Date, autoLockHours: number) {
  return movementAnswer({ ...m, lock: effectiveLock(m, cycle, now, autoLockHours) });
}
