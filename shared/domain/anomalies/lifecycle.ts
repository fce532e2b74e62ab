/**
 * Anomalies (pure): the records a rule's or a detector's firing is stored as (shared/db/anomalies.ts),
 * their lifecycle open → acknowledged → resolved | dismissed (acknowledging may be skipped; a resolved or
 * dismissed anomaly never moves again), how a repeat firing of an open anomaly's dedup key updates it,
 * and how an anomaly becomes an incident when it is escalated.
 */
import type { AnomalyHypothesis, AnomalyRecord } from './records.js';
import type { AnomalyAction, AnomalyStatus, IncidentCategory, IncidentSeverity, RuleSeverity } from '../../../schemas/vocabulary.js';

const MOVES: Record<AnomalyAction, { from: readonly AnomalyStatus[]; to: AnomalyStatus }> = {
  acknowledge: { from: ['open'], to: 'acknowledged' },
  resolve: { from: ['open', 'acknowledged'], to: 'resolved' },
  dismiss: { from: ['open', 'acknowledged'], to: 'dismissed' },
};

/** The status an action moves an anomaly to, or why it cannot (an illegal move). */
export function transition(current: AnomalyStatus, action: AnomalyAction): { to: AnomalyStatus } | { refused: string } {
  const move = MOVES[action];
  if (move.from.includes(current)) return { to: move.to };
  return { refused: `An anomaly that is ${current} cannot be ${move.to} (allowed from ${move.from.join(' or ')})` };
}

/** Open anomalies: not yet resolved or dismissed. A repeat firing of an open anomaly's dedup key updates it instead of raising another. */
export const isOpen = (status: AnomalyStatus): boolean => status === 'open' || status === 'acknowledged';

const RANK: Record<RuleSeverity, number> = { info: 0, warning: 1, critical: 2 };
/** The higher of two severities. */
export const higherSeverity = (a: RuleSeverity, b: RuleSeverity): RuleSeverity => (RANK[b] > RANK[a] ? b : a);

/** The earlier of two days, a known one before an unknown one. */
const earlierDay = (a: string | null, b: string | null): string | null => (a === null ? b : b === null || a <= b ? a : b);

/** What a repeat changes on an open anomaly (the rest of its fields stay). */
export interface RepeatState {
  severity: RuleSeverity;
  startedOn: string | null;
  occurrences: number;
  firstSeenAt: string;
  lastSeenAt: string;
  judgedUntil: string;
}

/**
 * When a firing about the period ending `judgedUntil` is seen, raised at `now`: the period's end, or `now`
 * while that period is still running (a day judged on its daily record before it ends). An instant a person
 * reads as when something was seen is never in the future; the period judged stays in `judgedUntil`.
 */
export const seenAt = (judgedUntil: string, now: string): string => (judgedUntil < now ? judgedUntil : now);
export interface RepeatFiring<W, E, H> {
  severity: RuleSeverity;
  startedOn: string | null;
  title: string;
  observed: number;
  expected: number | null;
  deviation: number | null;
  window: W;
  evidence: E;
  hypotheses: H;
}

/**
 * A repeat firing (about the period ending `at.judgedUntil`, seen `at.seenAt`; normalised ISO instants) of
 * an open anomaly: one more occurrence, the higher severity of the two, first seen and the day the event
 * started widened to it (one open anomaly is one event, which began at its earliest firing's start); the
 * measurement, window, evidence, hypotheses, title, last seen and period judged become the firing's when it
 * judged the newest period (a late firing about an older period only counts).
 */
export function repeatOf<W, E, H>(current: RepeatState, firing: RepeatFiring<W, E, H>, at: { judgedUntil: string; seenAt: string }) {
  const newest = at.judgedUntil >= current.judgedUntil;
  return {
    occurrences: current.occurrences + 1,
    severity: higherSeverity(current.severity, firing.severity),
    firstSeenAt: at.seenAt < current.firstSeenAt ? at.seenAt : current.firstSeenAt,
    startedOn: earlierDay(current.startedOn, firing.startedOn),
    ...(newest
      ? {
          lastSeenAt: at.seenAt > current.lastSeenAt ? at.seenAt : current.lastSeenAt,
          judgedUntil: at.judgedUntil,
          title: firing.title,
          observed: firing.observed,
          expected: firing.expected,
          deviation: firing.deviation,
          window: firing.window,
          evidence: firing.evidence,
          hypotheses: firing.hypotheses,
        }
      : {}),
  };
}

/** The incident severity of an escalated anomaly (unless the escalation names one): critical → critical, warning → high, info → low. */
export function incidentSeverityOf(severity: RuleSeverity): IncidentSeverity {
  return ({ critical: 'critical', warning: 'high', info: 'low' } as const)[severity];
}

/**
 * The incident category of an escalated anomaly by its metric (unless the escalation names one): water
 * metrics → water, climate (temperature, NH₃, CO₂, humidity) → climate, mortality → welfare, feed (and the
 * silo) → feed, else other. Water is tested first: `waterFeedRatio` is a water problem.
 */
export function incidentCategoryOf(metric: string): IncidentCategory {
  const m = metric.toLowerCase();
  if (m.includes('water')) return 'water';
  if (/temperature|nh3|ammonia|co2|humidity|pressure|lux/.test(m)) return 'climate';
  if (/mortality|uniformity/.test(m)) return 'welfare';
  if (/feed|silo|fcr/.test(m)) return 'feed';
  return 'other';
}

/** What an escalation tells of the anomaly. */
export type EscalatedAnomaly = Pick<AnomalyRecord, 'title' | 'metric' | 'unit' | 'observed' | 'expected' | 'deviation' | 'window'> & {
  hypotheses: ReadonlyArray<Pick<AnomalyHypothesis, 'cause' | 'score' | 'check'>>;
};

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const withUnit = (value: number, unit: string) => (unit ? `${value} ${unit}` : String(value));

/** The incident's title (at most 200 characters) when the escalation names none. */
export const escalationTitle = (anomaly: Pick<EscalatedAnomaly, 'title'>): string => clip(`Anomaly: ${anomaly.title.trim()}`, 200);

/** The incident's description (at most 5000 characters): what was observed against what was expected, the first (most likely) hypothesis and its check, and the note. */
export function escalationDescription(anomaly: EscalatedAnomaly, note?: string): string {
  // hypotheses come ranked, most likely first
  const top = anomaly.hypotheses[0];
  const lines = [
    `${anomaly.metric}: observed ${withUnit(anomaly.observed, anomaly.unit)}` +
      (anomaly.expected !== null ? `, expected ${withUnit(anomaly.expected, anomaly.unit)}` : '') +
      (anomaly.deviation !== null ? ` (deviation ${anomaly.deviation})` : '') +
      ` over ${anomaly.window.duration} from ${anomaly.window.from} to ${anomaly.window.to}.`,
    top ? `Most likely: ${top.cause} (score ${top.score}). Check: ${top.check}` : 'No hypothesis.',
    ...(note?.trim() ? [`Note: ${note.trim()}`] : []),
  ];
  return clip(lines.join('\n'), 5000);
}
