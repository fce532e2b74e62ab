import { ulid } from 'ulidx';
import { auditPut } from '../db/audit.js';
import type { TransactItem } from '../db/client.js';
import {
  appendTimeline,
  createIncident,
  DedupTaken,
  dedupRelease,
  getIncidentWithTimeline,
  incidentNotFound,
  incidentsOfFarmSince,
  listIncidentsOfFarm,
  openIncidentOfDedupKey,
  openIncidentsOfFarm,
  recordRepeat,
  restrictionDelete,
  restrictionPut,
  timelinePut,
  eventIdOf,
  farmsOfLinked,
  updateIncident,
  type IncidentRecord,
  type TimelineEvent,
} from '../db/incidents.js';
import { getUser } from '../db/users.js';
import type { Caller } from '../domain/caller.js';
import type { Capability } from '../domain/capabilities.js';
import { systemCaller } from '../domain/caller.js';
import { canAccessFarm } from '../domain/farm-access.js';
import { expectedVersion, type Precondition } from '../domain/concurrency.js';
import { assigneeMay, isOpen, mayActOn, responseMetrics, restrictsMovements, transition } from '../domain/incidents.js';
import { Conflict, Forbidden, ValidationFailed } from '../errors.js';
import { farmOfRequest } from './farms.js';
import { userNotFound } from './references.js';
import { idempotent } from './idempotency.js';
import type { CreateIncidentBody, IncidentActionBody, IncidentMetricsQuery, ListIncidentsQuery, UpdateIncidentBody } from '../../schemas/operations.js';
import type { IncidentAction, IncidentCategory } from '../../schemas/vocabulary.js';

/**
 * Incidents (`/api/v1/operations`): opened by hand, by a job (the device health job for an offline
 * sensor) or, later, by a rule action or an anomaly's escalation; owned by an assignee until resolved;
 * every change appends to the timeline in its own transaction and is audited. Scoped to the caller's
 * farms like every farm record (an incident of another farm does not exist for the caller).
 */

const minutes = (from: string, to: string | null) => (to === null ? null : Math.round(((Date.parse(to) - Date.parse(from)) / 60_000) * 10) / 10);

export function toIncidentDto(i: IncidentRecord) {
  return {
    id: i.id,
    farmId: i.farmId,
    title: i.title,
    description: i.description,
    category: i.category,
    severity: i.severity,
    status: i.status,
    assigneeId: i.assigneeId,
    links: i.links,
    dedupKey: i.dedupKey,
    occurrences: i.occurrences,
    restrictsMovements: restrictsMovements(i.category) && i.status !== 'closed',
    openedBy: i.openedBy,
    createdAt: i.createdAt,
    acknowledgedAt: i.acknowledgedAt,
    resolvedAt: i.resolvedAt,
    closedAt: i.closedAt,
    timeToAcknowledgeMinutes: minutes(i.createdAt, i.acknowledgedAt),
    timeToResolveMinutes: minutes(i.createdAt, i.resolvedAt),
    updatedAt: i.updatedAt,
    version: i.version,
  };
}

const withTimeline = (incident: IncidentRecord, timeline: TimelineEvent[]) => ({ ...toIncidentDto(incident), timeline });

/** The incident and its timeline if the caller may see it (one Query); else the one NotFound. */
async function visibleIncident(user: Caller, id: string): Promise<{ incident: IncidentRecord; timeline: TimelineEvent[] }> {
  const found = await getIncidentWithTimeline(id);
  if (!found || !canAccessFarm(user, found.incident.farmId)) throw incidentNotFound(id);
  return found;
}

/**
 * The capability a route of `action` declares: view_analytics where an assignee may act without
 * manage_incidents (`incidentToActOn` checks the rest), else manage_incidents.
 */
export const incidentRouteCapability = (action: IncidentAction | 'note'): Capability => (assigneeMay(action) ? 'view_analytics' : 'manage_incidents');

/** The incident as `visibleIncident`, when the caller may also do `action` to it (manage_incidents, or its assignee acknowledging or noting). */
async function incidentToActOn(user: Caller, id: string, action: IncidentAction | 'note') {
  const found = await visibleIncident(user, id);
  if (!mayActOn(user, found.incident, action))
    throw new Forbidden('Missing capability: manage_incidents (without it, only the incident’s assignee may acknowledge it and add notes)');
  return found;
}

/**
 * Writes a change (its fields at the version read, its timeline event and the other items of the same
 * transaction) and answers with the incident as written: no second read.
 */
async function applyChange(
  found: { incident: IncidentRecord; timeline: TimelineEvent[] },
  version: number,
  fields: Partial<IncidentRecord>,
  event: Omit<TimelineEvent, 'id'>,
  extra: TransactItem[],
) {
  const put = timelinePut(found.incident.id, event);
  await updateIncident(found.incident, version, fields, event.at, [put, ...extra]);
  const written = { ...found.incident, ...fields, version: version + 1, updatedAt: event.at };
  return withTimeline(written, [...found.timeline, { id: eventIdOf(put), ...event }]);
}

export async function incidentFor(user: Caller, id: string) {
  const found = await visibleIncident(user, id);
  return withTimeline(found.incident, found.timeline);
}

/** The assignee must be a user who sees the farm: anyone else, like a missing user, is a 404 naming the id. */
async function assigneeOrThrow(farmId: string, assigneeId: string | null | undefined): Promise<void> {
  if (assigneeId === undefined || assigneeId === null) return;
  const user = await getUser(assigneeId);
  if (!user || !(user.role === 'admin' || user.farmIds.includes(farmId))) throw userNotFound(assigneeId);
}

const links = (l: CreateIncidentBody['links']) => ({ anomalyIds: l?.anomalyIds ?? [], deviceIds: l?.deviceIds ?? [], flockIds: l?.flockIds ?? [] });

/**
 * Linked anomalies, devices and flocks must be of the incident's farm (one BatchGetItem over all of them;
 * a record of another farm is named exactly like one that does not exist).
 */
async function linksOrThrow(farmId: string, l: CreateIncidentBody['links']): Promise<void> {
  const { anomalyIds = [], deviceIds = [], flockIds = [] } = l ?? {};
  if (anomalyIds.length + deviceIds.length + flockIds.length === 0) return;
  const found = await farmsOfLinked(deviceIds, flockIds, anomalyIds);
  const problems = [
    ...anomalyIds.flatMap((id, i) =>
      found.anomalies.get(id) === farmId ? [] : [{ field: `links.anomalyIds.${i}`, message: `no anomaly ${id} in farm ${farmId}` }],
    ),
    ...deviceIds.flatMap((id, i) =>
      found.devices.get(id) === farmId ? [] : [{ field: `links.deviceIds.${i}`, message: `no device ${id} in farm ${farmId}` }],
    ),
    ...flockIds.flatMap((id, i) => (found.flocks.get(id) === farmId ? [] : [{ field: `links.flockIds.${i}`, message: `no flock ${id} in farm ${farmId}` }])),
  ];
  if (problems.length > 0) throw new ValidationFailed(problems);
}

type Remember = Parameters<Parameters<typeof idempotent>[4]>[0];

/** Joins the open incident of a dedup key: one more occurrence and a `repeated` event (and the idempotent answer, in the same transaction). */
async function joinOpen(user: Caller, incidentId: string, note: string, remember: Remember) {
  const now = new Date().toISOString();
  const repeated = { at: now, type: 'repeated' as const, actorId: user.id, note, changes: null };
  const event = timelinePut(incidentId, repeated);
  const found = await getIncidentWithTimeline(incidentId);
  if (!found) throw new Conflict('The open incident of this dedup key is gone; retry');
  // the answer is the incident as it is once this repeat is recorded
  const joined = { ...found.incident, occurrences: found.incident.occurrences + 1, version: found.incident.version + 1, updatedAt: now };
  const answer = {
    created: false,
    message: 'Joined the open incident with this dedup key',
    data: withTimeline(joined, [...found.timeline, { id: eventIdOf(event), ...repeated }]),
  };
  await recordRepeat(incidentId, now, [event, ...remember(answer)]);
  // live, the incident as it is now (concurrent repeats may have moved it further than the stored answer says)
  return { ...answer, data: await incidentFor(user, incidentId) };
}

/** Opens an incident, or joins the open one of its dedup key; with an Idempotency-Key a retry gets the first answer. */
export async function openIncident(user: Caller, body: CreateIncidentBody, requestId: string, idempotencyKey?: string) {
  const farmId = farmOfRequest(user, body.farmId);
  return idempotent(user.id, idempotencyKey, `incident:${farmId}`, body, (remember) => openOrJoin(user, farmId, body, requestId, remember));
}

async function openOrJoin(user: Caller, farmId: string, body: CreateIncidentBody, requestId: string, remember: Remember) {
  await Promise.all([assigneeOrThrow(farmId, body.assigneeId), linksOrThrow(farmId, body.links)]);
  if (body.dedupKey) {
    const open = await openIncidentOfDedupKey(farmId, body.dedupKey);
    if (open) return joinOpen(user, open, body.title, remember);
  }
  const now = new Date().toISOString();
  const incident: IncidentRecord = {
    id: ulid(),
    farmId,
    title: body.title.trim(),
    description: body.description?.trim() ?? null,
    category: body.category,
    severity: body.severity,
    status: 'triggered',
    assigneeId: body.assigneeId ?? null,
    links: links(body.links),
    dedupKey: body.dedupKey ?? null,
    occurrences: 1,
    openedBy: user.id,
    createdAt: now,
    acknowledgedAt: null,
    resolvedAt: null,
    closedAt: null,
    updatedAt: now,
    version: 1,
  };
  const created = { at: now, type: 'created' as const, actorId: user.id, note: incident.description, changes: null };
  const event = timelinePut(incident.id, created);
  const answer = { created: true, message: 'Incident opened', data: withTimeline(incident, [{ id: eventIdOf(event), ...created }]) };
  try {
    await createIncident(incident, [
      ...remember(answer),
      event,
      ...(restrictsMovements(incident.category) ? restrictionPut(farmId, incident.id, now) : []),
      auditPut({ actorId: user.id, action: 'incident.open', targetType: 'incident', targetId: incident.id, changes: toIncidentDto(incident), requestId }),
    ]);
  } catch (err) {
    // a twin with the same dedup key won the race: this request joins it
    if (!(err instanceof DedupTaken)) throw err;
    const winner = await openIncidentOfDedupKey(farmId, body.dedupKey!);
    if (!winner) throw new Conflict('The dedup key was taken and released meanwhile; retry');
    return joinOpen(user, winner, body.title, remember);
  }
  return answer;
}

export async function listIncidentsFor(user: Caller, query: ListIncidentsQuery) {
  const farmId = farmOfRequest(user, query.farmId);
  const limit = query.limit ?? 25;
  const page = await listIncidentsOfFarm(farmId, { status: query.status, severity: query.severity, category: query.category }, { limit, cursor: query.cursor });
  return { items: page.items.map(toIncidentDto), limit, nextCursor: page.nextCursor };
}

const EDITABLE = ['title', 'description', 'category', 'severity', 'assigneeId', 'links'] as const;

export async function updateIncidentFor(user: Caller, id: string, body: UpdateIncidentBody, precondition: Precondition | undefined, requestId: string) {
  const found = await visibleIncident(user, id);
  const current = found.incident;
  const version = expectedVersion(current.version, { precondition, stated: body.version }, `Incident ${id}`);
  if (current.status === 'closed') throw new Conflict(`Incident ${id} is closed; add a note instead`);
  await Promise.all([
    body.assigneeId !== undefined ? assigneeOrThrow(current.farmId, body.assigneeId) : undefined,
    body.links !== undefined ? linksOrThrow(current.farmId, body.links) : undefined,
  ]);
  const next: IncidentRecord = {
    ...current,
    ...(body.title !== undefined ? { title: body.title.trim() } : {}),
    ...(body.description !== undefined ? { description: body.description?.trim() ?? null } : {}),
    ...(body.category !== undefined ? { category: body.category } : {}),
    ...(body.severity !== undefined ? { severity: body.severity } : {}),
    ...(body.assigneeId !== undefined ? { assigneeId: body.assigneeId } : {}),
    ...(body.links !== undefined ? { links: links(body.links) } : {}),
  };
  const changes = Object.fromEntries(
    EDITABLE.filter((f) => JSON.stringify(current[f]) !== JSON.stringify(next[f])).map((f) => [f, { from: current[f], to: next[f] }]),
  );
  if (Object.keys(changes).length === 0) return withTimeline(current, found.timeline);
  const now = new Date().toISOString();
  const restriction = restrictsMovements(next.category) !== restrictsMovements(current.category);
  const fields = Object.fromEntries(Object.keys(changes).map((f) => [f, next[f as keyof IncidentRecord]]));
  return applyChange(found, version, fields, { at: now, type: 'updated', actorId: user.id, note: null, changes }, [
    ...(restriction ? (restrictsMovements(next.category) ? restrictionPut(current.farmId, id, now) : restrictionDelete(current.farmId, id)) : []),
    auditPut({ actorId: user.id, action: 'incident.update', targetType: 'incident', targetId: id, changes, requestId }),
  ]);
}

/** acknowledge, resolve or close: an illegal move is a Conflict naming the status; the dedup key is released once it is no longer open, the restriction once closed. */
export async function actOnIncident(
  user: Caller,
  id: string,
  action: IncidentAction,
  body: IncidentActionBody,
  precondition: Precondition | undefined,
  requestId: string,
) {
  const found = await incidentToActOn(user, id, action);
  const current = found.incident;
  const version = expectedVersion(current.version, { precondition, stated: body.version }, `Incident ${id}`);
  const move = transition(current.status, action);
  if ('refused' in move) throw new Conflict(move.refused);
  const now = new Date().toISOString();
  const stamp = { acknowledged: 'acknowledgedAt', resolved: 'resolvedAt', closed: 'closedAt' } as const;
  const fields: Partial<IncidentRecord> = { status: move.to, [stamp[move.to as keyof typeof stamp]]: now };
  const releases =
    current.dedupKey && isOpen(current.status) && !isOpen(move.to)
      ? [dedupRelease(current.farmId, current.dedupKey, id)]
      : ([] as ReturnType<typeof dedupRelease>[]);
  return applyChange(found, version, fields, { at: now, type: move.to as TimelineEvent['type'], actorId: user.id, note: body.note ?? null, changes: null }, [
    ...releases,
    ...(move.to === 'closed' && restrictsMovements(current.category) ? restrictionDelete(current.farmId, id) : []),
    auditPut({
      actorId: user.id,
      action: `incident.${action}`,
      targetType: 'incident',
      targetId: id,
      changes: { status: { from: current.status, to: move.to } },
      requestId,
    }),
  ]);
}

/** A note on the timeline (also on a closed incident: the timeline is the record); it does not change the incident's version. */
export async function addIncidentNote(user: Caller, id: string, text: string) {
  const found = await incidentToActOn(user, id, 'note');
  const note = { at: new Date().toISOString(), type: 'note' as const, actorId: user.id, note: text.trim(), changes: null };
  const put = timelinePut(id, note);
  await appendTimeline(id, put);
  return withTimeline(found.incident, [...found.timeline, { id: eventIdOf(put), ...note }]);
}

export async function incidentMetrics(user: Caller, query: IncidentMetricsQuery) {
  const farmId = farmOfRequest(user, query.farmId);
  const since = new Date(Date.now() - (query.days ?? 30) * 86_400_000).toISOString();
  return { farmId, since, ...responseMetrics(await incidentsOfFarmSince(farmId, since)) };
}

/** Who the device health job opens incidents as. */
const healthJob = systemCaller('device-health', ['manage_incidents'], 'all');

/** The device health job's incident for a device that went offline (one open incident per device: its dedup key). */
export async function openDeviceOfflineIncident(device: { deviceId: string; farmId: string; name: string; lastSeen: string }) {
  return openIncident(
    healthJob,
    {
      farmId: device.farmId,
      title: `Sensor ${device.name} is offline (last seen ${device.lastSeen})`,
      category: 'equipment',
      severity: 'medium',
      links: { deviceIds: [device.deviceId] },
      dedupKey: `device-offline:${device.deviceId}`,
    },
    'device-health',
  );
}

/** The dashboard's open incidents of a farm (optionally of some categories): the count by severity and the 5 newest. */
export async function openIncidentsSummary(farmId: string, categories?: readonly IncidentCategory[]) {
  const open = (await openIncidentsOfFarm(farmId)).filter((i) => !categories || categories.includes(i.category));
  const bySeverity = { critical: 0, high: 0, medium: 0, low: 0 };
  for (const i of open) bySeverity[i.severity]++;
  return {
    count: open.length,
    bySeverity,
    latest: open.slice(0, 5).map((i) => ({ id: i.id, title: i.title, category: i.category, severity: i.severity, status: i.status, createdAt: i.createdAt })),
  };
}

/** The open incidents of a farm assigned to a user (a worker's due actions), newest first. */
export async function openIncidentsAssignedTo(farmId: string, userId: string) {
  return (await openIncidentsOfFarm(farmId))
    .filter((i) => i.assigneeId === userId)
    .map((i) => ({ id: i.id, title: i.title, category: i.category, severity: i.severity, status: i.status, createdAt: i.createdAt }));
}
