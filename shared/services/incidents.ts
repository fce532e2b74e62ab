import { ulid } from 'ulidx';
import { checkVersion, commit, type Versioned, type Write } from '../db/commit.js';
import {
  DedupTaken,
  dedupReleaseWrite,
  farmsOfLinked,
  getIncidentWithTimeline,
  incidentChange,
  incidentExists,
  incidentNotFound,
  incidentsOfFarmSince,
  listIncidentsOfFarm,
  openIncidentOfDedupKey,
  openIncidentsOfFarm,
  openingWrites,
  repeatWrite,
  restrictionLiftWrites,
  restrictionWrites,
  timelineWrite,
  type IncidentRecord,
  type TimelineEvent,
} from '../db/incidents.js';
import { getUser } from '../db/users.js';
import { diff } from '../domain/accounts.js';
import type { Caller } from '../domain/caller.js';
import type { Capability } from '../domain/capabilities.js';
import { systemCaller } from '../domain/caller.js';
import type { CommandContext } from '../domain/command.js';
import { visibleTo } from '../domain/farm-access.js';
import { assigneeMay, isOpen, mayActOn, responseMetrics, restrictsMovements, transition } from '../domain/incidents.js';
import { Conflict, Forbidden, ValidationFailed } from '../errors.js';
import { farmOfRequest } from './farms.js';
import { userNotFound } from './references.js';
import { idempotentCommand } from './idempotency.js';
import type { CreateIncidentBody, IncidentActionBody, IncidentMetricsQuery, ListIncidentsQuery, UpdateIncidentBody } from '../../schemas/operations.js';
import type { IncidentAction, IncidentCategory } from '../../schemas/vocabulary.js';

/**
 * Incidents (`/api/v1/operations`): opened by hand, by a job (the device health job for an offline
 * sensor) or, later, by a rule action or an anomaly's escalation; owned by an assignee until resolved;
 * every change appends to the timeline in the same commit and is audited. Scoped to the caller's
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
  return visibleTo(
    user,
    await getIncidentWithTimeline(id),
    () => incidentNotFound(id),
    (found) => found.incident.farmId,
  );
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
 * Commits a change (its fields at the version read, its timeline event, the other writes and the audit
 * entry, at once) and answers with the incident as written: no second read.
 */
async function applyChange(
  ctx: CommandContext,
  found: { incident: IncidentRecord; timeline: TimelineEvent[] },
  version: Versioned,
  fields: Partial<IncidentRecord>,
  event: Omit<TimelineEvent, 'id' | 'at' | 'actorId'>,
  plan: { writes: Write[]; audit: { action: string; changes: Record<string, unknown> } },
) {
  const { id } = found.incident;
  const now = ctx.now.toISOString();
  const written: TimelineEvent = { id: ulid(), at: now, actorId: ctx.caller.id, ...event };
  const next = { ...found.incident, ...fields, version: version.read + 1, updatedAt: now };
  await commit(ctx, {
    writes: [incidentChange(found.incident, fields, version), timelineWrite(id, written), ...plan.writes],
    audit: [{ ...plan.audit, targetType: 'incident', targetId: id }],
    changes: [{ type: 'incident', id, op: 'upsert', version: next.version }],
  });
  return withTimeline(next, [...found.timeline, written]);
}

/** The version of an incident a change is decided on: If-Match or a stated `version`, checked before anything else is decided. */
function versionOf(ctx: CommandContext, incident: IncidentRecord, stated: number | undefined): Versioned {
  const version = { read: incident.version, what: `Incident ${incident.id}`, stated, subject: true };
  checkVersion(ctx, version);
  return version;
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

/**
 * Joins the open incident of a dedup key: one more occurrence and a `repeated` event (and the idempotent
 * answer, in the same commit).
 */
async function joinOpen(ctx: CommandContext, incidentId: string, note: string) {
  const now = ctx.now.toISOString();
  const repeated: TimelineEvent = { id: ulid(), at: now, type: 'repeated', actorId: ctx.caller.id, note, changes: null };
  const found = await getIncidentWithTimeline(incidentId);
  if (!found) throw new Conflict('The open incident of this dedup key is gone; retry');
  // the answer is the incident as it is once this repeat is recorded
  const joined = { ...found.incident, occurrences: found.incident.occurrences + 1, version: found.incident.version + 1, updatedAt: now };
  const answer = { created: false, message: 'Joined the open incident with this dedup key', data: withTimeline(joined, [...found.timeline, repeated]) };
  await commit(ctx, { writes: [repeatWrite(incidentId, now), timelineWrite(incidentId, repeated)], response: answer });
  // read again, live: concurrent repeats may have moved the incident further than the stored answer says
  return { ...answer, data: await incidentFor(ctx.caller, incidentId) };
}

/** Opens an incident, or joins the open one of its dedup key; with an Idempotency-Key a retry gets the first answer. */
export async function openIncident(ctx: CommandContext, body: CreateIncidentBody) {
  const farmId = farmOfRequest(ctx.caller, body.farmId);
  return idempotentCommand(ctx, `incident:${farmId}`, body, (ctx) => openOrJoin(ctx, farmId, body));
}

async function openOrJoin(ctx: CommandContext, farmId: string, body: CreateIncidentBody) {
  await Promise.all([assigneeOrThrow(farmId, body.assigneeId), linksOrThrow(farmId, body.links)]);
  if (body.dedupKey) {
    const open = await openIncidentOfDedupKey(farmId, body.dedupKey);
    if (open) return joinOpen(ctx, open, body.title);
  }
  const now = ctx.now.toISOString();
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
    openedBy: ctx.caller.id,
    createdAt: now,
    acknowledgedAt: null,
    resolvedAt: null,
    closedAt: null,
    updatedAt: now,
    version: 1,
  };
  const created: TimelineEvent = { id: ulid(), at: now, type: 'created', actorId: ctx.caller.id, note: incident.description, changes: null };
  const answer = { created: true, message: 'Incident opened', data: withTimeline(incident, [created]) };
  try {
    await commit(ctx, {
      writes: [
        ...openingWrites(incident),
        timelineWrite(incident.id, created),
        ...(restrictsMovements(incident.category) ? restrictionWrites(farmId, incident.id, now) : []),
      ],
      audit: [{ action: 'incident.open', targetType: 'incident', targetId: incident.id, changes: toIncidentDto(incident) }],
      changes: [{ type: 'incident', id: incident.id, op: 'upsert', version: 1 }],
      response: answer,
    });
  } catch (err) {
    // a twin with the same dedup key won the race: this request joins it
    if (!(err instanceof DedupTaken)) throw err;
    const winner = await openIncidentOfDedupKey(farmId, body.dedupKey!);
    if (!winner) throw new Conflict('The dedup key was taken and released meanwhile; retry');
    return joinOpen(ctx, winner, body.title);
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

export async function updateIncidentFor(ctx: CommandContext, id: string, body: UpdateIncidentBody) {
  const found = await visibleIncident(ctx.caller, id);
  const current = found.incident;
  const version = versionOf(ctx, current, body.version);
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
  const changes = diff(current, next, EDITABLE);
  if (Object.keys(changes).length === 0) return withTimeline(current, found.timeline);
  const restricts = restrictsMovements(next.category);
  const restriction = restricts !== restrictsMovements(current.category);
  const fields = Object.fromEntries(Object.keys(changes).map((f) => [f, next[f as keyof IncidentRecord]]));
  return applyChange(
    ctx,
    found,
    version,
    fields,
    { type: 'updated', note: null, changes },
    {
      writes: restriction ? (restricts ? restrictionWrites(current.farmId, id, ctx.now.toISOString()) : restrictionLiftWrites(current.farmId, id)) : [],
      audit: { action: 'incident.update', changes },
    },
  );
}

/** acknowledge, resolve or close: an illegal move is a Conflict naming the status; the dedup key is released once it is no longer open, the restriction once closed. */
export async function actOnIncident(ctx: CommandContext, id: string, action: IncidentAction, body: IncidentActionBody) {
  const found = await incidentToActOn(ctx.caller, id, action);
  const current = found.incident;
  const version = versionOf(ctx, current, body.version);
  const move = transition(current.status, action);
  if ('refused' in move) throw new Conflict(move.refused);
  const stamp = { acknowledged: 'acknowledgedAt', resolved: 'resolvedAt', closed: 'closedAt' } as const;
  const fields: Partial<IncidentRecord> = { status: move.to, [stamp[move.to as keyof typeof stamp]]: ctx.now.toISOString() };
  const release = current.dedupKey && isOpen(current.status) && !isOpen(move.to) ? [dedupReleaseWrite(current.farmId, current.dedupKey, id)] : [];
  return applyChange(
    ctx,
    found,
    version,
    fields,
    { type: move.to as TimelineEvent['type'], note: body.note ?? null, changes: null },
    {
      writes: [...release, ...(move.to === 'closed' && restrictsMovements(current.category) ? restrictionLiftWrites(current.farmId, id) : [])],
      audit: { action: `incident.${action}`, changes: { status: { from: current.status, to: move.to } } },
    },
  );
}

/** A note on the timeline (also on a closed incident: the timeline is the record); it does not change the incident's version. */
export async function addIncidentNote(ctx: CommandContext, id: string, text: string) {
  const found = await incidentToActOn(ctx.caller, id, 'note');
  const note: TimelineEvent = { id: ulid(), at: ctx.now.toISOString(), type: 'note', actorId: ctx.caller.id, note: text.trim(), changes: null };
  await commit(ctx, { writes: [incidentExists(id), timelineWrite(id, note)] });
  return withTimeline(found.incident, [...found.timeline, note]);
}

export async function incidentMetrics(user: Caller, query: IncidentMetricsQuery) {
  const farmId = farmOfRequest(user, query.farmId);
  const since = new Date(Date.now() - (query.days ?? 30) * 86_400_000).toISOString();
  return { farmId, since, ...responseMetrics(await incidentsOfFarmSince(farmId, since)) };
}

/** Who the device health job opens incidents as. */
const healthJob = systemCaller('device-health', ['manage_incidents'], 'all');

interface OfflineDevice {
  deviceId: string;
  farmId: string;
  name: string;
  lastSeen: string;
}

/** The device health job's incident for a device that went offline (one open incident per device: its dedup key). */
export function openDeviceOfflineIncident(ctx: CommandContext, device: OfflineDevice) {
  return openIncident(
    { ...ctx, caller: healthJob, idempotencyKey: undefined },
    {
      farmId: device.farmId,
      title: `Sensor ${device.name} is offline (last seen ${device.lastSeen})`,
      category: 'equipment',
      severity: 'medium',
      links: { deviceIds: [device.deviceId] },
      dedupKey: `device-offline:${device.deviceId}`,
    },
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
