import { ulid } from 'ulidx';
import { settings } from '../config/env.js';
import { canAccessFarm } from '../domain/farm-access.js';
import {
  REVIEW_CAPABILITY,
  effectiveLock,
  effectsOf,
  feedTypeFromStock,
  movementProblems,
  needsFeedType,
  netChanges,
  unlockRefusal,
  type Target,
} from '../domain/ledger.js';
import { latestAllowedDate } from '../domain/weights.js';
import { auditPut } from '../db/audit.js';
import type { CycleRecord } from '../db/cycles.js';
import { getCycle } from '../db/cycles.js';
import {
  applyLedger,
  balanceOf,
  type LedgerGroup,
  feedTypesInStock,
  getCycleAndMovement,
  listMovements,
  LedgerRefused,
  setLock,
  type CycleRef,
  type MovementRecord,
} from '../db/movements.js';
import { Conflict, Forbidden, NotFound, ValidationFailed } from '../errors.js';
import type { Caller } from '../domain/caller.js';
import { scopedCycle } from './cycles.js';
import { checkDeliveryReferences, flockOfFarm } from './references.js';
import { farmPeriodDays } from './periods.js';
import { DuplicateRequest, idempotent } from './idempotency.js';
import {
  FARM_TRANSFER_TYPES,
  MOVEMENT_METADATA,
  READ_ONLY_MOVEMENT_FIELDS,
  SERVICE_FIELDS,
  type ListMovementsQuery,
  type MovementInput,
  type UpdateMovementBody,
} from '../../schemas/movements.js';
import { createMovementBody } from '../../schemas/compiled/movements.js';
import { problemsOf } from '../../schemas/problems.js';
import { expectedVersion, type Precondition } from '../domain/concurrency.js';
import { alarmsOnFlockData } from './new-data.js';
import { densityWarnings } from './density-warnings.js';
import { checkSale, overrideAudit } from './withdrawals.js';

/** A sale's fields without its override (one outside any withdrawal window is not kept). */
function withoutOverride(input: MovementInput): MovementInput {
  const { override: _o, ...rest } = input as MovementInput & { override?: unknown };
  return rest as MovementInput;
}

/** The movement ledger of a cycle: records, balances that never go negative, locks. */

/** The movement with the lock that applies now: its own, else automatic (cycle closed, or older than the auto-lock period). */
export function withCurrentLock(m: MovementRecord, cycle: Pick<CycleRecord, 'status' | 'closedAt'>, now = new Date()): MovementRecord {
  return { ...m, lock: effectiveLock(m, cycle, now, settings().autoLockHours) };
}

const METADATA = new Set<string>(MOVEMENT_METADATA);

/**
 * A movement as answered (its lock already the current one): the metadata and, at the same level, its
 * fields (the type's and the service's), the names a write uses, so what is read can be sent back. A
 * stored field never hides the metadata (the catalogue uses none of its names: tests/unit/movement-shape.test.ts).
 */
export function movementAnswer(m: MovementRecord) {
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

export function toMovementDto(m: MovementRecord, cycle: Pick<CycleRecord, 'status' | 'closedAt'>, now = new Date()) {
  return movementAnswer(withCurrentLock(m, cycle, now));
}

export const refOf = (c: CycleRecord): CycleRef => ({ flockId: c.flockId, cycleId: c.id, farmId: c.farmId });

export function record(input: MovementInput, ref: CycleRef, userId: string, now: string, extraFields: Record<string, unknown> = {}): MovementRecord {
  const { type, date, ...fields } = input;
  return { id: ulid(), ...ref, type, date, fields: { ...fields, ...extraFields }, lock: null, createdAt: now, createdBy: userId, updatedAt: now, version: 1 };
}

/** Feed consumption without a feed type takes the farm's only feed in stock. */
export async function resolveFeedType(input: MovementInput, farmId: string): Promise<string | undefined> {
  if (!needsFeedType(input)) return undefined;
  const stock = await feedTypesInStock(farmId);
  return feedTypeFromStock(
    farmId,
    stock.map((s) => s.feedType),
  );
}

const isBirdTransfer = (type: string): type is 'bird_transfer_in' | 'bird_transfer_out' => type === 'bird_transfer_in' || type === 'bird_transfer_out';

/**
 * The active cycle of the other flock of a transfer between two flocks: a flock of the same farm (birds
 * change farm only by a transfer: /api/v1/sharing), else the 404 of a missing flock.
 */
async function counterpartCycle(cycle: CycleRecord, input: MovementInput): Promise<CycleRecord | undefined> {
  if (!isBirdTransfer(input.type) || !('counterpartFlockId' in input)) return undefined;
  const flock = await flockOfFarm(cycle.farmId, input.counterpartFlockId);
  const active = flock.activeCycleId ? await getCycle(flock.id, flock.activeCycleId) : undefined;
  if (active?.status !== 'active') throw new Conflict(`Flock ${flock.id} has no active cycle; birds move only between active cycles`);
  return active;
}

const UNITS: Record<Target['kind'], (n: number) => string> = {
  cycle: (n) => `${n} bird(s) alive`,
  feed: (n) => `${n} kg`,
  eggs: (n) => `${n} egg(s)`,
  medicine: (n) => String(n),
  day: (n) => String(n),
};

/** Turns a refused ledger write into a message that names the balance. */
async function explain(err: LedgerRefused): Promise<Conflict> {
  const { value, cycle, withdrawalRev } = await balanceOf(err.ref, err.target);
  if (err.target.kind === 'cycle' && cycle && cycle.status !== 'active')
    return new Conflict(`Cycle ${err.ref.cycleId} is closed; it takes no new or changed movements`);
  if (err.target.kind === 'cycle' && err.withdrawalRev !== undefined && withdrawalRev !== err.withdrawalRev && (err.needs === undefined || value >= err.needs))
    return new Conflict(
      `A medication with a withdrawal period was recorded or changed in cycle ${err.ref.cycleId} while this sale was checked; nothing was written: retry to check the sale against it`,
    );
  if (err.needs === undefined) return new Conflict('The ledger changed concurrently; retry');
  const where =
    err.target.kind === 'cycle'
      ? `in cycle ${err.ref.cycleId}`
      : err.target.kind === 'feed'
        ? `of feed "${err.target.feedType}" in stock on farm ${err.ref.farmId}`
        : err.target.kind === 'medicine'
          ? `${err.target.unit} of "${err.target.product}" in stock on farm ${err.ref.farmId}`
          : `in stock on farm ${err.ref.farmId}`;
  return new Conflict(`Only ${UNITS[err.target.kind](value)} ${where}; this movement needs ${UNITS[err.target.kind](err.needs)}. Balances never go negative`);
}

function assertConsistent(input: MovementInput, cycle: CycleRecord): void {
  const problems = movementProblems(input, cycle, latestAllowedDate(new Date()));
  if (problems.length) throw new ValidationFailed(problems);
}

export async function createMovementFor(
  user: Caller,
  flockId: string,
  cycleId: string,
  body: MovementInput,
  idempotencyKey: string | undefined,
  requestId: string | null = null,
) {
  const cycle = await scopedCycle(user, flockId, cycleId);
  return idempotent(user.id, idempotencyKey, `movement:${cycleId}`, body, async (remember) => {
    if (cycle.status !== 'active') throw new Conflict(`Cycle ${cycleId} is closed; it takes no new movements`);
    assertConsistent(body, cycle);
    const now = new Date().toISOString();
    const ref = refOf(cycle);
    // a sale inside a withdrawal period: 409, or its audited override (an override outside any window is dropped)
    const sale = await checkSale(user, ref, body, 'override' in body && body.override !== undefined);
    const input = sale?.covering.length === 0 && 'override' in body ? withoutOverride(body) : body;
    await checkDeliveryReferences(cycle.farmId, input as { supplierId?: unknown; orderId?: unknown });
    const feedType = await resolveFeedType(input, cycle.farmId);
    const other = await counterpartCycle(cycle, input);
    const transferId = other ? ulid() : undefined;
    const own = record(input, ref, user.id, now, { ...(feedType ? { feedType } : {}), ...(transferId ? { transferId } : {}) });
    const groups: LedgerGroup[] = [{ ref, changes: netChanges(effectsOf(input, 1, feedType)), withdrawalRev: sale?.withdrawalRev }];
    const puts = [own];
    if (other && isBirdTransfer(input.type) && 'counterpartFlockId' in input) {
      // Both sides, each pointing at the other, so a later delete removes the pair together.
      const mirror: MovementInput = {
        type: input.type === 'bird_transfer_in' ? 'bird_transfer_out' : 'bird_transfer_in',
        date: input.date,
        quantity: input.quantity,
        counterpartFlockId: flockId,
      };
      const mirrorRecord = record(mirror, refOf(other), user.id, now, { transferId, counterpartCycleId: cycle.id, counterpartMovementId: own.id });
      own.fields = { ...own.fields, counterpartCycleId: other.id, counterpartMovementId: mirrorRecord.id };
      puts.push(mirrorRecord);
      groups.push({ ref: refOf(other), changes: netChanges(effectsOf(mirror)) });
    }
    // birds entering a house: a warning (never a refusal) when they would put it above the stocking density limit
    const receiving = input.type === 'bird_inflow' || input.type === 'bird_transfer_in' ? cycle : input.type === 'bird_transfer_out' ? other : undefined;
    const warnings = receiving && 'quantity' in input ? await densityWarnings(receiving, input.quantity, input.date) : [];
    const response = { created: true, message: 'Movement recorded', data: toMovementDto(own, cycle), ...(warnings.length ? { warnings } : {}) };
    const audit = sale ? overrideAudit(user, { ...input, id: own.id, flockId, cycleId }, sale, requestId) : [];
    await refusedToConflict(applyLedger({ groups, puts, extra: [...remember(response), ...audit], onExtraFailed: () => new DuplicateRequest() }));
    await alarmsOnFlockData({ farmId: cycle.farmId, flockId }, input.date);
    return response;
  });
}

export async function scopedMovement(user: Caller, flockId: string, cycleId: string, movementId: string) {
  const { cycle, movement } = await getCycleAndMovement(flockId, cycleId, movementId);
  if (!cycle || !canAccessFarm(user, cycle.farmId)) throw new NotFound(`Cycle ${cycleId} of flock ${flockId} not found`);
  if (!movement) throw new NotFound(`Movement ${movementId} not found in cycle ${cycleId}`);
  return { cycle, movement };
}

export async function listMovementsFor(user: Caller, flockId: string, cycleId: string, query: ListMovementsQuery) {
  const cycle = await scopedCycle(user, flockId, cycleId);
  const { from, to } = await farmPeriodDays(cycle.farmId, query);
  const limit = query.limit ?? 25;
  const page = await listMovements(cycleId, { limit, cursor: query.cursor, type: query.type, from, to });
  return { items: page.items.map((m) => toMovementDto(m, cycle)), nextCursor: page.nextCursor, limit };
}

export async function lockMovement(user: Caller, flockId: string, cycleId: string, movementId: string, reason: string, requestId: string) {
  const { cycle, movement } = await scopedMovement(user, flockId, cycleId, movementId);
  const current = effectiveLock(movement, cycle, new Date(), settings().autoLockHours);
  if (current) throw new Conflict(`Movement ${movementId} is already locked (${current.type}: ${current.reason})`);
  const lock = { type: 'manual' as const, reason, at: new Date().toISOString(), by: user.id, byRole: user.role };
  await setLock(movement, lock, [
    auditPut({
      actorId: user.id,
      action: 'movement.lock',
      targetType: 'movement',
      targetId: movementId,
      changes: { lock: { from: null, to: lock } },
      requestId,
    }),
  ]);
  return toMovementDto({ ...movement, lock, version: movement.version + 1, updatedAt: lock.at }, cycle);
}

export async function unlockMovement(user: Caller, flockId: string, cycleId: string, movementId: string, reason: string, requestId: string) {
  const { cycle, movement } = await scopedMovement(user, flockId, cycleId, movementId);
  const current = effectiveLock(movement, cycle, new Date(), settings().autoLockHours);
  if (!current) throw new Conflict(`Movement ${movementId} is not locked`);
  const refusal = unlockRefusal(user, current);
  if (refusal === 'automatic') throw new Conflict(`Movement ${movementId} is locked automatically (${current.reason}); automatic locks cannot be unlocked`);
  if (refusal === 'higher-level')
    throw new Forbidden(
      current.byRole
        ? `Movement ${movementId} was locked by the role ${current.byRole}: unlocking it needs ${REVIEW_CAPABILITY} or the role ${current.byRole} or above`
        : `Movement ${movementId} is locked for review: unlocking it needs ${REVIEW_CAPABILITY}`,
    );
  await setLock(movement, null, [
    auditPut({
      actorId: user.id,
      action: 'movement.unlock',
      targetType: 'movement',
      targetId: movementId,
      changes: { lock: { from: current, to: null }, reason },
      requestId,
    }),
  ]);
  return toMovementDto({ ...movement, lock: null, version: movement.version + 1, updatedAt: new Date().toISOString() }, cycle);
}

const isTransfer = (m: MovementRecord) => isBirdTransfer(m.type);
export const inputOf = (m: MovementRecord) => ({ type: m.type, date: m.date, ...m.fields }) as MovementInput;
export const autoLockCutoff = () => new Date(Date.now() - settings().autoLockHours * 3600_000).toISOString();

export function assertUnlocked(movement: MovementRecord, cycle: CycleRecord): void {
  const lock = effectiveLock(movement, cycle, new Date(), settings().autoLockHours);
  if (lock)
    throw new Conflict(
      `Movement ${movement.id} is locked (${lock.type}: ${lock.reason}); ${lock.type === 'manual' ? 'unlock it first' : 'it can no longer change'}`,
    );
}

export async function refusedToConflict<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    throw err instanceof LedgerRefused ? await explain(err) : err;
  }
}

export async function updateMovementFor(
  user: Caller,
  flockId: string,
  cycleId: string,
  movementId: string,
  body: UpdateMovementBody,
  precondition: Precondition | undefined,
  requestId: string,
) {
  const { cycle, movement } = await scopedMovement(user, flockId, cycleId, movementId);
  const version = expectedVersion(movement.version, { precondition, stated: body.version }, `Movement ${movementId}`);
  const { version: _v, ...edits } = body;
  assertWritableEdits(movement, edits);
  assertUnlocked(movement, cycle);
  assertNotFromDailyRecord(movement);
  assertNotFromFarmTransfer(movement);
  if (isTransfer(movement)) throw new Conflict('A transfer changes two flocks: delete it (both sides go) and record it again');
  const merged: Record<string, unknown> = { ...inputOf(movement), ...edits };
  for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
  const details = problemsOf(createMovementBody, merged);
  if (details.length) throw new ValidationFailed(details);
  const next = merged as MovementInput;
  assertConsistent(next, cycle);
  if ('supplierId' in edits || 'orderId' in edits) await checkDeliveryReferences(cycle.farmId, merged);
  const sale = await checkSale(user, refOf(cycle), next, 'override' in edits && edits.override !== null);
  const { type: _t, date, ...fields } = next;
  const updated: MovementRecord = { ...movement, date, fields, updatedAt: new Date().toISOString(), version: version + 1 };
  const changes = netChanges([...effectsOf(inputOf(movement), -1), ...effectsOf(next, 1, movement.fields.feedType as string | undefined)]);
  await refusedToConflict(
    applyLedger({
      groups: [{ ref: refOf(cycle), changes, withdrawalRev: sale?.withdrawalRev }],
      replaces: [{ movement: updated, previous: movement, expectedVersion: version, createdAfter: autoLockCutoff() }],
      extra: [
        auditPut({
          actorId: user.id,
          action: 'movement.update',
          targetType: 'movement',
          targetId: movementId,
          changes: diffFields(movement, updated),
          requestId,
        }),
        ...(sale ? overrideAudit(user, { ...next, id: movementId, flockId, cycleId }, sale, requestId) : []),
      ],
    }),
  );
  return toMovementDto(updated, cycle);
}

/**
 * `type` and the fields the service sets may come back with an edit (a client sends back what it read), but
 * only as they are: a different value is refused, naming the field (absent and null are the same). The
 * read-only metadata may not come back at all (mass-assignment guard).
 */
function assertWritableEdits(movement: MovementRecord, edits: Record<string, unknown>): void {
  // the read-only metadata is refused whatever its value (also null, which would otherwise mean "remove")
  const readOnly = READ_ONLY_MOVEMENT_FIELDS.filter((k) => k in edits);
  if (readOnly.length) throw new ValidationFailed(readOnly.map((field) => ({ field, message: 'is not allowed' })));
  const stored: Record<string, unknown> = { ...movement.fields, type: movement.type };
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const changed = ['type', ...SERVICE_FIELDS].filter((k) => k in edits && !same(edits[k], stored[k]));
  if (changed.length) throw new ValidationFailed(changed.map((field) => ({ field, message: 'cannot be changed' })));
}

/** Movements written by a daily record change only through that record (else the form and the ledger would disagree). */
function assertNotFromDailyRecord(m: MovementRecord): void {
  const date = m.fields.dailyRecordDate;
  if (date) throw new Conflict(`Movement ${m.id} belongs to the daily record of ${String(date)}; submit that daily record again to change it`);
  // a purchase-order receipt's movement: the order's received quantities and the supplier's receipts would no longer agree with the ledger
  if (m.fields.receiptId)
    throw new Conflict(
      `Movement ${m.id} was written by receipt ${String(m.fields.receiptId)} of purchase order ${String(m.fields.orderId)}; it cannot change on its own`,
    );
}

const farmTransferConflict = (m: MovementRecord) =>
  new Conflict(
    `Movement ${m.id} was written by transfer ${String(m.fields.transferId)} between farms; it changes only with that transfer (send a transfer back to reverse it)`,
  );

/** Movements of a transfer between farms change only with it: both farms' ledgers and the transfer agree. */
function assertNotFromFarmTransfer(m: MovementRecord): void {
  if ((FARM_TRANSFER_TYPES as readonly string[]).includes(m.type)) throw farmTransferConflict(m);
}

function diffFields(before: MovementRecord, after: MovementRecord) {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  if (before.date !== after.date) out.date = { from: before.date, to: after.date };
  for (const k of new Set([...Object.keys(before.fields), ...Object.keys(after.fields)])) {
    if (JSON.stringify(before.fields[k]) !== JSON.stringify(after.fields[k])) out[k] = { from: before.fields[k] ?? null, to: after.fields[k] ?? null };
  }
  return out;
}

/** Deletes an unlocked movement and reverses its effects; a transfer goes with its other side. */
export async function deleteMovementFor(
  user: Caller,
  flockId: string,
  cycleId: string,
  movementId: string,
  precondition: Precondition | undefined,
  requestId: string,
): Promise<void> {
  const { cycle, movement } = await scopedMovement(user, flockId, cycleId, movementId);
  expectedVersion(movement.version, { precondition }, `Movement ${movementId}`);
  assertUnlocked(movement, cycle);
  assertNotFromDailyRecord(movement);
  assertNotFromFarmTransfer(movement);
  const groups: LedgerGroup[] = [{ ref: refOf(cycle), changes: netChanges(effectsOf(inputOf(movement), -1)) }];
  const deletes = [{ movement, createdAfter: autoLockCutoff() }];
  if (isTransfer(movement)) {
    const f = movement.fields as { counterpartFlockId: string; counterpartCycleId: string; counterpartMovementId: string };
    const other = await getCycleAndMovement(f.counterpartFlockId, f.counterpartCycleId, f.counterpartMovementId);
    if (other.cycle && other.movement) {
      // the other side on another farm: birds that changed farm by a transfer (/api/v1/sharing) stay with it
      if (other.cycle.farmId !== cycle.farmId) throw farmTransferConflict(movement);
      assertUnlocked(other.movement, other.cycle);
      groups.push({ ref: refOf(other.cycle), changes: netChanges(effectsOf(inputOf(other.movement), -1)) });
      deletes.push({ movement: other.movement, createdAfter: autoLockCutoff() });
    }
  }
  await refusedToConflict(
    applyLedger({
      groups,
      deletes,
      extra: [
        auditPut({
          actorId: user.id,
          action: 'movement.delete',
          targetType: 'movement',
          targetId: movementId,
          changes: { type: movement.type, date: movement.date, fields: movement.fields },
          requestId,
        }),
      ],
    }),
  );
}
