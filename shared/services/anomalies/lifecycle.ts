import { anomalyChange, claimRelease, type AnomalyNote, type AnomalyRecord } from '../../db/anomalies.js';
import { checkVersion, commit } from '../../db/commit.js';
import { escalationDescription, escalationTitle, incidentCategoryOf, incidentSeverityOf, isOpen, transition } from '../../domain/anomalies.js';
import type { CommandContext } from '../../domain/command.js';
import { Conflict } from '../../errors.js';
import { incidentFor, openIncident } from '../incidents.js';
import { toAnomalyDto, visibleAnomaly, type AnomalyDto } from './reading.js';
import type { AnomalyActionBody, EscalateAnomalyBody } from '../../../schemas/anomalies.js';
import type { AnomalyAction } from '../../../schemas/vocabulary.js';

/**
 * The lifecycle of an anomaly as people move it (acknowledge, resolve, dismiss: audited, version-
 * conditioned) and its escalation to an incident through the incidents use case.
 */

const note = (ctx: CommandContext, action: AnomalyNote['action'], text: string | undefined): AnomalyNote[] =>
  text?.trim() ? [{ at: ctx.now.toISOString(), actorId: ctx.caller.id, action, note: text.trim() }] : [];

/** acknowledge, resolve or dismiss: an illegal move is a Conflict naming the status; the dedup key is released once the anomaly is no longer open. */
export async function actOnAnomaly(ctx: CommandContext, id: string, action: AnomalyAction, body: AnomalyActionBody): Promise<AnomalyDto> {
  const current = await visibleAnomaly(ctx.caller, id);
  const version = { read: current.version, stated: body.version, subject: true };
  checkVersion(ctx, { ...version, what: `Anomaly ${id}` });
  const move = transition(current.status, action);
  if ('refused' in move) throw new Conflict(move.refused);
  const now = ctx.now.toISOString();
  const stamp = { acknowledged: 'acknowledgedAt', resolved: 'resolvedAt', dismissed: 'dismissedAt' } as const;
  const added = note(ctx, action, body.note);
  const fields: Partial<AnomalyRecord> = {
    status: move.to,
    [stamp[move.to as keyof typeof stamp]]: now,
    ...(added.length ? { notes: [...current.notes, ...added] } : {}),
  };
  await commit(ctx, {
    writes: [
      anomalyChange(current, fields, version),
      ...(isOpen(current.status) && !isOpen(move.to) ? [claimRelease(current.farmId, current.dedupKey, id)] : []),
    ],
    audit: [
      {
        action: `anomaly.${action}`,
        targetType: 'anomaly',
        targetId: id,
        changes: { status: { from: current.status, to: move.to }, ...(added.length ? { note: added[0]!.note } : {}) },
      },
    ],
    changes: [{ type: 'anomaly', id, op: 'upsert', version: current.version + 1 }],
  });
  return toAnomalyDto({ ...current, ...fields, version: current.version + 1, updatedAt: now });
}

type IncidentDto = Awaited<ReturnType<typeof incidentFor>>;

/** How often an escalation re-reads the anomaly after a concurrent change (a repeat firing) before giving up with a Conflict. */
const ESCALATE_ATTEMPTS = 4;

/**
 * Escalates an anomaly to an incident (through `openIncident`, with dedup key `anomaly:<id>`, linked to
 * the anomaly and its flock; severity and category from the anomaly unless given) and keeps the
 * incident's id on the anomaly, acknowledging it if it was open. Once escalated, escalating again
 * answers the same incident (`created` false). A resolved or dismissed anomaly that was never escalated
 * cannot be (409). Two commits: the incident is opened by its own use case (which may join an incident
 * already open under the same dedup key), then the anomaly is linked to it at the version read.
 */
export async function escalateAnomaly(
  ctx: CommandContext,
  id: string,
  body: EscalateAnomalyBody,
): Promise<{ created: boolean; anomaly: AnomalyDto; incident: IncidentDto }> {
  let incident: IncidentDto | undefined;
  for (let attempt = 1; attempt <= ESCALATE_ATTEMPTS; attempt++) {
    const current = await visibleAnomaly(ctx.caller, id);
    if (current.incidentId !== null) {
      return { created: false, anomaly: toAnomalyDto(current), incident: await incidentFor(ctx.caller, current.incidentId) };
    }
    if (!isOpen(current.status)) throw new Conflict(`An anomaly that is ${current.status} cannot be escalated (allowed from open or acknowledged)`);
    // once per request: a retry after a concurrent change links the incident already opened (its dedup key
    // makes a second open join it anyway); the escalation itself takes no Idempotency-Key
    incident ??= (
      await openIncident(
        { ...ctx, idempotencyKey: undefined },
        {
          farmId: current.farmId,
          title: body.title ?? escalationTitle(current),
          description: escalationDescription(current, body.note),
          category: body.category ?? incidentCategoryOf(current.metric),
          severity: body.severity ?? incidentSeverityOf(current.severity),
          ...(body.assigneeId !== undefined ? { assigneeId: body.assigneeId } : {}),
          links: { anomalyIds: [id], ...(current.flockId ? { flockIds: [current.flockId] } : {}) },
          dedupKey: `anomaly:${id}`,
        },
      )
    ).data as IncidentDto;
    const now = ctx.now.toISOString();
    const added = note(ctx, 'escalate', body.note);
    const fields: Partial<AnomalyRecord> = {
      incidentId: incident.id,
      ...(current.status === 'open' ? { status: 'acknowledged' as const, acknowledgedAt: now } : {}),
      ...(added.length ? { notes: [...current.notes, ...added] } : {}),
    };
    try {
      await commit(ctx, {
        writes: [anomalyChange(current, fields, { read: current.version })],
        audit: [
          {
            action: 'anomaly.escalate',
            targetType: 'anomaly',
            targetId: id,
            changes: {
              incidentId: { from: null, to: incident.id },
              ...(current.status === 'open' ? { status: { from: current.status, to: 'acknowledged' } } : {}),
            },
          },
        ],
        changes: [{ type: 'anomaly', id, op: 'upsert', version: current.version + 1 }],
      });
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
      continue;
    }
    return { created: true, anomaly: toAnomalyDto({ ...current, ...fields, version: current.version + 1, updatedAt: now }), incident };
  }
  throw new Conflict(`Anomaly ${id} kept changing concurrently; retry`);
}
