/** Anomaly fixtures: a rule's firing (a water drop in the last hour by default), with a dedup key of its own. */
import { randomBytes } from 'node:crypto';
import { systemCaller } from '../../shared/domain/caller.js';
import { commandContext } from '../../shared/domain/command.js';
import { rulesCaller } from '../../shared/services/rules/alarm-data.js';
import type { AnomalyFiring } from '../../shared/services/anomalies/raising.js';

/** The command context of a job that raises anomalies (the rule, detector and schedule jobs build theirs so). */
/** The command context of one run of the alarm job (the event handler gives it the invocation's request id). */
export const alarmJob = (requestId: string, now?: Date) => commandContext(rulesCaller, { requestId, ...(now ? { now } : {}) });

export const jobContext = () => commandContext(systemCaller('test-job', [], 'all'), { requestId: `test-${randomBytes(4).toString('hex')}` });

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
export const key = (tag: string) => `${tag}:${randomBytes(4).toString('hex')}`;

export function firing(farmId: string, over: Partial<AnomalyFiring> = {}): AnomalyFiring {
  const at = over.at ?? hoursAgo(1);
  return {
    farmId,
    houseId: null,
    flockId: null,
    cycleId: null,
    source: 'rule',
    ruleId: '01JD3Y4Z9V6Q8K2M5N7P0R1S3T',
    detector: null,
    metric: 'waterLiters',
    unit: 'L',
    observed: 120,
    expected: 200,
    deviation: -40,
    window: { from: new Date(Date.parse(at) - 3_600_000).toISOString(), to: at, duration: 'PT1H' },
    startedOn: at.slice(0, 10),
    severity: 'warning',
    title: 'Water intake 40 % below the last 7 days',
    evidence: { readings: 12, meter: 'line 2' },
    hypotheses: [
      {
        cause: 'Blocked nipple line',
        score: 0.7,
        supporting: ['flow fell within an hour'],
        contradicting: [],
        check: 'Check the pressure at the end of line 2',
      },
      { cause: 'Meter fault', score: 0.2, supporting: [], contradicting: ['feed intake fell too'], check: 'Compare with a manual reading' },
    ],
    dedupKey: key('rule'),
    at,
    ...over,
  };
}
