/**
 * Withdrawal periods (Reg. (EU) 2019/6 Art. 108 and Art. 115; docs/domain.md, "Compliance"): a medication
 * with a withdrawal period for meat (`withdrawalDays`) or eggs (`eggWithdrawalDays`) opens a window on its
 * cycle from the first treatment day to the last restricted day of each, counted from the END of the
 * treatment: last treatment day (`date` + `treatmentDays` − 1) plus N full days. Birds sold on a day of the
 * meat window, and eggs LAID on a day of the egg window (whenever they are sold), need an audited override.
 */
import { addDays } from '../../platform/calendar.js';
import type { Caller } from '../caller.js';
import { Conflict, Forbidden } from '../../errors.js';
import { layingSpan, type LotDraw } from '../eggs/lots.js';

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
  /** The meat withdrawal, days (0: birds may be sold from the treatment on). */
  withdrawalDays: number;
  /** The egg withdrawal, days (the meat period when the medication gave none). */
  eggWithdrawalDays: number;
  /** The last day birds may not be sold (null: no meat withdrawal). */
  meatEndDate: string | null;
  /** The last laying day whose eggs may not be sold (null: no egg withdrawal). */
  eggEndDate: string | null;
  /** The window's last restricted day, for birds or eggs: sales of both are free from the day after. */
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

/**
 * The window a medication opens, or none (no withdrawal period for meat or eggs). A medicine's SPC gives
 * meat and eggs each their own period: `withdrawalDays` (meat) and `eggWithdrawalDays`; a medication that
 * gives no egg period applies the meat one to eggs (the safe reading).
 */
export function windowOf(m: {
  id: string;
  farmId: string;
  flockId: string;
  cycleId: string;
  date: string;
  fields: Record<string, unknown>;
}): WithdrawalWindow | null {
  const withdrawalDays = Number(m.fields.withdrawalDays ?? 0);
  const eggWithdrawalDays = Number(m.fields.eggWithdrawalDays ?? withdrawalDays);
  if (!(withdrawalDays > 0) && !(eggWithdrawalDays > 0)) return null;
  const treatmentDays = Math.max(1, Math.trunc(Number(m.fields.treatmentDays ?? 1)));
  const meatEndDate = withdrawalDays > 0 ? withdrawalEnd(m.date, withdrawalDays, treatmentDays) : null;
  const eggEndDate = eggWithdrawalDays > 0 ? withdrawalEnd(m.date, eggWithdrawalDays, treatmentDays) : null;
  return {
    movementId: m.id,
    farmId: m.farmId,
    flockId: m.flockId,
    cycleId: m.cycleId,
    product: typeof m.fields.product === 'string' ? m.fields.product : null,
    date: m.date,
    treatmentDays,
    treatmentEnd: treatmentEnd(m.date, treatmentDays),
    withdrawalDays: Math.max(0, withdrawalDays),
    eggWithdrawalDays: Math.max(0, eggWithdrawalDays),
    meatEndDate,
    eggEndDate,
    endDate: [meatEndDate, eggEndDate]
      .filter((d): d is string => d !== null)
      .sort()
      .pop()!,
  };
}

/** The windows a date falls in, for birds (first treatment day to the last restricted day for meat, both included). */
export function windowsCovering<W extends Pick<WithdrawalWindow, 'date' | 'meatEndDate'>>(windows: readonly W[], date: string): W[] {
  return windows.filter((w) => w.meatEndDate !== null && w.date <= date && date <= w.meatEndDate);
}

/** The windows any of these laying days falls in, for eggs (first treatment day to the last restricted laying day). */
export function eggWindowsCovering<W extends Pick<WithdrawalWindow, 'date' | 'eggEndDate'>>(windows: readonly W[], laidOn: readonly string[]): W[] {
  return windows.filter((w) => w.eggEndDate !== null && laidOn.some((d) => w.date <= d && d <= w.eggEndDate!));
}

/**
 * The windows a sale falls in: birds on the day they are sold (meat), eggs on the days they were laid
 * (the lots the sale drew; a sale recorded before lots is judged on its own date).
 */
export function saleWindows<W extends WithdrawalWindow>(windows: readonly W[], sale: { type: string; date: string; fromLots?: unknown }): W[] {
  if (sale.type !== 'egg_sale') return windowsCovering(windows, sale.date);
  const lots = Array.isArray(sale.fromLots) ? (sale.fromLots as LotDraw[]).map((d) => d.laidOn) : [sale.date];
  return eggWindowsCovering(windows, lots);
}

/** A window is active on `today` when its last restricted day is today or later. */
export const isActive = (w: { endDate: string }, today: string): boolean => w.endDate >= today;

export const SALE_TYPES = ['bird_sale', 'egg_sale'] as const;
export type SaleType = (typeof SALE_TYPES)[number];
export const isSale = (type: string): type is SaleType => (SALE_TYPES as readonly string[]).includes(type);

const GOODS: Record<SaleType, string> = { bird_sale: 'birds', egg_sale: 'eggs' };

/** The refusal of a sale inside windows: the goods (eggs: their laying days), each product and the day sales may resume. */
export function saleRefusal(sale: { type: SaleType; date: string; fromLots?: unknown }, cycleId: string, covering: readonly WithdrawalWindow[]): string {
  const eggs = sale.type === 'egg_sale';
  const endOf = (w: WithdrawalWindow) => (eggs ? w.eggEndDate : w.meatEndDate) ?? w.endDate;
  const last = covering.map(endOf).sort().pop()!;
  const products = covering
    .map((w) => `${w.product ?? 'a medication'} (${eggs ? 'egg ' : ''}withdrawal ends ${endOf(w)}, movement ${w.movementId})`)
    .join(', ');
  const override = 'or send override {reason} with the manage_compliance capability (audited)';
  if (!eggs)
    return `The ${GOODS[sale.type]} of cycle ${cycleId} are under a withdrawal period on ${sale.date}: ${products}. Sell from ${addDays(last, 1)}, ${override}`;
  const span = layingSpan(sale.fromLots as LotDraw[] | undefined) ?? { from: sale.date, to: sale.date };
  const laid = span.from === span.to ? `laid on ${span.from}` : `laid on ${span.from} to ${span.to}`;
  return (
    `The eggs of cycle ${cycleId} ${laid} were laid inside a withdrawal period: ${products}. ` +
    `Sell eggs laid from ${addDays(last, 1)} (name their lots in fromLots; record the others as egg_loss), ${override}`
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
  sale: { type: string; date: string; override?: { reason: string } | null; fromLots?: unknown },
  overrideSent: boolean,
  guard: { withdrawalRev: number; windows: readonly WithdrawalWindow[] },
): SaleCheck | undefined {
  if (!isSale(sale.type)) return undefined;
  const mayOverride = caller.capabilities.has('manage_compliance');
  if (overrideSent && !mayOverride) throw new Forbidden('Overriding a withdrawal period requires the manage_compliance capability');
  const covering = saleWindows(guard.windows, sale);
  if (covering.length === 0) return { withdrawalRev: guard.withdrawalRev, covering };
  if (!sale.override) throw new Conflict(saleRefusal({ ...sale, type: sale.type }, cycleId, covering));
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
