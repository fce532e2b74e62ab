import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulidx';
import { batchGet, db, queryAll, tableName, transact, type TransactItem } from './client.js';
import {
  anomalyKey,
  anomalyPartition,
  deviceKey,
  devicePartition,
  farmKey,
  flockKey,
  flockPartition,
  INCIDENT_EVENT_SK_PREFIX,
  incidentDedupKey,
  incidentEventKey,
  incidentKey,
  incidentPartition,
  incidentsOfFarm,
  restrictionFlagKey,
  restrictionKey,
} from './keys.js';
import { pick } from './items.js';
import { gsi1Page } from './pagination.js';
import { farmNotFound, versionedUpdate } from './farms.js';
import { Conflict, NotFound } from '../errors.js';
import type { IncidentCategory, IncidentSeverity, IncidentStatus } from '../../schemas/vocabulary.js';

/**
 * Incidents (docs/data-model.md, "Operations"): `INCIDENT#<id>`/`META` listed per farm through GSI1
 * `INCIDENTS#<farmId>` (newest first), its append-only timeline `EVENT#<ulid>` in the same partition
 * (every change writes its event in the same transaction), a dedup item in the farm's partition while it
 * is open, and a restriction item while a disease suspicion is not closed.
 */
export interface IncidentRecord {
  id: string;
  farmId: string;
  title: string;
  description: string | null;
  category: IncidentCategory;
  severity: IncidentSeverity;
  status: IncidentStatus;
  assigneeId: string | null;
  links: { anomalyIds: string[]; deviceIds: string[]; flockIds: string[] };
  dedupKey: string | null;
  occurrences: number;
  openedBy: string;
  createdAt: string;
  acknowledgedAt: string | null;
  resolvedAt: string | null;
  closedAt: string | null;
  updatedAt: string;
  version: number;
}

export interface TimelineEvent {
  id: string;
  at: string;
  type: 'created' | 'repeated' | 'updated' | 'acknowledged' | 'resolved' | 'closed' | 'note';
  actorId: string;
  note: string | null;
  changes: Record<string, { from: unknown; to: unknown }> | null;
}

const FIELDS = [
  'id',
  'farmId',
  'title',
  'description',
  'category',
  'severity',
  'status',
  'assigneeId',
  'links',
  'dedupKey',
  'occurrences',
  'openedBy',
  'createdAt',
  'acknowledgedAt',
  'resolvedAt',
  'closedAt',
  'updatedAt',
  'version',
] as const satisfies readonly (keyof IncidentRecord)[];

export const incidentNotFound = (id: string) => new NotFound(`Incident ${id} not found`);
const changedConcurrently = (id: string) => new Conflict(`Incident ${id} was changed concurrently; read it again and retry`);

const fromItem = (item: Record<string, unknown> | undefined): IncidentRecord | undefined => (item ? pick<IncidentRecord>(item, FIELDS) : undefined);
const incidentItem = (i: IncidentRecord) => ({ ...incidentKey(i.id), ...incidentsOfFarm(i.farmId), GSI1SK: `${i.createdAt}#${i.id}`, type: 'Incident', ...i });

/** The id of the event a `timelinePut` writes. */
export const eventIdOf = (put: TransactItem): string => String(put.Put!.Item!.id);

/** A timeline event as a Put of the same transaction (append-only: `attribute_not_exists`). */
export function timelinePut(incidentId: string, event: Omit<TimelineEvent, 'id'>): TransactItem {
  const id = ulid();
  const { type: eventType, ...rest } = event;
  return {
    Put: {
      TableName: tableName(),
      // `type` names the item kind in the table; the event's own type is `eventType`
      Item: { ...incidentEventKey(incidentId, id), type: 'IncidentEvent', eventType, id, ...rest },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** The incident and its timeline, oldest first: one Query of its partition. */
export async function getIncidentWithTimeline(id: string): Promise<{ incident: IncidentRecord; timeline: TimelineEvent[] } | undefined> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': incidentPartition(id) },
    ConsistentRead: true,
  });
  const incident = fromItem(items.find((i) => i.SK === 'META'));
  if (!incident) return undefined;
  const timeline = items
    .filter((i) => String(i.SK).startsWith(INCIDENT_EVENT_SK_PREFIX))
    .map((i) => ({ ...pick<Omit<TimelineEvent, 'type'>>(i, ['id', 'at', 'actorId', 'note', 'changes'], null), type: i.eventType as TimelineEvent['type'] }));
  return { incident, timeline };
}

/** The open incident of a dedup key in a farm, if any. */
export async function openIncidentOfDedupKey(farmId: string, dedupKey: string): Promise<string | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: incidentDedupKey(farmId, dedupKey), ConsistentRead: true }));
  return res.Item?.incidentId as string | undefined;
}

/**
 * Opens an incident in ONE transaction: the farm exists, its dedup item is claimed (`attribute_not_exists`:
 * a concurrent twin loses and joins the winner), the restriction item of a disease suspicion, the
 * incident, its first timeline event and the audit entries. Throws DedupTaken when the key is held.
 */
export class DedupTaken extends Conflict {}

export async function createIncident(incident: IncidentRecord, extra: TransactItem[]): Promise<void> {
  const T = tableName();
  const items: TransactItem[] = [
    { ConditionCheck: { TableName: T, Key: farmKey(incident.farmId), ConditionExpression: 'attribute_exists(PK)' } },
    ...(incident.dedupKey
      ? [
          {
            Put: {
              TableName: T,
              Item: { ...incidentDedupKey(incident.farmId, incident.dedupKey), type: 'IncidentDedup', incidentId: incident.id },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
        ]
      : []),
    { Put: { TableName: T, Item: incidentItem(incident), ConditionExpression: 'attribute_not_exists(PK)' } },
    ...extra,
  ];
  await transact(items, (i) =>
    i === 0
      ? farmNotFound(incident.farmId)
      : incident.dedupKey && i === 1
        ? new DedupTaken('dedup key held')
        : new Conflict('An incident with this id already exists'),
  );
}

/**
 * The restriction a disease suspicion puts on its farm (created with the incident or when recategorised),
 * with the farm's restriction flag (the set of restricting incidents) in the same transaction: what a
 * transfer's completion ConditionChecks (shared/db/transfers.ts).
 */
export const restrictionPut = (farmId: string, incidentId: string, since: string): TransactItem[] => [
  { Put: { TableName: tableName(), Item: { ...restrictionKey(farmId, incidentId), type: 'MovementRestriction', incidentId, since } } },
  restrictionFlag(farmId, incidentId, 'ADD'),
];
export const restrictionDelete = (farmId: string, incidentId: string): TransactItem[] => [
  { Delete: { TableName: tableName(), Key: restrictionKey(farmId, incidentId) } },
  restrictionFlag(farmId, incidentId, 'DELETE'),
];
const restrictionFlag = (farmId: string, incidentId: string, op: 'ADD' | 'DELETE'): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: restrictionFlagKey(farmId),
    UpdateExpression: `SET #type = :type, farmId = :farm ${op} incidentIds :id`,
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':type': 'MovementRestrictionFlag', ':farm': farmId, ':id': new Set([incidentId]) },
  },
});
/** Releases a dedup key, only if it still names this incident. */
export const dedupRelease = (farmId: string, dedupKey: string, incidentId: string): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: incidentDedupKey(farmId, dedupKey),
    ConditionExpression: 'attribute_not_exists(PK) OR incidentId = :id',
    ExpressionAttributeValues: { ':id': incidentId },
  },
});

/** Sets `fields` if the incident is at `expectedVersion` (version + 1), with the transaction's other items (its timeline event, audit…). */
export async function updateIncident(
  current: IncidentRecord,
  expectedVersion: number,
  fields: Partial<IncidentRecord>,
  now: string,
  extra: TransactItem[],
): Promise<void> {
  await transact([versionedUpdate(incidentKey(current.id), expectedVersion, fields, now), ...extra], () => changedConcurrently(current.id));
}

/** Appends an event to an existing incident's timeline (a note), nothing else. */
export async function appendTimeline(incidentId: string, event: TransactItem): Promise<void> {
  await transact([{ ConditionCheck: { TableName: tableName(), Key: incidentKey(incidentId), ConditionExpression: 'attribute_exists(PK)' } }, event], () =>
    incidentNotFound(incidentId),
  );
}

/** A repeat of an open incident's dedup key: one more occurrence and a `repeated` event, whatever its version. */
export async function recordRepeat(incidentId: string, now: string, extra: TransactItem[]): Promise<void> {
  await transact(
    [
      {
        Update: {
          TableName: tableName(),
          Key: incidentKey(incidentId),
          UpdateExpression: 'SET #updatedAt = :now ADD occurrences :one, #version :one',
          ConditionExpression: 'attribute_exists(PK) AND #status IN (:t, :a)',
          ExpressionAttributeNames: { '#updatedAt': 'updatedAt', '#version': 'version', '#status': 'status' },
          ExpressionAttributeValues: { ':now': now, ':one': 1, ':t': 'triggered', ':a': 'acknowledged' },
        },
      },
      ...extra,
    ],
    () => changedConcurrently(incidentId),
  );
}

/** A page of a farm's incidents, newest first (one Query on GSI1; status, severity and category filter). */
export async function listIncidentsOfFarm(
  farmId: string,
  filters: { status?: IncidentStatus; severity?: IncidentSeverity; category?: IncidentCategory },
  opts: { limit: number; cursor?: string },
): Promise<{ items: IncidentRecord[]; nextCursor: string | null }> {
  const page = await gsi1Page(incidentsOfFarm(farmId), filters, { ...opts, newestFirst: true });
  return { items: page.items.map((i) => fromItem(i)!), nextCursor: page.nextCursor };
}

/** Every incident of a farm opened since `since` (the metrics; a farm opens a handful a month). */
export async function incidentsOfFarmSince(farmId: string, since: string): Promise<IncidentRecord[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK >= :since',
    ExpressionAttributeValues: { ':pk': incidentsOfFarm(farmId).GSI1PK, ':since': since },
  });
  return items.map((i) => fromItem(i)!);
}

/** A farm's open incidents (triggered or acknowledged), newest first: one Query of its GSI1 partition, status as filter. */
export async function openIncidentsOfFarm(farmId: string): Promise<IncidentRecord[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    FilterExpression: '#status IN (:t, :a)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':pk': incidentsOfFarm(farmId).GSI1PK, ':t': 'triggered', ':a': 'acknowledged' },
    ScanIndexForward: false,
  });
  return items.map((i) => fromItem(i)!);
}

/**
 * The farm of each of these devices, flocks and anomalies that exists (one BatchGetItem over all three):
 * what an incident may link to.
 */
export async function farmsOfLinked(
  deviceIds: readonly string[],
  flockIds: readonly string[],
  anomalyIds: readonly string[] = [],
): Promise<{ devices: Map<string, string>; flocks: Map<string, string>; anomalies: Map<string, string> }> {
  const found = await batchGet([...deviceIds.map((id) => deviceKey(id)), ...flockIds.map((id) => flockKey(id)), ...anomalyIds.map((id) => anomalyKey(id))], {
    projection: 'PK, farmId',
  });
  const kinds = { devices: devicePartition(''), flocks: flockPartition(''), anomalies: anomalyPartition('') };
  const out = { devices: new Map<string, string>(), flocks: new Map<string, string>(), anomalies: new Map<string, string>() };
  for (const item of found) {
    const pk = String(item.PK);
    for (const [kind, prefix] of Object.entries(kinds) as [keyof typeof kinds, string][])
      if (pk.startsWith(prefix)) out[kind].set(pk.slice(prefix.length), String(item.farmId));
  }
  return out;
}
