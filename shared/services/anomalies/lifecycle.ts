import { anomalyChange, claimRelease } from '../../db/anomalies.js';
import { checkVersion, commit } from '../../db/commit.js';
import { decideAnomalyAction, decideEscalationLink, escalationIncident } from '../../domain/anomalies/actions.js';
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

/** acknowledge, resolve or dismiss: an illegal move is a Conflict naming the status; the dedup key is released once the anomaly is no longer open. */
export async function actOnAnomaly(ctx: CommandContext, id: string, action: AnomalyAction, body: AnomalyActionBody): Promise<AnomalyDto> {
  const current = await visibleAnomaly(ctx.caller, id);
  const version = { read: current.version, stated: body.version, subject: true };
  checkVersion(ctx, { ...version, what: `Anomaly ${id}` });
  const decision = decideAnomalyAction(ctx.caller, current, action, body, ctx.now);
  await commit(ctx, {
    writes: [anomalyChange(current, decision.fields, version), ...(decision.releaseClaim ? [claimRelease(current.farmId, current.dedupKey, id)] : [])],
    audit: decision.audit,
    changes: decision.changes,
  });
  return toAnomalyDto(decision.next);
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
    const request = escalationIncident(current, body);
    // once per request: a retry after a concurrent change links the incident already opened (its dedup key
    // makes a second open join it anyway); the escalation itself takes no Idempotency-Key
    incident ??= (await openIncident({ ...ctx, idempotencyKey: undefined }, request)).data as IncidentDto;
    const link = decideEscalationLink(ctx.caller, current, incident.id, body, ctx.now);
    try {
      await commit(ctx, { writes: [anomalyChange(current, link.fields, { read: current.version })], audit: link.audit, changes: link.changes });
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
      continue;
    }
    return { created: true, anomaly: toAnomalyDto(link.next), incident };
  }
  throw new Conflict(`Anomaly ${id} kept changing concurrently; retry`);
}
