import type { AnomalyAction, AnomalySource, AnomalyStatus, Detector, RuleSeverity } from '../../../schemas/vocabulary.js';

/** Anomalies as stored and decided on (keys, items and the dedup claims: shared/db/anomalies.ts). */
export interface AnomalyHypothesis {
  cause: string;
  score: number;
  supporting: string[];
  contradicting: string[];
  check: string;
}

/** A note given with a lifecycle action or an escalation. */
export interface AnomalyNote {
  at: string;
  actorId: string;
  action: AnomalyAction | 'escalate';
  note: string;
}

export interface AnomalyRecord {
  id: string;
  farmId: string;
  houseId: string | null;
  flockId: string | null;
  cycleId: string | null;
  source: AnomalySource;
  ruleId: string | null;
  detector: { name: Detector; parameters: Record<string, number> } | null;
  metric: string;
  unit: string;
  observed: number;
  expected: number | null;
  deviation: number | null;
  window: { from: string; to: string; duration: string };
  /**
   * The day the event began (YYYY-MM-DD): for a change of a flock's daily figure, the change point of the
   * detectors' episode the firing falls in (docs/analytics.md, "When an anomaly started"); null for an
   * anomaly stored before the field existed.
   */
  startedOn: string | null;
  severity: RuleSeverity;
  status: AnomalyStatus;
  occurrences: number;
  firstSeenAt: string;
  lastSeenAt: string;
  /** The end of the period the newest firing judged (its window's end): later than lastSeenAt while that day or hour runs. */
  judgedUntil: string;
  evidence: Record<string, unknown>;
  hypotheses: AnomalyHypothesis[];
  title: string;
  dedupKey: string;
  incidentId: string | null;
  acknowledgedAt: string | null;
  resolvedAt: string | null;
  dismissedAt: string | null;
  notes: AnomalyNote[];
  version: number;
  updatedAt: string;
}
