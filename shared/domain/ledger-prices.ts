/**
 * The money a movement carries on itself, as day counters of the ledger (./ledger.ts): a sale's weight and
 * price, and the cost per bird a transfer between flocks carries from one cycle to the other.
 */
import type { MovementInput } from '../../schemas/movements.js';
import type { DayCounter } from './analytics/inputs.js';

type Sale = Extract<MovementInput, { type: 'bird_sale' }>;
type BirdTransfer = Extract<MovementInput, { type: 'bird_transfer_in' | 'bird_transfer_out' }>;

/** A sale's weight and money: priced sales at their unitPrice; unpriced ones by weight (when given) or per head (analytics prices them). */
export function saleEffects<D>(m: Sale, cycle: (attribute: 'soldWeightKg', amount: number) => D, day: (attribute: DayCounter, amount: number) => D): D[] {
  const out: D[] = [];
  if (m.totalWeightKg !== undefined) out.push(cycle('soldWeightKg', m.totalWeightKg), day('soldWeightKg', m.totalWeightKg));
  if (m.unitPrice !== undefined) out.push(day('birdsSoldPriced', m.quantity), day('birdSaleRevenuePriced', m.quantity * m.unitPrice));
  else if (m.totalWeightKg !== undefined) out.push(day('soldWeightKgUnpriced', m.totalWeightKg));
  else out.push(day('birdsSoldUnpricedUnweighed', m.quantity));
  return out;
}

/**
 * The cost a transfer with a unitCost carries: the birds and Σ quantity × unitCost, transferred in (the
 * receiving cycle's pullet cost) or out (the cost the sending cycle passes on). Without one, nothing.
 */
export function transferCostEffects<D>(m: BirdTransfer, day: (attribute: DayCounter, amount: number) => D): D[] {
  if (m.unitCost === undefined) return [];
  return m.type === 'bird_transfer_in'
    ? [day('birdsTransferredInPriced', m.quantity), day('transferInCostPriced', m.quantity * m.unitCost)]
    : [day('birdsTransferredOutPriced', m.quantity), day('transferOutCostPriced', m.quantity * m.unitCost)];
}
