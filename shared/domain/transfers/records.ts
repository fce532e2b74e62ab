import { Conflict } from '../../errors.js';
import type { TransferKind, TransferStatus } from '../../../schemas/sharing.js';

/** Transfers' records as stored and decided on (keys and items: shared/db/transfers.ts). */
export interface TransferEndRecord {
  farmId: string;
  flockId: string | null;
  cycleId: string | null;
  movementId: string | null;
}
export interface TransferStep {
  at: string;
  by: string;
  note: string | null;
}
export interface EquipmentLine {
  equipmentId: string;
  name: string;
  serial: string | null;
  /** true when the piece is registered by this transfer's completion (it was named, not picked from the register) */
  registers: boolean;
}
export interface TransferRecord {
  id: string;
  kind: TransferKind;
  status: TransferStatus;
  from: TransferEndRecord;
  to: TransferEndRecord;
  quantity: number | null;
  feedType: string | null;
  /** Eggs: the grade sent (null: ungraded; absent on transfers stored before it). */
  grade?: string | null;
  /** Birds: the cost per bird they carry to the receiving cycle (null: none; absent on transfers stored before it). */
  unitCost?: number | null;
  items: EquipmentLine[] | null;
  notes: string | null;
  requestedBy: string;
  approved: TransferStep | null;
  rejected: TransferStep | null;
  cancelled: TransferStep | null;
  completed: TransferStep | null;
  completedDate: string | null;
  /**
   * The transfer's own day, named at request (farm-local, not in the future): its movements are dated on it.
   * Null or absent: they are dated on the day of the completion.
   */
  date?: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** A piece of the equipment register as a request judges it. */
export interface EquipmentFacts {
  id: string;
  name: string;
  serial: string | null;
  ownerFarmId: string;
  holderFarmId: string;
}

/** A farm's restriction refuses a transfer it sends: the incidents that restrict it. */
export class FarmRestricted extends Conflict {
  constructor(
    readonly farmId: string,
    readonly incidentIds: string[],
  ) {
    super(`Farm ${farmId} is under a movement restriction (disease-suspicion incident ${incidentIds.join(', ')}); it cannot send transfers until closed`);
  }
}

/** A transfer as answered (and as its request is audited). */
export function transferAnswer(t: TransferRecord) {
  return {
    id: t.id,
    kind: t.kind,
    status: t.status,
    from: t.from,
    to: t.to,
    quantity: t.quantity,
    feedType: t.feedType,
    ...(t.grade ? { grade: t.grade } : {}),
    ...(t.unitCost !== null && t.unitCost !== undefined ? { unitCost: t.unitCost } : {}),
    items: t.items?.map(({ equipmentId, name, serial }) => ({ equipmentId, name, serial })) ?? null,
    notes: t.notes,
    requestedBy: t.requestedBy,
    approved: t.approved,
    rejected: t.rejected,
    cancelled: t.cancelled,
    completed: t.completed,
    completedDate: t.completedDate,
    date: t.date ?? null,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    version: t.version,
  };
}

/** The farms a transfer belongs to, each once: the sender's and the receiver's (and a receiver it had before a step moved it). */
export const transferFarmIds = (...transfers: ReadonlyArray<Pick<TransferRecord, 'from' | 'to'>>): string[] => [
  ...new Set(transfers.flatMap((t) => [t.from.farmId, t.to.farmId])),
];
