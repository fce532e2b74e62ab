import { ulid } from 'ulidx';
import { auditPut } from '../db/audit.js';
import {
  AnomalyDedupTaken,
  anomalyDedupRelease,
  anomalyNotFound,
  createAnomaly,
  getAnomaly,
  listAnomaliesOfFarm,
  openAnomaliesOfFarm,
  openAnomalyOfDedupKey,
  recordRepeat,
  releaseStaleClaim,
  updateAnomaly,
  type AnomalyNote,
  type AnomalyRecord,
} from '../db/anomalies.js';
import type { Caller } from '../domain/caller.js';
import { canAccessFarm } from '../domain/farm-access.js';
import { expectedVersion, type Precondition } from '../domain/concurrency.js';
import { escalationDescription, escalationTitle, incidentCategoryOf, incidentSeverityOf, isOpen, repeatOf, seenAt, transition } from '../domain/anomalies.js';
import { Conflict, ValidationFailed } from '../errors.js';
import { farmOfListRequest } from './farms.js';
import { farmPeriodInstants } from './periods.js';
import { incidentFor, openIncident } from './incidents.js';
import type { AnomalyActionBody, EscalateAnomalyBody, ListAnomaliesQuery } from '../../schemas/anomalies.js';
import type { AnomalyAction } from '../../schemas/vocabulary.js';

/**
 * Anomalies (`/api/v1/anomalies`): raised by the rule job and the detector job through `raiseAnomaly`
 * (one anomaly per dedup key while it is open or acknowledged: a repeat firing updates it), then
 * acknowledged, resolved or dismissed by people (audited, version-conditioned) or escalated to an
 * incident through the incidents use case. Scoped to the caller's farms like every farm record (an
 * anomaly of another farm does not exist for the caller).
 */

export type { AnomalyRecord } from '../db/anomalies.js';

/** A firing of a rule or a detector: what the rule and detector jobs hand to `raiseAnomaly`. */
export type AnomalyFiring = Pick<
  AnomalyRecord,
  | 'farmId'
  | 'houseId'
  | 'flockId'
  | 'cycleId'
  | 'source'
  | 'ruleId'
  | 'detector'
  | 'metric'
  | 'unit'
  | 'observed'
  | 'expected'
  | 'deviation'
  | 'window'
  | 'severity'
  | 'title'
  | 'evidence'
  | 'hypotheses'
  | 'dedupKey'
> & {
  /** ISO instant the firing is about: the end of the period it judged (the window's end), later than now while that period runs. */
  at: string;
};

/** The anomaly as the API answers it: every field of the record. */
export type AnomalyDto = { [K in keyof AnomalyRecord]: AnomalyRecord[K] };

export function toAnomalyDto(a: AnomalyRecord): AnomalyDto {
  return {
    id: a.id,
    farmId: a.farmId,
    houseId: a.houseId,
    flockId: a.flockId,
    cycleId: a.cycleId,
    source: a.source,
    ruleId: a.ruleId,
    detector: a.detector,
    metric: a.metric,
    unit: a.unit,
    observed: a.observed,
    expected: a.expected,
    deviation: a.deviation,
    window: a.window,
    severity: a.severity,
    status: a.status,
    occurrences: a.occurrences,
    firstSeenAt: a.firstSeenAt,
    lastSeenAt: a.lastSeenAt,
    judgedUntil: a.judgedUntil,
    evidence: a.evidence,
    hypotheses: a.hypotheses,
    title: a.title,
    dedupKey: a.dedupKey,
    incidentId: a.incidentId,
    acknowledgedAt: a.acknowledgedAt,
    resolvedAt: a.resolvedAt,
    dismissedAt: a.dismissedAt,
    notes: a.notes,
    version: a.version,
    updatedAt: a.updatedAt,
  };
}

/** The anomaly if the caller may see it; else the one NotFound (another farm's anomaly reads like a missing one). */
async function visibleAnomaly(user: Caller, id: string): Promise<AnomalyRecord> {
  const found = await getAnomaly(id);
  if (!found || !canAccessFarm(user, found.farmId)) throw anomalyNotFound(id);
  return found;
}

export async function anomalyFor(user: Caller, id: string): Promise<AnomalyDto> {
  return toAnomalyDto(await visibleAnomaly(user, id));
}

// ---------------------------------------------------------------------------------------------------
// Raising (the rule and detector jobs)

/** How often a firing re-reads and retries after losing a race (another firing of its key, an action). */
const RAISE_ATTEMPTS = 10;
const backoff = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(5 * 2 ** attempt, 200)));

/** An ISO instant as stored (`toISOString`: what the list's `from`/`to` compare with). */
function instant(value: string, field: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ValidationFailed([{ field, message: `${value} is not an ISO 8601 instant` }]);
  return new Date(ms).toISOString();
}

function newAnomaly(f: AnomalyFiring, at: { judgedUntil: string; seenAt: string }, now: string): AnomalyRecord {
  return {
    id: ulid(),
    farmId: f.farmId,
    houseId: f.houseId,
    flockId: f.flockId,
    cycleId: f.cycleId,
    source: f.source,
    ruleId: f.ruleId,
    detector: f.detector,
    metric: f.metric,
    unit: f.unit,
    observed: f.observed,
    expected: f.expected,
    deviation: f.deviation,
    window: f.window,
    severity: f.severity,
    status: 'open',
    occurrences: 1,
    firstSeenAt: at.seenAt,
    lastSeenAt: at.seenAt,
    judgedUntil: at.judgedUntil,
    evidence: f.evidence,
    hypotheses: f.hypotheses,
    title: f.title,
    dedupKey: f.dedupKey,
    incidentId: null,
    acknowledgedAt: null,
    resolvedAt: null,
    dismissedAt: null,
    notes: [],
    version: 1,
    updatedAt: now,
  };
}

/**
 * Raises an anomaly for a firing, or updates the open (or acknowledged) anomaly of its dedup key: one
 * more occurrence, the newest firing's measurement, evidence and hypotheses, the higher severity.
 * Concurrent firings of one key leave one anomaly counting them all: the creation claims the key
 * (`attribute_not_exists`), the losers join the winner with a version-conditioned update and read again
 * after a lost race (a few attempts with jittered backoff; then a Conflict). A key whose anomaly was
 * resolved or dismissed raises a new anomaly.
 */
export async function raiseAnomaly(firing: AnomalyFiring): Promise<{ anomaly: AnomalyDto; created: boolean }> {
  const judgedUntil = instant(firing.at, 'at');
  for (let attempt = 1; attempt <= RAISE_ATTEMPTS; attempt++) {
    if (attempt > 1) await backoff(attempt);
    const heldBy = await openAnomalyOfDedupKey(firing.farmId, firing.dedupKey);
    const now = new Date().toISOString();
    const at = { judgedUntil, seenAt: seenAt(judgedUntil, now) };
    if (heldBy === undefined) {
      const anomaly = newAnomaly(firing, at, now);
      try {
        await createAnomaly(anomaly, [
          auditPut({
            actorId: `system:${firing.source}`,
            action: 'anomaly.raise',
            targetType: 'anomaly',
            targetId: anomaly.id,
            changes: { dedupKey: anomaly.dedupKey, metric: anomaly.metric, severity: anomaly.severity, ruleId: anomaly.ruleId, detector: anomaly.detector },
            requestId: null,
          }),
        ]);
        return { anomaly: toAnomalyDto(anomaly), created: true };
      } catch (err) {
        // a concurrent firing of the same key won: join it on the next attempt
        if (!(err instanceof AnomalyDedupTaken)) throw err;
        continue;
      }
    }
    const current = await getAnomaly(heldBy);
    if (!current || !isOpen(current.status)) {
      await releaseStaleClaim(firing.farmId, firing.dedupKey, heldBy).catch((err: unknown) => {
        if (!(err instanceof Conflict)) throw err;
      });
      continue;
    }
    const fields = repeatOf(current, firing, at);
    if (await recordRepeat(current, current.version, fields, now)) {
      return { anomaly: toAnomalyDto({ ...current, ...fields, version: current.version + 1, updatedAt: now }), created: false };
    }
  }
  throw new Conflict(`The anomaly of dedup key ${firing.dedupKey} kept changing concurrently; retry`);
}

// ---------------------------------------------------------------------------------------------------
// Reading

export async function listAnomaliesFor(user: Caller, query: ListAnomaliesQuery) {
  const farmId = await farmOfListRequest(user, query.farmId, { flockId: query.flockId, houseId: query.houseId });
  const limit = query.limit ?? 25;
  const { fromMs, endMs } = await farmPeriodInstants(farmId, query);
  const from = fromMs === undefined ? undefined : new Date(fromMs).toISOString();
  const to = endMs === undefined ? undefined : new Date(endMs).toISOString();
  const page = await listAnomaliesOfFarm(
    farmId,
    { houseId: query.houseId, flockId: query.flockId, status: query.status, severity: query.severity, source: query.source },
    { from, to },
    { limit, cursor: query.cursor },
  );
  return { items: page.items.map(toAnomalyDto), limit, nextCursor: page.nextCursor };
}

/** The dashboards' open (and acknowledged) anomalies of a farm (optionally of some metrics): the count by severity and the 5 seen last. */
export async function openAnomaliesSummary(farmId: string, opts: { metrics?: readonly string[] } = {}) {
  const { metrics } = opts;
  const open = (await openAnomaliesOfFarm(farmId))
    .filter((a) => !metrics || metrics.includes(a.metric))
    .sort((a, b) => b.lastSeenAt.localeCompare(a.lastSeenAt) || b.id.localeCompare(a.id));
  const bySeverity = { critical: 0, warning: 0, info: 0 };
  for (const a of open) bySeverity[a.severity]++;
  return {
    count: open.length,
    bySeverity,
    latest: open.slice(0, 5).map(anomalyLine),
  };
}

/** An open anomaly in a dashboard: what it is and the first check its hypotheses call for. */
const anomalyLine = (a: AnomalyRecord) => ({
  id: a.id,
  title: a.title,
  metric: a.metric,
  severity: a.severity,
  status: a.status,
  houseId: a.houseId,
  flockId: a.flockId,
  firstSeenAt: a.firstSeenAt,
  lastSeenAt: a.lastSeenAt,
  check: a.hypotheses[0]?.check ?? null,
});

/** The open anomalies of a farm, most severe then newest first (a worker's due checks). */
export async function openAnomalyChecks(farmId: string, max = 10) {
  const rank = { critical: 0, warning: 1, info: 2 } as const;
  return (await openAnomaliesOfFarm(farmId))
    .sort((a, b) => rank[a.severity] - rank[b.severity] || b.lastSeenAt.localeCompare(a.lastSeenAt))
    .slice(0, max)
    .map(anomalyLine);
}

// ---------------------------------------------------------------------------------------------------
// Lifecycle and escalation

const note = (user: Caller, action: AnomalyNote['action'], at: string, text: string | undefined): AnomalyNote[] =>
  text?.trim() ? [{ at, actorId: user.id, action, note: text.trim() }] : [];

/** acknowledge, resolve or dismiss: an illegal move is a Conflict naming the status; the dedup key is released once the anomaly is no longer open. */
export async function actOnAnomaly(
  user: Caller,
  id: string,
  action: AnomalyAction,
  body: AnomalyActionBody,
  precondition: Precondition | undefined,
  requestId: string,
): Promise<AnomalyDto> {
  const current = await visibleAnomaly(user, id);
  const version = expectedVersion(current.version, { precondition, stated: body.version }, `Anomaly ${id}`);
  const move = transition(current.status, action);
  if ('refused' in move) throw new Conflict(move.refused);
  const now = new Date().toISOString();
  const stamp = { acknowledged: 'acknowledgedAt', resolved: 'resolvedAt', dismissed: 'dismissedAt' } as const;
  const added = note(user, action, now, body.note);
  const fields: Partial<AnomalyRecord> = {
    status: move.to,
    [stamp[move.to as keyof typeof stamp]]: now,
    ...(added.length ? { notes: [...current.notes, ...added] } : {}),
  };
  await updateAnomaly(current, version, fields, now, [
    ...(isOpen(current.status) && !isOpen(move.to) ? [anomalyDedupRelease(current.farmId, current.dedupKey, id)] : []),
    auditPut({
      actorId: user.id,
      action: `anomaly.${action}`,
      targetType: 'anomaly',
      targetId: id,
      changes: { status: { from: current.status, to: move.to }, ...(added.length ? { note: added[0]!.note } : {}) },
      requestId,
    }),
  ]);
  return toAnomalyDto({ ...current, ...fields, version: version + 1, updatedAt: now });
}

type IncidentDto = Awaited<ReturnType<typeof incidentFor>>;

/** How often an escalation re-reads the anomaly after a concurrent change (a repeat firing) before giving up with a Conflict. */
const ESCALATE_ATTEMPTS = 4;

/**
 * Escalates an anomaly to an incident (through `openIncident`, with dedup key `anomaly:<id>`, linked to
 * the anomaly and its flock; severity and category from the anomaly unless given) and keeps the
 * incident's id on the anomaly, acknowledging it if it was open. Once escalated, escalating again
 * answers the same incident (`created` false). A resolved or dismissed anomaly that was never escalated
 * cannot be (409).
 */
export async function escalateAnomaly(
  user: Caller,
  id: string,
  body: EscalateAnomalyBody,
  requestId: string,
): Promise<{ created: boolean; anomaly: AnomalyDto; incident: IncidentDto }> {
  let incident: IncidentDto | undefined;
  for (let attempt = 1; attempt <= ESCALATE_ATTEMPTS; attempt++) {
    const current = await visibleAnomaly(user, id);
    if (current.incidentId !== null) {
      return { created: false, anomaly: toAnomalyDto(current), incident: await incidentFor(user, current.incidentId) };
    }
    if (!isOpen(current.status)) throw new Conflict(`An anomaly that is ${current.status} cannot be escalated (allowed from open or acknowledged)`);
    // once per request: a retry after a concurrent change links the incident already opened
    incident ??= (
      await openIncident(
        user,
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
        requestId,
      )
    ).data as IncidentDto;
    const now = new Date().toISOString();
    const added = note(user, 'escalate', now, body.note);
    const fields: Partial<AnomalyRecord> = {
      incidentId: incident.id,
      ...(current.status === 'open' ? { status: 'acknowledged' as const, acknowledgedAt: now } : {}),
      ...(added.length ? { notes: [...current.notes, ...added] } : {}),
    };
    try {
      await updateAnomaly(current, current.version, fields, now, [
        auditPut({
          actorId: user.id,
          action: 'anomaly.escalate',
          targetType: 'anomaly',
          targetId: id,
          changes: {
            incidentId: { from: null, to: incident.id },
            ...(current.status === 'open' ? { status: { from: current.status, to: 'acknowledged' } } : {}),
          },
          requestId,
        }),
      ]);
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
      continue;
    }
    return { created: true, anomaly: toAnomalyDto({ ...current, ...fields, version: current.version + 1, updatedAt: now }), incident };
  }
  throw new Conflict(`Anomaly ${id} kept changing concurrently; retry`);
}
