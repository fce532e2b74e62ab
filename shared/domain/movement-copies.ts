/**
 * The copies some movements leave beside them in the ledger's writes (a delivery's supplier facts, a
 * medication's withdrawal period), without I/O. Apart from ./ledger.ts, which holds the counters.
 */
import type { MovementType } from '../../schemas/movements.js';
import { windowOf } from './compliance/withdrawals.js';

/** What a movement the ledger copies looks like to the rule (a stored movement, or one about to be). */
export interface CopiedMovement {
  id: string;
  farmId: string;
  flockId: string;
  cycleId: string;
  type: MovementType;
  date: string;
  fields: Record<string, unknown>;
}

export type MovementCopy =
  | { kind: 'delivery'; item: Record<string, unknown> & { movementId: string; date: string } }
  | {
      kind: 'withdrawal';
      item: {
        movementId: string;
        farmId: string;
        flockId: string;
        cycleId: string;
        date: string;
        endDate: string;
        meatEndDate: string | null;
        eggEndDate: string | null;
        withdrawalDays: number;
        eggWithdrawalDays: number;
        treatmentDays: number;
        treatmentEnd: string;
        product: unknown;
      };
    };

/**
 * The copies some movements leave beside them, written, replaced and deleted with the movement in one
 * transaction: a feed delivery's supplier facts in its cycle (supplier reliability reads deliveries only),
 * and a medication's withdrawal period in its farm (the withdrawals still running are one range read, for
 * the veterinarian's dashboard and compliance). Every other movement leaves none.
 */
export function copiesOf(m: CopiedMovement): MovementCopy[] {
  if (m.type === 'feed_delivery') return [{ kind: 'delivery', item: { movementId: m.id, date: m.date, ...m.fields } }];
  const window = m.type === 'medication' ? windowOf(m) : null;
  if (!window) return [];
  const days = window.withdrawalDays;
  const item = {
    movementId: m.id,
    farmId: m.farmId,
    flockId: m.flockId,
    cycleId: m.cycleId,
    date: m.date,
    endDate: window.endDate,
    meatEndDate: window.meatEndDate,
    eggEndDate: window.eggEndDate,
    withdrawalDays: days,
    eggWithdrawalDays: window.eggWithdrawalDays,
    treatmentDays: window.treatmentDays,
    treatmentEnd: window.treatmentEnd,
    product: m.fields.product ?? null,
  };
  return [{ kind: 'withdrawal', item }];
}
