/**
 * The movement ledger's rules, without I/O. A movement changes counters on three kinds of records:
 * the cycle (birds and totals), the farm's stock (feed per type, eggs, medicines per product and unit)
 * and the cycle's daily rollup.
 * Writes are planned as NET deltas per record, so a create, an edit (reverse old + apply new) or a
 * whole daily form touches each record once in one transaction, and "never negative" is checked on the
 * net change of each balance.
 */
import type { MedicineUnit, MovementInput, MovementType } from '../../schemas/movements.js';
import { FARM_MOVEMENT_TYPES } from '../../schemas/compiled/constants/movements.js';
import { Conflict, type FieldError, ValidationFailed } from '../errors.js';
import type { DayCounter, DayCounterMap } from './analytics/inputs.js';
import type { CycleCounter } from './cycle-summary.js';
import { PLACED_BY_DATE } from './age.js';
import { roleAtLeast, type Role } from './capabilities.js';
import type { Caller } from './caller.js';
import { isGraded, lotBalanceOf, type GradedAttribute, type LotDraw } from './eggs/lots.js';
import { saleEffects, transferCostEffects } from './ledger-prices.js';

export type Target =
  | { kind: 'cycle' }
  | { kind: 'feed'; feedType: string }
  | { kind: 'eggs' }
  | { kind: 'eggLot'; laidOn: string }
  | { kind: 'medicine'; product: string; unit: MedicineUnit }
  | { kind: 'day'; date: string };

/**
 * What a movement adds to on the cycle record: its counters, `soldWeightKg` (live kg of the sales
 * that gave a weight), which the record keeps but the cycle summary does not read, and the birds placed
 * per date (`placedByDate.<date>`), from which the record's first placement date is read (./age.ts).
 */
export type CycleAttribute = CycleCounter | 'soldWeightKg' | `${typeof PLACED_BY_DATE}.${string}`;
/** What a movement adds to on the day's rollup: its counters, and one key of a per-key counter (`deathsByCause.heat`). */
export type DayAttribute = DayCounter | `${DayCounterMap}.${string}`;

/** One counter change: a counter of the target record (a misspelt counter does not compile) and the amount added. */
export type Delta =
  | { target: { kind: 'cycle' }; attribute: CycleAttribute; amount: number }
  | { target: { kind: 'day'; date: string }; attribute: DayAttribute; amount: number }
  | { target: { kind: 'feed'; feedType: string }; attribute: StockAttribute<'kg'>; amount: number }
  | { target: { kind: 'eggs' }; attribute: StockAttribute<'count'> | GradedAttribute; amount: number }
  | { target: { kind: 'eggLot'; laidOn: string }; attribute: 'count' | 'laid' | 'ungraded' | GradedAttribute; amount: number }
  | { target: { kind: 'medicine'; product: string; unit: MedicineUnit }; attribute: StockAttribute<'quantity'>; amount: number };

/**
 * What a movement adds to on a stock item: its balance, and the balance's per-date counter
 * (`kg@2026-11-22`: the net change dated that day), from which the balance at any past date is read
 * (./stock-dates.ts). The balance is the stock now; the per-date counters say how it got there.
 */
export type StockAttribute<B extends string> = B | `${B}${typeof AT_DATE}${string}` | `${B}${typeof OUT}${typeof AT_DATE}${string}`;

/** Separates a stock balance's name from the date of its per-date counter. */
export const AT_DATE = '@';
/** Marks the per-date counter of what was taken out (`kgOut@2026-11-22`). */
export const OUT = 'Out';

/** Balances that may never go below zero, per target kind. */
export const BALANCES: { cycle: CycleCounter; feed: 'kg'; eggs: 'count'; eggLot: 'count'; medicine: 'quantity'; day: undefined } = {
  cycle: 'alive',
  feed: 'kg',
  eggs: 'count',
  eggLot: 'count',
  medicine: 'quantity',
  day: undefined,
};

type StockKind = 'feed' | 'eggs' | 'medicine';
const isStock = (d: Delta): d is Extract<Delta, { target: { kind: StockKind } }> =>
  d.target.kind === 'feed' || d.target.kind === 'eggs' || d.target.kind === 'medicine';

/**
 * Each stock change also counts on its date (`kg@<date>`, net), so the stock's balance at every past date
 * can be told; what the farm takes out (consumption, sales, losses, treatments, transfers out) also counts
 * on its own (`kgOut@<date>`, net of corrections), so the farm's daily use can be told from deliveries.
 * A reversal (`sign` −1) counts in the direction of the movement it reverses.
 */
function withDatedStock(deltas: Delta[], date: string, sign: 1 | -1): Delta[] {
  const dated = deltas
    .filter((d) => isStock(d) && d.attribute === BALANCES[d.target.kind])
    .flatMap((d) => {
      const net = { ...d, attribute: `${d.attribute}${AT_DATE}${date}` } as Delta;
      const takesOut = Math.sign(d.amount) * sign < 0;
      return takesOut ? [net, { ...d, attribute: `${d.attribute}${OUT}${AT_DATE}${date}`, amount: -d.amount } as Delta] : [net];
    });
  return [...deltas, ...dated];
}

const BIRDS_OUT: Partial<Record<MovementType, CycleCounter & DayCounter>> = {
  bird_mortality: 'deaths',
  bird_cull: 'culls',
  bird_sale: 'sold',
  bird_transfer_out: 'transferredOut',
};

/**
 * The counter changes one movement causes (`sign` −1 reverses them). `feedType` is the resolved feed type for consumption.
 * A stock change comes with its dated twin (`kg@<date>`).
 */
export function effectsOf(m: MovementInput, sign: 1 | -1 = 1, resolvedFeedType?: string): Delta[] {
  return withDatedStock(movementEffects(m, sign, resolvedFeedType), m.date, sign);
}

function movementEffects(m: MovementInput, sign: 1 | -1, resolvedFeedType?: string): Delta[] {
  const cycle = (attribute: CycleAttribute, amount: number): Delta => ({ target: { kind: 'cycle' }, attribute, amount: sign * amount });
  const day = (attribute: DayAttribute, amount: number): Delta => ({ target: { kind: 'day', date: m.date }, attribute, amount: sign * amount });
  const out: Delta[] = [cycle('movementCount', 1)];
  switch (m.type) {
    case 'bird_inflow':
      out.push(cycle('placed', m.quantity), cycle('alive', m.quantity), cycle(`${PLACED_BY_DATE}.${m.date}`, m.quantity), day('placed', m.quantity));
      if (m.averageWeightGrams !== undefined) out.push(day('inflowWeightGramsSum', m.quantity * m.averageWeightGrams), day('birdsInflowWeighed', m.quantity));
      if (m.unitCost !== undefined) out.push(day('birdsPlacedPriced', m.quantity), day('birdPlacementCostPriced', m.quantity * m.unitCost));
      break;
    case 'bird_transfer_in':
      out.push(cycle('transferredIn', m.quantity), cycle('alive', m.quantity), day('transferredIn', m.quantity), ...transferCostEffects(m, day));
      break;
    case 'bird_mortality':
    case 'bird_cull':
    case 'bird_sale':
    case 'bird_transfer_out': {
      const counter = BIRDS_OUT[m.type]!;
      out.push(cycle(counter, m.quantity), cycle('alive', -m.quantity), day(counter, m.quantity));
      if (m.type === 'bird_mortality') out.push(day(`deathsByCause.${m.cause ?? 'unknown'}`, m.quantity));
      if (m.type === 'bird_sale') out.push(...saleEffects(m, cycle, day));
      if (m.type === 'bird_transfer_out') out.push(...transferCostEffects(m, day));
      break;
    }
    case 'feed_delivery':
      out.push(
        cycle('feedDeliveredKg', m.quantityKg),
        { target: { kind: 'feed', feedType: m.feedType }, attribute: 'kg', amount: sign * m.quantityKg },
        day('feedDeliveredKg', m.quantityKg),
      );
      out.push(day(`feedDeliveredKgByType.${m.feedType}`, m.quantityKg));
      if (m.unitPrice !== undefined)
        out.push(day(`feedDeliveredPricedKgByType.${m.feedType}`, m.quantityKg), day(`feedDeliveredCostByType.${m.feedType}`, m.quantityKg * m.unitPrice));
      break;
    case 'feed_consumption': {
      const feedType = m.feedType ?? resolvedFeedType;
      if (!feedType) throw new Error('feed_consumption needs a resolved feed type');
      out.push(
        cycle('feedConsumedKg', m.quantityKg),
        { target: { kind: 'feed', feedType }, attribute: 'kg', amount: -sign * m.quantityKg },
        day('feedConsumedKg', m.quantityKg),
      );
      out.push(day(`feedConsumedKgByType.${feedType}`, m.quantityKg));
      break;
    }
    case 'egg_collection': {
      const grades = Object.entries(m.grades ?? {}).filter(([, n]) => n > 0);
      const graded = grades.reduce((a, [, n]) => a + n, 0);
      out.push(
        cycle('eggsCollected', m.totalEggs),
        { target: { kind: 'eggs' }, attribute: 'count', amount: sign * m.totalEggs },
        day('eggsCollected', m.totalEggs),
        ...lotChanges([{ laidOn: m.date, quantity: m.totalEggs }], sign, { laid: true, ungraded: m.totalEggs - graded }),
      );
      for (const [grade, n] of grades) {
        const balance = lotBalanceOf(grade) as GradedAttribute;
        out.push(
          { target: { kind: 'eggs' }, attribute: balance, amount: sign * n },
          { target: { kind: 'eggLot', laidOn: m.date }, attribute: balance, amount: sign * n },
          day(`eggsByGrade.${grade}`, n),
        );
      }
      if (graded) out.push(day('eggsGraded', graded));
      if (m.floor) out.push(day('eggsFloor', m.floor));
      if (m.cracked) out.push(cycle('eggsCracked', m.cracked), day('eggsCracked', m.cracked));
      if (m.dirty) out.push(cycle('eggsDirty', m.dirty), day('eggsDirty', m.dirty));
      if (m.doubleYolk) out.push(day('eggsDoubleYolk', m.doubleYolk));
      if (m.averageEggWeightGrams !== undefined && m.totalEggs > 0)
        out.push(day('eggWeightGramsSum', m.totalEggs * m.averageEggWeightGrams), day('eggsWeighed', m.totalEggs));
      break;
    }
    case 'egg_sale':
    case 'egg_loss': {
      const counter = m.type === 'egg_sale' ? 'eggsSold' : 'eggsLost';
      out.push(cycle(counter, m.quantity), { target: { kind: 'eggs' }, attribute: 'count', amount: -sign * m.quantity }, day(counter, m.quantity));
      out.push(...lotChanges(m.fromLots, -sign as 1 | -1, { grade: m.grade }));
      if (m.grade) out.push({ target: { kind: 'eggs' }, attribute: lotBalanceOf(m.grade) as GradedAttribute, amount: -sign * m.quantity });
      if (m.type === 'egg_sale' && m.unitPrice !== undefined)
        out.push(day('eggsSoldPriced', m.quantity), day('eggSaleRevenuePriced', m.quantity * m.unitPrice));
      break;
    }
    case 'medication':
    case 'vaccination': {
      const counter = m.type === 'medication' ? 'medications' : 'vaccinations';
      out.push(cycle(counter, 1), day(counter, 1));
      if (m.fromStock) out.push(medicine(m.type === 'medication' ? m.product : m.vaccine, m.fromStock.unit, -sign * m.fromStock.quantity));
      break;
    }
    case 'medicine_delivery':
      out.push(medicine(m.product, m.unit, sign * m.quantity));
      break;
    case 'water_consumption':
      out.push(cycle('waterLiters', m.liters), day('waterLiters', m.liters));
      break;
    // Sharing: a transfer between farms moves stock only (no cycle or daily counter: feed is not eaten, eggs not laid or sold)
    case 'feed_transfer_out':
    case 'feed_transfer_in':
      out.push({ target: { kind: 'feed', feedType: m.feedType }, attribute: 'kg', amount: (m.type === 'feed_transfer_in' ? sign : -sign) * m.quantityKg });
      break;
    case 'egg_transfer_out':
    case 'egg_transfer_in': {
      const direction = m.type === 'egg_transfer_in' ? sign : (-sign as 1 | -1);
      out.push({ target: { kind: 'eggs' }, attribute: 'count', amount: direction * m.quantity });
      out.push(...lotChanges(m.fromLots, direction, { grade: m.grade }));
      if (m.grade) out.push({ target: { kind: 'eggs' }, attribute: lotBalanceOf(m.grade) as GradedAttribute, amount: direction * m.quantity });
      break;
    }
  }
  return out;
}

/**
 * The cycle's egg lots a movement changes (shared/domain/eggs/lots.ts): a collection adds its eggs to the
 * lot of its day (counted as laid there; its graded eggs per grade, the rest ungraded); a sale, loss or
 * transfer out takes them from the lots it drew (from the grade it names, else the ungraded eggs); a
 * transfer in adds them to lots of their laying days (as the grade it names, else ungraded). Movements recorded before lots (no
 * `fromLots`) change none.
 */
function lotChanges(draws: readonly LotDraw[] | undefined, sign: 1 | -1, opts: { laid?: boolean; ungraded?: number; grade?: string | undefined }): Delta[] {
  return (draws ?? []).flatMap((d): Delta[] => {
    const target = { kind: 'eggLot' as const, laidOn: d.laidOn };
    const out: Delta[] = [{ target, attribute: 'count', amount: sign * d.quantity }];
    if (opts.laid) out.push({ target, attribute: 'laid', amount: sign * d.quantity });
    if (opts.ungraded !== undefined) out.push({ target, attribute: 'ungraded', amount: sign * opts.ungraded });
    else out.push({ target, attribute: lotBalanceOf(opts.grade), amount: sign * d.quantity });
    return out;
  });
}

/** A change of the farm's medicine stock of one product in one unit (the product as named, trimmed). */
const medicine = (product: string, unit: MedicineUnit, amount: number): Delta => ({
  target: { kind: 'medicine', product: product.trim(), unit },
  attribute: 'quantity',
  amount,
});

export function targetId(t: Target): string {
  if (t.kind === 'feed') return `feed:${t.feedType}`;
  if (t.kind === 'day') return `day:${t.date}`;
  if (t.kind === 'eggLot') return `eggLot:${t.laidOn}`;
  if (t.kind === 'medicine') return `medicine:${t.unit}:${t.product}`;
  return t.kind;
}

export interface NetChange {
  target: Target;
  /** attribute → net amount (zero entries removed) */
  amounts: Record<string, number>;
  /** the balance attribute and how much it must hold for the change to keep it ≥ 0, when it decreases */
  requires?: { attribute: string; atLeast: number };
  /** an egg lot's grade balances (or ungraded eggs) that decrease, each held to the same rule */
  alsoRequires?: Array<{ attribute: string; atLeast: number }>;
}

/** Sums deltas per record and attribute; a record whose balance decreases gets its requirement. */
export function netChanges(deltas: Delta[]): NetChange[] {
  const byTarget = new Map<string, NetChange>();
  for (const d of deltas) {
    const id = targetId(d.target);
    const change = byTarget.get(id) ?? { target: d.target, amounts: {} };
    change.amounts[d.attribute] = round((change.amounts[d.attribute] ?? 0) + d.amount);
    byTarget.set(id, change);
  }
  const out: NetChange[] = [];
  for (const change of byTarget.values()) {
    for (const [k, v] of Object.entries(change.amounts)) if (v === 0) delete change.amounts[k];
    if (Object.keys(change.amounts).length === 0) continue;
    const balance = BALANCES[change.target.kind];
    const net = balance ? change.amounts[balance] : undefined;
    if (balance && net !== undefined && net < 0) change.requires = { attribute: balance, atLeast: -net };
    if (change.target.kind === 'eggLot') {
      const grades = Object.entries(change.amounts).filter(([k, v]) => (k === 'ungraded' || isGraded(k)) && v < 0);
      if (grades.length) change.alsoRequires = grades.map(([attribute, v]) => ({ attribute, atLeast: -v }));
    }
    out.push(change);
  }
  return out;
}

/** Floating point kilos: keep 6 decimals so 0.1 + 0.2 sums stay exact enough for balances. */
const round = (n: number) => Math.round(n * 1e6) / 1e6;

export type LockType = 'manual' | 'automatic';
export interface StoredLock {
  type: LockType;
  reason: string;
  at: string;
  by: string | null;
  /** A manual lock: the locker's role when it locked (locks set before roles were kept have none). */
  byRole?: Role | 'system';
}

export const DEFAULT_AUTO_LOCK_HOURS = 72;

/**
 * The lock in force: a stored lock (manual, or automatic from cycle close), else automatic when the
 * cycle is closed or the movement is older than the auto-lock period.
 */
export function effectiveLock(
  m: { lock: StoredLock | null; createdAt: string },
  cycle: { status: string; closedAt?: string | null },
  now: Date,
  autoLockHours = DEFAULT_AUTO_LOCK_HOURS,
): StoredLock | null {
  if (m.lock) return m.lock;
  if (cycle.status === 'closed') return { type: 'automatic', reason: 'cycle closed', at: cycle.closedAt ?? now.toISOString(), by: null };
  const lockAt = new Date(new Date(m.createdAt).getTime() + autoLockHours * 3600_000);
  if (lockAt <= now) return { type: 'automatic', reason: `older than ${autoLockHours} h`, at: lockAt.toISOString(), by: null };
  return null;
}

/** Who locks for review (managers by default): holding it lifts any manual lock. */
export const REVIEW_CAPABILITY = 'manage_flocks';

/**
 * Who may lift a lock. Automatic locks (older than the auto-lock period, or the cycle closed) stay for
 * everyone. A manual lock is lifted by a holder of REVIEW_CAPABILITY, or by a caller at the locker's own
 * level or above (the locker's role when it locked, in ROLE_ORDER): a worker lifts a worker's lock, never
 * a manager's or a veterinarian's. A manual lock without the locker's role needs REVIEW_CAPABILITY.
 */
export function unlockRefusal(caller: Pick<Caller, 'role' | 'capabilities'>, lock: StoredLock): 'automatic' | 'higher-level' | null {
  if (lock.type === 'automatic') return 'automatic';
  if (caller.capabilities.has(REVIEW_CAPABILITY)) return null;
  return lock.byRole !== undefined && roleAtLeast(caller.role, lock.byRole) ? null : 'higher-level';
}

/** A record of a cycle (movement, reading) dates within it: not before its start, not after its end, not in the future. */
export function recordDateProblems(date: string, cycle: { startDate: string; endDate: string | null }, latestDate: string): FieldError[] {
  const out: FieldError[] = [];
  if (date < cycle.startDate) out.push({ field: 'date', message: `must not be before the cycle's start date ${cycle.startDate}` });
  if (date > latestDate) out.push({ field: 'date', message: 'must not be in the future' });
  if (cycle.endDate && date > cycle.endDate) out.push({ field: 'date', message: `must not be after the cycle's end date ${cycle.endDate}` });
  return out;
}

/**
 * What the per-type schemas cannot say: a movement dates within its cycle (not before the start, not
 * in the future anywhere on Earth, not after a closed cycle's end), egg sub-counts stay within the eggs
 * collected, a delivery's order dates come before it, and a transfer goes to another flock.
 */
export function movementProblems(m: MovementInput, cycle: { flockId: string; startDate: string; endDate: string | null }, latestDate: string): FieldError[] {
  const out = recordDateProblems(m.date, cycle, latestDate).map((p) =>
    // a delivery before the chicks arrive belongs to the farm's stock, not to the cycle
    (FARM_MOVEMENT_TYPES as readonly string[]).includes(m.type) && m.date < cycle.startDate
      ? {
          ...p,
          message: `${p.message}; a delivery before placement is booked on the farm's stock (POST /api/v1/inventory/movements, or a receipt line without flockId)`,
        }
      : p,
  );
  if (m.type === 'egg_collection') {
    for (const part of ['cracked', 'dirty', 'doubleYolk', 'floor'] as const) {
      if ((m[part] ?? 0) > m.totalEggs) out.push({ field: `${part}`, message: `must not exceed totalEggs (${m.totalEggs})` });
    }
    const graded = Object.values(m.grades ?? {}).reduce((a, b) => a + b, 0);
    if (graded > m.totalEggs) out.push({ field: 'grades', message: `add up to ${graded}, more than totalEggs (${m.totalEggs})` });
  }
  out.push(...deliveryProblems(m));
  if ((m.type === 'bird_transfer_in' || m.type === 'bird_transfer_out') && m.counterpartFlockId === cycle.flockId)
    out.push({ field: 'counterpartFlockId', message: 'must be another flock' });
  return out;
}

/** A feed delivery's order dates come before it. */
function deliveryProblems(m: MovementInput): FieldError[] {
  const out: FieldError[] = [];
  if (m.type !== 'feed_delivery') return out;
  if (m.orderedDate && m.orderedDate > m.date) out.push({ field: 'orderedDate', message: 'must not be after the delivery date' });
  if (m.orderedDate && m.expectedDate && m.expectedDate < m.orderedDate) out.push({ field: 'expectedDate', message: 'must not be before the order date' });
  return out;
}

/** A delivery booked on the farm (no cycle): any past day, never a future one, and its order dates before it. */
export function farmMovementProblems(m: MovementInput, latestDate: string): FieldError[] {
  const out: FieldError[] = m.date > latestDate ? [{ field: 'date', message: 'must not be in the future' }] : [];
  return [...out, ...deliveryProblems(m)];
}

/** What a delivery booked on the farm changes: the farm's stock only (no cycle counter, no daily rollup). */
export const farmEffectsOf = (m: MovementInput, sign: 1 | -1 = 1): Delta[] =>
  effectsOf(m, sign).filter((d) => d.target.kind !== 'cycle' && d.target.kind !== 'day');

/** Feed consumption recorded without a feed type takes the farm's feed in stock (see `feedTypeFromStock`). */
export const needsFeedType = (m: MovementInput): boolean => m.type === 'feed_consumption' && !m.feedType;

/** The feed a consumption without a type draws from: the farm's only feed in stock; none or several cannot be guessed. */
export function feedTypeFromStock(farmId: string, inStock: readonly string[]): string {
  if (inStock.length === 1) return inStock[0]!;
  if (inStock.length === 0) throw new Conflict(`No feed in stock on farm ${farmId}; record a feed_delivery first`);
  throw new ValidationFailed([{ field: 'feedType', message: `is required: the farm stocks ${inStock.join(', ')}` }]);
}
