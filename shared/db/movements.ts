import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { NetChange, StoredLock, Target } from '../domain/ledger.js';
import { BALANCES, copiesOf } from '../domain/ledger.js';
import type { MovementType } from '../../schemas/movements.js';
import { Conflict, type AppError } from '../errors.js';
import { batchGet, db, tableName, transact, type TransactItem } from './client.js';
import { cycleFromItem, type CycleRecord } from './cycles.js';
import { pick } from './items.js';
import {
  CYCLE_SK_PREFIX,
  cycleKey,
  dayRollupKey,
  deliveryKey,
  withdrawalKey,
  eggStockKey,
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

/** One movement of the ledger, as stored. `fields` are the type-specific fields of its schema. */
export interface MovementRecord {
  id: string;
  cycleId: string;
  flockId: string;
  farmId: string;
  type: MovementType;
  date: string;
  fields: Record<string, unknown>;
  lock: StoredLock | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  version: number;
}

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

/** The cycle a group of changes belongs to (transfers change two cycles in one transaction). */
export interface CycleRef {
  flockId: string;
  cycleId: string;
  farmId: string;
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
  switch (target.kind) {
    case 'cycle':
      return cycleKey(ref.flockId, ref.cycleId);
    case 'day':
      return dayRollupKey(ref.cycleId, target.date);
    case 'feed':
      return feedStockKey(ref.farmId, target.feedType);
    case 'eggs':
      return eggStockKey(ref.farmId);
    case 'medicine':
      return medicineStockKey(ref.farmId, target.product, target.unit);
  }
}

const DESCRIPTORS: Record<Target['kind'], (ref: CycleRef, t: Target) => Record<string, unknown>> = {
  cycle: () => ({}),
  day: (ref, t) => ({ entity: 'DayRollup', cycleId: ref.cycleId, flockId: ref.flockId, date: (t as { date: string }).date }),
  feed: (ref, t) => ({ entity: 'FeedStock', farmId: ref.farmId, feedType: (t as { feedType: string }).feedType }),
  eggs: (ref) => ({ entity: 'EggStock', farmId: ref.farmId }),
  medicine: (ref, t) => {
    const { product, unit } = t as { product: string; unit: string };
    return { entity: 'MedicineStock', farmId: ref.farmId, product, unit };
  },
};

/** The cycle still holds the withdrawal revision a sale read (no medication changed a window since). */
function withdrawalCondition(rev: number, names: Record<string, string>, values: Record<string, unknown>): string {
  names['#wrev'] = WITHDRAWAL_REV;
  values[':wrev'] = rev;
  return rev === 0 ? '(attribute_not_exists(#wrev) OR #wrev = :wrev)' : '#wrev = :wrev';
}

function changeUpdate(ref: CycleRef, change: NetChange, now: string, withdrawalRev?: number): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now };
  const adds = Object.entries(change.amounts).map(([attr, amount], i) => {
    names[`#a${i}`] = attr;
    values[`:a${i}`] = amount;
    return `#a${i} :a${i}`;
  });
  const sets = Object.entries(DESCRIPTORS[change.target.kind](ref, change.target)).map(([attr, v], i) => {
    names[`#d${i}`] = attr;
    values[`:d${i}`] = v;
    return `#d${i} = :d${i}`;
  });
  const conditions: string[] = [];
  if (change.target.kind === 'cycle') {
    names['#status'] = 'status';
    values[':active'] = 'active';
    conditions.push('#status = :active');
    if (withdrawalRev !== undefined) conditions.push(withdrawalCondition(withdrawalRev, names, values));
  }
  if (change.requires) {
    names['#bal'] = change.requires.attribute;
    values[':need'] = change.requires.atLeast;
    conditions.push('#bal >= :need');
  }
  return {
    Update: {
      TableName: tableName(),
      Key: keyOf(ref, change.target),
      UpdateExpression: `ADD ${adds.join(', ')} SET ${[...sets, 'updatedAt = :now'].join(', ')}`,
      ...(conditions.length ? { ConditionExpression: conditions.join(' AND ') } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** Where each copy the ledger asks for lives (the copies themselves: `copiesOf` in the domain ledger). */
function copyItems(m: MovementRecord): Array<{ key: Key; item: Record<string, unknown> }> {
  return copiesOf(m).map((c) =>
    c.kind === 'delivery'
      ? { key: deliveryKey(m.cycleId, m.id), item: { entity: 'FeedDelivery', ...c.item } }
      : { key: withdrawalKey(m.farmId, c.item.endDate, m.id), item: { entity: 'Withdrawal', ...c.item } },
  );
}

export interface LedgerGroup {
  ref: CycleRef;
  changes: NetChange[];
  /**
   * A sale checked against the cycle's withdrawal windows: the cycle's `withdrawalRev` as read before the
   * windows were (0 when absent). The write commits only if no medication changed a window since.
   */
  withdrawalRev?: number;
}

export interface LedgerWrite {
  groups: LedgerGroup[];
  /** Movements to create (each `attribute_not_exists`). */
  puts?: MovementRecord[];
  /** Movements to replace at their version, still unlocked (edits). */
  replaces?: Array<{ movement: MovementRecord; previous: MovementRecord; expectedVersion: number; createdAfter: string }>;
  /** Movements to delete at their version, still unlocked. */
  deletes?: Array<{ movement: MovementRecord; createdAfter: string }>;
  /** Everything else that must commit with it (audit, the idempotent response); a failure there is `onExtraFailed`. */
  extra?: TransactItem[];
  onExtraFailed?: (index: number) => AppError;
}

/**
 * The one way the ledger is written: movements, the cycle counters, farm stocks and daily rollups in
 * one TransactWriteItems; any balance that would go negative or a closed cycle cancels all of it.
 */
export async function applyLedger(w: LedgerWrite): Promise<void> {
  const now = new Date().toISOString();
  const T = tableName();
  // The extra items go first: when a retried request also meets a spent balance, its stored idempotent
  // response (an extra item) is what must be reported, so the replay wins over the refusal.
  const extra = w.extra ?? [];
  const items: TransactItem[] = [...extra];
  const meaning: Array<{ ref: CycleRef; change: NetChange; withdrawalRev?: number } | { movement: string } | { extra: number }> = extra.map((_, i) => ({
    extra: i,
  }));
  const copy = (entries: TransactItem[], movementId: string) => {
    for (const e of entries) {
      items.push(e);
      meaning.push({ movement: movementId });
    }
  };
  const putCopies = (m: MovementRecord): TransactItem[] => copyItems(m).map((c) => ({ Put: { TableName: T, Item: { ...c.key, ...c.item } } }));
  const deleteCopies = (m: MovementRecord, keep: Key[] = []): TransactItem[] =>
    copyItems(m)
      .filter((c) => !keep.some((k) => k.PK === c.key.PK && k.SK === c.key.SK))
      .map((c) => ({ Delete: { TableName: T, Key: c.key } }));
  for (const m of w.puts ?? []) {
    items.push({ Put: { TableName: T, Item: movementItem(m), ConditionExpression: 'attribute_not_exists(PK)' } });
    meaning.push({ movement: m.id });
    copy(putCopies(m), m.id);
  }
  // Edits and deletes: only the version read, never a locked movement (manual lock, or older than the auto-lock period).
  const unlocked = (m: MovementRecord, createdAfter: string) => ({
    ConditionExpression: 'version = :v AND #lock = :none AND createdAt > :after',
    ExpressionAttributeNames: { '#lock': 'lock' },
    ExpressionAttributeValues: { ':v': m.version, ':none': null, ':after': createdAfter },
  });
  for (const r of w.replaces ?? []) {
    items.push({ Put: { TableName: T, Item: movementItem(r.movement), ...unlocked({ ...r.movement, version: r.expectedVersion }, r.createdAfter) } });
    meaning.push({ movement: r.movement.id });
    copy(
      [
        ...deleteCopies(
          r.previous,
          copyItems(r.movement).map((c) => c.key),
        ),
        ...putCopies(r.movement),
      ],
      r.movement.id,
    );
  }
  for (const d of w.deletes ?? []) {
    items.push({ Delete: { TableName: T, Key: movementKey(d.movement.cycleId, d.movement.id), ...unlocked(d.movement, d.createdAfter) } });
    meaning.push({ movement: d.movement.id });
    copy(deleteCopies(d.movement), d.movement.id);
  }
  const windowsChanged = cyclesWithChangedWindows(w);
  for (const g of w.groups) {
    const changes = windowsChanged.has(g.ref.cycleId) ? withRevisionBump(g.changes) : g.changes;
    for (const change of changes) {
      items.push(changeUpdate(g.ref, change, now, g.withdrawalRev));
      meaning.push({ ref: g.ref, change, withdrawalRev: g.withdrawalRev });
    }
    // A write that changes no cycle counter must still find the cycle open.
    if (!changes.some((c) => c.target.kind === 'cycle')) {
      const names: Record<string, string> = { '#status': 'status' };
      const values: Record<string, unknown> = { ':active': 'active' };
      const conditions = ['#status = :active'];
      if (g.withdrawalRev !== undefined) conditions.push(withdrawalCondition(g.withdrawalRev, names, values));
      items.push({
        ConditionCheck: {
          TableName: T,
          Key: cycleKey(g.ref.flockId, g.ref.cycleId),
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      });
      meaning.push({ ref: g.ref, change: { target: { kind: 'cycle' }, amounts: {} }, withdrawalRev: g.withdrawalRev });
    }
  }
  if (items.length > 100) throw new Conflict('This write touches more than 100 records; split it');
  await transact(items, (index) => {
    const m = meaning[index]!;
    if ('extra' in m) return w.onExtraFailed?.(m.extra) ?? new Conflict('The request conflicts with a concurrent change; retry');
    if ('movement' in m) return new Conflict(`Movement ${m.movement} was changed, locked or already exists; read it again and retry`);
    return new LedgerRefused(m.ref, m.change.target, m.change.requires?.atLeast, m.withdrawalRev);
  });
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

export async function setLock(m: MovementRecord, lock: StoredLock | null, extra: TransactItem[]): Promise<void> {
  await transact(
    [
      {
        Update: {
          TableName: tableName(),
          Key: movementKey(m.cycleId, m.id),
          UpdateExpression: 'SET #lock = :lock, version = version + :one, updatedAt = :now',
          ConditionExpression: 'version = :v',
          ExpressionAttributeNames: { '#lock': 'lock' },
          ExpressionAttributeValues: { ':lock': lock, ':one': 1, ':now': new Date().toISOString(), ':v': m.version },
        },
      },
      ...extra,
    ],
    () => new Conflict(`Movement ${m.id} was changed by another request; read it again and retry`),
  );
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
