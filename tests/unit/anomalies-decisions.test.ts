import { describe, expect, it } from 'vitest';
import { decideAnomalyAction, decideEscalationLink, escalationIncident } from '../../shared/domain/anomalies/actions.js';
import type { AnomalyRecord } from '../../shared/domain/anomalies/records.js';
import { Conflict } from '../../shared/errors.js';

/** What people do to an anomaly, decided without a database: the refusals and the records returned. */

const caller = { id: 'U1' };
const now = new Date('2026-03-04T10:00:00.000Z');
const at = now.toISOString();
const anomaly = (patch: Partial<AnomalyRecord> = {}): AnomalyRecord =>
  ({
    id: 'A1',
    farmId: 'F1',
    flockId: 'K1',
    metric: 'waterLiters',
    unit: 'L',
    observed: 10,
    expected: 20,
    deviation: -10,
    window: { from: '2026-03-03T00:00:00.000Z', to: '2026-03-04T00:00:00.000Z', duration: 'P1D' },
    severity: 'critical',
    status: 'open',
    title: 'Water drop',
    dedupKey: 'rule:R1:flock:K1',
    incidentId: null,
    hypotheses: [],
    notes: [],
    version: 3,
    ...patch,
  }) as AnomalyRecord;

describe('anomaly actions', () => {
  it('refuses an illegal move naming the status', () => {
    expect(() => decideAnomalyAction(caller, anomaly({ status: 'resolved' }), 'acknowledge', {}, now)).toThrow(Conflict);
    expect(() => decideAnomalyAction(caller, anomaly({ status: 'acknowledged' }), 'acknowledge', {}, now)).toThrow(/acknowledged cannot be acknowledged/);
  });

  it('acknowledges an open anomaly, keeping its claim; the note is trimmed and audited', () => {
    const d = decideAnomalyAction(caller, anomaly(), 'acknowledge', { note: ' checked ' }, now);
    expect(d.fields).toEqual({ status: 'acknowledged', acknowledgedAt: at, notes: [{ at, actorId: 'U1', action: 'acknowledge', note: 'checked' }] });
    expect(d.releaseClaim).toBe(false);
    expect(d.next).toMatchObject({ status: 'acknowledged', version: 4, updatedAt: at });
    expect(d.audit).toEqual([
      { action: 'anomaly.acknowledge', targetType: 'anomaly', targetId: 'A1', changes: { status: { from: 'open', to: 'acknowledged' }, note: 'checked' } },
    ]);
    expect(d.changes).toEqual([{ type: 'anomaly', id: 'A1', op: 'upsert', version: 4, farmIds: ['F1'] }]);
  });

  it('resolving or dismissing releases the dedup claim; a blank note is not kept', () => {
    const d = decideAnomalyAction(caller, anomaly({ status: 'acknowledged' }), 'dismiss', { note: '  ' }, now);
    expect(d.fields).toEqual({ status: 'dismissed', dismissedAt: at });
    expect(d.releaseClaim).toBe(true);
  });
});

describe('anomaly escalation', () => {
  it('opens an incident from the anomaly unless the body names title, category or severity', () => {
    expect(escalationIncident(anomaly(), {})).toMatchObject({
      farmId: 'F1',
      title: 'Anomaly: Water drop',
      category: 'water',
      severity: 'critical',
      links: { anomalyIds: ['A1'], flockIds: ['K1'] },
      dedupKey: 'anomaly:A1',
    });
    expect(escalationIncident(anomaly({ flockId: null }), { title: 'T', category: 'feed', severity: 'low' })).toMatchObject({
      title: 'T',
      category: 'feed',
      severity: 'low',
      links: { anomalyIds: ['A1'] },
    });
  });

  it('refuses a resolved or dismissed anomaly', () => {
    expect(() => escalationIncident(anomaly({ status: 'dismissed' }), {})).toThrow(/dismissed cannot be escalated/);
  });

  it('links the incident, acknowledging an open anomaly only', () => {
    const open = decideEscalationLink(caller, anomaly(), 'I1', { note: 'see incident' }, now);
    expect(open.fields).toEqual({
      incidentId: 'I1',
      status: 'acknowledged',
      acknowledgedAt: at,
      notes: [{ at, actorId: 'U1', action: 'escalate', note: 'see incident' }],
    });
    expect(open.audit[0]!.changes).toEqual({ incidentId: { from: null, to: 'I1' }, status: { from: 'open', to: 'acknowledged' } });
    const acknowledged = decideEscalationLink(caller, anomaly({ status: 'acknowledged' }), 'I1', {}, now);
    expect(acknowledged.fields).toEqual({ incidentId: 'I1' });
    expect(acknowledged.next).toMatchObject({ incidentId: 'I1', status: 'acknowledged', version: 4 });
  });
});
