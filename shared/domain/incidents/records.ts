import type { IncidentCategory, IncidentSeverity, IncidentStatus } from '../../../schemas/vocabulary.js';
import { restrictsMovements } from './lifecycle.js';

/** An incident as stored (shared/db/incidents.ts keys it and lists it per farm). */
export interface IncidentRecord {
  id: string;
  farmId: string;
  title: string;
  description: string | null;
  category: IncidentCategory;
  severity: IncidentSeverity;
  status: IncidentStatus;
  assigneeId: string | null;
  links: { anomalyIds: string[]; deviceIds: string[]; flockIds: string[] };
  dedupKey: string | null;
  occurrences: number;
  openedBy: string;
  createdAt: string;
  acknowledgedAt: string | null;
  resolvedAt: string | null;
  closedAt: string | null;
  updatedAt: string;
  version: number;
}

/** One entry of an incident's append-only timeline. */
export interface TimelineEvent {
  id: string;
  at: string;
  type: 'created' | 'repeated' | 'updated' | 'acknowledged' | 'resolved' | 'closed' | 'note';
  actorId: string;
  note: string | null;
  changes: Record<string, { from: unknown; to: unknown }> | null;
}

/** An incident with its timeline, oldest event first: what a use case reads and answers. */
export interface IncidentWithTimeline {
  incident: IncidentRecord;
  timeline: TimelineEvent[];
}

const minutes = (from: string, to: string | null) => (to === null ? null : Math.round(((Date.parse(to) - Date.parse(from)) / 60_000) * 10) / 10);

/** The incident as answered (and as audited when it is opened): the stored fields, its restriction and its response times. */
export function toIncidentDto(i: IncidentRecord) {
  return {
    id: i.id,
    farmId: i.farmId,
    title: i.title,
    description: i.description,
    category: i.category,
    severity: i.severity,
    status: i.status,
    assigneeId: i.assigneeId,
    links: i.links,
    dedupKey: i.dedupKey,
    occurrences: i.occurrences,
    restrictsMovements: restrictsMovements(i.category) && i.status !== 'closed',
    openedBy: i.openedBy,
    createdAt: i.createdAt,
    acknowledgedAt: i.acknowledgedAt,
    resolvedAt: i.resolvedAt,
    closedAt: i.closedAt,
    timeToAcknowledgeMinutes: minutes(i.createdAt, i.acknowledgedAt),
    timeToResolveMinutes: minutes(i.createdAt, i.resolvedAt),
    updatedAt: i.updatedAt,
    version: i.version,
  };
}
