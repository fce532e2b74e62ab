import { getCycle } from '../../db/cycles.js';
import { getFlock } from '../../db/flocks.js';
import { getHouse } from '../../db/farms.js';
import { farmLedgerWrites } from '../../db/farm-movements.js';
import { ledgerWrites } from '../../db/movements.js';
import { commit } from '../../db/commit.js';
import { farmZoneAndPricing, orderVersion, orderWrites, receiptWrite } from '../../db/procurement.js';
import type { CommandContext } from '../../domain/command.js';
import { farmDateAt } from '../../domain/procurement/orders.js';
import { decideReceipt, decideReceivedQuantities, judgeReceiptDate, receiptHouseReads, receiptReads } from '../../domain/procurement/receipts.js';
import { densityWarnings } from '../compliance/density-warnings.js';
import { idempotentCommand } from '../idempotency.js';
import { refusedToConflict } from '../movements/answers.js';
import { alarmsOnFlockData } from '../new-data.js';
import { toOrderDto, toReceiptDto, visibleOrder } from './orders.js';
import { farmPricesOf } from '../analytics/farm-pricing.js';
import type { CreateReceiptBody } from '../../../schemas/procurement.js';

/**
 * Receipts (`POST /api/v1/procurement/orders/{orderId}/receipts`): goods received on a placed order write
 * the ledger (feed_delivery with the supplier facts, bird_inflow, medicine_delivery; feed and medicine on a
 * flock's cycle, or on the farm's stock when the line names no flock) in the same
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

/** The house bins a receipt's farm lines name, read in the order's farm (in parallel; a missing one is left out). */
async function readHouses(farmId: string, houseIds: readonly string[]) {
  const found = await Promise.all(houseIds.map(async (id) => [id, await getHouse(farmId, id)] as const));
  return new Map(found.flatMap(([id, house]) => (house ? [[id, house] as const] : [])));
}

async function receive(ctx: CommandContext, orderId: string, body: CreateReceiptBody) {
  const { order } = await visibleOrder(ctx.caller, orderId);
  // each read waits for the checks before it, so a refused receipt reads no more than it needs
  const applied = decideReceivedQuantities(order, body);
  // the farm's time zone (the receipt's dates) and its currency (which prices go on the ledger), in one read
  const { timeZone, pricing } = await farmZoneAndPricing(order.farmId);
  const [orderedDate, today] = [farmDateAt(order.orderedAt!, timeZone), farmDateAt(ctx.now.toISOString(), timeZone)];
  judgeReceiptDate(body.date, today);
  const [targets, houses] = await Promise.all([readTargets(receiptReads(order, body)), readHouses(order.farmId, receiptHouseReads(body))]);
  const farmCurrency = farmPricesOf(pricing).currency;
  const decision = decideReceipt(body, { caller: ctx.caller, now: ctx.now, order, farmCurrency, applied, orderedDate, today, targets, houses });
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
        ...farmLedgerWrites({ group: decision.farmGroup, puts: decision.farmMovements }, ctx.now.toISOString()),
      ],
      audit: decision.audit,
      changes: decision.changes,
      response,
    }),
  );
  for (const flockId of decision.flocks) await alarmsOnFlockData({ farmId: order.farmId, flockId }, body.date);
  return response;
}
