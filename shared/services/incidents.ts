import { checkVersion, commit, type Versioned } from '../db/commit.js';
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
} from '../db/incidents.js';
import { getUser } from '../db/users.js';
import type { Caller } from '../domain/caller.js';
import type { Capability } from '../domain/capabilities.js';
import { systemCaller } from '../domain/caller.js';
import type { CommandContext } from '../domain/command.js';
import { unchanged } from '../domain/decision.js';
import { visibleTo } from '../domain/farm-access.js';
import {
  actorOrThrow,
  decideIncidentAction,
  decideIncidentNote,
  decideIncidentOpen,
  decideIncidentRepeat,
  decideIncidentUpdate,
  editableOrThrow,
  namesLinks,
  referencesOrThrow,
  type IncidentReferences,
} from '../domain/incidents/decisions.js';
import { assigneeMay, responseMetrics } from '../domain/incidents/lifecycle.js';
import { toIncidentDto, type IncidentRecord, type IncidentWithTimeline, type TimelineEvent } from '../domain/incidents/records.js';
import { Conflict } from '../errors.js';
import { farmOfRequest } from './farms.js';
import { idempotentCommand } from './idempotency.js';
import type { CreateIncidentBody, IncidentActionBody, IncidentMetricsQuery, ListIncidentsQuery, UpdateIncidentBody } from '../../schemas/operations.js';
import type { IncidentAction, IncidentCategory } from '../../schemas/vocabulary.js';

/**
 * Incidents (`/api/v1/operations`): opened by hand, by a job (the device health job for an offline
 * sensor) or, later, by a rule action or an anomaly's escalation; owned by an assignee until resolved;
 * every change appends to the timeline in the same commit and is audited. Scoped to the caller's
 * farms like every farm record (an incident of another farm does not exist for the caller). Decided in
 * shared/domain/incidents/decisions.ts.
 */

const withTimeline = (incident: IncidentRecord, timeline: TimelineEvent[]) => ({ ...toIncidentDto(incident), timeline });

/** The incident and its timeline if the caller may see it (one Query); else the one NotFound. */
async function visibleIncident(user: Caller, id: string): Promise<IncidentWithTimeline> {
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
  actorOrThrow(user, found.incident, action);
  return found;
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

/** The assignee and linked records a body names (one GetItem and one BatchGetItem, together; what it leaves out is not read). */
async function referencesOf(body: { assigneeId?: string | null | undefined; links?: CreateIncidentBody['links'] }): Promise<IncidentReferences> {
  const { anomalyIds = [], deviceIds = [], flockIds = [] } = body.links ?? {};
  const [assignee, linked] = await Promise.all([
    body.assigneeId ? getUser(body.assigneeId) : undefined,
    body.links !== undefined && namesLinks(body.links) ? farmsOfLinked(deviceIds, flockIds, anomalyIds) : undefined,
  ]);
  return { assignee, linked };
}

/**
 * Joins the open incident of a dedup key: one more occurrence and a `repeated` event (and the idempotent
 * answer, in the same commit).
 */
async function joinOpen(ctx: CommandContext, incidentId: string, note: string) {
  const found = await getIncidentWithTimeline(incidentId);
  if (!found) throw new Conflict('The open incident of this dedup key is gone; retry');
  const { repeated, joined } = decideIncidentRepeat(ctx.caller, found, note, ctx.now);
  const answer = { created: false, message: 'Joined the open incident with this dedup key', data: withTimeline(joined.incident, joined.timeline) };
  await commit(ctx, { writes: [repeatWrite(incidentId, repeated.at), timelineWrite(incidentId, repeated)], response: answer });
  // read again, live: concurrent repeats may have moved the incident further than the stored answer says
  return { ...answer, data: await incidentFor(ctx.caller, incidentId) };
}

/** Opens an incident, or joins the open one of its dedup key; with an Idempotency-Key a retry gets the first answer. */
export async function openIncident(ctx: CommandContext, body: CreateIncidentBody) {
  const farmId = farmOfRequest(ctx.caller, body.farmId);
  return idempotentCommand(ctx, `incident:${farmId}`, body, (ctx) => openOrJoin(ctx, farmId, body));
}

async function openOrJoin(ctx: CommandContext, farmId: string, body: CreateIncidentBody) {
  const refs = await referencesOf(body);
  // a repeat is judged like a new incident before it joins the open one
  referencesOrThrow(farmId, body, refs);
  if (body.dedupKey) {
    const open = await openIncidentOfDedupKey(farmId, body.dedupKey);
    if (open) return joinOpen(ctx, open, body.title);
  }
  const { incident, created, restricts, audit, changes } = decideIncidentOpen(ctx.caller, farmId, body, refs, ctx.now);
  const answer = { created: true, message: 'Incident opened', data: withTimeline(incident, [created]) };
  try {
    await commit(ctx, {
      writes: [...openingWrites(incident), timelineWrite(incident.id, created), ...(restricts ? restrictionWrites(farmId, incident.id, created.at) : [])],
      audit,
      changes,
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

export async function updateIncidentFor(ctx: CommandContext, id: string, body: UpdateIncidentBody) {
  const found = await visibleIncident(ctx.caller, id);
  const current = found.incident;
  const version = versionOf(ctx, current, body.version);
  // a closed incident is refused before its references are read
  editableOrThrow(current);
  const decision = decideIncidentUpdate(ctx.caller, current, body, await referencesOf(body), ctx.now);
  if (unchanged(decision.change)) return withTimeline(current, found.timeline);
  const { farmId } = current;
  const restriction =
    decision.restriction === 'impose'
      ? restrictionWrites(farmId, id, decision.event.at)
      : decision.restriction === 'lift'
        ? restrictionLiftWrites(farmId, id)
        : [];
  await commit(ctx, {
    writes: [incidentChange(current, decision.change.fields, version), timelineWrite(id, decision.event), ...restriction],
    audit: decision.audit,
    changes: decision.changes,
  });
  return withTimeline(decision.change.next, [...found.timeline, decision.event]);
}

/** acknowledge, resolve or close: an illegal move is a Conflict naming the status; the dedup key is released once it is no longer open, the restriction once closed. */
export async function actOnIncident(ctx: CommandContext, id: string, action: IncidentAction, body: IncidentActionBody) {
  const found = await incidentToActOn(ctx.caller, id, action);
  const current = found.incident;
  const version = versionOf(ctx, current, body.version);
  const decision = decideIncidentAction(ctx.caller, current, action, body, ctx.now);
  await commit(ctx, {
    writes: [
      incidentChange(current, decision.change.fields, version),
      timelineWrite(id, decision.event),
      ...(decision.releaseDedup && current.dedupKey ? [dedupReleaseWrite(current.farmId, current.dedupKey, id)] : []),
      ...(decision.liftRestriction ? restrictionLiftWrites(current.farmId, id) : []),
    ],
    audit: decision.audit,
    changes: decision.changes,
  });
  return withTimeline(decision.change.next, [...found.timeline, decision.event]);
}

/** A note on the timeline (also on a closed incident: the timeline is the record); it does not change the incident's version. */
export async function addIncidentNote(ctx: CommandContext, id: string, text: string) {
  const found = await visibleIncident(ctx.caller, id);
  const { note } = decideIncidentNote(ctx.caller, found.incident, text, ctx.now);
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
