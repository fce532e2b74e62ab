/**
 * Operations: incidents through the real middleware and DynamoDB Local — the lifecycle and its illegal
 * moves, dedup keys (also under 10 concurrent openings), the append-only timeline, response-time
 * metrics, the movement restriction of a disease suspicion, farm scoping, and the incident the device
 * health job opens for an offline sensor.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { ingest, iotFarm, minutesAgo, registerDevice } from '../support/iot.js';
import { house, otherFarm } from '../support/farms.js';
import { db, tableName } from '../../shared/db/client.js';
import { restrictionKey } from '../../shared/db/keys.js';
import { checkDeviceHealth, deviceHealthCaller } from '../../shared/services/iot/device-health.js';
import { commandContext } from '../../shared/domain/command.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function farmWithManager() {
  const farmId = await otherFarm('Ops farm');
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  const open = (body: Json) =>
    call('POST', '/api/v1/operations/incidents', { token: manager.token, body: { title: 'Water line 2 dry', category: 'water', severity: 'high', ...body } });
  const act = (id: string, action: string, opts: { ifMatch?: string; note?: string } = {}) =>
    call('POST', `/api/v1/operations/incidents/${id}/${action}`, {
      token: manager.token,
      body: opts.note ? { note: opts.note } : {},
      headers: opts.ifMatch ? { 'If-Match': opts.ifMatch } : {},
    });
  const get = async (id: string) => (await call('GET', `/api/v1/operations/incidents/${id}`, { token: manager.token })).body.data as Json;
  return { farmId, manager, open, act, get };
}

describe('incidents', () => {
  it('move triggered → acknowledged → resolved → closed, with an append-only timeline and response times; illegal moves are 409', async () => {
    const f = await farmWithManager();
    const opened = await f.open({ description: 'No flow at the end of line 2' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const id = opened.body.data.id;
    expect(opened.body.data).toMatchObject({ status: 'triggered', farmId: f.farmId, occurrences: 1, restrictsMovements: false, version: 1 });
    expect(opened.body.data.timeline.map((e: Json) => e.type)).toEqual(['created']);

    expect((await f.act(id, 'close')).status).toBe(409);
    expect((await f.act(id, 'acknowledge', { ifMatch: '"5"' })).status).toBe(412);
    const ack = await f.act(id, 'acknowledge', { ifMatch: '"1"', note: 'On my way' });
    expect(ack.status).toBe(200);
    expect(ack.headers.ETag).toBe('"2"');
    expect(ack.body.data.timeToAcknowledgeMinutes).toBeGreaterThanOrEqual(0);
    const again = await f.act(id, 'acknowledge');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('An incident that is acknowledged cannot be acknowledged (allowed from triggered)');
    expect((await f.act(id, 'resolve', { note: 'Nipple line flushed' })).status).toBe(200);
    expect((await f.act(id, 'resolve')).status).toBe(409);
    expect((await f.act(id, 'close')).status).toBe(200);
    const patchClosed = await call('PATCH', `/api/v1/operations/incidents/${id}`, { token: f.manager.token, body: { severity: 'low' } });
    expect(patchClosed.status).toBe(409);
    const note = await call('POST', `/api/v1/operations/incidents/${id}/notes`, {
      token: f.manager.token,
      body: { text: 'Pressure regulator replaced on day 3' },
    });
    expect(note.status).toBe(200);
    const final = await f.get(id);
    expect(final).toMatchObject({ status: 'closed', version: 4 });
    expect(final.timeline.map((e: Json) => [e.type, e.note])).toEqual([
      ['created', 'No flow at the end of line 2'],
      ['acknowledged', 'On my way'],
      ['resolved', 'Nipple line flushed'],
      ['closed', null],
      ['note', 'Pressure regulator replaced on day 3'],
    ]);
    expect(final.acknowledgedAt <= final.resolvedAt && final.resolvedAt <= final.closedAt).toBe(true);
    const metrics = (await call('GET', '/api/v1/operations/metrics', { token: f.manager.token })).body.data;
    expect(metrics).toMatchObject({
      farmId: f.farmId,
      incidents: 1,
      acknowledged: 1,
      resolved: 1,
      openBySeverity: { critical: 0, high: 0, medium: 0, low: 0 },
    });
    expect(metrics.meanTimeToResolveMinutes).toBeGreaterThanOrEqual(metrics.meanTimeToAcknowledgeMinutes);
  });

  it('a dedup key joins the open incident, also under 10 concurrent openings; once resolved the key opens a new one', async () => {
    const f = await farmWithManager();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => f.open({ dedupKey: 'silo-2-empty', title: `Silo 2 empty (${i})`, category: 'feed' })),
    );
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const ids = new Set(results.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    const [id] = [...ids] as string[];
    const incident = await f.get(id!);
    expect(incident.occurrences).toBe(10);
    expect(incident.timeline.filter((e: Json) => e.type === 'repeated')).toHaveLength(9);
    const list = await call('GET', '/api/v1/operations/incidents', { token: f.manager.token, query: { category: 'feed', status: 'triggered' } });
    expect(list.body.data.map((i: Json) => i.id)).toEqual([id]);
    await f.act(id!, 'resolve');
    const fresh = await f.open({ dedupKey: 'silo-2-empty', title: 'Silo 2 empty again', category: 'feed' });
    expect(fresh.status).toBe(201);
    expect(fresh.body.data.id).not.toBe(id);
  });

  it('an Idempotency-Key makes a retried opening answer the first one, without a second incident', async () => {
    const f = await farmWithManager();
    const send = (body: Json) =>
      call('POST', '/api/v1/operations/incidents', {
        token: f.manager.token,
        headers: { 'Idempotency-Key': 'open-water-1' },
        body: { title: 'Water line 1 dry', category: 'water', severity: 'high', ...body },
      });
    const first = await send({});
    const retry = await send({});
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.headers['Idempotent-Replayed']).toBe('true');
    expect(retry.body.data).toEqual(first.body.data);
    expect((await send({ severity: 'low' })).status).toBe(422);
    const list = (await call('GET', '/api/v1/operations/incidents', { token: f.manager.token })).body.data as Json[];
    expect(list.filter((i) => i.title === 'Water line 1 dry')).toHaveLength(1);
  });

  it('a disease suspicion restricts the farm’s movements until it is closed', async () => {
    const f = await farmWithManager();
    const opened = await f.open({ title: 'Suspected avian influenza', category: 'disease_suspicion', severity: 'critical' });
    const id = opened.body.data.id;
    expect(opened.body.data.restrictsMovements).toBe(true);
    const restriction = async () => (await db().send(new GetCommand({ TableName: tableName(), Key: restrictionKey(f.farmId, id) }))).Item;
    expect(await restriction()).toMatchObject({ incidentId: id });
    await f.act(id, 'resolve');
    expect(await restriction()).toBeDefined();
    const closed = await f.act(id, 'close');
    expect(closed.body.data.restrictsMovements).toBe(false);
    expect(await restriction()).toBeUndefined();
    // recategorised while open: set, then lifted
    const other = (await f.open({ title: 'Birds lethargic', category: 'welfare', severity: 'medium' })).body.data.id;
    await call('PATCH', `/api/v1/operations/incidents/${other}`, {
      token: f.manager.token,
      headers: { 'If-Match': '"1"' },
      body: { category: 'disease_suspicion' },
    });
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: restrictionKey(f.farmId, other) }))).Item).toBeDefined();
    const back = await call('PATCH', `/api/v1/operations/incidents/${other}`, { token: f.manager.token, body: { category: 'welfare' } });
    expect(back.body.data.timeline.filter((e: Json) => e.type === 'updated').map((e: Json) => e.changes.category)).toEqual([
      { from: 'welfare', to: 'disease_suspicion' },
      { from: 'disease_suspicion', to: 'welfare' },
    ]);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: restrictionKey(f.farmId, other) }))).Item).toBeUndefined();
  });

  it('shows the open incidents on the manager’s dashboard, and the health ones on the vet’s', async () => {
    const f = await farmWithManager();
    const water = (await f.open({ severity: 'high' })).body.data.id;
    const disease = (await f.open({ title: 'Suspected Newcastle disease', category: 'disease_suspicion', severity: 'critical' })).body.data.id;
    const done = (await f.open({ title: 'Fuse', category: 'power', severity: 'low' })).body.data.id;
    await f.act(done, 'resolve');
    const manager = (await call('GET', '/api/v1/dashboard', { token: f.manager.token })).body.data.openIncidents;
    expect(manager).toMatchObject({ count: 2, bySeverity: { critical: 1, high: 1, medium: 0, low: 0 } });
    expect(manager.latest.map((i: Json) => i.id)).toEqual([disease, water]);
    const vet = await userWith({ role: 'veterinarian', farmIds: [f.farmId] });
    const vets = (await call('GET', '/api/v1/dashboard', { token: vet.token })).body.data.openIncidents;
    expect(vets).toMatchObject({ count: 1, latest: [{ id: disease, category: 'disease_suspicion', status: 'triggered' }] });
  });

  it('is scoped to the caller’s farms, and takes only an assignee who sees the farm', async () => {
    const f = await farmWithManager();
    const g = await farmWithManager();
    const id = (await f.open({})).body.data.id;
    for (const [method, path] of [
      ['GET', `/api/v1/operations/incidents/${id}`],
      ['PATCH', `/api/v1/operations/incidents/${id}`],
      ['POST', `/api/v1/operations/incidents/${id}/resolve`],
      ['POST', `/api/v1/operations/incidents/${id}/notes`],
    ] as const) {
      const res = await call(method, path, {
        token: g.manager.token,
        body: method === 'PATCH' ? { severity: 'low' } : path.endsWith('notes') ? { text: 'x' } : {},
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ error: `Incident ${id} not found` });
    }
    expect((await call('GET', '/api/v1/operations/incidents', { token: g.manager.token, query: { farmId: f.farmId } })).status).toBe(404);
    const stranger = await userWith({ role: 'worker', farmIds: [g.farmId] });
    const bad = await f.open({ assigneeId: stranger.id });
    expect(bad.status).toBe(404);
    expect(bad.body).toEqual({ error: `User ${stranger.id} not found` });
    // links to another farm's records are refused like links to nothing
    const foreignDevice = await registerDevice({ farmId: g.farmId, houseId: await house(g.farmId), token: g.manager.token });
    const badLinks = await f.open({ links: { deviceIds: [foreignDevice.id], flockIds: ['01JD3Y4Z9V6Q8K2M5N7P0R1S3T'] } });
    expect(badLinks.status).toBe(400);
    expect(badLinks.body.details).toEqual([
      { field: 'body.links.deviceIds.0', message: `no device ${foreignDevice.id} in farm ${f.farmId}` },
      { field: 'body.links.flockIds.0', message: `no flock 01JD3Y4Z9V6Q8K2M5N7P0R1S3T in farm ${f.farmId}` },
    ]);
    const colleague = await userWith({ role: 'worker', farmIds: [f.farmId] });
    expect((await f.open({ assigneeId: colleague.id })).body.data.assigneeId).toBe(colleague.id);
    expect((await f.get(id)).status).toBe('triggered');
  });

  it('its assignee takes it on without manage_incidents: acknowledges it and adds notes; nothing more, and only theirs', async () => {
    const f = await farmWithManager();
    const worker = await userWith({ role: 'worker', farmIds: [f.farmId] });
    const mine = (await f.open({ assigneeId: worker.id })).body.data.id;
    const theirs = (await f.open({ title: 'Fan 3 noisy' })).body.data.id;
    const as = (id: string, action: string, body: Json = {}) => call('POST', `/api/v1/operations/incidents/${id}/${action}`, { token: worker.token, body });
    const ack = await as(mine, 'acknowledge', { note: 'On my way' });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    expect(ack.body.data).toMatchObject({ status: 'acknowledged', assigneeId: worker.id });
    const note = await as(mine, 'notes', { text: 'Valve 4 replaced' });
    expect(note.status, JSON.stringify(note.body)).toBe(200);
    expect(note.body.data.timeline.map((e: Json) => [e.type, e.actorId])).toEqual([
      ['created', f.manager.id],
      ['acknowledged', worker.id],
      ['note', worker.id],
    ]);
    const refused = { error: 'Missing capability: manage_incidents (without it, only the incident’s assignee may acknowledge it and add notes)' };
    for (const res of [await as(theirs, 'acknowledge'), await as(theirs, 'notes', { text: 'x' })]) expect(res).toMatchObject({ status: 403, body: refused });
    expect((await as(mine, 'resolve')).body).toEqual({ error: 'Missing capability: manage_incidents' });
    expect((await f.get(theirs)).status).toBe('triggered');
    expect((await f.get(mine)).status).toBe('acknowledged');
  });

  it('the device health job opens one incident for a sensor that goes offline', async () => {
    const s = await iotFarm();
    const d = await registerDevice(s, { name: 'Climate back' });
    await ingest(d.key, [{ ts: minutesAgo(1), metrics: { temperatureC: 22, humidityPct: 55 } }]);
    const later = (m: number) => new Date(Date.now() + m * 60_000);
    await checkDeviceHealth(commandContext(deviceHealthCaller, { now: later(3) }));
    await checkDeviceHealth(commandContext(deviceHealthCaller, { now: later(6) }));
    await checkDeviceHealth(commandContext(deviceHealthCaller, { now: later(7) }));
    const list = (await call('GET', '/api/v1/operations/incidents', { token: s.token, query: { farmId: s.farmId } })).body.data as Json[];
    const mine = list.filter((i) => i.links.deviceIds.includes(d.id));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      category: 'equipment',
      severity: 'medium',
      status: 'triggered',
      dedupKey: `device-offline:${d.id}`,
      openedBy: 'system:device-health',
    });
    expect(mine[0]!.title).toContain('Climate back is offline');
  });
});
