/**
 * A farm stock's balance at every date, without I/O. The stock item holds its balance now (`kg`,
 * `count`, `quantity`, never below zero: the ledger's writes are conditioned on it) and, beside it, the
 * net change of each date (`kg@2026-11-22`, see ./ledger.ts). The balance at the end of a past date is the
 * balance now less the changes dated after it.
 *
 * The rule (docs/decisions.md, "Balances at every date"): a back-dated entry is accepted even when the
 * stock at its date would have been short (the delivery note that covers it is often entered later), and
 * the answer warns about it; the stock view lists the dates a stock is short until the paperwork is in.
 */
import type { StockShortfallWarning } from '../../schemas/warnings.js';
import { AT_DATE, OUT, type NetChange, type Target } from './ledger.js';
import type { LedgerGroup } from './movements/record.js';
import type { FarmLedgerGroup } from './movements/farm.js';
import type { FarmFeed } from './analytics/inputs.js';

export type StockBalance = 'kg' | 'count' | 'quantity';
/** A stock item's per-date counters: the balance's net change, or what was taken out. */
type DatedCounter = StockBalance | `${StockBalance}${typeof OUT}`;

/** A run of dates on which the stock was below zero: from the first such date to the date it recovered (null: not yet). */
export interface Shortfall {
  from: string;
  until: string | null;
  /** The lowest balance in the run (negative). */
  lowest: number;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** The per-date changes of a balance, from a stock item's attributes (or a pending change's amounts). */
export function datedChanges(attributes: Record<string, unknown>, counter: DatedCounter): Map<string, number> {
  const prefix = `${counter}${AT_DATE}`;
  const out = new Map<string, number>();
  for (const [name, value] of Object.entries(attributes)) {
    if (name.startsWith(prefix) && typeof value === 'number' && value !== 0) out.set(name.slice(prefix.length), value);
  }
  return out;
}

/** What was taken out of a stock on each date (consumption, sales, losses, treatments, transfers out; net of corrections). */
export function takenOutByDate(attributes: Record<string, unknown>, balance: StockBalance): Map<string, number> {
  return datedChanges(attributes, `${balance}${OUT}`);
}

/** The balance at the end of `date`: the balance now less the changes dated after it. */
export function balanceAt(now: number, dated: ReadonlyMap<string, number>, date: string): number {
  let later = 0;
  for (const [d, amount] of dated) if (d > date) later += amount;
  return round(now - later);
}

/** The balance at the end of each date with a change, oldest first, from the balance now and the dated changes. */
export function balancesByDate(now: number, dated: ReadonlyMap<string, number>): Array<{ date: string; balance: number }> {
  const dates = [...dated.keys()].sort();
  // Stock written before dated counters existed has no date: it counts as an opening balance before the first date.
  let balance = round(now - [...dated.values()].reduce((a, b) => a + b, 0));
  return dates.map((date) => {
    balance = round(balance + dated.get(date)!);
    return { date, balance };
  });
}

/** The runs of dates on which the stock was below zero. */
export function shortfallsOf(now: number, dated: ReadonlyMap<string, number>): Shortfall[] {
  const out: Shortfall[] = [];
  let open: Shortfall | undefined;
  for (const { date, balance } of balancesByDate(now, dated)) {
    if (balance < 0) {
      if (open) open.lowest = Math.min(open.lowest, balance);
      else {
        open = { from: date, until: null, lowest: balance };
        out.push(open);
      }
    } else if (open) {
      open.until = date;
      open = undefined;
    }
  }
  return out;
}

/** A stock as it stands (its balance now and dated changes) and a pending change to it (net amounts per attribute). */
export interface PendingStockChange {
  balance: StockBalance;
  current: Record<string, unknown> | undefined;
  amounts: Record<string, number>;
}

/**
 * The shortfall a pending change leaves at or after its earliest date that was not there before (a
 * back-dated consumption before the delivery that covers it), or null. A change that only adds, or
 * that leaves every date at or above zero, or no lower than it already was, is no shortfall.
 */
export function shortfallCaused(p: PendingStockChange): Shortfall | null {
  const changed = datedChanges(p.amounts, p.balance);
  if (![...changed.values()].some((v) => v < 0)) return null;
  const before = datedChanges(p.current ?? {}, p.balance);
  const after = new Map(before);
  for (const [date, amount] of changed) after.set(date, round((after.get(date) ?? 0) + amount));
  const nowBefore = Number(p.current?.[p.balance] ?? 0);
  const nowAfter = round(nowBefore + (p.amounts[p.balance] ?? 0));
  const from = [...changed.keys()].sort()[0]!;
  const lowestBefore = new Map(balancesByDate(nowBefore, before).map((b) => [b.date, b.balance]));
  const caused = shortfallsOf(nowAfter, after).find((s) => (s.until === null || s.until > from) && s.lowest < (lowestBefore.get(s.from) ?? 0));
  return caused ?? null;
}

export type StockTarget = Extract<Target, { kind: 'feed' | 'eggs' | 'medicine' }>;
const BALANCE_OF: Record<StockTarget['kind'], StockBalance> = { feed: 'kg', eggs: 'count', medicine: 'quantity' };

export const isStockTarget = (t: Target): t is StockTarget => t.kind === 'feed' || t.kind === 'eggs' || t.kind === 'medicine';

/** The net changes of one write on a farm's records: a cycle's ledger group, or a delivery booked on the farm. */
export type StockGroup = Pick<LedgerGroup, 'ref' | 'changes'> | FarmLedgerGroup;
const farmOf = (g: StockGroup) => ('ref' in g ? g.ref.farmId : g.farmId);

/**
 * The stock changes of a write that take a balance down on a date before `before` (today): only these can
 * leave a past date short. A decrease dated today cannot: the balance at the end of today is the balance
 * now, which the write keeps at or above zero (entries dated after today, possible only in zones ahead of
 * UTC, are left to the stock view).
 */
export function datedDecreases(groups: ReadonlyArray<StockGroup>, before: string): Array<{ farmId: string; target: StockTarget; change: NetChange }> {
  const takesDownBefore = (change: NetChange & { target: StockTarget }) =>
    [...datedChanges(change.amounts, BALANCE_OF[change.target.kind])].some(([date, v]) => v < 0 && date < before);
  return groups.flatMap((g) =>
    g.changes.flatMap((change) =>
      isStockTarget(change.target) && takesDownBefore(change as NetChange & { target: StockTarget })
        ? [{ farmId: farmOf(g), target: change.target, change }]
        : [],
    ),
  );
}

/** What the stock is called in words and on the wire. */
function named(t: StockTarget): { words: string; unit: string; fields: Pick<StockShortfallWarning, 'stock' | 'feedType' | 'product' | 'unit'> } {
  if (t.kind === 'feed') return { words: `Feed "${t.feedType}"`, unit: 'kg', fields: { stock: 'feed', feedType: t.feedType } };
  if (t.kind === 'eggs') return { words: 'The egg stock', unit: 'eggs', fields: { stock: 'eggs' } };
  return { words: `Medicine "${t.product}"`, unit: t.unit, fields: { stock: 'medicine', product: t.product, unit: t.unit } };
}

/** The warning of a shortfall a write causes (see `shortfallCaused`). */
export function shortfallWarning(farmId: string, target: StockTarget, s: Shortfall): StockShortfallWarning {
  const { words, unit, fields } = named(target);
  const span = s.until ? `from ${s.from} until ${s.until}` : `from ${s.from}`;
  return {
    code: 'stock_short_at_date',
    message:
      `${words} would have been ${-s.lowest} ${unit} short ${span}: ` +
      `record the delivery dated on or before ${s.from} that covered it, or correct this entry's date`,
    farmId,
    ...fields,
    from: s.from,
    until: s.until,
    lowest: s.lowest,
  };
}

/** The warnings of a write's dated stock decreases, judged against the stock items as read (by target id, see `targetId`). */
export function shortfallWarnings(
  decreases: ReturnType<typeof datedDecreases>,
  current: (farmId: string, target: StockTarget) => Record<string, unknown> | undefined,
): StockShortfallWarning[] {
  return decreases.flatMap(({ farmId, target, change }) => {
    const s = shortfallCaused({ balance: BALANCE_OF[target.kind], current: current(farmId, target), amounts: change.amounts });
    return s ? [shortfallWarning(farmId, target, s)] : [];
  });
}

/** Every feed type of a farm together: kg now, the net change and what was taken out on each date. */
export function farmFeedOf(feed: ReadonlyArray<{ kg: number; dated: ReadonlyMap<string, number>; out: ReadonlyMap<string, number> }>): FarmFeed {
  const sum = (maps: ReadonlyArray<ReadonlyMap<string, number>>) => {
    const out = new Map<string, number>();
    for (const m of maps) for (const [d, v] of m) out.set(d, round((out.get(d) ?? 0) + v));
    return out;
  };
  return { kg: round(feed.reduce((a, f) => a + f.kg, 0)), dated: sum(feed.map((f) => f.dated)), out: sum(feed.map((f) => f.out)) };
}
