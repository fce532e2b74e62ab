import { BatchWriteCommand, GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { BATCH_BACKOFF, batchGet, db, queryAll, tableName } from './client.js';
import { pause } from '../platform/retry.js';
import type { Write } from './commit.js';
import { all, eq, exists, isNew } from './conditions.js';
import {
  breachesPartition,
  dayRollupKey,
  DRILL_SK_PREFIX,
  drillKey,
  exportKey,
  exportsOfFarm,
  farmKey,
  farmPartition,
  flocksOfFarm,
  gsi1,
  restoreKey,
} from './keys.js';
import { pick } from './items.js';
import { Conflict } from '../errors.js';
import type { Key } from './keys.js';
import type { DrillRecord, ExportRecord, RestoreRecord } from '../domain/continuity/jobs.js';

/**
 * Continuity (docs/data-model.md, "Continuity"): export and restore jobs (`EXPORT#<id>`, `RESTORE#<id>`,
 * each `META` with a `version`), drills in their farm's partition, the partitions a farm's export pages
 * through, and the plain batch writes a restore makes into partitions nobody else can know yet.
 */
const EXPORT_FIELDS = [
  'id',
  'farmId',
  'farmName',
  'status',
  'createdBy',
  'createdAt',
  'startedAt',
  'finishedAt',
  'storage',
  'objectKey',
  'records',
  'counts',
  'sha256',
  'bytes',
  'durationMs',
  'error',
  'version',
] as const satisfies readonly (keyof ExportRecord)[];
const RESTORE_FIELDS = [
  'id',
  'exportId',
  'sourceFarmId',
  'farmName',
  'farmId',
  'status',
  'createdBy',
  'assignTo',
  'createdAt',
  'startedAt',
  'finishedAt',
  'records',
  'counts',
  'checks',
  'durationMs',
  'error',
  'version',
] as const satisfies readonly (keyof RestoreRecord)[];
const DRILL_FIELDS = [
  'id',
  'farmId',
  'kind',
  'date',
  'durationMinutes',
  'result',
  'notes',
  'recordedBy',
  'createdAt',
] as const satisfies readonly (keyof DrillRecord)[];

const T = () => tableName();

// ---------------------------------------------------------------------------------------------------
// Jobs

/** A new export job. */
export const exportCreate = (e: ExportRecord): Write => ({
  put: { ...exportKey(e.id), ...exportsOfFarm(e.farmId), GSI1SK: `${e.createdAt}#${e.id}`, type: 'Export', ...e },
  when: isNew(),
});

/** A new restore job. */
export const restoreCreate = (r: RestoreRecord): Write => ({ put: { ...restoreKey(r.id), type: 'Restore', ...r }, when: isNew() });

export async function getExport(id: string): Promise<ExportRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: T(), Key: exportKey(id), ConsistentRead: true }));
  return res.Item ? pick<ExportRecord>(res.Item, EXPORT_FIELDS, null) : undefined;
}

export async function getRestore(id: string): Promise<RestoreRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: T(), Key: restoreKey(id), ConsistentRead: true }));
  return res.Item ? pick<RestoreRecord>(res.Item, RESTORE_FIELDS, null) : undefined;
}

/** The farm's latest export (one Query, newest first, Limit 1). */
export async function latestExportOf(farmId: string): Promise<ExportRecord | undefined> {
  const res = await db().send(
    new QueryCommand({
      TableName: T(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': exportsOfFarm(farmId).GSI1PK },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  const item = res.Items?.[0];
  return item ? pick<ExportRecord>(item, EXPORT_FIELDS, null) : undefined;
}

/** The job moves on (its fields set), only from the version read: a lost race is a Conflict naming the job (`what`). */
export function jobMove(key: Key, what: string, readVersion: number, fields: Record<string, unknown>): Write {
  return { update: key, set: fields, version: { read: readVersion, what }, failed: () => new Conflict(`${what} was changed concurrently`) };
}

// ---------------------------------------------------------------------------------------------------
// A farm's partitions, page by page

/** Every item of a partition, one page (≤ 1 MB) at a time. */
export async function* partitionItems(pk: string): AsyncGenerator<Record<string, unknown>> {
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db().send(
      new QueryCommand({ TableName: T(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk }, ExclusiveStartKey: start }),
    );
    for (const item of res.Items ?? []) yield item;
    start = res.LastEvaluatedKey;
  } while (start);
}

/** The partition keys a GSI1 list of the farm names (flocks, devices, incidents, rules, …), page by page. */
async function* listedPartitions(gsi1pk: string): AsyncGenerator<string> {
  let start: Record<string, unknown> | undefined;
  do {
    const input: QueryCommandInput = {
      TableName: T(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': gsi1pk },
      ProjectionExpression: 'PK',
      ExclusiveStartKey: start,
    };
    const res = await db().send(new QueryCommand(input));
    for (const item of res.Items ?? []) yield String(item.PK);
    start = res.LastEvaluatedKey;
  } while (start);
}

/** GSI1 lists of a farm whose items head a partition of the farm (besides the flocks, walked with their cycles). */
const FARM_LISTS = ['DEVICES#', 'INCIDENTS#', 'RULES#', 'ANOMALIES#', 'SCHEDULES#', 'PORDERS#', 'RECS#'];

/**
 * Every stored item of a farm, partition after partition (docs/export-format.md lists them): the farm's
 * own partition, each flock's (and each cycle's ledger), each device's rollups, the breaches, then the
 * incidents, rules, anomalies, schedules, purchase orders and recommendations. Never a Scan; memory holds
 * one page and the ids of one flock's cycles.
 */
export async function* farmItems(farmId: string): AsyncGenerator<Record<string, unknown>> {
  yield* partitionItems(farmPartition(farmId));
  for await (const flockPk of listedPartitions(flocksOfFarm(farmId).GSI1PK)) {
    const cycles: string[] = [];
    for await (const item of partitionItems(flockPk)) {
      if (String(item.SK).startsWith('CYCLE#')) cycles.push(String(item.SK).slice('CYCLE#'.length));
      yield item;
    }
    for (const cycleId of cycles) yield* partitionItems(`CYCLE#${cycleId}`);
  }
  for (const list of FARM_LISTS.slice(0, 1)) for await (const pk of listedPartitions(`${list}${farmId}`)) yield* partitionItems(pk);
  yield* partitionItems(breachesPartition(farmId));
  for (const list of FARM_LISTS.slice(1)) for await (const pk of listedPartitions(`${list}${farmId}`)) yield* partitionItems(pk);
}

// ---------------------------------------------------------------------------------------------------
// Restore writes

/** Puts (or deletes) items, 25 to a BatchWriteItem, retrying what DynamoDB leaves unprocessed. */
async function batchWrite(requests: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < requests.length; i += 25) {
    let pending = requests.slice(i, i + 25);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === 8) throw new Error('BatchWriteItem left items unprocessed after 8 attempts');
      if (attempt > 0) await pause(attempt, BATCH_BACKOFF);
      const res = await db().send(new BatchWriteCommand({ RequestItems: { [T()]: pending } }));
      pending = (res.UnprocessedItems?.[T()] as Record<string, unknown>[] | undefined) ?? [];
    }
  }
}

export const putItems = (items: Record<string, unknown>[]) => batchWrite(items.map((Item) => ({ PutRequest: { Item } })));
export const deleteItems = (keys: Key[]) => batchWrite(keys.map((k) => ({ DeleteRequest: { Key: { PK: k.PK, SK: k.SK } } })));

/**
 * The restored farm becomes usable: its META item gets its place in the farm list (GSI1) and loses the
 * `restoring` mark (only while it still has it). The restore commits it with the job's completion and,
 * for a non-admin creator, the farm added to their `farmIds`.
 */
export function restoredFarmOpen(farmId: string, name: string, now: string, failed: () => Conflict): Write {
  return {
    update: farmKey(farmId),
    set: { GSI1PK: gsi1.farms.GSI1PK, GSI1SK: `${name.toLowerCase()}#${farmId}`, updatedAt: now },
    remove: ['restoring'],
    when: all(exists(), eq('restoring', true)),
    failed,
  };
}

// ---------------------------------------------------------------------------------------------------
// Drills

/** A new drill record, of a farm that exists (the check fails the commit when the farm is gone). */
export function drillCreate(d: DrillRecord): Write[] {
  return [
    { check: farmKey(d.farmId), when: exists() },
    { put: { ...drillKey(d.farmId, d.date, d.id), type: 'Drill', ...d }, when: isNew() },
  ];
}

/** A farm's drills, newest first (a farm records a few a week: one Query of all pages). */
export async function listDrills(farmId: string): Promise<DrillRecord[]> {
  const items = await queryAll({
    TableName: T(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :drill)',
    ExpressionAttributeValues: { ':pk': farmPartition(farmId), ':drill': DRILL_SK_PREFIX },
    ScanIndexForward: false,
  });
  return items.map((i) => pick<DrillRecord>(i, DRILL_FIELDS, null));
}

/** Feed and water consumed per day across the cycles (the ledger's day rollups): one BatchGetItem for every cycle and date. */
export async function consumedOn(
  cycleIds: readonly string[],
  dates: readonly string[],
): Promise<{ feedKg: Record<string, number>; waterLiters: Record<string, number> }> {
  const keys = cycleIds.flatMap((c) => dates.map((d) => dayRollupKey(c, d)));
  const items = await batchGet(keys, { projection: 'SK, feedConsumedKg, waterLiters' });
  const feedKg: Record<string, number> = Object.fromEntries(dates.map((d) => [d, 0]));
  const waterLiters: Record<string, number> = Object.fromEntries(dates.map((d) => [d, 0]));
  for (const item of items) {
    const date = String(item.SK).slice('DAY#'.length);
    feedKg[date] = (feedKg[date] ?? 0) + Number(item.feedConsumedKg ?? 0);
    waterLiters[date] = (waterLiters[date] ?? 0) + Number(item.waterLiters ?? 0);
  }
  return { feedKg, waterLiters };
}
