import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { NetChange, Target } from '../domain/ledger.js';
import type { StockTarget } from '../domain/stock-dates.js';
import { BALANCES } from '../domain/ledger.js';
import { gradesOf, type EggLot } from '../domain/eggs/lots.js';
import type { LotBalance } from '../domain/eggs/lot-history.js';
import { copiesOf } from '../domain/movement-copies.js';
import type { CycleRef, LedgerGroup, MovementRecord } from '../domain/movements/record.js';
import { Conflict } from '../errors.js';
import { batchGet, db, queryAll, tableName } from './client.js';
import type { Write } from './commit.js';
import { absentOr, all, atLeast, atVersion, eq, gt, isNew, type Condition } from './conditions.js';
import { cycleFromItem } from './cycles.js';
import type { CycleRecord } from '../domain/flocks/records.js';
import { pick } from './items.js';
import {
  CYCLE_SK_PREFIX,
  cycleKey,
  dayRollupKey,
  deliveryKey,
  withdrawalKey,
  eggStockKey,
  EGG_LOT_SK_PREFIX,
  eggLotKey,
  cyclePartition,
  farmPartition,
  FEED_STOCK_SK_PREFIX,
  feedStockKey,
  medicineStockKey,
  type Key,
  MOVEMENT_SK_PREFIX,
  movementKey,
  movementsOfCycle,
  movementsOfFarm,
} from './keys.js';
import { queryPage } from './pagination.js';

const FIELDS: readonly (keyof MovementRecord)[] = [
  'id',
  'cycleId',
  'flockId',
  'farmId',
  'type',
  'date',
  'fields',
  'lock',
  'createdAt',
  'createdBy',
  'updatedAt',
  'version',
];
export function movementFromItem(item: Record<string, unknown> | undefined): MovementRecord | undefined {
  if (!item) return undefined;
  return pick<MovementRecord>(item, FIELDS, null);
}

function movementItem(m: MovementRecord) {
  return {
    ...movementKey(m.cycleId, m.id),
    ...movementsOfCycle(m.cycleId),
    GSI1SK: `${m.date}#${m.id}`,
    ...movementsOfFarm(m.farmId),
    GSI2SK: `${m.date}#${m.id}`,
    entity: 'Movement',
    ...m,
  };
}

/** Why a ledger write was refused: which record, so the service can name the balance. */
export class LedgerRefused extends Conflict {
  constructor(
    readonly ref: CycleRef,
    readonly target: Target,
    readonly needs: number | undefined,
    /** The withdrawal revision the write expected on this cycle (a sale), when it had one. */
    readonly withdrawalRev?: number,
  ) {
    super('ledger write refused');
  }
}

function keyOf(ref: CycleRef, target: Target): Key {
  if (target.kind === 'cycle') return cycleKey(ref.flockId, ref.cycleId);
  if (target.kind === 'day') return dayRollupKey(ref.cycleId, target.date);
  if (target.kind === 'eggLot') return eggLotKey(ref.cycleId, target.laidOn);
  return stockKeyOf(ref.farmId, target);
}

/** A farm's stock item of one target. */
function stockKeyOf(farmId: string, target: StockTarget): Key {
  if (target.kind === 'feed') return feedStockKey(farmId, target.feedType);
  if (target.kind === 'eggs') return eggStockKey(farmId);
  return medicineStockKey(farmId, target.product, target.unit);
}

/** A stored egg lot item as the egg draws read it: its laying day and the eggs it holds. */
const eggLotFromItem = (i: Record<string, unknown>): EggLot => ({
  laidOn: String(i.laidOn),
  count: Number(i.count ?? 0),
  ungraded: Number(i.ungraded ?? 0),
  graded: gradesOf(i),
});

/** A stored egg lot item as the lots' rebuild compares it: also the eggs laid into it. */
export const lotFromItem = (i: Record<string, unknown>): LotBalance => ({ ...eggLotFromItem(i), laid: Number(i.laid ?? 0) });

/** What an egg lot item says of itself besides its balances: whose lot, of which laying day. */
export const eggLotDescriptor = (ref: CycleRef, laidOn: string) => ({
  entity: 'EggLot',
  farmId: ref.farmId,
  flockId: ref.flockId,
  cycleId: ref.cycleId,
  laidOn,
});

const DESCRIPTORS: Record<Target['kind'], (ref: CycleRef, t: Target) => Record<string, unknown>> = {
  cycle: () => ({}),
  day: (ref, t) => ({ entity: 'DayRollup', cycleId: ref.cycleId, flockId: ref.flockId, date: (t as { date: string }).date }),
  feed: (ref, t) => ({ entity: 'FeedStock', farmId: ref.farmId, feedType: (t as { feedType: string }).feedType }),
  eggs: (ref) => ({ entity: 'EggStock', farmId: ref.farmId }),
  eggLot: (ref, t) => eggLotDescriptor(ref, (t as { laidOn: string }).laidOn),
  medicine: (ref, t) => {
    const { product, unit } = t as { product: string; unit: string };
    return { entity: 'MedicineStock', farmId: ref.farmId, product, unit };
  },
};

/** The cycle still holds the withdrawal revision a sale read (no medication changed a window since). */
const withdrawalHolds = (rev: number): Condition => (rev === 0 ? absentOr(WITHDRAWAL_REV, 0) : eq(WITHDRAWAL_REV, rev));

/** The condition on a cycle a ledger group writes to: open, and (a sale) at the withdrawal revision read. */
const cycleOpen = (withdrawalRev?: number) => all(eq('status', 'active'), withdrawalRev !== undefined && withdrawalHolds(withdrawalRev));

function changeWrite(ref: CycleRef, change: NetChange, now: string, withdrawalRev: number | undefined): Write {
  const refused = () => new LedgerRefused(ref, change.target, change.requires?.atLeast, withdrawalRev);
  return {
    update: keyOf(ref, change.target),
    add: change.amounts,
    set: { ...DESCRIPTORS[change.target.kind](ref, change.target), updatedAt: now },
    when: all(
      change.target.kind === 'cycle' && cycleOpen(withdrawalRev),
      change.requires && atLeast(change.requires.attribute, change.requires.atLeast),
      ...(change.alsoRequires ?? []).map((r) => atLeast(r.attribute, r.atLeast)),
    ),
    failed: refused,
  };
}

/**
 * A change of the farm's stock made without a cycle (a delivery booked on the farm): the same conditioned
 * update as a cycle's (never below zero; a refusal names the stock), keyed by the farm alone.
 */
export function stockChangeWrite(farmId: string, change: NetChange, now: string): Write {
  if (change.target.kind === 'cycle' || change.target.kind === 'day') throw new Error('a farm movement changes stocks only');
  return changeWrite({ farmId, flockId: '', cycleId: '' }, change, now, undefined);
}

/** Where each copy the ledger asks for lives (the copies themselves: `copiesOf`, shared/domain/movement-copies.ts). */
function copyItems(m: MovementRecord): Array<{ key: Key; item: Record<string, unknown> }> {
  return copiesOf(m).map((c) =>
    c.kind === 'delivery'
      ? { key: deliveryKey(m.cycleId, m.id), item: { entity: 'FeedDelivery', ...c.item } }
      : { key: withdrawalKey(m.farmId, c.item.endDate, m.id), item: { entity: 'Withdrawal', ...c.item } },
  );
}

export interface LedgerWrite {
  groups: LedgerGroup[];
  /** Movements to create (each `attribute_not_exists`). */
  puts?: MovementRecord[];
  /** Movements to replace at their version, still unlocked (edits). */
  replaces?: Array<{ movement: MovementRecord; previous: MovementRecord; expectedVersion: number; createdAfter: string }>;
  /** Movements to delete at their version, still unlocked. */
  deletes?: Array<{ movement: MovementRecord; createdAfter: string }>;
}

export const movementChanged = (id: string) => () => new Conflict(`Movement ${id} was changed, locked or already exists; read it again and retry`);

/** Edits and deletes: only the version read, never a locked movement (manual lock, or older than the auto-lock period). */
export const unlocked = (version: number, createdAfter: string) => all(atVersion(version), eq('lock', null), gt('createdAt', createdAfter));

/**
 * The one way the ledger is written: movements (and their copies), the cycle counters, farm stocks and
 * daily rollups, as the writes of one commit; any balance that would go negative (LedgerRefused, naming
 * it) or a closed cycle cancels all of it.
 */
export function ledgerWrites(w: LedgerWrite, now: string): Write[] {
  const writes: Write[] = [];
  const putCopies = (m: MovementRecord): Write[] => copyItems(m).map((c) => ({ put: { ...c.key, ...c.item }, failed: movementChanged(m.id) }));
  const deleteCopies = (m: MovementRecord, keep: Key[] = []): Write[] =>
    copyItems(m)
      .filter((c) => !keep.some((k) => k.PK === c.key.PK && k.SK === c.key.SK))
      .map((c) => ({ delete: c.key, failed: movementChanged(m.id) }));
  for (const m of w.puts ?? []) writes.push({ put: movementItem(m), when: isNew(), failed: movementChanged(m.id) }, ...putCopies(m));
  for (const r of w.replaces ?? []) {
    const item = movementItem(r.movement);
    writes.push(
      { put: item, when: unlocked(r.expectedVersion, r.createdAfter), failed: movementChanged(r.movement.id) },
      ...deleteCopies(
        r.previous,
        copyItems(r.movement).map((c) => c.key),
      ),
      ...putCopies(r.movement),
    );
  }
  for (const d of w.deletes ?? [])
    writes.push(
      { delete: movementKey(d.movement.cycleId, d.movement.id), when: unlocked(d.movement.version, d.createdAfter), failed: movementChanged(d.movement.id) },
      ...deleteCopies(d.movement),
    );
  const windowsChanged = cyclesWithChangedWindows(w);
  for (const g of w.groups) {
    const changes = windowsChanged.has(g.ref.cycleId) ? withRevisionBump(g.changes) : g.changes;
    for (const change of changes) writes.push(changeWrite(g.ref, change, now, g.withdrawalRev));
    // A write that changes no cycle counter must still find the cycle open.
    if (!changes.some((c) => c.target.kind === 'cycle'))
      writes.push({
        check: cycleKey(g.ref.flockId, g.ref.cycleId),
        when: cycleOpen(g.withdrawalRev),
        failed: () => new LedgerRefused(g.ref, { kind: 'cycle' }, undefined, g.withdrawalRev),
      });
  }
  return writes;
}

/**
 * The cycle attribute every write that opens, moves or closes a withdrawal window adds 1 to, in the same
 * transaction: a sale that read the windows conditions on it, so a sale and a medication never both pass
 * on stale reads (docs/decisions.md, "Compliance").
 */
export const WITHDRAWAL_REV = 'withdrawalRev';

const windowKeyOf = (m: MovementRecord) =>
  copyItems(m)
    .filter((c) => c.item.entity === 'Withdrawal')
    .map((c) => `${c.key.SK}|${String(c.item.date)}`);

/** The cycles whose withdrawal windows this write opens, changes or closes. */
function cyclesWithChangedWindows(w: LedgerWrite): Set<string> {
  const out = new Set<string>();
  for (const m of w.puts ?? []) if (windowKeyOf(m).length) out.add(m.cycleId);
  for (const d of w.deletes ?? []) if (windowKeyOf(d.movement).length) out.add(d.movement.cycleId);
  for (const r of w.replaces ?? []) if (windowKeyOf(r.movement).join() !== windowKeyOf(r.previous).join()) out.add(r.movement.cycleId);
  return out;
}

/** The group's changes with the cycle's withdrawal revision bumped (a cycle change is added when there was none). */
function withRevisionBump(changes: NetChange[]): NetChange[] {
  const cycle = changes.find((c) => c.target.kind === 'cycle');
  if (!cycle) return [...changes, { target: { kind: 'cycle' }, amounts: { [WITHDRAWAL_REV]: 1 } }];
  return changes.map((c) => (c === cycle ? { ...c, amounts: { ...c.amounts, [WITHDRAWAL_REV]: 1 } } : c));
}

/** The current value of a balance (for the refusal message). */
export async function balanceOf(ref: CycleRef, target: Target): Promise<{ value: number; cycle?: CycleRecord; withdrawalRev: number }> {
  const [item] = await batchGet([keyOf(ref, target)], { consistent: true });
  const attribute = BALANCES[target.kind];
  return {
    value: Number((attribute && item?.[attribute]) ?? 0),
    cycle: target.kind === 'cycle' ? cycleFromItem(item) : undefined,
    withdrawalRev: Number(item?.[WITHDRAWAL_REV] ?? 0),
  };
}

/** The cycle and one of its movements in ONE read. */
export async function getCycleAndMovement(flockId: string, cycleId: string, movementId: string) {
  const items = await batchGet([cycleKey(flockId, cycleId), movementKey(cycleId, movementId)], { consistent: true });
  return {
    cycle: cycleFromItem(items.find((i) => String(i.SK).startsWith(CYCLE_SK_PREFIX))),
    movement: movementFromItem(items.find((i) => String(i.SK).startsWith(MOVEMENT_SK_PREFIX))),
  };
}

/** The cycle's egg lots with eggs on hand, oldest laying day first (one consistent Query of its partition). */
export async function eggLotsOnHand(cycleId: string): Promise<EggLot[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :s)',
    FilterExpression: '#count > :zero',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':pk': cyclePartition(cycleId), ':s': EGG_LOT_SK_PREFIX, ':zero': 0 },
    ConsistentRead: true,
  });
  return items.map(eggLotFromItem);
}

/** Feed types the farm holds in stock (kg > 0), for consumption without a feed type. */
export async function feedTypesInStock(farmId: string): Promise<Array<{ feedType: string; kg: number }>> {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :s)',
      FilterExpression: 'kg > :zero',
      ExpressionAttributeValues: { ':pk': farmPartition(farmId), ':s': FEED_STOCK_SK_PREFIX, ':zero': 0 },
      ConsistentRead: true,
    }),
  );
  return (res.Items ?? []).map((i) => ({ feedType: i.feedType as string, kg: i.kg as number }));
}

export async function listMovements(cycleId: string, opts: { limit: number; cursor?: string; type?: string; from?: string; to?: string }) {
  const values: Record<string, unknown> = { ':pk': movementsOfCycle(cycleId).GSI1PK, ':from': opts.from ?? '0000', ':to': `${opts.to ?? '9999-12-31'}#~` };
  if (opts.type) values[':type'] = opts.type;
  const page = await queryPage(
    {
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
      ...(opts.type ? { FilterExpression: '#type = :type', ExpressionAttributeNames: { '#type': 'type' } } : {}),
      ExpressionAttributeValues: values,
    },
    opts,
  );
  return { items: page.items.map((i) => movementFromItem(i)!), nextCursor: page.nextCursor };
}

/** Stock items as they stand (one consistent BatchGetItem), looked up by farm and target: a write's dated stock decreases are judged against them. */
export async function readStockItems(
  wanted: ReadonlyArray<{ farmId: string; target: StockTarget }>,
): Promise<(farmId: string, target: StockTarget) => Record<string, unknown> | undefined> {
  const keys = new Map(wanted.map((w) => stockKeyOf(w.farmId, w.target)).map((k) => [`${k.PK}|${k.SK}`, k]));
  const items = keys.size ? await batchGet([...keys.values()], { consistent: true }) : [];
  return (farmId, target) => {
    const key = stockKeyOf(farmId, target);
    return items.find((i) => i.PK === key.PK && i.SK === key.SK);
  };
}
