import { auditPut } from '../db/audit.js';
import type { TransactItem } from '../db/client.js';
import { withdrawalGuardOf } from '../db/compliance.js';
import type { Caller } from '../domain/caller.js';
import { isSale, saleRefusal, windowsCovering, type WithdrawalWindow } from '../domain/compliance/withdrawals.js';
import { Conflict, Forbidden } from '../errors.js';

/**
 * Sales during withdrawal periods (docs/domain.md, "Compliance"): a bird_sale or egg_sale dated inside a
 * medication's window on its cycle is refused (409 naming the product and the last restricted day) unless
 * it carries `override: {reason}`, which needs manage_compliance (403 without) and is audited in the
 * sale's own transaction. Kept apart from the movement service so routes that only read do not bundle it.
 */
export interface SaleCheck {
  /** The cycle's withdrawal revision the check read: the sale's transaction conditions on it. */
  withdrawalRev: number;
  /** The windows the sale falls in (none: the sale is free and any override is dropped). */
  covering: WithdrawalWindow[];
}

interface SaleLike {
  type: string;
  date: string;
  override?: { reason: string } | null;
}

/**
 * Checks a sale (created, or as it will be after an edit) against its cycle's windows. `overrideSent`:
 * this request itself carries the override (an edit may keep the one stored with the sale).
 */
export async function checkSale(
  user: Caller,
  ref: { farmId: string; flockId: string; cycleId: string },
  sale: SaleLike,
  overrideSent: boolean,
): Promise<SaleCheck | undefined> {
  if (!isSale(sale.type)) return undefined;
  const mayOverride = user.capabilities.has('manage_compliance');
  if (overrideSent && !mayOverride) throw new Forbidden('Overriding a withdrawal period requires the manage_compliance capability');
  const { withdrawalRev, windows } = await withdrawalGuardOf(ref, sale.date);
  const covering = windowsCovering(windows, sale.date);
  if (covering.length === 0) return { withdrawalRev, covering };
  if (!sale.override) throw new Conflict(saleRefusal(sale.type, ref.cycleId, sale.date, covering));
  if (!mayOverride) throw new Forbidden('This sale falls in a withdrawal period: keeping its override requires the manage_compliance capability');
  return { withdrawalRev, covering };
}

/** The audit entry of a sale that goes ahead in a withdrawal period: who, why and which windows. */
export function overrideAudit(
  user: Caller,
  sale: SaleLike & { id: string; cycleId: string; flockId: string },
  check: SaleCheck,
  requestId: string | null,
): TransactItem[] {
  if (check.covering.length === 0 || !sale.override) return [];
  return [
    auditPut({
      actorId: user.id,
      action: 'compliance.withdrawal_override',
      targetType: 'movement',
      targetId: sale.id,
      changes: {
        reason: sale.override.reason,
        sale: { type: sale.type, date: sale.date, flockId: sale.flockId, cycleId: sale.cycleId },
        windows: check.covering.map((w) => ({ movementId: w.movementId, product: w.product, date: w.date, endDate: w.endDate })),
      },
      requestId,
    }),
  ];
}
