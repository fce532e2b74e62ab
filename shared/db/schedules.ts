import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryAll, queryCount, tableName } from './client.js';
import type { Versioned, Write } from './commit.js';
import { absent, exists, isNew, le } from './conditions.js';
import { farmKey, OCCURRENCE_SK_PREFIX, occurrenceKey, scheduleCounterKey, scheduleKey, schedulePartition, schedulesOfFarm } from './keys.js';
import { equalityFilter, pick } from './items.js';
import { gsi1Page } from './pagination.js';
import { farmNotFound } from '../domain/references.js';
import { Conflict, NotFound } from '../errors.js';
import { occurrenceTaken } from '../domain/schedules/occurrences.js';
import type { OutcomeRecord, ScheduleRecord } from '../domain/schedules/records.js';
import type { ScheduleKind } from '../../schemas/schedules.js';

/** The records are the domain's (shared/domain/schedules/records.ts); named here too for the readers of the listings. */

/**
 * Schedules (docs/data-model.md, "Schedules"): `SCHEDULE#<id>`/`META`, listed per farm through GSI1
 * `SCHEDULES#<farmId>` (oldest first); in the same partition one outcome item per occurrence date that was
 * completed or skipped (`OCC#<date>`, created with `attribute_not_exists`: an occurrence has one outcome).
 * Occurrences themselves are never stored. A farm's schedules are counted in `SCHEDULECOUNT#<farmId>`/`COUNT`,
 * changed in the transaction of every create and delete: the per-farm cap holds under concurrent creates.
 */
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
  'doneOn',
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
export class CounterRefused extends Conflict {
  constructor() {
    super('the farm’s schedule counter refused the change');
  }
}

/** The schedule's version a change was decided on: what If-Match (and a body's `version`) are compared with. */
export const scheduleVersion = (s: Pick<ScheduleRecord, 'id' | 'version'>, stated?: number): Versioned => ({
  read: s.version,
  what: `Schedule ${s.id}`,
  stated,
  subject: true,
});

/** The writes of the schedule use cases. */
export const scheduleWrites = {
  /** The farm of new schedules exists when they are written. */
  farmExists: (farmId: string): Write => ({ check: farmKey(farmId), when: exists(), failed: () => farmNotFound(farmId) }),
  create: (s: ScheduleRecord): Write => ({ put: scheduleItem(s), when: isNew(), failed: () => new Conflict('A schedule with this id already exists') }),
  /** `fields` at the version read (version + 1). */
  update: (current: Pick<ScheduleRecord, 'id' | 'version'>, fields: Partial<ScheduleRecord>, stated?: number): Write => ({
    update: scheduleKey(current.id),
    set: fields,
    version: scheduleVersion(current, stated),
    failed: () => changedConcurrently(current.id),
  }),
  /** The schedule at its version (its stored outcomes stay: they are the record of what was done). */
  delete: (current: Pick<ScheduleRecord, 'id' | 'version'>): Write => ({
    delete: scheduleKey(current.id),
    version: scheduleVersion(current),
    failed: () => changedConcurrently(current.id),
  }),
  /** The schedule still exists (a check in the outcome's transaction: a deleted schedule takes no outcome). */
  exists: (id: string): Write => ({ check: scheduleKey(id), when: exists(), failed: () => scheduleNotFound(id) }),
  /** The outcome of an occurrence: only if the date has none yet. */
  outcome: (o: OutcomeRecord): Write => ({
    put: { ...occurrenceKey(o.scheduleId, o.date), type: 'ScheduleOutcome', ...o },
    when: isNew(),
    failed: () => new Conflict(occurrenceTaken(o.scheduleId, o.date)),
  }),
};

/**
 * The farm's count of schedules, `SCHEDULECOUNT#<farmId>`/`COUNT`, changed in the transaction of every
 * create and delete: the per-farm cap holds under concurrent creates. A refusal is CounterRefused.
 */
export const scheduleCounterWrites = {
  /** `n` more, only while the count stays within `max` (ADD conditioned on the count; a missing counter refuses too). */
  add: (farmId: string, n: number, max: number): Write => ({
    update: scheduleCounterKey(farmId),
    add: { count: n },
    when: le('count', max - n),
    failed: () => new CounterRefused(),
  }),
  /** The counter created on a count (a concurrent first create makes the other one retry on it). */
  start: (farmId: string, total: number): Write => ({
    update: scheduleCounterKey(farmId),
    set: { count: total },
    when: absent(),
    failed: () => new CounterRefused(),
  }),
  /** One less (only on a counter that exists: a farm without one counts its schedules when it is created). */
  remove: (farmId: string): Write => ({ update: scheduleCounterKey(farmId), add: { count: -1 }, when: exists(), failed: () => new CounterRefused() }),
};

/** The farm's count of schedules (undefined before its counter exists). */
export async function scheduleCount(farmId: string): Promise<number | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: scheduleCounterKey(farmId), ConsistentRead: true }));
  return typeof res.Item?.count === 'number' ? res.Item.count : undefined;
}

/** Counts a farm's schedules: once per farm, when its counter is created. */
export const countSchedulesOfFarm = (farmId: string) =>
  queryCount({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': schedulesOfFarm(farmId).GSI1PK },
  });

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
