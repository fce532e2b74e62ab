import { commit, MAX_TRANSACTION_ITEMS } from '../../db/commit.js';
import { cyclesOf, eggHistoryOf, lotBackfillWrite, movementLotsWrite } from '../../db/egg-lots.js';
import type { CommandContext } from '../../domain/command.js';
import { decideLotBackfill } from '../../domain/eggs/lot-history.js';
import type { CycleRef } from '../../domain/movements/record.js';

/**
 * Egg lots for eggs recorded before lots existed (`npm run migrate:egg-lots`, docs/deployment.md): each
 * cycle's lots brought to what its egg history says, and the older sales, losses and transfers given the
 * lots they drew, so the cycle sells its eggs and its lots hold exactly its egg stock. Idempotent (a cycle
 * already in step writes nothing) and safe beside live writes (each lot write is conditioned on the lot as
 * read); a run stopped half way is finished by running it again.
 */

export interface CycleBackfill extends CycleRef {
  /** Lots written (created or corrected). */
  lots: number;
  /** Movements given the lots they drew. */
  movements: number;
  /** The eggs the cycle's lots hold after the run. */
  onHand: number;
  /** Eggs its history takes out that none of its lots held (left out of the lots; see docs/domain.md, "Egg origin"). */
  shortfall: number;
}

/** One cycle (read, decide, commit): most cycles in one transaction; a long history in several, each of whole writes. */
export async function backfillEggLots(ctx: CommandContext, ref: CycleRef): Promise<CycleBackfill> {
  const { lots, movements } = await eggHistoryOf(ref.cycleId);
  const decision = decideLotBackfill(ref.cycleId, movements, lots);
  const now = ctx.now.toISOString();
  const writes = [...decision.recorded.map((r) => movementLotsWrite(r.movement, r.fields)), ...decision.differences.map((d) => lotBackfillWrite(ref, d, now))];
  const size = MAX_TRANSACTION_ITEMS - 1; // room for the audit entry
  for (let i = 0; i < writes.length; i += size) await commit(ctx, { writes: writes.slice(i, i + size), ...(i === 0 ? { audit: decision.audit } : {}) });
  return { ...ref, lots: decision.differences.length, movements: decision.recorded.length, onHand: decision.onHand, shortfall: decision.shortfall };
}

/** Every cycle of the farms named (all when none), one after the other; `report` hears each cycle that changed or failed. */
export async function backfillAllEggLots(
  ctx: CommandContext,
  farmIds: readonly string[] | undefined,
  report: (outcome: CycleBackfill | (CycleRef & { error: string })) => void,
): Promise<{ cycles: number; changed: number; failed: number }> {
  const totals = { cycles: 0, changed: 0, failed: 0 };
  for await (const ref of cyclesOf(farmIds)) {
    totals.cycles += 1;
    try {
      const done = await backfillEggLots(ctx, ref);
      if (done.lots || done.movements || done.shortfall) {
        totals.changed += done.lots || done.movements ? 1 : 0;
        report(done);
      }
    } catch (err) {
      totals.failed += 1;
      report({ ...ref, error: (err as Error).message });
    }
  }
  return totals;
}
