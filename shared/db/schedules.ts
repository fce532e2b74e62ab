import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryAll, tableName, transact, type TransactItem } from './client.js';
import { farmKey, OCCURRENCE_SK_PREFIX, occurrenceKey, scheduleKey, schedulePartition, schedulesOfFarm } from './keys.js';
import { equalityFilter, pick } from './items.js';
import { gsi1Page } from './pagination.js';
import { farmNotFound, versionedUpdate } from './farms.js';
import { Conflict, NotFound } from '../errors.js';
import type { ScheduleDetails, ScheduleKind, ScheduleTiming } from '../../schemas/schedules.js';

/**
 * Schedules (docs/data-model.md, "Schedules"): `SCHEDULE#<id>`/`META`, listed per farm through GSI1
 * `SCHEDULES#<farmId>` (oldest first); in the same partition one outcome item per occurrence date that was
 * completed or skipped (`OCC#<date>`, created with `attribute_not_exists`: an occurrence has one outcome).
 * Occurrences themselves are never stored.
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

/** Creates schedules in ONE transaction: the farm exists, each schedule is new, with the other items (audit, idempotent answer). */
export async function createSchedules(schedules: ScheduleRecord[], extra: TransactItem[]): Promise<void> {
  const T = tableName();
  const farmId = schedules[0]!.farmId;
  await transact(
    [
      { ConditionCheck: { TableName: T, Key: farmKey(farmId), ConditionExpression: 'attribute_exists(PK)' } },
      ...schedules.map((s) => ({ Put: { TableName: T, Item: scheduleItem(s), ConditionExpression: 'attribute_not_exists(PK)' } })),
      ...extra,
    ],
    (i) => (i === 0 ? farmNotFound(farmId) : new Conflict('A schedule with this id already exists')),
  );
}

/** Sets `fields` if the schedule is at `expectedVersion` (version + 1), with the audit entry. */
export async function updateSchedule(id: string, expectedVersion: number, fields: Partial<ScheduleRecord>, now: string, extra: TransactItem[]): Promise<void> {
  await transact([versionedUpdate(scheduleKey(id), expectedVersion, fields, now), ...extra], () => changedConcurrently(id));
}

/** Deletes the schedule at its version (its stored outcomes stay: they are the record of what was done). */
export async function deleteSchedule(id: string, expectedVersion: number, extra: TransactItem[]): Promise<void> {
  await transact(
    [
      {
        Delete: {
          TableName: tableName(),
          Key: scheduleKey(id),
          ConditionExpression: 'attribute_exists(PK) AND #version = :v',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':v': expectedVersion },
        },
      },
      ...extra,
    ],
    () => changedConcurrently(id),
  );
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
