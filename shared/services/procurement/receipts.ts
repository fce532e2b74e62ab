import { getCycle } from '../../db/cycles.js';
import { getFlock } from '../../db/flocks.js';
import { ledgerWrites } from '../../db/movements.js';
import { commit } from '../../db/commit.js';
import { farmZoneAndPricing, orderVersion, orderWrites, receiptWrite } from '../../db/procurement.js';
import type { CommandContext } from '../../domain/command.js';
import { farmDateAt } from '../../domain/procurement/orders.js';
import { decideReceipt, decideReceivedQuantities, judgeReceiptDate, receiptReads } from '../../domain/procurement/receipts.js';
import { densityWarnings } from '../compliance/density-warnings.js';
import { idempotentCommand } from '../idempotency.js';
import { refusedToConflict } from '../movements/answers.js';
import { alarmsOnFlockData } from '../new-data.js';
import { toOrderDto, toReceiptDto, visibleOrder } from './orders.js';
import { farmPricesOf } from '../analytics/farm-pricing.js';
import type { CreateReceiptBody } from '../../../schemas/procurement.js';

/**
 * Receipts (`POST /api/v1/procurement/orders/{orderId}/receipts`): goods received on a placed order write
 * the ledger (feed_delivery with the supplier facts, bird_inflow, medicine_delivery) in the same
 * transaction as the receipt and the order's received quantities and status. Decided in
 * shared/domain/procurement/receipts.ts.
 */

/**
 * Receives goods on a placed order: the received quantities, the receipt, the ledger movements and the
 * audit entry, in ONE transaction conditioned on the order's version. With an Idempotency-Key a retry
 * (also a concurrent one) gets the first answer and writes nothing.
 */
export async function receiveOrder(ctx: CommandContext, orderId: string, body: CreateReceiptBody) {
  await visibleOrder(ctx.caller, orderId);
  return idempotentCommand(ctx, `receipt:${orderId}`, body, (ctx) => receive(ctx, orderId, body));
}

/** The flocks a receipt names, each with its active cycle (in parallel). */
async function readTargets(flockIds: readonly string[]) {
  const read = async (flockId: string) => {
    const flock = await getFlock(flockId);
    return [flockId, { flock, cycle: flock?.activeCycleId ? await getCycle(flock.id, flock.activeCycleId) : undefined }] as const;
  };
  return new Map(await Promise.all(flockIds.map(read)));
}

async function receive(ctx: CommandContext, orderId: string, body: CreateReceiptBody) {
  const { order } = await visibleOrder(ctx.caller, orderId);
  // each read waits for the checks before it, so a refused receipt reads no more than it needs
  const applied = decideReceivedQuantities(order, body);
  // the farm's time zone (the receipt's dates) and its currency (which prices go on the ledger), in one read
  const { timeZone, pricing } = await farmZoneAndPricing(order.farmId);
  const [orderedDate, today] = [farmDateAt(order.orderedAt!, timeZone), farmDateAt(ctx.now.toISOString(), timeZone)];
  judgeReceiptDate(body.date, today);
  const targets = await readTargets(receiptReads(order, body));
  const farmCurrency = farmPricesOf(pricing).currency;
  const decision = decideReceipt(body, { caller: ctx.caller, now: ctx.now, order, farmCurrency, applied, orderedDate, today, targets });
  // read after deciding: the houses chicks enter are known only once the lines are; a warning, never a refusal
  const warnings = (await Promise.all(decision.placed.map((p) => densityWarnings(p.cycle, p.birds, body.date)))).flat();
  const response = {
    created: true,
    message: 'Goods received',
    data: { order: toOrderDto(decision.change.next), receipt: toReceiptDto(decision.receipt) },
    ...(warnings.length ? { warnings } : {}),
  };
  await refusedToConflict(
    commit(ctx, {
      // the order at the version it was decided on (the receipt is no change the client preconditions)
      writes: [
        orderWrites.update(order, decision.change.fields, orderVersion(order, undefined, false)),
        receiptWrite(decision.receipt),
        ...ledgerWrites({ groups: decision.groups, puts: decision.movements }, ctx.now.toISOString()),
      ],
      audit: decision.audit,
      changes: decision.changes,
      response,
    }),
  );
  for (const flockId of decision.flocks) await alarmsOnFlockData({ farmId: order.farmId, flockId }, body.date);
  return response;
}
