import { Type, type Static } from '@sinclair/typebox';
import { ExpectedVersion, JsonValue, ListOf, pageQueryProperties, StringEnum, Success, Timestamp, Ulid, UlidOf } from './common.js';
import { INCIDENT_CATEGORIES, INCIDENT_SEVERITIES, INCIDENT_STATUSES } from './vocabulary.js';

/**
 * Operations (`/api/v1/operations`): incidents someone owns until they are resolved, with an append-only
 * timeline, dedup keys, response-time metrics and the movement restriction of a suspected disease.
 */

const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });
export const IncidentSeverity = StringEnum(INCIDENT_SEVERITIES, { description: 'critical, high, medium or low' });
export const IncidentCategory = StringEnum(INCIDENT_CATEGORIES, {
  description: 'disease_suspicion (restricts the farm’s movements until closed), equipment, power, water, feed, climate, biosecurity, welfare or other',
});
export const IncidentStatus = StringEnum(INCIDENT_STATUSES, {
  description: 'triggered → acknowledged → resolved → closed (resolve may skip acknowledge; a closed incident never moves)',
});
const Ids = (description: string) => Type.Array(RecordId, { maxItems: 20, uniqueItems: true, description });
const Links = Type.Object(
  {
    anomalyIds: Type.Optional(Ids('Anomalies this incident is about (of its farm)')),
    deviceIds: Type.Optional(Ids('Devices involved')),
    flockIds: Type.Optional(Ids('Flocks affected')),
  },
  { additionalProperties: false, description: 'Links to anomalies, devices and flocks (at most 20 of each)' },
);

export const incidentParams = Type.Object({ incidentId: UlidOf('Id of the incident') }, { additionalProperties: false, $id: 'IncidentParams' });
export type IncidentParams = Static<typeof incidentParams>;

export const createIncidentBody = Type.Object(
  {
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm; may be left out when you are assigned to one farm' })),
    title: Text(200, 'What is happening, in a line'),
    description: Type.Optional(Text(5000, 'Details')),
    category: IncidentCategory,
    severity: IncidentSeverity,
    assigneeId: Type.Optional(Type.String({ ...RecordId, description: 'The user who owns it (a user of the farm)' })),
    links: Type.Optional(Links),
    dedupKey: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: '^[\\x21-\\x7e]+$',
        description:
          'While an incident with this key is open in the farm, a new one with the same key joins it (200, occurrences + 1) instead of opening another',
      }),
    ),
  },
  { additionalProperties: false, $id: 'CreateIncidentBody' },
);
export type CreateIncidentBody = Static<typeof createIncidentBody>;

export const updateIncidentBody = Type.Object(
  {
    title: Type.Optional(Text(200, 'What is happening, in a line')),
    description: Type.Optional(Type.Union([Text(5000, 'Details'), Type.Null()], { description: 'Details; null clears them' })),
    category: Type.Optional(IncidentCategory),
    severity: Type.Optional(IncidentSeverity),
    assigneeId: Type.Optional(Type.Union([Type.String({ ...RecordId }), Type.Null()], { description: 'The owner; null unassigns' })),
    links: Type.Optional(Links),
    version: Type.Optional(ExpectedVersion),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateIncidentBody' },
);
export type UpdateIncidentBody = Static<typeof updateIncidentBody>;

export const incidentActionBody = Type.Object(
  { note: Type.Optional(Text(2000, 'Why, or what was done (kept on the timeline)')), version: Type.Optional(ExpectedVersion) },
  { additionalProperties: false, $id: 'IncidentActionBody' },
);
export type IncidentActionBody = Static<typeof incidentActionBody>;

export const incidentNoteBody = Type.Object(
  { text: Text(2000, 'The note, 1–2000 characters: appended to the incident’s timeline with its author and time') },
  { additionalProperties: false, $id: 'IncidentNoteBody', description: 'POST …/incidents/{incidentId}/notes `{"text": "Drinker line 3 flushed"}`' },
);
export type IncidentNoteBody = Static<typeof incidentNoteBody>;

export const listIncidentsQuery = Type.Object(
  {
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm (required when you see more than one)' })),
    status: Type.Optional(IncidentStatus),
    severity: Type.Optional(IncidentSeverity),
    category: Type.Optional(IncidentCategory),
    ...pageQueryProperties,
  },
  { additionalProperties: false, $id: 'ListIncidentsQuery' },
);
export type ListIncidentsQuery = Static<typeof listIncidentsQuery>;

export const incidentMetricsQuery = Type.Object(
  {
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm (required when you see more than one)' })),
    days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 30, description: 'Incidents opened in the last N days (default 30)' })),
  },
  { additionalProperties: false, $id: 'IncidentMetricsQuery' },
);
export type IncidentMetricsQuery = Static<typeof incidentMetricsQuery>;

// ---------------------------------------------------------------------------------------------------
// Responses

const NullableTime = (description: string) => Type.Union([Timestamp, Type.Null()], { description });
export const TimelineEventDto = Type.Object(
  {
    id: Ulid,
    at: Timestamp,
    type: StringEnum(['created', 'repeated', 'updated', 'acknowledged', 'resolved', 'closed', 'note'] as const),
    actorId: Type.String({ description: 'The user, or `system:<job>` for a job or rule' }),
    note: Type.Union([Type.String(), Type.Null()]),
    changes: Type.Union([Type.Record(Type.String(), Type.Object({ from: JsonValue, to: JsonValue })), Type.Null()], {
      description: 'Fields an update changed, from → to',
    }),
  },
  { $id: 'IncidentTimelineEvent' },
);
export const IncidentDto = Type.Object(
  {
    id: Ulid,
    farmId: Type.String(),
    title: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    category: IncidentCategory,
    severity: IncidentSeverity,
    status: IncidentStatus,
    assigneeId: Type.Union([Type.String(), Type.Null()]),
    links: Type.Object({ anomalyIds: Type.Array(Type.String()), deviceIds: Type.Array(Type.String()), flockIds: Type.Array(Type.String()) }),
    dedupKey: Type.Union([Type.String(), Type.Null()]),
    occurrences: Type.Integer({ description: 'How many times it was raised (repeats of its dedup key while open)' }),
    restrictsMovements: Type.Boolean({ description: 'A disease suspicion not yet closed: the farm may not send birds, eggs or litter out' }),
    openedBy: Type.String(),
    createdAt: Timestamp,
    acknowledgedAt: NullableTime('When it was acknowledged'),
    resolvedAt: NullableTime('When it was resolved'),
    closedAt: NullableTime('When it was closed'),
    timeToAcknowledgeMinutes: Type.Union([Type.Number(), Type.Null()]),
    timeToResolveMinutes: Type.Union([Type.Number(), Type.Null()]),
    updatedAt: Timestamp,
    version: Type.Integer(),
  },
  { $id: 'Incident' },
);
export const IncidentWithTimeline = Type.Composite(
  [IncidentDto, Type.Object({ timeline: Type.Array(TimelineEventDto, { description: 'Oldest first; append-only' }) })],
  {
    $id: 'IncidentWithTimeline',
  },
);
export const IncidentResponse = Success(IncidentWithTimeline);
export const IncidentListResponse = ListOf(IncidentDto);
export const IncidentMetricsResponse = Success(
  Type.Object({
    farmId: Type.String(),
    since: Timestamp,
    incidents: Type.Integer({ description: 'Opened since `since`' }),
    meanTimeToAcknowledgeMinutes: Type.Union([Type.Number(), Type.Null()], { description: 'From opening to acknowledgement, over those acknowledged' }),
    meanTimeToResolveMinutes: Type.Union([Type.Number(), Type.Null()], { description: 'From opening to resolution, over those resolved' }),
    acknowledged: Type.Integer(),
    resolved: Type.Integer(),
    openBySeverity: Type.Object({ critical: Type.Integer(), high: Type.Integer(), medium: Type.Integer(), low: Type.Integer() }),
  }),
);
