import { ulid } from 'ulidx';
import { Conflict, Forbidden, ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import { diff } from '../changes.js';
import { type AuditEvent, type RecordChange, type ResourceChange, upsertOf } from '../decision.js';
import { assigneeOrThrow } from '../references.js';
import { isOpen, mayActOn, restrictsMovements, transition } from './lifecycle.js';
import { toIncidentDto, type IncidentRecord, type IncidentWithTimeline, type TimelineEvent } from './records.js';
import type { CreateIncidentBody, IncidentActionBody, UpdateIncidentBody } from '../../../schemas/operations.js';
import type { IncidentAction } from '../../../schemas/vocabulary.js';

/**
 * Incidents, decided without I/O: opening one (or joining the open one of its dedup key), editing it,
 * moving it through its lifecycle and noting on its timeline. Every change appends one timeline event;
 * the movement restriction of a disease suspicion follows its category and its closing.
 */

type Links = CreateIncidentBody['links'];

/** The references an incident's body names, as read: the assignee (undefined: none named, or missing) and the farm of each linked record found. */
export interface IncidentReferences {
  assignee?: { role: string; farmIds: readonly string[] } | undefined;
  linked?: { devices: ReadonlyMap<string, string>; flocks: ReadonlyMap<string, string>; anomalies: ReadonlyMap<string, string> } | undefined;
}

const EDITABLE = ['title', 'description', 'category', 'severity', 'assigneeId', 'links'] as const;

const linksOf = (l: Links) => ({ anomalyIds: l?.anomalyIds ?? [], deviceIds: l?.deviceIds ?? [], flockIds: l?.flockIds ?? [] });

/** Whether a body's links name any record (only then are they read). */
export const namesLinks = (l: Links): boolean => {
  const { anomalyIds, deviceIds, flockIds } = linksOf(l);
  return anomalyIds.length + deviceIds.length + flockIds.length > 0;
};

/**
 * Linked anomalies, devices and flocks must be of the incident's farm (a record of another farm is named
 * exactly like one that does not exist): 400 naming each one.
 */
function linksOrThrow(farmId: string, l: Links, linked: IncidentReferences['linked']): void {
  const { anomalyIds, deviceIds, flockIds } = linksOf(l);
  const check = (kind: 'anomaly' | 'device' | 'flock', field: string, ids: string[], farms: ReadonlyMap<string, string> | undefined) =>
    ids.flatMap((id, i) => (farms?.get(id) === farmId ? [] : [{ field: `links.${field}.${i}`, message: `no ${kind} ${id} in farm ${farmId}` }]));
  const problems = [
    ...check('anomaly', 'anomalyIds', anomalyIds, linked?.anomalies),
    ...check('device', 'deviceIds', deviceIds, linked?.devices),
    ...check('flock', 'flockIds', flockIds, linked?.flocks),
  ];
  if (problems.length > 0) throw new ValidationFailed(problems);
}

/** The assignee and links a body names (those it leaves out are not judged): the assignee first, then the links. */
export function referencesOrThrow(farmId: string, body: { assigneeId?: string | null | undefined; links?: Links }, refs: IncidentReferences): void {
  if (body.assigneeId !== undefined) assigneeOrThrow(farmId, body.assigneeId, refs.assignee);
  if (body.links !== undefined) linksOrThrow(farmId, body.links, refs.linked);
}

/** A closed incident takes no edit (a note still goes on its timeline). */
export function editableOrThrow(incident: Pick<IncidentRecord, 'id' | 'status'>): void {
  if (incident.status === 'closed') throw new Conflict(`Incident ${incident.id} is closed; add a note instead`);
}

/** The caller may do `action` to the incident: manage_incidents, or its assignee acknowledging or noting. */
export function actorOrThrow(caller: Caller, incident: Pick<IncidentRecord, 'assigneeId'>, action: IncidentAction | 'note'): void {
  if (!mayActOn(caller, incident, action))
    throw new Forbidden('Missing capability: manage_incidents (without it, only the incident’s assignee may acknowledge it and add notes)');
}

const timelineEvent = (caller: Caller, now: Date, event: Omit<TimelineEvent, 'id' | 'at' | 'actorId'>): TimelineEvent => ({
  id: ulid(),
  at: now.toISOString(),
  actorId: caller.id,
  ...event,
});

const incidentChange = (i: Pick<IncidentRecord, 'id' | 'version' | 'farmId'>): ResourceChange => upsertOf('incident', i);

/** Opening an incident of `farmId` (the caller's): the incident, its `created` event, whether it restricts the farm's movements. */
export function decideIncidentOpen(caller: Caller, farmId: string, body: CreateIncidentBody, refs: IncidentReferences, now: Date) {
  referencesOrThrow(farmId, body, refs);
  const at = now.toISOString();
  const incident: IncidentRecord = {
    id: ulid(),
    farmId,
    title: body.title.trim(),
    description: body.description?.trim() ?? null,
    category: body.category,
    severity: body.severity,
    status: 'triggered',
    assigneeId: body.assigneeId ?? null,
    links: linksOf(body.links),
    dedupKey: body.dedupKey ?? null,
    occurrences: 1,
    openedBy: caller.id,
    createdAt: at,
    acknowledgedAt: null,
    resolvedAt: null,
    closedAt: null,
    updatedAt: at,
    version: 1,
  };
  const created = timelineEvent(caller, now, { type: 'created', note: incident.description, changes: null });
  return {
    incident,
    created,
    restricts: restrictsMovements(incident.category),
    audit: [{ action: 'incident.open', targetType: 'incident', targetId: incident.id, changes: toIncidentDto(incident) }] as AuditEvent[],
    changes: [incidentChange(incident)],
  };
}

/**
 * A repeat of an open incident's dedup key: one more occurrence and a `repeated` event; `joined` is the
 * incident as it is once the repeat is recorded on the state read.
 */
export function decideIncidentRepeat(caller: Caller, found: IncidentWithTimeline, note: string, now: Date) {
  const repeated = timelineEvent(caller, now, { type: 'repeated', note, changes: null });
  const incident = { ...found.incident, occurrences: found.incident.occurrences + 1, version: found.incident.version + 1, updatedAt: now.toISOString() };
  return { repeated, joined: { incident, timeline: [...found.timeline, repeated] } };
}

/** A change of `fields` on the incident read: the record after it (the commit bumps the version and sets updatedAt). */
function changed(current: IncidentRecord, fields: Partial<IncidentRecord>, changes: RecordChange<IncidentRecord>['changes'], now: Date) {
  const next = { ...current, ...fields, version: current.version + 1, updatedAt: now.toISOString() };
  return { current, next, fields, changes } satisfies RecordChange<IncidentRecord>;
}

/**
 * An edit (its version already compared): the fields that differ, an `updated` event, and the restriction
 * imposed or lifted when the category moves into or out of a disease suspicion. No field differs: nothing
 * to write (`unchanged(change)`).
 */
export function decideIncidentUpdate(caller: Caller, current: IncidentRecord, body: UpdateIncidentBody, refs: IncidentReferences, now: Date) {
  editableOrThrow(current);
  referencesOrThrow(current.farmId, body, refs);
  const edited: IncidentRecord = {
    ...current,
    ...(body.title !== undefined ? { title: body.title.trim() } : {}),
    ...(body.description !== undefined ? { description: body.description?.trim() ?? null } : {}),
    ...(body.category !== undefined ? { category: body.category } : {}),
    ...(body.severity !== undefined ? { severity: body.severity } : {}),
    ...(body.assigneeId !== undefined ? { assigneeId: body.assigneeId } : {}),
    ...(body.links !== undefined ? { links: linksOf(body.links) } : {}),
  };
  const changes = diff(current, edited, EDITABLE);
  const fields = Object.fromEntries(Object.keys(changes).map((f) => [f, edited[f as keyof IncidentRecord]])) as Partial<IncidentRecord>;
  const restricts = restrictsMovements(edited.category);
  const restriction = restricts === restrictsMovements(current.category) ? undefined : restricts ? ('impose' as const) : ('lift' as const);
  const change = changed(current, fields, changes, now);
  return {
    change,
    event: timelineEvent(caller, now, { type: 'updated', note: null, changes }),
    restriction,
    audit: [{ action: 'incident.update', targetType: 'incident', targetId: current.id, changes }] as AuditEvent[],
    changes: [incidentChange(change.next)],
  };
}

const STAMP = { acknowledged: 'acknowledgedAt', resolved: 'resolvedAt', closed: 'closedAt' } as const;

/**
 * acknowledge, resolve or close (the version already compared): an illegal move is a Conflict naming the
 * status. The dedup key is released once the incident is no longer open, the restriction lifted once closed.
 */
export function decideIncidentAction(caller: Caller, current: IncidentRecord, action: IncidentAction, body: IncidentActionBody, now: Date) {
  actorOrThrow(caller, current, action);
  const move = transition(current.status, action);
  if ('refused' in move) throw new Conflict(move.refused);
  const to = move.to as keyof typeof STAMP;
  const statusChange = { status: { from: current.status, to } };
  const change = changed(current, { status: to, [STAMP[to]]: now.toISOString() }, statusChange, now);
  return {
    change,
    event: timelineEvent(caller, now, { type: to, note: body.note ?? null, changes: null }),
    releaseDedup: Boolean(current.dedupKey) && isOpen(current.status) && !isOpen(to),
    liftRestriction: to === 'closed' && restrictsMovements(current.category),
    audit: [{ action: `incident.${action}`, targetType: 'incident', targetId: current.id, changes: statusChange }] as AuditEvent[],
    changes: [incidentChange(change.next)],
  };
}

/** A note on the timeline (also on a closed incident: the timeline is the record); the incident itself does not change. */
export function decideIncidentNote(caller: Caller, incident: IncidentRecord, text: string, now: Date) {
  actorOrThrow(caller, incident, 'note');
  return { note: timelineEvent(caller, now, { type: 'note', note: text.trim(), changes: null }) };
}
