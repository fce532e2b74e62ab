import { upsertOf } from '../../domain/decision.js';
import { settings } from '../../config/env.js';
import { commit } from '../../db/commit.js';
import { readMovementBasis } from '../../db/movement-basis.js';
import { ledgerWrites } from '../../db/movements.js';
import type { CommandContext } from '../../domain/command.js';
import { decideMovementCreate, movementReads } from '../../domain/movements/create.js';
import type { MovementInput } from '../../../schemas/movements.js';
import { idempotentAfterReading } from '../idempotency.js';
import { alarmsOnFlockData } from '../new-data.js';
import { refusedToConflict } from './answers.js';
import { stockShortfallWarnings } from './stock-shortfalls.js';

/**
 * Records a movement: read (two round trips, the first beside the idempotent-replay lookup), decide
 * (shared/domain/movements/create.ts, which also scopes the cycle to the caller), commit once (the
 * ledger, the audit and the kept response). Drawn in docs/architecture.md ("The write path").
 */
export async function recordMovement(ctx: CommandContext, flockId: string, cycleId: string, body: MovementInput) {
  const reads = movementReads(body);
  return idempotentAfterReading(
    ctx,
    `movement:${cycleId}`,
    body,
    () => readMovementBasis(flockId, cycleId, reads),
    async (ctx, { heads, around, receiving }) => {
      const decision = decideMovementCreate(flockId, cycleId, body, {
        caller: ctx.caller,
        now: ctx.now,
        autoLockHours: settings().autoLockHours,
        cycle: heads.cycle,
        sale: around.windows ? { withdrawalRev: heads.withdrawalRev, windows: around.windows } : undefined,
        feedInStock: around.feedInStock,
        eggLots: heads.eggLots,
        references: { supplier: around.supplier, order: around.order },
        counterpart: reads.counterpartFlockId ? { flock: heads.counterpartFlock, cycle: around.counterpartCycle } : undefined,
        placement: receiving
          ? { flock: receiving, forecast: reads.withFlock ? heads.forecast : heads.counterpartForecast, house: around.house, farm: around.farm }
          : undefined,
      });
      const warnings = [...decision.warnings, ...(await stockShortfallWarnings(decision.groups, ctx.now))];
      const response = { created: true, message: 'Movement recorded', data: decision.answer, ...(warnings.length ? { warnings } : {}) };
      const puts = [decision.own, ...(decision.mirror ? [decision.mirror] : [])];
      await refusedToConflict(
        commit(ctx, {
          writes: ledgerWrites({ groups: decision.groups, puts }, ctx.now.toISOString()),
          audit: decision.audit,
          changes: puts.map((m) => upsertOf('movement', m)),
          response,
        }),
      );
      // after the commit: the alarms judge the day in their own function (never part of this write)
      await alarmsOnFlockData({ farmId: decision.own.farmId, flockId }, decision.input.date);
      return response;
    },
  );
}
