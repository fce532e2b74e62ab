import { feedTypesInStock } from '../db/movements.js';
import type { Caller } from '../domain/caller.js';
import { commandContext } from '../domain/command.js';
import { feedTypeFromStock, needsFeedType } from '../domain/ledger.js';
import type { MovementInput } from '../../schemas/movements.js';
import { recordMovement } from './movements/record-movement.js';

/**
 * Transitional: the movement helpers under their former names, for the use cases still moving to the
 * one write path. New code imports shared/services/movements/* and shared/domain/movements/*.
 */
export { newMovement as record, inputOf, refOf } from '../domain/movements/record.js';
export { assertUnlocked, autoLockCutoff, movementAnswer, refusedToConflict, toMovementDto, withCurrentLock } from './movements/answers.js';

/** Feed consumption without a feed type takes the farm's only feed in stock. */
export async function resolveFeedType(input: MovementInput, farmId: string): Promise<string | undefined> {
  if (!needsFeedType(input)) return undefined;
  return feedTypeFromStock(
    farmId,
    (await feedTypesInStock(farmId)).map((s) => s.feedType),
  );
}

export const createMovementFor = (
  user: Caller,
  flockId: string,
  cycleId: string,
  body: MovementInput,
  idempotencyKey?: string,
  requestId: string | null = null,
) => recordMovement(commandContext(user, { requestId, idempotencyKey }), flockId, cycleId, body);
