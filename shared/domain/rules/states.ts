import { diff } from '../changes.js';
import type { RuleRun } from './evaluation.js';
import { NO_TARGET, type RuleState } from './records.js';
import { BUCKET_MS, DAY_MS, type Basis } from './windows.js';

/**
 * The evaluation state of a rule's target, decided without I/O: which buckets a live pass judges from the
 * state it continues, and the state it leaves (written only when it says something new).
 */

/** How far back a live run catches up after a pause (a longer backlog is left to a backtest). */
const CATCH_UP_MS: Record<Basis, number> = { hour: 7 * DAY_MS, day: 35 * DAY_MS };

export const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;

/** The stored state a pass continues: one computed with an older definition of the rule starts afresh. */
export const continuedState = (stored: RuleState | undefined, ruleVersion: number): RuleState | undefined =>
  stored && stored.ruleVersion === ruleVersion ? stored : undefined;

/**
 * The instants a live pass judges, (afterMs, untilMs]: exactly the day `day` (a daily record for that day)
 * for a daily rule, else the buckets that ended since the state's last one (at most the catch-up span);
 * undefined when none ended since.
 */
export function evaluationSpan(basis: Basis, state: RuleState | undefined, nowMs: number, day?: string): { afterMs: number; untilMs: number } | undefined {
  const step = BUCKET_MS[basis];
  if (day && basis === 'day') {
    const afterMs = Date.parse(`${day}T00:00:00.000Z`);
    return { afterMs, untilMs: afterMs + DAY_MS };
  }
  const untilMs = floorTo(nowMs, step);
  const last = state?.lastEvaluatedAt ? Date.parse(state.lastEvaluatedAt) : untilMs - step;
  const afterMs = Math.max(last, untilMs - CATCH_UP_MS[basis]);
  return afterMs >= untilMs ? undefined : { afterMs, untilMs };
}

/** What a state says (not when it was judged): a state that says the same again is not written. */
const STATE_FIGURES = ['state', 'reason', 'lastEvaluatedAt', 'lastFiredAt', 'ruleVersion'] as const;

/**
 * The state a run leaves for its target: the newest instant judged (never back in time), the last firing,
 * when it ran and fired; undefined when it says what the state continued already said (a day judged again
 * after a corrected record that changes nothing).
 */
export function nextRuleState(
  target: string,
  ruleVersion: number,
  state: RuleState | undefined,
  run: Pick<RuleRun, 'status' | 'lastFiredAt' | 'firings'>,
  untilMs: number,
  now: Date,
): RuleState | undefined {
  const newest = new Date(Math.max(untilMs, state?.lastEvaluatedAt ? Date.parse(state.lastEvaluatedAt) : 0)).toISOString();
  const next: RuleState = {
    target,
    state: run.status.state,
    reason: run.status.reason,
    lastEvaluatedAt: newest,
    lastFiredAt: run.lastFiredAt ?? state?.lastFiredAt ?? null,
    evaluatedAt: now.toISOString(),
    firedAt: run.firings.length > 0 ? now.toISOString() : (state?.firedAt ?? null),
    ruleVersion,
  };
  return !state || Object.keys(diff(state, next, STATE_FIGURES)).length > 0 ? next : undefined;
}

/**
 * The state of a rule with nothing to judge in its scope (no flock with an active cycle, no sensor), saying
 * why; undefined when the stored one already says so for this version of the rule.
 */
export function idleRuleState(ruleVersion: number, basis: Basis, stored: RuleState | undefined): RuleState | undefined {
  const reason = basis === 'day' ? 'no flock with an active cycle in its scope' : 'no sensor in its scope: register a device in the house';
  if (stored?.ruleVersion === ruleVersion && stored.reason === reason) return undefined;
  return {
    target: NO_TARGET,
    state: 'no_data',
    reason,
    lastEvaluatedAt: null,
    lastFiredAt: null,
    evaluatedAt: null,
    firedAt: null,
    ruleVersion,
  };
}
