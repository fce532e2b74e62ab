/**
 * Withdrawal periods (Reg. (EU) 2019/6 Art. 108 and Art. 115; docs/domain.md, "Compliance"): a medication
 * with `withdrawalDays` > 0 opens a window on its cycle from the first treatment day to the last restricted
 * day, counted from the END of the treatment: last treatment day (`date` + `treatmentDays` − 1) plus N full
 * days. Birds and eggs of the cycle may not be sold inside it without an audited override.
 */
import { addDays } from '../../platform/calendar.js';
import type { Caller } from '../caller.js';
import { Conflict, Forbidden } from '../../errors.js';

export interface WithdrawalWindow {
  /** The medication movement that opened it. */
  movementId: string;
  farmId: string;
  flockId: string;
  cycleId: string;
  product: string | null;
  /** First treatment day. */
  date: string;
  treatmentDays: number;
  /** Last treatment day. */
  treatmentEnd: string;
  withdrawalDays: number;
  /** The last restricted day: sales are allowed from the day after. */
  endDate: string;
}

/** The last treatment day: `date` plus `treatmentDays` − 1 (one day when not recorded). */
export function treatmentEnd(date: string, treatmentDays: number | undefined): string {
  return addDays(date, Math.max(1, Math.trunc(treatmentDays ?? 1)) - 1);
}

/**
 * The last restricted day, counted conservatively: the last treatment day plus N full days (treated on
 * the 1st, one day, 5 days' withdrawal: restricted up to and including the 6th, sale from the 7th).
 */
export function withdrawalEnd(date: string, withdrawalDays: number, treatmentDays?: number): string {
  return addDays(treatmentEnd(date, treatmentDays), withdrawalDays);
}

/** The window a medication opens, or none (no withdrawal period, or zero days). */
export function windowOf(m: {
  id: string;
  farmId: string;
  flockId: string;
  cycleId: string;
  date: string;
  fields: Record<string, unknown>;
}): WithdrawalWindow | null {
  const withdrawalDays = Number(m.fields.withdrawalDays ?? 0);
  if (!(withdrawalDays > 0)) return null;
  const treatmentDays = Math.max(1, Math.trunc(Number(m.fields.treatmentDays ?? 1)));
  return {
    movementId: m.id,
    farmId: m.farmId,
    flockId: m.flockId,
    cycleId: m.cycleId,
    product: typeof m.fields.product === 'string' ? m.fields.product : null,
    date: m.date,
    treatmentDays,
    treatmentEnd: treatmentEnd(m.date, treatmentDays),
    withdrawalDays,
    endDate: withdrawalEnd(m.date, withdrawalDays, treatmentDays),
  };
}

/** The windows a date falls in (first treatment day to last restricted day, both included). */
export function windowsCovering<W extends { date: string; endDate: string }>(windows: readonly W[], date: string): W[] {
  return windows.filter((w) => w.date <= date && date <= w.endDate);
}

/** A window is active on `today` when its last restricted day is today or later. */
export const isActive = (w: { endDate: string }, today: string): boolean => w.endDate >= today;

export const SALE_TYPES = ['bird_sale', 'egg_sale'] as const;
export type SaleType = (typeof SALE_TYPES)[number];
export const isSale = (type: string): type is SaleType => (SALE_TYPES as readonly string[]).includes(type);

const GOODS: Record<SaleType, string> = { bird_sale: 'birds', egg_sale: 'eggs' };

/** The refusal of a sale inside windows: the goods, each product and the day sales may resume. */
export function saleRefusal(type: SaleType, cycleId: string, date: string, covering: readonly WithdrawalWindow[]): string {
  const last = covering.reduce((a, w) => (w.endDate > a ? w.endDate : a), covering[0]!.endDate);
  const products = covering.map((w) => `${w.product ?? 'a medication'} (withdrawal ends ${w.endDate}, movement ${w.movementId})`).join(', ');
  return (
    `The ${GOODS[type]} of cycle ${cycleId} are under a withdrawal period on ${date}: ${products}. ` +
    `Sell from ${addDays(last, 1)}, or send override {reason} with the manage_compliance capability (audited)`
  );
}

/** A sale judged against its cycle's windows: the revision read (its write conditions on it) and the windows it falls in. */
export interface SaleCheck {
  withdrawalRev: number;
  /** None: the sale is free, and any override is dropped. */
  covering: WithdrawalWindow[];
}

/**
 * Judges a sale (created, or as it will be after an edit) against the windows of its cycle read after the
 * revision: free; refused (Conflict naming product and end); or going ahead on its `override`, which
 * needs manage_compliance (Forbidden, also when this request sends an override that is not needed).
 * Undefined for a movement that is not a sale.
 */
export function judgeSale(
  caller: Pick<Caller, 'capabilities'>,
  cycleId: string,
  sale: { type: string; date: string; override?: { reason: string } | null },
  overrideSent: boolean,
  guard: { withdrawalRev: number; windows: readonly WithdrawalWindow[] },
): SaleCheck | undefined {
  if (!isSale(sale.type)) return undefined;
  const mayOverride = caller.capabilities.has('manage_compliance');
  if (overrideSent && !mayOverride) throw new Forbidden('Overriding a withdrawal period requires the manage_compliance capability');
  const covering = windowsCovering(guard.windows, sale.date);
  if (covering.length === 0) return { withdrawalRev: guard.withdrawalRev, covering };
  if (!sale.override) throw new Conflict(saleRefusal(sale.type, cycleId, sale.date, covering));
  if (!mayOverride) throw new Forbidden('This sale falls in a withdrawal period: keeping its override requires the manage_compliance capability');
  return { withdrawalRev: guard.withdrawalRev, covering };
}

/** The audit event of a sale that goes ahead in a withdrawal period: who (the actor), why and which windows. */
export function overrideEvent(
  sale: { id: string; type: string; date: string; flockId: string; cycleId: string; override?: { reason: string } | null },
  check: SaleCheck,
) {
  if (check.covering.length === 0 || !sale.override) return [];
  return [
    {
      action: 'compliance.withdrawal_override',
      targetType: 'movement',
      targetId: sale.id,
      changes: {
        reason: sale.override.reason,
        sale: { type: sale.type, date: sale.date, flockId: sale.flockId, cycleId: sale.cycleId },
        windows: check.covering.map((w) => ({ movementId: w.movementId, product: w.product, date: w.date, endDate: w.endDate })),
      },
    },
  ];
}
