import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AppError } from '../errors.js';
import { batchGet, db, tableName } from './client.js';
import type { Write } from './commit.js';
import { isNew } from './conditions.js';
import { cyclePartition, DAILY_SK_PREFIX, dailyRecordKey, movementKey } from './keys.js';
import { pick } from './items.js';
import { movementFromItem } from './movements.js';
import type { MovementRecord } from '../domain/movements/record.js';
import { queryPage } from './pagination.js';
import type { DailyRecord } from '../domain/flocks/records.js';

const FIELDS: readonly (keyof DailyRecord)[] = [
  'cycleId',
  'flockId',
  'date',
  'stage',
  'fields',
  'movementIds',
  'warnings',
  'createdAt',
  'createdBy',
  'updatedAt',
  'version',
];
const fromItem = (i: Record<string, unknown>) => pick<DailyRecord>(i, FIELDS);

export async function getDailyRecord(cycleId: string, date: string): Promise<DailyRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: dailyRecordKey(cycleId, date), ConsistentRead: true }));
  return res.Item ? fromItem(res.Item) : undefined;
}

/** The day's form, written with the ledger: new (no record yet) or replacing the version read; either failing is `failed`. */
export function dailyRecordWrite(record: DailyRecord, read: number | undefined, failed: () => AppError): Write {
  return {
    put: { ...dailyRecordKey(record.cycleId, record.date), entity: 'DailyRecord', ...record },
    ...(read === undefined ? { when: isNew() } : { version: { read, what: `The daily record of ${record.date}` } }),
    failed,
  };
}

export async function movementsById(cycleId: string, ids: string[]): Promise<MovementRecord[]> {
  const items = await batchGet(
    ids.map((id) => movementKey(cycleId, id)),
    { consistent: true },
  );
  return items.map((i) => movementFromItem(i)!);
}

export async function listDailyRecords(cycleId: string, opts: { limit: number; cursor?: string }) {
  const page = await queryPage(
    {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :d)',
      ExpressionAttributeValues: { ':pk': cyclePartition(cycleId), ':d': DAILY_SK_PREFIX },
      ConsistentRead: true,
    },
    opts,
  );
  return { items: page.items.map(fromItem), nextCursor: page.nextCursor };
}
