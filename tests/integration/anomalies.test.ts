/**
 * Anomalies through the real middleware and DynamoDB Local: raising (a repeat firing updates the open
 * anomaly of its dedup key, also under 10 concurrent firings; a resolved one makes room for a new one),
 * the lifecycle and its illegal moves, audit entries, list filters and pagination, farm scoping,
 * capabilities, the escalation to an incident and the incident's anomaly links.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { flockWithCycle } from '../support/cycles.js';
import { house, otherFarm } from '../support/farms.js';
import { raiseAnomaly } from '../../shared/services/anomalies/raising.js';
import { openAnomaliesSummary } from '../../shared/services/anomalies/reading.js';
import { firing, jobContext, key } from '../support/anomalies.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
async function farmWithManager() {
  const farmId = await otherFarm('Anomaly farm');
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  const act = (id: string, action: string, opts: { ifMatch?: string; note?: string; token?: string; version?: number } = {}) =>
    call('POST', `/api/v1/anomalies/${id}/${action}`, {
      token: opts.token ?? manager.token,
      body: { ...(opts.note ? { note: opts.note } : {}), ...(opts.version ? { version: opts.version } : {}) },
      headers: opts.ifMatch ? { 'If-Match': opts.ifMatch } : {},
    });
  const get = (id: string, token = manager.token) => call('GET', `/api/v1/anomalies/${id}`, { token });
  const list = async (query: Record<string, string> = {}) => {
    const res = await call('GET', '/api/v1/anomalies', { token: manager.token, query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { data: Json[]; page: { limit: number; nextCursor: string | null } };
  };
  return { farmId, manager, act, get, list };
}

describe('anomalies', () => {
  it('a repeat firing of an open anomaly’s dedup key updates it: occurrences, the newest measurement, the higher severity', async () => {
    const f = await farmWithManager();
    const first = firing(f.farmId, { at: hoursAgo(3), severity: 'warning', observed: 150 });
    const raised = await raiseAnomaly(jobContext(), first);
    expect(raised.created).toBe(true);
    expect(raised.anomaly).toMatchObject({ status: 'open', occurrences: 1, severity: 'warning', observed: 150, version: 1, incidentId: null, notes: [] });
    const again = await raiseAnomaly(jobContext(), {
      ...first,
      at: hoursAgo(1),
      severity: 'critical',
      observed: 90,
      deviation: -55,
      evidence: { readings: 13 },
    });
    expect(again.created).toBe(false);
    expect(again.anomaly.id).toBe(raised.anomaly.id);
    // a late firing about an older instant counts, but neither lowers the severity nor replaces the newest measurement
    const late = await raiseAnomaly(jobContext(), { ...first, at: hoursAgo(2), severity: 'info', observed: 140 });
    expect(late.anomaly.id).toBe(raised.anomaly.id);
    const stored = (await f.get(raised.anomaly.id)).body.data;
    expect(stored).toMatchObject({
      occurrences: 3,
      severity: 'critical',
      observed: 90,
      deviation: -55,
      evidence: { readings: 13 },
      firstSeenAt: first.at,
      lastSeenAt: again.anomaly.lastSeenAt,
      version: 3,
    });
    expect(stored).toEqual(late.anomaly);
  });

  it('10 concurrent firings of one dedup key leave one anomaly counting 10; once resolved the key raises a new one', async () => {
    const f = await farmWithManager();
    const one = firing(f.farmId, { dedupKey: key('detector'), source: 'detector', ruleId: null, detector: { name: 'robust_z', parameters: { z: 3.5 } } });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => raiseAnomaly(jobContext(), { ...one, observed: 100 + i })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const ids = new Set(results.map((r) => r.anomaly.id));
    expect(ids.size).toBe(1);
    const [id] = [...ids] as string[];
    expect((await f.get(id!)).body.data).toMatchObject({ occurrences: 10, status: 'open', source: 'detector', detector: { name: 'robust_z' } });
    expect((await f.list({ source: 'detector' })).data.map((a) => a.id)).toEqual([id]);

    expect((await f.act(id!, 'resolve')).status).toBe(200);
    const fresh = await raiseAnomaly(jobContext(), { ...one, at: hoursAgo(0.5) });
    expect(fresh.created).toBe(true);
    expect(fresh.anomaly.id).not.toBe(id);
    expect((await f.get(id!)).body.data).toMatchObject({ status: 'resolved', occurrences: 10 });
  });

  it('move open → acknowledged → resolved | dismissed, conditionally, audited; illegal moves are 409 naming the status', async () => {
    const f = await farmWithManager();
    const id = (await raiseAnomaly(jobContext(), firing(f.farmId))).anomaly.id;
    const got = await f.get(id);
    expect(got.headers.ETag).toBe('"1"');
    expect((await f.act(id, 'acknowledge', { ifMatch: '"7"' })).status).toBe(412);
    expect((await f.act(id, 'acknowledge', { version: 7 })).status).toBe(409);
    const ack = await f.act(id, 'acknowledge', { ifMatch: '"1"', note: 'Looking at line 2' });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    expect(ack.headers.ETag).toBe('"2"');
    expect(ack.body.data).toMatchObject({
      status: 'acknowledged',
      version: 2,
      notes: [{ action: 'acknowledge', note: 'Looking at line 2', actorId: f.manager.id }],
    });
    const twice = await f.act(id, 'acknowledge');
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('An anomaly that is acknowledged cannot be acknowledged (allowed from open)');
    const resolved = await f.act(id, 'resolve', { note: 'Nipple line flushed' });
    expect(resolved.body.data).toMatchObject({ status: 'resolved', version: 3 });
    expect(resolved.body.data.resolvedAt >= resolved.body.data.acknowledgedAt).toBe(true);
    for (const action of ['acknowledge', 'resolve', 'dismiss']) {
      const res = await f.act(id, action);
      expect(res.status, action).toBe(409);
      expect(res.body.error).toMatch(/^An anomaly that is resolved cannot be /);
    }
    // open → dismissed directly; dismissed is final
    const other = (await raiseAnomaly(jobContext(), firing(f.farmId))).anomaly.id;
    expect((await f.act(other, 'dismiss', { note: 'Meter was being serviced' })).body.data).toMatchObject({ status: 'dismissed', acknowledgedAt: null });
    expect((await f.act(other, 'resolve')).body.error).toBe('An anomaly that is dismissed cannot be resolved (allowed from open or acknowledged)');

    const admin = await adminLogin();
    const audit = (await call('GET', '/api/v1/admin/audit', { token: admin, query: { targetId: id } })).body.data as Json[];
    expect(audit.map((e) => e.action)).toEqual(['anomaly.resolve', 'anomaly.acknowledge', 'anomaly.raise']);
    expect(audit[0]).toMatchObject({ actorId: f.manager.id, targetType: 'anomaly', changes: { status: { from: 'acknowledged', to: 'resolved' } } });
    expect(audit[2]).toMatchObject({ actorId: 'system:rule' });
  });

  it('lists a farm’s anomalies newest first, filtered by status, severity, source, house, flock and first seen from/to, page by page', async () => {
    const f = await farmWithManager();
    const houseId = await house(f.farmId);
    const { flock } = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, houseId });
    const a = (await raiseAnomaly(jobContext(), firing(f.farmId, { at: hoursAgo(50), severity: 'info' }))).anomaly.id;
    const b = (await raiseAnomaly(jobContext(), firing(f.farmId, { at: hoursAgo(30), severity: 'critical', houseId, flockId: flock.id }))).anomaly.id;
    const c = (
      await raiseAnomaly(
        jobContext(),
        firing(f.farmId, { at: hoursAgo(10), source: 'detector', ruleId: null, detector: { name: 'cusum', parameters: { k: 0.5, h: 5 } }, houseId }),
      )
    ).anomaly.id;
    await f.act(a, 'dismiss');
    const ids = (query: Record<string, string> = {}) => f.list(query).then((r) => r.data.map((x) => x.id));

    expect(await ids()).toEqual([c, b, a]);
    expect(await ids({ status: 'open' })).toEqual([c, b]);
    expect(await ids({ status: 'dismissed' })).toEqual([a]);
    expect(await ids({ severity: 'critical' })).toEqual([b]);
    expect(await ids({ source: 'detector' })).toEqual([c]);
    expect(await ids({ source: 'rule' })).toEqual([b, a]);
    expect(await ids({ houseId })).toEqual([c, b]);
    expect(await ids({ flockId: flock.id })).toEqual([b]);
    expect(await ids({ from: hoursAgo(40) })).toEqual([c, b]);
    expect(await ids({ to: hoursAgo(20) })).toEqual([b, a]);
    expect(await ids({ from: hoursAgo(40), to: hoursAgo(20) })).toEqual([b]);
    // the dashboards' summary: open and acknowledged ones, seen last first
    await f.act(c, 'acknowledge');
    expect(await openAnomaliesSummary(f.farmId)).toMatchObject({
      count: 2,
      bySeverity: { critical: 1, warning: 1, info: 0 },
      latest: [
        { id: c, status: 'acknowledged', metric: 'waterLiters' },
        { id: b, status: 'open', severity: 'critical' },
      ],
    });
    expect((await openAnomaliesSummary(f.farmId, { metrics: ['temperatureC'] })).count).toBe(0);
    const bad = await call('GET', '/api/v1/anomalies', { token: f.manager.token, query: { from: hoursAgo(10), to: hoursAgo(20) } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'query.to', message: 'must be after from' }]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await f.list({ limit: '2', ...(cursor ? { cursor } : {}) });
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((x) => x.id));
      cursor = page.page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([c, b, a]);
    // a cursor of another range is refused, not passed to the database
    const first = await f.list({ limit: '1' });
    const outside = await call('GET', '/api/v1/anomalies', { token: f.manager.token, query: { to: hoursAgo(40), cursor: first.page.nextCursor! } });
    expect(outside.status).toBe(400);
  });

  it('is scoped to the caller’s farms, and its changes need manage_incidents', async () => {
    const f = await farmWithManager();
    const g = await farmWithManager();
    const id = (await raiseAnomaly(jobContext(), firing(f.farmId))).anomaly.id;
    for (const [method, path] of [
      ['GET', `/api/v1/anomalies/${id}`],
      ['POST', `/api/v1/anomalies/${id}/acknowledge`],
      ['POST', `/api/v1/anomalies/${id}/dismiss`],
      ['POST', `/api/v1/anomalies/${id}/escalate`],
    ] as const) {
      const res = await call(method, path, { token: g.manager.token, ...(method === 'POST' ? { body: {} } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ error: `Anomaly ${id} not found` });
    }
    expect((await call('GET', '/api/v1/anomalies', { token: g.manager.token, query: { farmId: f.farmId } })).status).toBe(404);
    expect((await g.list()).data).toEqual([]);
    const missing = await f.get('01JD3Y4Z9V6Q8K2M5N7P0R1S3T');
    expect(missing.status).toBe(404);

    const worker = await userWith({ role: 'worker', farmIds: [f.farmId] });
    expect((await f.get(id, worker.token)).status).toBe(200);
    expect((await f.act(id, 'acknowledge', { token: worker.token })).status).toBe(403);
    expect((await call('POST', `/api/v1/anomalies/${id}/escalate`, { token: worker.token, body: {} })).status).toBe(403);
    expect((await f.get(id)).body.data.status).toBe('open');
  });

  it('escalates to one incident linked both ways; escalating again answers the same incident', async () => {
    const f = await farmWithManager();
    const { flock } = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, houseId: await house(f.farmId) });
    const id = (await raiseAnomaly(jobContext(), firing(f.farmId, { flockId: flock.id, severity: 'warning' }))).anomaly.id;
    const first = await call('POST', `/api/v1/anomalies/${id}/escalate`, { token: f.manager.token, body: { note: 'Vet informed' } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const { anomaly, incident } = first.body.data;
    expect(incident).toMatchObject({
      farmId: f.farmId,
      category: 'water',
      severity: 'high',
      status: 'triggered',
      dedupKey: `anomaly:${id}`,
      openedBy: f.manager.id,
      links: { anomalyIds: [id], flockIds: [flock.id], deviceIds: [] },
    });
    expect(incident.description).toContain('observed 120 L, expected 200 L');
    expect(incident.description).toContain('Blocked nipple line');
    expect(incident.description).toContain('Check the pressure at the end of line 2');
    expect(anomaly).toMatchObject({ incidentId: incident.id, status: 'acknowledged', version: 2, notes: [{ action: 'escalate', note: 'Vet informed' }] });

    const again = await call('POST', `/api/v1/anomalies/${id}/escalate`, { token: f.manager.token, body: { severity: 'critical' } });
    expect(again.status).toBe(200);
    expect(again.body.data.incident.id).toBe(incident.id);
    expect(again.body.data.incident.occurrences).toBe(1);
    expect((await f.get(id)).body.data.incidentId).toBe(incident.id);
    const incidents = (await call('GET', '/api/v1/operations/incidents', { token: f.manager.token })).body.data as Json[];
    expect(incidents.map((i) => i.id)).toEqual([incident.id]);

    // an anomaly resolved before anyone escalated it is not escalated afterwards; given severity and category win
    const done = (await raiseAnomaly(jobContext(), firing(f.farmId, { metric: 'dailyMortality', unit: '%', severity: 'info' }))).anomaly.id;
    await f.act(done, 'resolve');
    expect((await call('POST', `/api/v1/anomalies/${done}/escalate`, { token: f.manager.token, body: {} })).status).toBe(409);
    const mortality = (await raiseAnomaly(jobContext(), firing(f.farmId, { metric: 'dailyMortality', unit: '%', severity: 'info' }))).anomaly.id;
    const welfare = await call('POST', `/api/v1/anomalies/${mortality}/escalate`, { token: f.manager.token, body: {} });
    expect(welfare.body.data.incident).toMatchObject({ category: 'welfare', severity: 'low', links: { flockIds: [] } });
    const given = (await raiseAnomaly(jobContext(), firing(f.farmId, { metric: 'temperatureC', unit: '°C', severity: 'critical' }))).anomaly.id;
    const custom = await call('POST', `/api/v1/anomalies/${given}/escalate`, {
      token: f.manager.token,
      body: { title: 'Heat stress in house 1', category: 'equipment', severity: 'medium' },
    });
    expect(custom.body.data.incident).toMatchObject({ title: 'Heat stress in house 1', category: 'equipment', severity: 'medium' });
  });

  it('an incident links only anomalies of its farm', async () => {
    const f = await farmWithManager();
    const g = await farmWithManager();
    const mine = (await raiseAnomaly(jobContext(), firing(f.farmId))).anomaly.id;
    const foreign = (await raiseAnomaly(jobContext(), firing(g.farmId))).anomaly.id;
    const open = (anomalyIds: string[]) =>
      call('POST', '/api/v1/operations/incidents', {
        token: f.manager.token,
        body: { title: 'Water line 2 dry', category: 'water', severity: 'high', links: { anomalyIds } },
      });
    const bad = await open([mine, foreign, '01JD3Y4Z9V6Q8K2M5N7P0R1S3T']);
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([
      { field: 'body.links.anomalyIds.1', message: `no anomaly ${foreign} in farm ${f.farmId}` },
      { field: 'body.links.anomalyIds.2', message: `no anomaly 01JD3Y4Z9V6Q8K2M5N7P0R1S3T in farm ${f.farmId}` },
    ]);
    const good = await open([mine]);
    expect(good.status).toBe(201);
    expect(good.body.data.links.anomalyIds).toEqual([mine]);
  });
});
