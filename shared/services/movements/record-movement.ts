import { commit } from '../../db/commit.js';
import { readMovementHeads, readMovementSurroundings } from '../../db/movement-basis.js';
import { ledgerWrites } from '../../db/movements.js';
import type { CommandContext } from '../../domain/command.js';
import { isSale } from '../../domain/compliance/withdrawals.js';
import { visibleTo } from '../../domain/farm-access.js';
import { needsFeedType } from '../../domain/ledger.js';
import { decideMovementCreate, isBirdTransfer, receivingSide, type CreateFacts } from '../../domain/movements/create.js';
import { cycleNotFound, deliveryReferenceIds } from '../../domain/references.js';
import type { MovementInput } from '../../../schemas/movements.js';
import { idempotentAfterReading } from '../idempotency.js';
import { alarmsOnFlockData } from '../new-data.js';
import { refusedToConflict, toMovementDto } from './answers.js';

/**
 * Records a movement: read (two round trips, beside the idempotent-replay lookup), decide
 * (shared/domain/movements/create.ts), commit once (the ledger, the audit and the kept response).
 */
export async function recordMovement(ctx: CommandContext, flockId: string, cycleId: string, body: MovementInput) {
  const counterpartFlockId = isBirdTransfer(body.type) && 'counterpartFlockId' in body ? body.counterpartFlockId : undefined;
  const side = receivingSide(body.type);
  return idempotentAfterReading(
    ctx,
    `movement:${cycleId}`,
    body,
    async () => {
      // read, round one: the records the path and body name
      const heads = await readMovementHeads({
        flockId,
        cycleId,
        withFlock: side === 'own',
        counterpartFlockId,
        withCounterpartForecast: side === 'counterpart',
      });
      return { ...heads, cycle: visibleTo(ctx.caller, heads.cycle, () => cycleNotFound(flockId, cycleId)) };
    },
    async (ctx, heads) => {
      const { cycle } = heads;
      const receivingFlock = side === 'own' ? heads.flock : side === 'counterpart' ? heads.counterpartFlock : undefined;
      const other = heads.counterpartFlock;
      // read, round two: what those records point at
      const around = await readMovementSurroundings({
        farmId: cycle.farmId,
        cycleId,
        houseId: receivingFlock?.farmId === cycle.farmId ? receivingFlock.houseId : undefined,
        counterpartCycle: other?.activeCycleId && other.farmId === cycle.farmId ? { flockId: other.id, cycleId: other.activeCycleId } : undefined,
        ...deliveryReferenceIds(body as { supplierId?: unknown; orderId?: unknown }),
        windowsFrom: isSale(body.type) ? body.date : undefined,
        feedInStock: needsFeedType(body),
      });
      const facts: CreateFacts = {
        caller: ctx.caller,
        now: ctx.now,
        cycle,
        sale: around.windows ? { withdrawalRev: heads.withdrawalRev, windows: around.windows } : undefined,
        feedInStock: around.feedInStock,
        references: { supplier: around.supplier, order: around.order },
        counterpart: counterpartFlockId ? { flock: other, cycle: around.counterpartCycle } : undefined,
        placement: receivingFlock
          ? { flock: receivingFlock, forecast: side === 'own' ? heads.forecast : heads.counterpartForecast, house: around.house, farm: around.farm }
          : undefined,
      };
      // decide
      const decision = decideMovementCreate(body, facts);
      const response = {
        created: true,
        message: 'Movement recorded',
        data: toMovementDto(decision.own, cycle, ctx.now),
        ...(decision.warnings.length ? { warnings: decision.warnings } : {}),
      };
      // commit
      const puts = [decision.own, ...(decision.mirror ? [decision.mirror] : [])];
      await refusedToConflict(
        commit(ctx, {
          writes: ledgerWrites({ groups: decision.groups, puts }, ctx.now.toISOString()),
          audit: decision.audit,
          changes: puts.map((m) => ({ type: 'movement', id: m.id, op: 'upsert', version: m.version })),
          response,
        }),
      );
      await alarmsOnFlockData({ farmId: cycle.farmId, flockId }, decision.input.date);
      return response;
    },
  );
}
