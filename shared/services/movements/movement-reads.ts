import type { Caller } from '../../domain/caller.js';
import { visibleTo } from '../../domain/farm-access.js';
import { cycleNotFound } from '../../domain/references.js';
import { getCycleAndMovement, listMovements } from '../../db/movements.js';
import { NotFound } from '../../errors.js';
import type { ListMovementsQuery } from '../../../schemas/movements.js';
import { scopedCycle } from '../flocks/cycle-scope.js';
import { farmPeriodDays } from '../periods.js';
import { toMovementDto } from './answers.js';

/** A movement of a cycle the caller may see, with its cycle (one read). */
export async function scopedMovement(caller: Caller, flockId: string, cycleId: string, movementId: string) {
  const found = await getCycleAndMovement(flockId, cycleId, movementId);
  const cycle = visibleTo(caller, found.cycle, () => cycleNotFound(flockId, cycleId));
  if (!found.movement) throw new NotFound(`Movement ${movementId} not found in cycle ${cycleId}`);
  return { cycle, movement: found.movement };
}

export async function movementFor(caller: Caller, flockId: string, cycleId: string, movementId: string) {
  const { cycle, movement } = await scopedMovement(caller, flockId, cycleId, movementId);
  return toMovementDto(movement, cycle);
}

export async function listMovementsFor(caller: Caller, flockId: string, cycleId: string, query: ListMovementsQuery) {
  const cycle = await scopedCycle(caller, flockId, cycleId);
  const { from, to } = await farmPeriodDays(cycle.farmId, query);
  const limit = query.limit ?? 25;
  const page = await listMovements(cycleId, { limit, cursor: query.cursor, type: query.type, from, to });
  return { items: page.items.map((m) => toMovementDto(m, cycle)), nextCursor: page.nextCursor, limit };
}
