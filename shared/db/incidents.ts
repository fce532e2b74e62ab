import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, queryAll, tableName } from './client.js';
import type { Versioned, Write } from './commit.js';
import { absent, all, any, eq, exists, isNew } from './conditions.js';
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
import type { IncidentRecord, TimelineEvent } from '../domain/incidents/records.js';
import { farmNotFound } from '../domain/references.js';
import { Conflict, NotFound } from '../errors.js';
import type { IncidentCategory, IncidentSeverity, IncidentStatus } from '../../schemas/vocabulary.js';

/**
 * Incidents (docs/data-model.md, "Operations"): `INCIDENT#<id>`/`META` listed per farm through GSI1
 * `INCIDENTS#<farmId>` (newest first), its append-only timeline `EVENT#<ulid>` in the same partition
 * (every change writes its event in the same transaction), a dedup item in the farm's partition while it
 * is open, and a restriction item while a disease suspicion is not closed. The records are the domain's
 * (shared/domain/incidents/records.ts).
 */
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

/** A timeline event as a write of the same commit (append-only: a create). */
export function timelineWrite(incidentId: string, event: TimelineEvent): Write {
  const { type: eventType, ...rest } = event;
  // `type` names the item kind in the table; the event's own type is `eventType`
  return { put: { ...incidentEventKey(incidentId, event.id), type: 'IncidentEvent', eventType, ...rest }, when: isNew() };
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

/** The dedup key is held by another open incident (a concurrent twin won the race): this request joins it. */
export class DedupTaken extends Conflict {}

/**
 * The writes that open an incident: the farm exists, its dedup item is claimed (a concurrent twin loses
 * with DedupTaken and joins the winner), the incident itself.
 */
export function openingWrites(incident: IncidentRecord): Write[] {
  return [
    { check: farmKey(incident.farmId), when: exists(), failed: () => farmNotFound(incident.farmId) },
    ...(incident.dedupKey
      ? [
          {
            put: { ...incidentDedupKey(incident.farmId, incident.dedupKey), type: 'IncidentDedup', incidentId: incident.id },
            when: isNew(),
            failed: () => new DedupTaken('dedup key held'),
          },
        ]
      : []),
    { put: incidentItem(incident), when: isNew(), failed: () => new Conflict('An incident with this id already exists') },
  ];
}

/**
 * The restriction a disease suspicion puts on its farm (written with the incident or when recategorised),
 * with the farm's restriction flag (the set of restricting incidents) in the same commit: what a
 * transfer's completion checks (shared/db/transfers.ts).
 */
export const restrictionWrites = (farmId: string, incidentId: string, since: string): Write[] => [
  { put: { ...restrictionKey(farmId, incidentId), type: 'MovementRestriction', incidentId, since } },
  { update: restrictionFlagKey(farmId), set: { type: 'MovementRestrictionFlag', farmId }, addToSet: { incidentIds: [incidentId] } },
];
export const restrictionLiftWrites = (farmId: string, incidentId: string): Write[] => [
  { delete: restrictionKey(farmId, incidentId) },
  { update: restrictionFlagKey(farmId), set: { type: 'MovementRestrictionFlag', farmId }, deleteFromSet: { incidentIds: [incidentId] } },
];

/** Releases a dedup key, only if it still names this incident. */
export const dedupReleaseWrite = (farmId: string, dedupKey: string, incidentId: string): Write => ({
  delete: incidentDedupKey(farmId, dedupKey),
  when: any(absent(), eq('incidentId', incidentId)),
});

/** Sets `fields` on the incident read at `version` (the commit bumps it). */
export const incidentChange = (current: IncidentRecord, fields: Partial<IncidentRecord>, version: Versioned): Write => ({
  update: incidentKey(current.id),
  set: fields,
  version,
  failed: () => changedConcurrently(current.id),
});

/** The incident exists (a note appends to its timeline and changes nothing else). */
export const incidentExists = (incidentId: string): Write => ({ check: incidentKey(incidentId), when: exists(), failed: () => incidentNotFound(incidentId) });

/** A repeat of an open incident's dedup key: one more occurrence and version, whatever the version read, while it is open. */
export const repeatWrite = (incidentId: string, now: string): Write => ({
  update: incidentKey(incidentId),
  set: { updatedAt: now },
  add: { occurrences: 1, version: 1 },
  when: all(exists(), any(eq('status', 'triggered'), eq('status', 'acknowledged'))),
  failed: () => changedConcurrently(incidentId),
});

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
