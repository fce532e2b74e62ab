/**
 * Incidents (pure): the lifecycle triggered → acknowledged → resolved → closed (acknowledging may be
 * skipped: a problem can be resolved straight away; a closed incident never moves again), the movement
 * restriction of a suspected notifiable disease, and the response times the operations metrics report.
 * Sources in docs/domain.md ("Incidents").
 */
import type { Caller } from '../caller.js';
import type { IncidentAction, IncidentCategory, IncidentSeverity, IncidentStatus } from '../../../schemas/vocabulary.js';

const MOVES: Record<IncidentAction, { from: readonly IncidentStatus[]; to: IncidentStatus }> = {
  acknowledge: { from: ['triggered'], to: 'acknowledged' },
  resolve: { from: ['triggered', 'acknowledged'], to: 'resolved' },
  close: { from: ['resolved'], to: 'closed' },
};

/** The status an action moves an incident to, or why it cannot (an illegal move). */
export function transition(current: IncidentStatus, action: IncidentAction): { to: IncidentStatus } | { refused: string } {
  const move = MOVES[action];
  if (move.from.includes(current)) return { to: move.to };
  return { refused: `An incident that is ${current} cannot be ${move.to} (allowed from ${move.from.join(' or ')})` };
}

/** What the assignee of an incident may do without manage_incidents: take it on (acknowledge) and add notes. */
const ASSIGNEE_MAY: ReadonlySet<IncidentAction | 'note'> = new Set(['acknowledge', 'note']);
export const assigneeMay = (action: IncidentAction | 'note'): boolean => ASSIGNEE_MAY.has(action);

/**
 * Whether the caller may do this to the incident: anything with manage_incidents; its assignee may
 * acknowledge it and add notes (the worker an incident is assigned to must be able to take it on).
 */
export function mayActOn(caller: Pick<Caller, 'id' | 'capabilities'>, incident: { assigneeId: string | null }, action: IncidentAction | 'note'): boolean {
  return caller.capabilities.has('manage_incidents') || (incident.assigneeId === caller.id && assigneeMay(action));
}

/** Open incidents: not yet resolved. A repeat of an open incident's dedup key joins it instead of opening another. */
export const isOpen = (status: IncidentStatus): boolean => status === 'triggered' || status === 'acknowledged';

/** A suspected notifiable disease restricts the farm's movements until the incident is closed (Reg. (EU) 2016/429). */
export const restrictsMovements = (category: IncidentCategory): boolean => category === 'disease_suspicion';

export interface IncidentTimes {
  severity: IncidentSeverity;
  status: IncidentStatus;
  createdAt: string;
  acknowledgedAt: string | null;
  resolvedAt: string | null;
}

const minutesBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 60_000;
const mean = (xs: number[]) => (xs.length === 0 ? null : Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10);

/** Mean time to acknowledge and to resolve (minutes, from creation), and the open incidents by severity. */
export function responseMetrics(incidents: readonly IncidentTimes[]) {
  const acknowledged = incidents.filter((i) => i.acknowledgedAt !== null).map((i) => minutesBetween(i.createdAt, i.acknowledgedAt!));
  const resolved = incidents.filter((i) => i.resolvedAt !== null).map((i) => minutesBetween(i.createdAt, i.resolvedAt!));
  const open = { critical: 0, high: 0, medium: 0, low: 0 } satisfies Record<IncidentSeverity, number>;
  for (const i of incidents) if (isOpen(i.status)) open[i.severity]++;
  return {
    incidents: incidents.length,
    meanTimeToAcknowledgeMinutes: mean(acknowledged),
    meanTimeToResolveMinutes: mean(resolved),
    acknowledged: acknowledged.length,
    resolved: resolved.length,
    openBySeverity: open,
  };
}
