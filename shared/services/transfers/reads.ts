import { getTransfer, listEquipmentOfFarm, listTransfersOfFarm, restrictionsOf, transferNotFound } from '../../db/transfers.js';
import { FarmRestricted, type TransferRecord } from '../../domain/transfers/records.js';
import { getCycle } from '../../db/cycles.js';
import { getFlock } from '../../db/flocks.js';
import type { Caller } from '../../domain/caller.js';
import { endCycleId } from '../../domain/transfers/ends.js';
import { transferAnswer } from '../../domain/transfers/records.js';
import { Conflict } from '../../errors.js';
import { canAccessFarm, visibleTo } from '../../domain/farm-access.js';
import { farmOfRequest } from '../farms.js';
import type { ListEquipmentQuery, ListTransfersQuery } from '../../../schemas/sharing.js';

/**
 * Transfers between farms (`/api/v1/sharing`): the sending farm requests (requests.ts), the receiving
 * farm approves (or rejects), the sender may cancel until completion, and either side completes
 * (steps.ts, completion.ts). A transfer is visible to the users of either farm; to anyone else it does
 * not exist. Here: what they share, and the reads.
 */

export const toTransferDto = transferAnswer;

/** The transfer, seen through either of its farms (the sending one, else the receiving one). */
export async function visibleTransfer(caller: Caller, id: string): Promise<TransferRecord> {
  return visibleTo(
    caller,
    await getTransfer(id),
    () => transferNotFound(id),
    (t) => (canAccessFarm(caller, t.from.farmId) ? t.from.farmId : t.to.farmId),
  );
}

export const transferFor = async (caller: Caller, id: string) => toTransferDto(await visibleTransfer(caller, id));

export async function listTransfersFor(caller: Caller, query: ListTransfersQuery) {
  const farmId = farmOfRequest(caller, query.farmId);
  const limit = query.limit ?? 25;
  const page = await listTransfersOfFarm(farmId, query.direction ?? 'both', query.status, { limit, cursor: query.cursor });
  return { items: page.items.map(toTransferDto), limit, nextCursor: page.nextCursor };
}

/** The equipment register of a farm: what it holds now, or what it owns wherever it is. */
export async function listEquipmentFor(caller: Caller, query: ListEquipmentQuery) {
  const farmId = farmOfRequest(caller, query.farmId);
  const limit = query.limit ?? 25;
  const page = await listEquipmentOfFarm(farmId, query.side ?? 'held', { limit, cursor: query.cursor });
  return { items: page.items.map((e) => ({ ...e, lentOut: e.ownerFarmId !== e.holderFarmId })), limit, nextCursor: page.nextCursor };
}

/** The refusal of a restricted sender, naming its incidents (read again when a commit's check found the flag set). */
export async function restricted(farmId: string, known: string[] = []): Promise<FarmRestricted> {
  return new FarmRestricted(farmId, known.length ? known : await restrictionsOf(farmId));
}

/** The transfer's status was changed by another request meanwhile: name the status it has now (read again for the message). */
export async function lostRace(id: string): Promise<Conflict> {
  const now = await getTransfer(id);
  return new Conflict(`Transfer ${id} was changed concurrently; it is now ${now?.status ?? 'gone'} (version ${now?.version ?? '-'})`);
}

/** A transfer end's flock and its cycle (named, else its active one; read only for a flock of the end's farm). */
export async function readEnd(farmId: string, flockId: string | undefined, cycleId?: string) {
  const flock = flockId ? await getFlock(flockId) : undefined;
  const id = endCycleId(farmId, flock, cycleId);
  return { flock, cycle: flock && id ? await getCycle(flock.id, id) : undefined };
}
