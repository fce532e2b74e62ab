import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, type AppError } from '../errors.js';
import { batchGet, db, tableName } from './client.js';
import type { Versioned, Write } from './commit.js';
import { isNew, type Condition } from './conditions.js';
import { farmKey, flockKey, flocksOfFarm, gsi1, houseKey } from './keys.js';
import { pick } from './items.js';
import { queriesPage } from './pagination.js';
import type { FlockRecord } from '../domain/flocks/records.js';

const FIELDS: readonly (keyof FlockRecord)[] = [
  'id',
  'farmId',
  'houseId',
  'name',
  'birdType',
  'breed',
  'hatchDate',
  'source',
  'notes',
  'status',
  'activeCycleId',
  'createdAt',
  'updatedAt',
  'version',
];

export function flockFromItem(item: Record<string, unknown> | undefined): FlockRecord | undefined {
  if (!item) return undefined;
  return pick<FlockRecord>(item, FIELDS, null);
}

export function flockItem(f: FlockRecord) {
  return { ...flockKey(f.id), ...flocksOfFarm(f.farmId), GSI1SK: `${f.status}#${f.createdAt}#${f.id}`, type: 'Flock', ...f };
}

export async function getFlock(id: string): Promise<FlockRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: flockKey(id), ConsistentRead: true }));
  return flockFromItem(res.Item);
}

/** Does the farm exist, and (when given) the house in it? One read. */
export async function placementExists(farmId: string, houseId: string | null | undefined): Promise<{ farm: boolean; house: boolean }> {
  const keys = [farmKey(farmId), ...(houseId ? [houseKey(farmId, houseId)] : [])];
  const found = await batchGet(keys, { consistent: true, projection: 'PK, SK' });
  return { farm: found.some((i) => i.SK === 'META'), house: !houseId || found.some((i) => i.SK === `HOUSE#${houseId}`) };
}

/** The writes of flocks: a new one, or the whole flock replaced at the version read (`when`: a rule besides, e.g. no active cycle). */
export const flockWrites = {
  create: (flock: FlockRecord): Write => ({ put: flockItem(flock), when: isNew(), failed: () => new Conflict('A flock with this id already exists') }),
  replace: (flock: FlockRecord, version: Versioned, rule?: { when: Condition; failed: () => AppError }): Write => ({
    put: flockItem(flock),
    version,
    ...(rule ?? {}),
  }),
};

/** Every farm id (admins list flocks across all farms). */
export async function allFarmIds(): Promise<string[]> {
  const ids: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': gsi1.farms.GSI1PK },
        ProjectionExpression: 'id',
        ExclusiveStartKey: start,
      }),
    );
    ids.push(...(res.Items ?? []).map((i) => i.id as string));
    start = res.LastEvaluatedKey;
  } while (start);
  return ids;
}

/**
 * Flocks of several farms, one farm partition after the other, `status` by key prefix and the other
 * filters as a FilterExpression, within 20 Queries a page. The cursor remembers which farm and where in it
 * (and is bound to the farms and filters it was issued for).
 */
export async function listFlocks(opts: { farmIds: string[]; status: string; birdType?: string; houseId?: string; limit: number; cursor?: string }) {
  const filters: string[] = [];
  const values: Record<string, unknown> = { ':prefix': `${opts.status}#` };
  if (opts.birdType) {
    filters.push('birdType = :bt');
    values[':bt'] = opts.birdType;
  }
  if (opts.houseId) {
    filters.push('houseId = :h');
    values[':h'] = opts.houseId;
  }
  const queries = opts.farmIds.map((id) => ({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)',
    ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    ExpressionAttributeValues: { ...values, ':pk': flocksOfFarm(id).GSI1PK },
  }));
  const page = await queriesPage(queries, opts, { reads: 20 });
  return { items: page.items.map((i) => flockFromItem(i)!), nextCursor: page.nextCursor };
}
