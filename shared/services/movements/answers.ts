import { settings } from '../../config/env.js';
import type { CycleRecord } from '../../domain/flocks/records.js';
import { balanceOf, LedgerRefused } from '../../db/movements.js';
import type { MovementRecord, StoredMovement } from '../../domain/movements/record.js';
import { effectiveLock, type Target } from '../../domain/ledger.js';
import { Conflict } from '../../errors.js';
import { judgeUnlocked } from '../../domain/movements/change.js';
import { movementAnswer, movementDto } from '../../domain/movements/record.js';

/** What every movement use case answers with, and how a refused ledger write is told. */

/** The movement with the lock that applies now: its own, else automatic (cycle closed, or older than the auto-lock period). */
export function withCurrentLock<M extends StoredMovement>(m: M, cycle: Pick<CycleRecord, 'status' | 'closedAt'>, now = new Date()): M {
  return { ...m, lock: effectiveLock(m, cycle, now, settings().autoLockHours) };
}

export { movementAnswer };

export function toMovementDto(m: MovementRecord, cycle: Pick<CycleRecord, 'status' | 'closedAt'>, now = new Date()) {
  return movementDto(m, cycle, now, settings().autoLockHours);
}

/** Movements created before this instant are locked automatically: edits and deletes condition on being younger. */
export const autoLockCutoff = (now = new Date()) => new Date(now.getTime() - settings().autoLockHours * 3600_000).toISOString();

export function assertUnlocked(movement: MovementRecord, cycle: Pick<CycleRecord, 'status' | 'closedAt'>, now = new Date()): void {
  judgeUnlocked(movement, cycle, now, settings().autoLockHours);
}

const UNITS: Record<Target['kind'], (n: number) => string> = {
  cycle: (n) => `${n} bird(s) alive`,
  feed: (n) => `${n} kg`,
  eggs: (n) => `${n} egg(s)`,
  eggLot: (n) => `${n} egg(s)`,
  medicine: (n) => String(n),
  day: (n) => String(n),
};

/**
 * Turns a refused ledger write into a message that names the balance. This reads again after the commit
 * failed, on purpose: the balance as it is now is what the client needs to hear, and only a refusal pays for it.
 */
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
          : err.target.kind === 'eggLot'
            ? `laid on ${err.target.laidOn} in cycle ${err.ref.cycleId}'s stock (another write took them first, or a correction would take back eggs already gone)`
            : `in stock on farm ${err.ref.farmId}`;
  return new Conflict(`Only ${UNITS[err.target.kind](value)} ${where}; this movement needs ${UNITS[err.target.kind](err.needs)}. Balances never go negative`);
}

/** A write whose refused ledger change becomes the Conflict naming the balance. */
export async function refusedToConflict<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    throw err instanceof LedgerRefused ? await explain(err) : err;
  }
}
