import { pause, type RetryPolicy } from '../../platform/retry.js';
import { ulid } from 'ulidx';
import { AnomalyDedupTaken, AnomalyMoved, claimRelease, getAnomaly, openAnomalyOfDedupKey, raisingWrites, repeatWrite } from '../../db/anomalies.js';
import type { AnomalyRecord } from '../../domain/anomalies/records.js';
import { commit } from '../../db/commit.js';
import { systemCaller } from '../../domain/caller.js';
import { isOpen, repeatOf, seenAt } from '../../domain/anomalies/lifecycle.js';
import { commandContext, type CommandContext } from '../../domain/command.js';
import { Conflict, ValidationFailed } from '../../errors.js';
import { toAnomalyDto, type AnomalyDto } from './reading.js';

/**
 * Raising (the rule, detector and schedule jobs): one anomaly per dedup key while it is open or
 * acknowledged; a repeat firing updates it.
 */

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
  | 'startedOn'
  | 'severity'
  | 'title'
  | 'evidence'
  | 'hypotheses'
  | 'dedupKey'
> & {
  /** ISO instant the firing is about: the end of the period it judged (the window's end), later than now while that period runs. */
  at: string;
};

type Raised = { anomaly: AnomalyDto; created: boolean };

/** Who raises an anomaly: the firing's source (`system:rule`, `system:detector`, `system:schedule`). */
const raiser = (source: AnomalyRecord['source']) => systemCaller(source, [], 'all');

/** How often a firing re-reads and retries after losing a race (another firing of its key, an action), and its pauses (up to 20 ms, 40 ms, … 200 ms). */
const RAISE_RETRY: RetryPolicy = { attempts: 10, baseMs: 10, capMs: 200 };
const RAISE_ATTEMPTS = RAISE_RETRY.attempts;

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
    startedOn: f.startedOn,
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
 * Concurrent firings of one key leave one anomaly counting them all: the creation claims the key (a
 * create: it never overwrites), the losers join the winner with a version-conditioned update and read again
 * after a lost race (a few attempts with jittered backoff; then a Conflict). A key whose anomaly was
 * resolved or dismissed raises a new anomaly.
 */
export async function raiseAnomaly(ctx: CommandContext, firing: AnomalyFiring): Promise<Raised> {
  // the audit names the firing's source as the actor (`system:rule`, `system:detector`…), whoever runs the job
  const as = commandContext(raiser(firing.source), { requestId: ctx.requestId, now: ctx.now });
  const judgedUntil = instant(firing.at, 'at');
  const now = ctx.now.toISOString();
  const at = { judgedUntil, seenAt: seenAt(judgedUntil, now) };
  for (let attempt = 1; attempt <= RAISE_ATTEMPTS; attempt++) {
    if (attempt > 1) await pause(attempt - 1, RAISE_RETRY);
    const heldBy = await openAnomalyOfDedupKey(firing.farmId, firing.dedupKey);
    if (heldBy === undefined) {
      const anomaly = newAnomaly(firing, at, now);
      try {
        await commit(as, {
          writes: raisingWrites(anomaly),
          audit: [
            {
              action: 'anomaly.raise',
              targetType: 'anomaly',
              targetId: anomaly.id,
              changes: { dedupKey: anomaly.dedupKey, metric: anomaly.metric, severity: anomaly.severity, ruleId: anomaly.ruleId, detector: anomaly.detector },
            },
          ],
          changes: [{ type: 'anomaly', id: anomaly.id, op: 'upsert', version: 1, farmIds: [anomaly.farmId] }],
        });
        return { anomaly: toAnomalyDto(anomaly), created: true };
      } catch (err) {
        // a concurrent firing of the same key won: join it on the next attempt
        if (!(err instanceof AnomalyDedupTaken)) throw err;
        continue;
      }
    }
    // a second read after the claim: the anomaly it names, to update (or to drop a stale claim)
    const current = await getAnomaly(heldBy);
    if (!current || !isOpen(current.status)) {
      await commit(as, { writes: [claimRelease(firing.farmId, firing.dedupKey, heldBy)] }).catch((err: unknown) => {
        if (!(err instanceof Conflict)) throw err;
      });
      continue;
    }
    const fields = repeatOf(current, firing, at);
    try {
      await commit(as, { writes: [repeatWrite(current, fields)] });
    } catch (err) {
      if (!(err instanceof AnomalyMoved)) throw err;
      continue;
    }
    return { anomaly: toAnomalyDto({ ...current, ...fields, version: current.version + 1, updatedAt: now }), created: false };
  }
  throw new Conflict(`The anomaly of dedup key ${firing.dedupKey} kept changing concurrently; retry`);
}
