/**
 * Transfers between farms (pure): the lifecycle requested → approved → completed (or rejected, or
 * cancelled), which side may take each step, what a request must hold for its kind, and the movements
 * a completion writes on each side. Sources and reasons in docs/decisions.md ("Sharing").
 */
import type { FieldError } from '../../errors.js';
import type { TransferAction, TransferKind, TransferStatus } from '../../../schemas/sharing.js';

const MOVES: Record<TransferAction, { from: readonly TransferStatus[]; to: TransferStatus }> = {
  approve: { from: ['requested'], to: 'approved' },
  reject: { from: ['requested'], to: 'rejected' },
  cancel: { from: ['requested', 'approved'], to: 'cancelled' },
  complete: { from: ['approved'], to: 'completed' },
};

/** The status an action moves a transfer to, or why it cannot (an illegal move names the status). */
export function transferTransition(current: TransferStatus, action: TransferAction): { to: TransferStatus } | { refused: string } {
  const move = MOVES[action];
  if (move.from.includes(current)) return { to: move.to };
  return { refused: `A transfer that is ${current} cannot be ${move.to} (allowed from ${move.from.join(' or ')})` };
}

/** The side of a transfer whose users may take each step: the receiving farm approves or rejects, the sending (requesting) farm cancels, either completes. */
export const ACTING_SIDE: Record<TransferAction, 'from' | 'to' | 'either'> = { approve: 'to', reject: 'to', cancel: 'from', complete: 'either' };

/** Whether a caller who sees these farms may take this step (an admin sees every farm). */
export function maySideAct(action: TransferAction, sees: { from: boolean; to: boolean }): boolean {
  const side = ACTING_SIDE[action];
  return side === 'either' ? sees.from || sees.to : sees[side];
}

export interface TransferEnd {
  farmId: string;
  flockId?: string;
  cycleId?: string;
}

export interface TransferRequest {
  kind: TransferKind;
  from: TransferEnd;
  to: TransferEnd;
  quantity?: number;
  feedType?: string;
  grade?: string;
  unitCost?: number;
  items?: ReadonlyArray<{ equipmentId?: string; name?: string; serial?: string }>;
}

/** Birds, feed and eggs are ledger movements of a cycle on each side; equipment moves in the register. */
export const isLedgerKind = (kind: TransferKind): kind is 'birds' | 'feed' | 'eggs' => kind !== 'equipment';

/** What the schema cannot say: the fields each kind needs and refuses, and two different farms. */
export function transferProblems(t: TransferRequest): FieldError[] {
  const out: FieldError[] = [];
  if (t.from.farmId === t.to.farmId) out.push({ field: 'to.farmId', message: 'must be another farm than from.farmId' });
  if (isLedgerKind(t.kind)) {
    if (t.quantity === undefined) out.push({ field: 'quantity', message: `is required for a ${t.kind} transfer` });
    else if (t.kind !== 'feed' && !Number.isInteger(t.quantity)) out.push({ field: 'quantity', message: `must be a whole number of ${t.kind}` });
    if (t.items !== undefined) out.push({ field: 'items', message: 'is only for an equipment transfer' });
    // the receiving flock is the receiving farm's choice, at approval (the request may only propose one)
    if (!t.from.flockId) out.push({ field: 'from.flockId', message: `is required for a ${t.kind} transfer (its movement is recorded in that flock's cycle)` });
  } else {
    if (!t.items?.length) out.push({ field: 'items', message: 'is required for an equipment transfer' });
    if (t.quantity !== undefined) out.push({ field: 'quantity', message: 'is not for an equipment transfer (list the pieces in items)' });
    (t.items ?? []).forEach((item, i) => {
      if (!item.equipmentId && !item.name) out.push({ field: `items.${i}`, message: 'names a registered piece (equipmentId) or a new one (name)' });
      if (item.equipmentId && (item.name || item.serial))
        out.push({ field: `items.${i}`, message: 'a registered piece (equipmentId) takes no name or serial' });
    });
    const ids = (t.items ?? []).flatMap((i) => (i.equipmentId ? [i.equipmentId] : []));
    if (new Set(ids).size !== ids.length) out.push({ field: 'items', message: 'lists a piece of equipment twice' });
  }
  if (t.kind === 'feed' && !t.feedType) out.push({ field: 'feedType', message: 'is required for a feed transfer' });
  if (t.kind !== 'feed' && t.feedType !== undefined) out.push({ field: 'feedType', message: 'is only for a feed transfer' });
  if (t.kind !== 'eggs' && t.grade !== undefined) out.push({ field: 'grade', message: 'is only for an eggs transfer' });
  if (t.kind !== 'birds' && t.unitCost !== undefined) out.push({ field: 'unitCost', message: 'is only for a birds transfer' });
  return out;
}

/** The two movements (type and fields) a completed ledger transfer writes: out of the sender's cycle, into the receiver's. */
export function transferMovements(
  t: {
    id: string;
    kind: 'birds' | 'feed' | 'eggs';
    quantity: number;
    feedType: string | null;
    grade?: string | null | undefined;
    unitCost?: number | null | undefined;
    from: Required<TransferEnd>;
    to: Required<TransferEnd>;
  },
  date: string,
) {
  const common = { date, transferId: t.id };
  switch (t.kind) {
    case 'birds': {
      // the cost per bird travels with the birds: both sides record it
      const cost = t.unitCost !== null && t.unitCost !== undefined ? { unitCost: t.unitCost } : {};
      return {
        out: { type: 'bird_transfer_out' as const, ...common, quantity: t.quantity, counterpartFlockId: t.to.flockId, ...cost },
        in: { type: 'bird_transfer_in' as const, ...common, quantity: t.quantity, counterpartFlockId: t.from.flockId, ...cost },
      };
    }
    case 'feed':
      return {
        out: { type: 'feed_transfer_out' as const, ...common, quantityKg: t.quantity, feedType: t.feedType!, counterpartFarmId: t.to.farmId },
        in: { type: 'feed_transfer_in' as const, ...common, quantityKg: t.quantity, feedType: t.feedType!, counterpartFarmId: t.from.farmId },
      };
    case 'eggs': {
      // graded eggs stay of their grade on both sides
      const grade = t.grade ? { grade: t.grade } : {};
      return {
        out: { type: 'egg_transfer_out' as const, ...common, quantity: t.quantity, counterpartFarmId: t.to.farmId, ...grade },
        in: { type: 'egg_transfer_in' as const, ...common, quantity: t.quantity, counterpartFarmId: t.from.farmId, ...grade },
      };
    }
  }
}
