import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryAll, queryCount, tableName, transact, type TransactItem } from './client.js';
import { farmKey, OCCURRENCE_SK_PREFIX, occurrenceKey, scheduleCounterKey, scheduleKey, schedulePartition, schedulesOfFarm } from './keys.js';
import { equalityFilter, pick } from './items.js';
import { gsi1Page } from './pagination.js';
import { farmNotFound, versionedDelete, versionedUpdate } from './farms.js';
import { Conflict, NotFound } from '../errors.js';
import type { ScheduleDetails, ScheduleKind, ScheduleTiming } from '../../schemas/schedules.js';

/**
 * Schedules (docs/data-model.md, "Schedules"): `SCHEDULE#<id>`/`META`, listed per farm through GSI1
 * `SCHEDULES#<farmId>` (oldest first); in the same partition one outcome item per occurrence date that was
 * completed or skipped (`OCC#<date>`, created with `attribute_not_exists`: an occurrence has one outcome).
 * Occurrences themselves are never stored. A farm's schedules are counted in `SCHEDULECOUNT#<farmId>`/`COUNT`,
 * changed in the transaction of every create and delete: the per-farm cap holds under concurrent creates.
 */
export interface ScheduleRecord {
  id: string;
  farmId: string;
  houseId: string | null;
  flockId: string | null;
  cycleId: string | null;
  kind: ScheduleKind;
  title: string;
  details: ScheduleDetails;
  timing: ScheduleTiming;
  assignee: string | null;
  /** The placement date of its cycle, copied when the schedule is written (ageDays timings count from it). */
  placementDate: string | null;
  /** The last occurrence of a COUNT rule, derived when the timing is written (null for any other timing, and on schedules from before it). */
  lastOccurrence: string | null;
  programme: { id: string; step: string } | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface OutcomeRecord {
  scheduleId: string;
  date: string;
  status: 'done' | 'skipped';
  at: string;
  by: string;
  notes: string | null;
  reason: string | null;
  movementId: string | null;
  weighingId: string | null;
}

const FIELDS = [
  'id',
  'farmId',
  'houseId',
  'flockId',
  'cycleId',
  'kind',
  'title',
  'details',
  'timing',
  'assignee',
  'placementDate',
  'lastOccurrence',
  'programme',
  'createdBy',
  'createdAt',
  'updatedAt',
  'version',
] as const satisfies readonly (keyof ScheduleRecord)[];
const OUTCOME_FIELDS = [
  'scheduleId',
  'date',
  'status',
  'at',
  'by',
  'notes',
  'reason',
  'movementId',
  'weighingId',
] as const satisfies readonly (keyof OutcomeRecord)[];

export const scheduleNotFound = (id: string) => new NotFound(`Schedule ${id} not found`);
const changedConcurrently = (id: string) => new Conflict(`Schedule ${id} was changed concurrently; read it again and retry`);

export const scheduleFromItem = (item: Record<string, unknown> | undefined): ScheduleRecord | undefined =>
  item ? pick<ScheduleRecord>(item, FIELDS, null) : undefined;
const outcomeFromItem = (item: Record<string, unknown>): OutcomeRecord => pick<OutcomeRecord>(item, OUTCOME_FIELDS, null);
const scheduleItem = (s: ScheduleRecord) => ({ ...scheduleKey(s.id), ...schedulesOfFarm(s.farmId), GSI1SK: `${s.createdAt}#${s.id}`, type: 'Schedule', ...s });

export async function getSchedule(id: string): Promise<ScheduleRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: scheduleKey(id), ConsistentRead: true }));
  return scheduleFromItem(res.Item);
}

/** The farm's counter refused the change (it is missing, or the count moved): read it and decide. */
class CounterRefused extends Conflict {}

/**
 * Creates schedules in ONE transaction: the farm exists, its count of schedules stays within `max` (ADD
 * conditioned on the count, so concurrent creates cannot pass the cap together), each schedule is new,
 * with the other items (audit, idempotent answer). A farm without a counter yet (a new or restored farm,
 * or one from before the counter) has its schedules counted once, and the counter is created on that
 * count (`attribute_not_exists`: a concurrent first create retries on the counter the other one made).
 */
export async function createSchedules(schedules: ScheduleRecord[], extra: TransactItem[], max: number): Promise<void> {
  const T = tableName();
  const farmId = schedules[0]!.farmId;
  const n = schedules.length;
  let counted: number | undefined;
  for (let attempt = 0; attempt < 4; attempt++) {
    const counter: TransactItem = {
      Update:
        counted === undefined
          ? {
              TableName: T,
              Key: scheduleCounterKey(farmId),
              UpdateExpression: 'ADD #count :n',
              ConditionExpression: '#count <= :room',
              ExpressionAttributeNames: { '#count': 'count' },
              ExpressionAttributeValues: { ':n': n, ':room': max - n },
            }
          : {
              TableName: T,
              Key: scheduleCounterKey(farmId),
              UpdateExpression: 'SET #count = :total',
              ConditionExpression: 'attribute_not_exists(PK)',
              ExpressionAttributeNames: { '#count': 'count' },
              ExpressionAttributeValues: { ':total': counted + n },
            },
    };
    try {
      await transact(
        [
          { ConditionCheck: { TableName: T, Key: farmKey(farmId), ConditionExpression: 'attribute_exists(PK)' } },
          counter,
          ...schedules.map((s) => ({ Put: { TableName: T, Item: scheduleItem(s), ConditionExpression: 'attribute_not_exists(PK)' } })),
          ...extra,
        ],
        (i) =>
          i === 0
            ? farmNotFound(farmId)
            : i === 1
              ? new CounterRefused('the farm’s schedule counter refused the change')
              : new Conflict('A schedule with this id already exists'),
      );
      return;
    } catch (err) {
      if (!(err instanceof CounterRefused)) throw err;
    }
    const stored = await scheduleCount(farmId);
    counted = stored === undefined ? await countSchedulesOfFarm(farmId) : undefined;
    const count = stored ?? counted!;
    if (count + n > max)
      throw new Conflict(`Farm ${farmId} has ${count} schedules and keeps at most ${max}: delete some (those of ended cycles) before adding ${n} more`);
  }
  throw new Conflict(`The schedules of farm ${farmId} were changed by concurrent requests; retry`);
}

/** The farm's count of schedules (undefined before its counter exists). */
async function scheduleCount(farmId: string): Promise<number | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: scheduleCounterKey(farmId), ConsistentRead: true }));
  return typeof res.Item?.count === 'number' ? res.Item.count : undefined;
}

/** Counts a farm's schedules: once per farm, when its counter is created. */
const countSchedulesOfFarm = (farmId: string) =>
  queryCount({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': schedulesOfFarm(farmId).GSI1PK },
  });

/** Sets `fields` if the schedule is at `expectedVersion` (version + 1), with the audit entry. */
export async function updateSchedule(id: string, expectedVersion: number, fields: Partial<ScheduleRecord>, now: string, extra: TransactItem[]): Promise<void> {
  await transact([versionedUpdate(scheduleKey(id), expectedVersion, fields, now), ...extra], () => changedConcurrently(id));
}

/**
 * Deletes the schedule at its version, one less on the farm's counter (its stored outcomes stay: they are
 * the record of what was done). A farm without a counter yet counts its schedules when one is created.
 */
export async function deleteSchedule(s: Pick<ScheduleRecord, 'id' | 'farmId'>, expectedVersion: number, extra: TransactItem[]): Promise<void> {
  const T = tableName();
  const remove = versionedDelete(scheduleKey(s.id), expectedVersion);
  const counter: TransactItem = {
    Update: {
      TableName: T,
      Key: scheduleCounterKey(s.farmId),
      UpdateExpression: 'ADD #count :minus',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':minus': -1 },
    },
  };
  try {
    await transact([remove, counter, ...extra], (i) =>
      i === 1 ? new CounterRefused('the farm’s schedule counter refused the change') : changedConcurrently(s.id),
    );
  } catch (err) {
    if (!(err instanceof CounterRefused)) throw err;
    await transact([remove, ...extra], () => changedConcurrently(s.id));
  }
}

/** The outcome of an occurrence as a Put of a transaction: only if the date has none yet. */
export function outcomePut(o: OutcomeRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...occurrenceKey(o.scheduleId, o.date), type: 'ScheduleOutcome', ...o },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** The schedule still exists (a check in the outcome's transaction: a deleted schedule takes no outcome). */
export const scheduleExists = (id: string): TransactItem => ({
  ConditionCheck: { TableName: tableName(), Key: scheduleKey(id), ConditionExpression: 'attribute_exists(PK)' },
});

/** Writes an outcome (skip) with its other items; `onFailed` names what failed by its index. */
export async function writeOutcome(items: TransactItem[], onFailed: (index: number) => Conflict | NotFound): Promise<void> {
  await transact(items, onFailed);
}

export async function getOutcome(scheduleId: string, date: string): Promise<OutcomeRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: occurrenceKey(scheduleId, date), ConsistentRead: true }));
  return res.Item ? outcomeFromItem(res.Item) : undefined;
}

/** The stored outcomes of a schedule between two dates (inclusive): one Query of its partition. */
export async function outcomesBetween(scheduleId: string, from: string, to: string): Promise<OutcomeRecord[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': schedulePartition(scheduleId), ':from': `${OCCURRENCE_SK_PREFIX}${from}`, ':to': `${OCCURRENCE_SK_PREFIX}${to}` },
  });
  return items.map(outcomeFromItem);
}

export interface ScheduleFilters {
  kind?: ScheduleKind;
  houseId?: string;
  flockId?: string;
  cycleId?: string;
  assignee?: string;
}

/** A page of a farm's schedules, oldest first (one Query on GSI1; the filters are equalities). */
export async function listSchedulesOfFarm(
  farmId: string,
  filters: ScheduleFilters,
  opts: { limit: number; cursor?: string },
): Promise<{ items: ScheduleRecord[]; nextCursor: string | null }> {
  const page = await gsi1Page(schedulesOfFarm(farmId), filters, { ...opts });
  return { items: page.items.map((i) => scheduleFromItem(i)!), nextCursor: page.nextCursor };
}

/** Every schedule of a farm (the agenda and the overdue job; a farm keeps tens of them). */
export async function allSchedulesOfFarm(farmId: string, kind?: ScheduleKind): Promise<ScheduleRecord[]> {
  const values: Record<string, unknown> = { ':pk': schedulesOfFarm(farmId).GSI1PK };
  const items = await queryAll({ TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ...equalityFilter({ kind }, values) });
  return items.map((i) => scheduleFromItem(i)!);
}
