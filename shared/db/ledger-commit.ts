import { Conflict } from '../errors.js';
import { auditPut } from './audit.js';
import { changeLogWrites, checkVersion, transactItemOf, type CommitContext, type Plan } from './commit.js';
import { storedResponsePut } from './idempotency.js';
import { applyLedger, type LedgerWrite } from './movements.js';

/**
 * `commit` for a use case that also writes the ledger (a receipt's deliveries, a completed vaccination):
 * the ledger's own writer (`applyLedger`) builds the movements, cycle counters, stocks and rollups, and the
 * plan (its writes, audit entries and idempotent response) goes into the same TransactWriteItems as its
 * extra items. As in `commit`: versions are compared first, and a failed write of the plan is the error
 * it names; a refused balance is the ledger's `LedgerRefused`.
 */
export async function commitWithLedger(ctx: CommitContext, plan: Plan, ledger: Pick<LedgerWrite, 'groups' | 'puts'>): Promise<void> {
  for (const w of plan.writes) if (w.version) checkVersion(ctx, w.version);
  const writes = [...plan.writes, ...changeLogWrites(ctx, plan.changes ?? [])];
  const now = ctx.now.toISOString();
  const extra = [
    ...writes.map((w) => transactItemOf(w, now)),
    ...(plan.audit ?? []).map((a) => auditPut({ ...a, actorId: ctx.caller.id, requestId: ctx.requestId }, ctx.now)),
    ...(ctx.remember && plan.response ? [storedResponsePut(ctx.remember.userId, ctx.remember.key, ctx.remember.requestHash, plan.response)] : []),
  ];
  await applyLedger({
    ...ledger,
    extra,
    onExtraFailed: (i) => writes[i]?.failed?.() ?? new Conflict('The request conflicts with a concurrent change; retry'),
  });
}
