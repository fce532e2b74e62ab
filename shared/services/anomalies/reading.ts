import { anomalyNotFound, getAnomaly, listAnomaliesOfFarm, openAnomaliesOfFarm } from '../../db/anomalies.js';
import type { AnomalyRecord } from '../../domain/anomalies/records.js';
import type { Caller } from '../../domain/caller.js';
import { visibleTo } from '../../domain/farm-access.js';
import { farmOfListRequest } from '../farms.js';
import { farmPeriodInstants } from '../periods.js';
import type { ListAnomaliesQuery } from '../../../schemas/anomalies.js';

/**
 * Anomalies (`/api/v1/anomalies`): the records a rule's or a detector's firing is stored as. Raised by
 * the rule, detector and schedule jobs (./raising.ts), moved along their lifecycle and escalated to
 * incidents by people (./lifecycle.ts), read here. Scoped to the caller's farms like every farm record
 * (an anomaly of another farm does not exist for the caller).
 */

export type { AnomalyRecord } from '../../domain/anomalies/records.js';

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
    startedOn: a.startedOn,
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
export async function visibleAnomaly(user: Caller, id: string): Promise<AnomalyRecord> {
  return visibleTo(user, await getAnomaly(id), () => anomalyNotFound(id));
}

export async function anomalyFor(user: Caller, id: string): Promise<AnomalyDto> {
  return toAnomalyDto(await visibleAnomaly(user, id));
}

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
