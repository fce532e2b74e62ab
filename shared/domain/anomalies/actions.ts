import { Conflict } from '../../errors.js';
import type { Caller } from '../caller.js';
import { type AuditEvent, type ResourceChange, upsertOf } from '../decision.js';
import { escalationDescription, escalationTitle, incidentCategoryOf, incidentSeverityOf, isOpen, transition } from './lifecycle.js';
import type { AnomalyNote, AnomalyRecord } from './records.js';
import type { AnomalyActionBody, EscalateAnomalyBody } from '../../../schemas/anomalies.js';
import type { CreateIncidentBody } from '../../../schemas/operations.js';
import type { AnomalyAction } from '../../../schemas/vocabulary.js';

/**
 * What people do to an anomaly, decided without I/O: acknowledge, resolve or dismiss it (an illegal move is
 * a Conflict naming its status; the dedup claim is released once it is no longer open), and escalate it
 * (the incident it opens, then the link kept on the anomaly, acknowledging it if it was open).
 */

const note = (caller: Pick<Caller, 'id'>, action: AnomalyNote['action'], text: string | undefined, at: string): AnomalyNote[] =>
  text?.trim() ? [{ at, actorId: caller.id, action, note: text.trim() }] : [];

const STAMP = { acknowledged: 'acknowledgedAt', resolved: 'resolvedAt', dismissed: 'dismissedAt' } as const;

/** The anomaly after the change, as the commit writes it (next version, updatedAt). */
const changed = (current: AnomalyRecord, fields: Partial<AnomalyRecord>, at: string): AnomalyRecord => ({
  ...current,
  ...fields,
  version: current.version + 1,
  updatedAt: at,
});

const anomalyChange = (a: AnomalyRecord): ResourceChange[] => [upsertOf('anomaly', a)];

/** acknowledge, resolve or dismiss (the version already compared with the client's). */
export function decideAnomalyAction(caller: Pick<Caller, 'id'>, current: AnomalyRecord, action: AnomalyAction, body: AnomalyActionBody, now: Date) {
  const move = transition(current.status, action);
  if ('refused' in move) throw new Conflict(move.refused);
  const at = now.toISOString();
  const added = note(caller, action, body.note, at);
  const fields: Partial<AnomalyRecord> = {
    status: move.to,
    [STAMP[move.to as keyof typeof STAMP]]: at,
    ...(added.length ? { notes: [...current.notes, ...added] } : {}),
  };
  const next = changed(current, fields, at);
  const audit: AuditEvent[] = [
    {
      action: `anomaly.${action}`,
      targetType: 'anomaly',
      targetId: current.id,
      changes: { status: { from: current.status, to: move.to }, ...(added.length ? { note: added[0]!.note } : {}) },
    },
  ];
  return {
    fields,
    next,
    /** No longer open: its dedup claim goes, so a new firing raises a new anomaly. */
    releaseClaim: isOpen(current.status) && !isOpen(move.to),
    audit,
    changes: anomalyChange(next),
  };
}

/**
 * The incident an escalation of a not yet escalated anomaly opens (dedup key `anomaly:<id>`, linked to the
 * anomaly and its flock; title, description, category and severity from the anomaly unless given). A
 * resolved or dismissed anomaly cannot be escalated.
 */
export function escalationIncident(current: AnomalyRecord, body: EscalateAnomalyBody): CreateIncidentBody {
  if (!isOpen(current.status)) throw new Conflict(`An anomaly that is ${current.status} cannot be escalated (allowed from open or acknowledged)`);
  return {
    farmId: current.farmId,
    title: body.title ?? escalationTitle(current),
    description: escalationDescription(current, body.note),
    category: body.category ?? incidentCategoryOf(current.metric),
    severity: body.severity ?? incidentSeverityOf(current.severity),
    ...(body.assigneeId !== undefined ? { assigneeId: body.assigneeId } : {}),
    links: { anomalyIds: [current.id], ...(current.flockId ? { flockIds: [current.flockId] } : {}) },
    dedupKey: `anomaly:${current.id}`,
  };
}

/** The anomaly linked to the incident its escalation opened, acknowledged if it was open, with the note. */
export function decideEscalationLink(caller: Pick<Caller, 'id'>, current: AnomalyRecord, incidentId: string, body: EscalateAnomalyBody, now: Date) {
  const at = now.toISOString();
  const added = note(caller, 'escalate', body.note, at);
  const acknowledge = current.status === 'open';
  const fields: Partial<AnomalyRecord> = {
    incidentId,
    ...(acknowledge ? { status: 'acknowledged' as const, acknowledgedAt: at } : {}),
    ...(added.length ? { notes: [...current.notes, ...added] } : {}),
  };
  const next = changed(current, fields, at);
  const audit: AuditEvent[] = [
    {
      action: 'anomaly.escalate',
      targetType: 'anomaly',
      targetId: current.id,
      changes: { incidentId: { from: null, to: incidentId }, ...(acknowledge ? { status: { from: current.status, to: 'acknowledged' } } : {}) },
    },
  ];
  return { fields, next, audit, changes: anomalyChange(next) };
}
