import type { RuleAction, RuleAggregation, RuleSeverity } from '../../../schemas/vocabulary.js';

/** Rules and their evaluation states as stored and decided on (keys and items: shared/db/rules.ts). */
export interface RuleRecord {
  id: string;
  farmId: string;
  name: string;
  scope: { farmId: string; houseId?: string; flockId?: string };
  input: string;
  window: string;
  aggregation: RuleAggregation;
  /** As the client wrote it: a short form `{op, value | range}` or a json-logic expression. */
  condition: Record<string, unknown>;
  severity: RuleSeverity;
  actions: RuleAction[];
  cooldownMinutes: number;
  enabled: boolean;
  defaultKey: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** The state target of a rule that has no flock or house to judge in its scope (its reason says why). */
export const NO_TARGET = 'scope';

export interface RuleState {
  target: string;
  state: 'ok' | 'fired' | 'no_data';
  reason: string | null;
  /** The end of the last bucket judged (where the next evaluation starts): later than now when a day was judged before it ended. */
  lastEvaluatedAt: string | null;
  /** The end of the bucket it last fired at (the cooldown counts from it). */
  lastFiredAt: string | null;
  /** When that evaluation ran, and when it last fired (the pass's clock; null on states written before they were kept). */
  evaluatedAt: string | null;
  firedAt: string | null;
  /** The rule version the state was computed with: an edited rule starts afresh. */
  ruleVersion: number;
}
