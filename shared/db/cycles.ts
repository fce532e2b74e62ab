import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../errors.js';
import { CYCLE_COUNTERS, type CycleCounters } from '../domain/cycle-summary.js';
import { db, tableName, transact, type TransactItem } from './client.js';
import { CYCLE_SK_PREFIX, cycleKey, cycleLocator, flockKey } from './keys.js';
import { pick } from './items.js';
import { queryPage } from './pagination.js';

/** A production cycle with the running counters the ledger keeps in the same transactions as its movements. */
export interface CycleRecord extends CycleCounters {
  id: string;
  flockId: string;
  farmId: string;
  birdType: 'broiler' | 'layer' | 'breeder';
  hatchDate: string | null;
  name: string | null;
  status: 'active' | 'closed';
  startDate: string;
  endDate: string | null;
  closedAt: string | null;
  targetAgeDays: number | null;
  targetWeightGrams: number | null;
  notes: string | null;
  latestWeight: { date: string; grams: number } | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

const FIELDS: readonly (keyof CycleRecord)[] = [
  'id',
  'flockId',
  'farmId',
  'birdType',
  'hatchDate',
  'name',
  'status',
  'startDate',
  'endDate',
  'closedAt',
  'targetAgeDays',
  'targetWeightGrams',
  'notes',
  'latestWeight',
  'createdAt',
  'updatedAt',
  'version',
  ...CYCLE_COUNTERS,
];

export function cycleFromItem(item: Record<string, unknown> | undefined): CycleRecord | undefined {
  if (!item) return undefined;
  return pick<CycleRecord>(item, FIELDS);
}

const cycleItem = (c: CycleRecord) => ({ ...cycleKey(c.flockId, c.id), ...cycleLocator(c.id), type: 'Cycle', ...c });

export async function getCycle(flockId: string, cycleId: string): Promise<CycleRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: cycleKey(flockId, cycleId), ConsistentRead: true }));
  return cycleFromItem(res.Item);
}

/**
 * Where a cycle is, from its id alone: its flock and farm (one Query of GSI2 `CYCLEREF#<id>`, which every
 * cycle started or restored since the locator exists carries), or undefined.
 */
export async function locateCycle(cycleId: string): Promise<{ flockId: string; farmId: string } | undefined> {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': cycleLocator(cycleId).GSI2PK },
      ProjectionExpression: 'flockId, farmId',
      Limit: 1,
    }),
  );
  const item = res.Items?.[0];
  return item ? { flockId: String(item.flockId), farmId: String(item.farmId) } : undefined;
}

/** Starts a cycle: the cycle, and the flock pointing at it, only if the flock has no active cycle and is unchanged. */
export async function createCycle(cycle: CycleRecord, flockVersion: number, extra: TransactItem[], onFlockBusy: () => Conflict): Promise<void> {
  const T = tableName();
  await transact(
    [
      { Put: { TableName: T, Item: cycleItem(cycle), ConditionExpression: 'attribute_not_exists(PK)' } },
      {
        Update: {
          TableName: T,
          Key: flockKey(cycle.flockId),
          UpdateExpression: 'SET activeCycleId = :c, updatedAt = :now, version = version + :one',
          ConditionExpression: 'version = :v AND activeCycleId = :none AND #status = :active',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':c': cycle.id, ':now': cycle.createdAt, ':one': 1, ':v': flockVersion, ':none': null, ':active': 'active' },
        },
      },
      ...extra,
    ],
    (i) => (i === 1 ? onFlockBusy() : new Conflict('A cycle with this id already exists')),
  );
}

/** Replaces the cycle's own fields (not its counters, which only the ledger changes) at `expectedVersion`. */
export async function updateCycleFields(cycle: CycleRecord, fields: Record<string, unknown>, expectedVersion: number, extra: TransactItem[]): Promise<void> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':v': expectedVersion, ':next': expectedVersion + 1, ':now': new Date().toISOString() };
  const sets = Object.entries(fields).map(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:f${i}`] = v;
    return `#f${i} = :f${i}`;
  });
  await transact(
    [
      {
        Update: {
          TableName: tableName(),
          Key: cycleKey(cycle.flockId, cycle.id),
          UpdateExpression: `SET ${[...sets, 'version = :next', 'updatedAt = :now'].join(', ')}`,
          ConditionExpression: 'version = :v',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
      ...extra,
    ],
    () => new Conflict(`Cycle ${cycle.id} was changed by another request (expected version ${expectedVersion}); read it again and retry`),
  );
}

/** Closes the cycle and frees the flock for the next one, in one transaction. */
export async function closeCycle(cycle: CycleRecord, endDate: string, extra: TransactItem[]): Promise<void> {
  const T = tableName();
  const now = new Date().toISOString();
  await transact(
    [
      {
        Update: {
          TableName: T,
          Key: cycleKey(cycle.flockId, cycle.id),
          UpdateExpression: 'SET #status = :closed, endDate = :end, closedAt = :now, updatedAt = :now, version = version + :one',
          ConditionExpression: '#status = :active',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':closed': 'closed', ':active': 'active', ':end': endDate, ':now': now, ':one': 1 },
        },
      },
      {
        Update: {
          TableName: T,
          Key: flockKey(cycle.flockId),
          UpdateExpression: 'SET activeCycleId = :none, updatedAt = :now, version = version + :one',
          ConditionExpression: 'activeCycleId = :c',
          ExpressionAttributeValues: { ':none': null, ':c': cycle.id, ':now': now, ':one': 1 },
        },
      },
      ...extra,
    ],
    () => new Conflict(`Cycle ${cycle.id} is already closed`),
  );
}

export async function listCycles(flockId: string, opts: { limit: number; cursor?: string }) {
  const page = await queryPage(
    {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :c)',
      ExpressionAttributeValues: { ':pk': flockKey(flockId).PK, ':c': CYCLE_SK_PREFIX },
      ScanIndexForward: false,
      ConsistentRead: true,
    },
    opts,
  );
  return { items: page.items.map((i) => cycleFromItem(i)!), nextCursor: page.nextCursor };
}
