/**
 * A supplier's fill rate (pure): how much of what was ordered of it arrived, over the feed lines that are
 * CLOSED — lines that will take no more goods. A line still being delivered is not short yet: counting it
 * would score a supplier half way through a delivery as 50 % filled. docs/decisions.md ("Procurement").
 */
import { round } from '../weights.js';
import { figure, missing } from '../analytics/figures.js';
import type { Figure } from '../analytics/inputs.js';
import type { OrderLineRecord, OrderRecord } from './records.js';

type Line = { quantity: number; receivedQuantity: number };

/**
 * Σ min(received, ordered) ÷ Σ ordered kg of the lines, × 100 (over-delivery does not make up for another
 * line's shortfall); null without ordered kg.
 */
export function fillRate(lines: ReadonlyArray<Line>): { orderedKg: number; receivedKg: number; pct: number | null } {
  const ordered = lines.reduce((a, l) => a + l.quantity, 0);
  const received = lines.reduce((a, l) => a + Math.min(l.receivedQuantity, l.quantity), 0);
  return { orderedKg: round(ordered, 4), receivedKg: round(received, 4), pct: ordered > 0 ? round((received / ordered) * 100, 2) : null };
}

/**
 * A line is closed when it is fully received, when its order is cancelled (what arrived is all that will),
 * or when its order is past due: its expected date before `today`, the farm's date (a line due today may
 * still arrive today). Anything else is still being delivered.
 */
export const lineClosed = (order: Pick<OrderRecord, 'status' | 'expectedDate'>, line: Line, today: string): boolean =>
  line.receivedQuantity >= line.quantity || order.status === 'cancelled' || order.expectedDate < today;

const linesWord = (n: number) => (n === 1 ? '1 feed line' : `${n} feed lines`);

/**
 * The fill rate of the feed lines of `orders` that are closed, and the open ones left out: the figure
 * (its assumptions, or its reason, say how many were left out), the kg and the line counts.
 * `todayOf(farmId)`: the farm's date now (each order is dated on its farm's calendar).
 */
export function supplierFill(
  orders: ReadonlyArray<Pick<OrderRecord, 'farmId' | 'status' | 'expectedDate'> & { lines: ReadonlyArray<Line & Pick<OrderLineRecord, 'itemKind'>> }>,
  todayOf: (farmId: string) => string,
  none: string,
) {
  const closed: Line[] = [];
  let openLines = 0;
  for (const o of orders) {
    const today = todayOf(o.farmId);
    for (const l of o.lines.filter((x) => x.itemKind === 'feed')) {
      if (lineClosed(o, l, today)) closed.push(l);
      else openLines += 1;
    }
  }
  const fill = fillRate(closed);
  const leftOut = openLines ? [`${linesWord(openLines)} still being delivered left out`] : [];
  const pct: Figure =
    fill.pct !== null
      ? figure(fill.pct, '%', 2, leftOut)
      : missing('%', openLines ? `no closed feed line yet: ${openLines} still being delivered (left out)` : none);
  return { pct, fill: { orderedKg: fill.orderedKg, receivedKg: fill.receivedKg, lines: closed.length, openLines } };
}
