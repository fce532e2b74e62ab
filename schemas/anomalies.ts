import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  ExpectedVersion,
  JsonValue,
  ListFarmId,
  ListOf,
  pageQueryProperties,
  StringEnum,
  Success,
  Timestamp,
  Ulid,
  UlidOf,
  periodProperties,
} from './common.js';
import { CalendarDate } from './flocks.js';
import { IncidentCategory, IncidentSeverity, IncidentWithTimeline } from './operations.js';
import { ANOMALY_SOURCES, ANOMALY_STATUSES, DETECTORS, RULE_SEVERITIES } from './vocabulary.js';

/**
 * Anomalies (`/api/v1/anomalies`): what rules and statistical detectors found, with evidence and ranked
 * hypotheses; one per dedup key while open (a repeat firing updates it); acknowledged, resolved, dismissed
 * or escalated to an incident.
 */

const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });
export const AnomalySeverity = StringEnum(RULE_SEVERITIES, { description: 'info, warning or critical' });
export const AnomalyStatus = StringEnum(ANOMALY_STATUSES, {
  description: 'open → acknowledged → resolved | dismissed (resolve and dismiss may skip acknowledge; resolved and dismissed are final)',
});
export const AnomalySource = StringEnum(ANOMALY_SOURCES, {
  description: 'rule (a user’s alarm rule), detector (a statistical detector) or schedule (an overdue vaccination of a schedule)',
});

export const anomalyParams = Type.Object({ anomalyId: UlidOf('Id of the anomaly') }, { additionalProperties: false, $id: 'AnomalyParams' });
export type AnomalyParams = Static<typeof anomalyParams>;

export const listAnomaliesQuery = Type.Object(
  {
    farmId: ListFarmId('`flockId` or `houseId`'),
    houseId: Type.Optional(Type.String({ ...RecordId, description: 'Only anomalies of this house' })),
    flockId: Type.Optional(Type.String({ ...RecordId, description: 'Only anomalies of this flock' })),
    status: Type.Optional(AnomalyStatus),
    severity: Type.Optional(AnomalySeverity),
    source: Type.Optional(AnomalySource),
    ...periodProperties,
    ...pageQueryProperties,
  },
  { additionalProperties: false, $id: 'ListAnomaliesQuery' },
);
export type ListAnomaliesQuery = Static<typeof listAnomaliesQuery>;

export const anomalyActionBody = Type.Object(
  { note: Type.Optional(Text(2000, 'Why, or what was done (kept with the anomaly)')), version: Type.Optional(ExpectedVersion) },
  { additionalProperties: false, $id: 'AnomalyActionBody' },
);
export type AnomalyActionBody = Static<typeof anomalyActionBody>;

export const escalateAnomalyBody = Type.Object(
  {
    title: Type.Optional(Text(200, 'The incident’s title (default: the anomaly’s)')),
    category: Type.Optional(IncidentCategory),
    severity: Type.Optional(IncidentSeverity),
    assigneeId: Type.Optional(Type.String({ ...RecordId, description: 'The user who owns the incident (a user of the farm)' })),
    note: Type.Optional(Text(2000, 'Kept with the anomaly and added to the incident’s description')),
  },
  { additionalProperties: false, $id: 'EscalateAnomalyBody' },
);
export type EscalateAnomalyBody = Static<typeof escalateAnomalyBody>;

// ---------------------------------------------------------------------------------------------------
// Responses

const Nullable = <T extends TSchema>(schema: T, description?: string) => Type.Union([schema, Type.Null()], description ? { description } : {});
export const AnomalyHypothesisDto = Type.Object(
  {
    cause: Type.String({ description: 'What may be behind it' }),
    score: Type.Number({ description: 'How likely, relative to the others (higher is likelier)' }),
    supporting: Type.Array(Type.String(), { description: 'Evidence for it' }),
    contradicting: Type.Array(Type.String(), { description: 'Evidence against it' }),
    check: Type.String({ description: 'What to check on the farm to confirm or rule it out' }),
  },
  { $id: 'AnomalyHypothesis' },
);
export const AnomalyDto = Type.Object(
  {
    id: Ulid,
    farmId: Type.String(),
    houseId: Nullable(Type.String()),
    flockId: Nullable(Type.String()),
    cycleId: Nullable(Type.String()),
    source: AnomalySource,
    ruleId: Nullable(Type.String(), 'The rule that fired (source rule)'),
    detector: Nullable(
      Type.Object({ name: StringEnum(DETECTORS), parameters: Type.Record(Type.String(), Type.Number()) }),
      'The detector that fired and its parameters (source detector)',
    ),
    metric: Type.String(),
    unit: Type.String(),
    observed: Type.Number({ description: 'The value of the newest firing' }),
    expected: Nullable(Type.Number(), 'What was expected (a threshold, a baseline, a standard)'),
    deviation: Nullable(Type.Number(), 'How far observed is from expected (a z-score, a difference: the detector’s measure)'),
    window: Type.Object(
      { from: Timestamp, to: Timestamp, duration: Type.String({ description: 'ISO 8601 duration, e.g. PT1H' }) },
      { description: 'The period the newest firing judged: a rule’s window, or a detector’s baseline and judged day' },
    ),
    startedOn: Nullable(
      CalendarDate,
      'The day the event began, the same as `startedOn` of the detections of GET /api/v2/analytics/anomalies for the same change (docs/analytics.md, "When an anomaly started"); null for an anomaly stored before the field existed',
    ),
    severity: AnomalySeverity,
    status: AnomalyStatus,
    occurrences: Type.Integer({ description: 'How many firings it gathers (repeats of its dedup key while open)' }),
    firstSeenAt: Type.String({ format: 'date-time', description: 'When it was first seen: a real instant, never in the future' }),
    lastSeenAt: Type.String({
      format: 'date-time',
      description: 'When it was last seen: the end of the period judged, or the moment it was judged while that period still ran; never in the future',
    }),
    judgedUntil: Type.String({
      format: 'date-time',
      description:
        'The end (exclusive) of the period the newest firing judged, e.g. 2026-11-28T00:00:00.000Z for the day 2026-11-27: later than lastSeenAt when the day was judged before it ended',
    }),
    evidence: Type.Record(Type.String(), JsonValue, { description: 'What the firing saw (free-form, per rule or detector)' }),
    hypotheses: Type.Array(AnomalyHypothesisDto, { description: 'Ranked, most likely first' }),
    title: Type.String(),
    dedupKey: Type.String(),
    incidentId: Nullable(Type.String(), 'The incident it was escalated to'),
    acknowledgedAt: Nullable(Timestamp, 'When it was acknowledged'),
    resolvedAt: Nullable(Timestamp, 'When it was resolved'),
    dismissedAt: Nullable(Timestamp, 'When it was dismissed'),
    notes: Type.Array(
      Type.Object({
        at: Timestamp,
        actorId: Type.String(),
        action: StringEnum(['acknowledge', 'resolve', 'dismiss', 'escalate'] as const),
        note: Type.String(),
      }),
      { description: 'Notes given with its actions, oldest first' },
    ),
    version: Type.Integer(),
    updatedAt: Timestamp,
  },
  { $id: 'Anomaly' },
);
export const AnomalyResponse = Success(AnomalyDto);
export const AnomalyListResponse = ListOf(AnomalyDto);
export const AnomalyEscalationResponse = Success(
  Type.Object({ anomaly: AnomalyDto, incident: IncidentWithTimeline }, { description: 'The anomaly (with its incidentId) and its incident' }),
);
