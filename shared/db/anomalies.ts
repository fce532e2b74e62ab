import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, queryAll, tableName } from './client.js';
import type { Versioned, Write } from './commit.js';
import { absent, any, eq, exists, isNew } from './conditions.js';
import { anomaliesOfFarm, anomalyDedupKey, anomalyKey, farmKey } from './keys.js';
import { queryPage } from './pagination.js';
import { equalityFilter, pick } from './items.js';
import { farmNotFound } from '../domain/references.js';
import { Conflict, NotFound } from '../errors.js';
import type { AnomalyNote, AnomalyRecord } from '../domain/anomalies/records.js';
import type { AnomalySource, AnomalyStatus, RuleSeverity } from '../../schemas/vocabulary.js';

/**
 * Anomalies (docs/data-model.md, "Anomalies"): `ANOMALY#<id>`/`META`, listed per farm through GSI1
 * `ANOMALIES#<farmId>` by `<firstSeenAt>#<id>` (newest first), and a dedup claim `ANOMALYDEDUP#<key>` in
 * the farm's partition while the anomaly is open or acknowledged (a repeat firing updates that anomaly;
 * the claims are also the farm's open anomalies).
 */
const FIELDS = [
  'id',
  'farmId',
  'houseId',
  'flockId',
  'cycleId',
  'source',
  'ruleId',
  'detector',
  'metric',
  'unit',
  'observed',
  'expected',
  'deviation',
  'window',
  'startedOn',
  'severity',
  'status',
  'occurrences',
  'firstSeenAt',
  'lastSeenAt',
  'judgedUntil',
  'evidence',
  'hypotheses',
  'title',
  'dedupKey',
  'incidentId',
  'acknowledgedAt',
  'resolvedAt',
  'dismissedAt',
  'notes',
  'version',
  'updatedAt',
] as const satisfies readonly (keyof AnomalyRecord)[];

export const anomalyNotFound = (id: string) => new NotFound(`Anomaly ${id} not found`);
const changedConcurrently = (id: string) => new Conflict(`Anomaly ${id} was changed concurrently; read it again and retry`);

/** An anomaly stored before `judgedUntil` existed judged up to its window's end. */
const fromItem = (item: Record<string, unknown> | undefined): AnomalyRecord | undefined =>
  item
    ? {
        ...pick<AnomalyRecord>(item, FIELDS, null),
        judgedUntil: String(item.judgedUntil ?? (item.window as AnomalyRecord['window']).to),
        notes: (item.notes as AnomalyNote[] | undefined) ?? [],
      }
    : undefined;
const sortKey = (firstSeenAt: string, id: string) => `${firstSeenAt}#${id}`;
const anomalyItem = (a: AnomalyRecord) => ({ ...anomalyKey(a.id), ...anomaliesOfFarm(a.farmId), GSI1SK: sortKey(a.firstSeenAt, a.id), type: 'Anomaly', ...a });

export async function getAnomaly(id: string): Promise<AnomalyRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: anomalyKey(id), ConsistentRead: true }));
  return fromItem(res.Item);
}

/** The open (or acknowledged) anomaly of a dedup key in a farm, if any. */
export async function openAnomalyOfDedupKey(farmId: string, dedupKey: string): Promise<string | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: anomalyDedupKey(farmId, dedupKey), ConsistentRead: true }));
  return res.Item?.anomalyId as string | undefined;
}

/** The dedup key is held by another open anomaly (a concurrent firing won the race). */
export class AnomalyDedupTaken extends Conflict {}

/** A repeat lost its race: the anomaly moved meanwhile (another firing, an action), so the firing reads it again. */
export class AnomalyMoved extends Conflict {}

/**
 * The writes that raise an anomaly: the farm exists, its dedup claim (a concurrent firing with the same
 * key loses with AnomalyDedupTaken and joins the winner), the anomaly itself.
 */
export function raisingWrites(anomaly: AnomalyRecord): Write[] {
  return [
    { check: farmKey(anomaly.farmId), when: exists(), failed: () => farmNotFound(anomaly.farmId) },
    {
      put: { ...anomalyDedupKey(anomaly.farmId, anomaly.dedupKey), type: 'AnomalyDedup', anomalyId: anomaly.id, since: anomaly.firstSeenAt },
      when: isNew(),
      failed: () => new AnomalyDedupTaken('dedup key held'),
    },
    { put: anomalyItem(anomaly), when: isNew(), failed: () => new Conflict('An anomaly with this id already exists') },
  ];
}

/** The fields as set on the item: moving `firstSeenAt` moves the anomaly in the farm's list (GSI1SK) too. */
function storedFields(current: AnomalyRecord, fields: Partial<AnomalyRecord>): Record<string, unknown> {
  const first = fields.firstSeenAt;
  return first !== undefined && first !== current.firstSeenAt ? { ...fields, GSI1SK: sortKey(first, current.id) } : fields;
}

const what = (id: string) => `Anomaly ${id}`;

/** A repeat firing: `fields` on the anomaly read, while it is still at that version AND open or acknowledged (else AnomalyMoved). */
export const repeatWrite = (current: AnomalyRecord, fields: Partial<AnomalyRecord>): Write => ({
  update: anomalyKey(current.id),
  set: storedFields(current, fields),
  version: { read: current.version, what: what(current.id) },
  when: any(eq('status', 'open'), eq('status', 'acknowledged')),
  failed: () => new AnomalyMoved(`Anomaly ${current.id} moved on`),
});

/** A change of the anomaly read at `version` (an action, an escalation). */
export const anomalyChange = (current: AnomalyRecord, fields: Partial<AnomalyRecord>, version: Omit<Versioned, 'what'>): Write => ({
  update: anomalyKey(current.id),
  set: storedFields(current, fields),
  version: { ...version, what: what(current.id) },
  failed: () => changedConcurrently(current.id),
});

/** Releases a dedup claim, only if it still names this anomaly. */
export const claimRelease = (farmId: string, dedupKey: string, anomalyId: string): Write => ({
  delete: anomalyDedupKey(farmId, dedupKey),
  when: any(absent(), eq('anomalyId', anomalyId)),
  failed: () => new Conflict('The dedup claim moved on'),
});

export interface AnomalyFilters {
  houseId?: string | undefined;
  flockId?: string | undefined;
  status?: AnomalyStatus | undefined;
  severity?: RuleSeverity | undefined;
  source?: AnomalySource | undefined;
}

/**
 * A page of a farm's anomalies, newest first by firstSeenAt (one Query on GSI1): `from` (inclusive) and
 * `to` (exclusive), normalised ISO instants, bound the first seen instant in the key condition; house,
 * flock, status, severity and source filter.
 */
export async function listAnomaliesOfFarm(
  farmId: string,
  filters: AnomalyFilters,
  range: { from?: string | undefined; to?: string | undefined },
  opts: { limit: number; cursor?: string | undefined },
): Promise<{ items: AnomalyRecord[]; nextCursor: string | null }> {
  const partition = anomaliesOfFarm(farmId);
  const values: Record<string, unknown> = { ':pk': partition.GSI1PK };
  let key = 'GSI1PK = :pk';
  if (range.from !== undefined) values[':from'] = range.from;
  if (range.to !== undefined) values[':to'] = range.to;
  // `<firstSeenAt>#<id>` sorts after its instant: `< :to` keeps an anomaly first seen at `to` out, `BETWEEN` as well
  if (range.from !== undefined && range.to !== undefined) key += ' AND GSI1SK BETWEEN :from AND :to';
  else if (range.from !== undefined) key += ' AND GSI1SK >= :from';
  else if (range.to !== undefined) key += ' AND GSI1SK < :to';
  // the cursor is bound to this query, range included
  const page = await queryPage({ IndexName: 'GSI1', KeyConditionExpression: key, ...equalityFilter(filters, values), ScanIndexForward: false }, opts);
  return { items: page.items.map((i) => fromItem(i)!), nextCursor: page.nextCursor };
}

/**
 * A farm's open (and acknowledged) anomalies: the dedup claims of its partition (one Query, as many items
 * as open anomalies, however many closed ones the farm has) and the anomalies they name (one BatchGetItem).
 */
export async function openAnomaliesOfFarm(farmId: string): Promise<AnomalyRecord[]> {
  const prefix = anomalyDedupKey(farmId, '');
  const claims = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': prefix.PK, ':prefix': prefix.SK },
    ProjectionExpression: 'anomalyId',
  });
  if (claims.length === 0) return [];
  const items = await batchGet(claims.map((c) => anomalyKey(String(c.anomalyId))));
  return items.map((i) => fromItem(i)!).filter((a) => a.status === 'open' || a.status === 'acknowledged');
}
