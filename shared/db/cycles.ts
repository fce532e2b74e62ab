import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, type AppError } from '../errors.js';
import { CYCLE_COUNTERS } from '../domain/cycle-summary.js';
import { PLACED_BY_DATE } from '../domain/age.js';
import type { CycleRecord } from '../domain/flocks/records.js';
import { batchGet, db, tableName } from './client.js';
import type { Versioned, Write } from './commit.js';
import { all, eq, isNew } from './conditions.js';
import { CYCLE_SK_PREFIX, cycleKey, cycleLocator, flockKey } from './keys.js';
import { pick } from './items.js';
import { queryPage } from './pagination.js';

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
  'lightingProgramme',
  'notes',
  'latestWeight',
  'createdAt',
  'updatedAt',
  'version',
  ...CYCLE_COUNTERS,
];

export function cycleFromItem(item: Record<string, unknown> | undefined): CycleRecord | undefined {
  if (!item) return undefined;
  return { ...pick<CycleRecord>(item, FIELDS), placedOn: firstPlacementOf(item) };
}

/** The first date whose net placement count is positive, from the ledger's `placedByDate.<date>` counters on the item. */
function firstPlacementOf(item: Record<string, unknown>): string | null {
  let first: string | null = null;
  const prefix = `${PLACED_BY_DATE}.`;
  for (const [name, value] of Object.entries(item)) {
    if (!name.startsWith(prefix) || typeof value !== 'number' || value <= 0) continue;
    const date = name.slice(prefix.length);
    if (first === null || date < first) first = date;
  }
  return first;
}

/** A cycle as stored: its placement date is derived from the ledger's counters, never stored as such. */
const cycleItem = ({ placedOn: _derived, ...c }: CycleRecord) => ({ ...cycleKey(c.flockId, c.id), ...cycleLocator(c.id), type: 'Cycle', ...c });

export async function getCycle(flockId: string, cycleId: string): Promise<CycleRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: cycleKey(flockId, cycleId), ConsistentRead: true }));
  return cycleFromItem(res.Item);
}

/** Several cycles in one BatchGetItem, by `flockId:cycleId` (a missing one is absent). */
export async function getCycles(refs: ReadonlyArray<{ flockId: string; cycleId: string }>): Promise<Map<string, CycleRecord>> {
  const unique = [...new Map(refs.map((r) => [`${r.flockId}:${r.cycleId}`, r])).values()];
  const items = unique.length ? await batchGet(unique.map((r) => cycleKey(r.flockId, r.cycleId))) : [];
  return new Map(items.map((i) => [`${i.flockId}:${i.id}`, cycleFromItem(i)!]));
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

/**
 * The writes of cycles. A start: the cycle, and the flock pointing at it, only if the flock is unchanged
 * (its version read), active and without an active cycle (else `busy`). A change of the cycle's own
 * fields (never its counters, which only the ledger changes) at the version read. A close: the cycle
 * while still active, and the flock freed for the next one; the close is not conditioned on the
 * cycle's version (a movement written meanwhile moves only its counters), so both bump it by one.
 */
export const cycleWrites = {
  start: (cycle: CycleRecord, flockVersion: number, busy: () => AppError): Write[] => [
    { put: cycleItem(cycle), when: isNew(), failed: () => new Conflict('A cycle with this id already exists') },
    {
      update: flockKey(cycle.flockId),
      set: { activeCycleId: cycle.id },
      version: { read: flockVersion, what: `Flock ${cycle.flockId}` },
      when: all(eq('activeCycleId', null), eq('status', 'active')),
      failed: busy,
    },
  ],
  update: (cycle: CycleRecord, fields: Record<string, unknown>, version: Versioned): Write => ({
    update: cycleKey(cycle.flockId, cycle.id),
    set: fields,
    version,
  }),
  close: (cycle: CycleRecord, endDate: string, now: string): Write[] => {
    const alreadyClosed = () => new Conflict(`Cycle ${cycle.id} is already closed`);
    return [
      {
        update: cycleKey(cycle.flockId, cycle.id),
        set: { status: 'closed', endDate, closedAt: now, updatedAt: now },
        add: { version: 1 },
        when: eq('status', 'active'),
        failed: alreadyClosed,
      },
      {
        update: flockKey(cycle.flockId),
        set: { activeCycleId: null, updatedAt: now },
        add: { version: 1 },
        when: eq('activeCycleId', cycle.id),
        failed: alreadyClosed,
      },
    ];
  },
};

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
