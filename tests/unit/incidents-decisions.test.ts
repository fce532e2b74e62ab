import { describe, expect, it } from 'vitest';
import { systemCaller, type Caller } from '../../shared/domain/caller.js';
import type { Capability } from '../../shared/domain/capabilities.js';
import { unchanged } from '../../shared/domain/decision.js';
import {
  decideIncidentAction,
  decideIncidentNote,
  decideIncidentOpen,
  decideIncidentRepeat,
  decideIncidentUpdate,
} from '../../shared/domain/incidents/decisions.js';
import type { IncidentRecord } from '../../shared/domain/incidents/records.js';
import { Conflict, Forbidden, NotFound, ValidationFailed } from '../../shared/errors.js';

/** The incident decisions without a database: the refusals in their order, and the records, events and restrictions they decide. */

const now = new Date('2026-03-02T10:00:00.000Z');
const manager: Caller = systemCaller('test', ['manage_incidents'], ['f1']);
const worker = (id: string, capabilities: Capability[] = ['view_analytics']): Caller => ({
  id,
  role: 'worker',
  capabilities: new Set(capabilities),
  farmIds: ['f1'],
  allFarms: false,
});

const incident = (fields: Partial<IncidentRecord> = {}): IncidentRecord => ({
  id: 'i1',
  farmId: 'f1',
  title: 'Feeder stuck',
  description: null,
  category: 'equipment',
  severity: 'medium',
  status: 'triggered',
  assigneeId: null,
  links: { anomalyIds: [], deviceIds: [], flockIds: [] },
  dedupKey: null,
  occurrences: 1,
  openedBy: 'u0',
  createdAt: '2026-03-01T08:00:00.000Z',
  acknowledgedAt: null,
  resolvedAt: null,
  closedAt: null,
  updatedAt: '2026-03-01T08:00:00.000Z',
  version: 3,
  ...fields,
});

describe('opening an incident', () => {
  const body = { farmId: 'f1', title: ' Coughing in house 2 ', category: 'disease_suspicion' as const, severity: 'high' as const };

  it('decides the incident, its created event, the restriction of a disease suspicion and the audit', () => {
    const d = decideIncidentOpen(manager, 'f1', { ...body, description: ' since dawn ' }, {}, now);
    expect(d.incident).toMatchObject({
      farmId: 'f1',
      title: 'Coughing in house 2',
      description: 'since dawn',
      status: 'triggered',
      occurrences: 1,
      openedBy: manager.id,
      createdAt: now.toISOString(),
      version: 1,
      links: { anomalyIds: [], deviceIds: [], flockIds: [] },
    });
    expect(d.created).toMatchObject({ type: 'created', at: now.toISOString(), actorId: manager.id, note: 'since dawn' });
    expect(d.restricts).toBe(true);
    expect(d.audit).toEqual([
      { action: 'incident.open', targetType: 'incident', targetId: d.incident.id, changes: expect.objectContaining({ restrictsMovements: true }) },
    ]);
    expect(d.changes).toEqual([{ type: 'incident', id: d.incident.id, op: 'upsert', version: 1, farmIds: ['f1'] }]);
    expect(decideIncidentOpen(manager, 'f1', { ...body, category: 'equipment' }, {}, now).restricts).toBe(false);
  });

  it('refuses an assignee who does not see the farm (404, before the links), then links of another farm (400 naming each)', () => {
    const stranger = { role: 'worker', farmIds: ['f2'] };
    const linked = { devices: new Map([['d1', 'f2']]), flocks: new Map([['k1', 'f1']]), anomalies: new Map<string, string>() };
    const links = { deviceIds: ['d1'], flockIds: ['k1'], anomalyIds: ['a9'] };
    expect(() => decideIncidentOpen(manager, 'f1', { ...body, assigneeId: 'u9', links }, { assignee: stranger, linked }, now)).toThrow(NotFound);
    expect(() => decideIncidentOpen(manager, 'f1', { ...body, assigneeId: 'u9' }, {}, now)).toThrow('User u9 not found');
    try {
      decideIncidentOpen(manager, 'f1', { ...body, links }, { linked }, now);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationFailed);
      expect((err as ValidationFailed).details).toEqual([
        { field: 'links.anomalyIds.0', message: 'no anomaly a9 in farm f1' },
        { field: 'links.deviceIds.0', message: 'no device d1 in farm f1' },
      ]);
    }
    expect(decideIncidentOpen(manager, 'f1', { ...body, assigneeId: 'u9' }, { assignee: { role: 'admin', farmIds: [] } }, now).incident.assigneeId).toBe('u9');
  });

  it('joins the open incident of a dedup key: one more occurrence and a repeated event', () => {
    const found = { incident: incident({ occurrences: 2 }), timeline: [] };
    const { repeated, joined } = decideIncidentRepeat(manager, found, 'again', now);
    expect(repeated).toMatchObject({ type: 'repeated', note: 'again', at: now.toISOString() });
    expect(joined.incident).toMatchObject({ occurrences: 3, version: 4, updatedAt: now.toISOString() });
    expect(joined.timeline).toEqual([repeated]);
  });
});

describe('editing an incident', () => {
  it('refuses a closed incident before judging its references', () => {
    expect(() => decideIncidentUpdate(manager, incident({ status: 'closed' }), { assigneeId: 'u9' }, {}, now)).toThrow(Conflict);
  });

  it('writes only the fields that differ, and nothing when none does', () => {
    const d = decideIncidentUpdate(manager, incident(), { title: 'Feeder stuck', severity: 'high' }, {}, now);
    expect(d.change.fields).toEqual({ severity: 'high' });
    expect(d.change.changes).toEqual({ severity: { from: 'medium', to: 'high' } });
    expect(d.change.next).toMatchObject({ severity: 'high', version: 4, updatedAt: now.toISOString() });
    expect(d.event).toMatchObject({ type: 'updated', changes: { severity: { from: 'medium', to: 'high' } } });
    expect(d.restriction).toBeUndefined();
    expect(unchanged(decideIncidentUpdate(manager, incident(), { title: ' Feeder stuck ' }, {}, now).change)).toBe(true);
  });

  it('imposes the restriction when recategorised as a disease suspicion, lifts it when recategorised away', () => {
    expect(decideIncidentUpdate(manager, incident(), { category: 'disease_suspicion' }, {}, now).restriction).toBe('impose');
    expect(decideIncidentUpdate(manager, incident({ category: 'disease_suspicion' }), { category: 'equipment' }, {}, now).restriction).toBe('lift');
  });
});

describe('moving an incident through its lifecycle', () => {
  it('stamps the new status, releases the dedup key once no longer open and lifts the restriction once closed', () => {
    const resolved = decideIncidentAction(manager, incident({ dedupKey: 'k' }), 'resolve', {}, now);
    expect(resolved.change.fields).toEqual({ status: 'resolved', resolvedAt: now.toISOString() });
    expect(resolved).toMatchObject({ releaseDedup: true, liftRestriction: false });
    expect(resolved.audit[0]).toMatchObject({ action: 'incident.resolve', changes: { status: { from: 'triggered', to: 'resolved' } } });
    const closed = decideIncidentAction(
      manager,
      incident({ status: 'resolved', category: 'disease_suspicion', dedupKey: 'k' }),
      'close',
      { note: 'done' },
      now,
    );
    expect(closed).toMatchObject({ releaseDedup: false, liftRestriction: true, event: { type: 'closed', note: 'done' } });
  });

  it('refuses an illegal move naming the status, and a caller who is neither manager nor the acknowledging assignee', () => {
    expect(() => decideIncidentAction(manager, incident({ status: 'closed' }), 'acknowledge', {}, now)).toThrow(/closed cannot be acknowledged/);
    expect(() => decideIncidentAction(worker('u1'), incident({ assigneeId: 'u1' }), 'resolve', {}, now)).toThrow(Forbidden);
    expect(decideIncidentAction(worker('u1'), incident({ assigneeId: 'u1' }), 'acknowledge', {}, now).change.next.status).toBe('acknowledged');
  });

  it('notes on the timeline of any incident the caller may note on', () => {
    expect(decideIncidentNote(worker('u1'), incident({ assigneeId: 'u1', status: 'closed' }), ' checked ', now).note).toMatchObject({
      type: 'note',
      note: 'checked',
    });
    expect(() => decideIncidentNote(worker('u2'), incident({ assigneeId: 'u1' }), 'x', now)).toThrow(Forbidden);
  });
});
