import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { flockWithCycle } from '../support/cycles.js';
import { defaultFarmId, otherFarm } from '../support/farms.js';

const RECS = '/api/v1/optimization/recommendations';
const body = (flockId: string, extra: Record<string, unknown> = {}) => ({
  flockId,
  category: 'feed',
  description: 'Switch to grower feed from day 11',
  expectedBenefit: 'FCR −0.03',
  ...extra,
});

describe('optimization recommendations', () => {
  it('the contract’s POST (manage_system) creates an open recommendation on the flock’s active cycle; GET returns it', async () => {
    const admin = await adminLogin();
    const c = await flockWithCycle({ token: admin });
    const res = await call('POST', RECS, { token: admin, body: body(c.flock.id, { priority: 'high' }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Recommendation created');
    expect(res.body.data).toMatchObject({
      flockId: c.flock.id,
      cycleId: c.cycle.id,
      farmId: c.flock.farmId,
      category: 'feed',
      priority: 'high',
      status: 'open',
      source: 'user',
      rule: null,
      evidence: [],
      description: 'Switch to grower feed from day 11',
      expectedBenefit: 'FCR −0.03',
      decidedAt: null,
      version: 1,
    });
    const got = await call('GET', `${RECS}/${res.body.data.id}`, { token: admin });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(res.body.data);
    expect(got.headers.ETag).toBe('"1"');
  });

  it('refuses bad input (400 naming the field) and needs manage_system', async () => {
    const admin = await adminLogin();
    const c = await flockWithCycle({ token: admin });
    for (const [b, field] of [
      [{ category: 'feed', description: 'x', expectedBenefit: 'y' }, 'body.flockId'],
      [body(c.flock.id, { category: 'magic' }), 'body.category'],
      [body(c.flock.id, { description: '   ' }), 'body.description'],
      [body(c.flock.id, { expectedBenefit: 'y'.repeat(501) }), 'body.expectedBenefit'],
      [body(c.flock.id, { status: 'accepted' }), 'body.status'],
    ] as Array<[Record<string, unknown>, string]>) {
      const res = await call('POST', RECS, { token: admin, body: b });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    // a cycle that is not the flock's is a missing one
    const otherCycle = await call('POST', RECS, { token: admin, body: body(c.flock.id, { cycleId: '01JD3Y4Z9V6Q8K2M5N7P0R1S3T' }) });
    expect(otherCycle.status).toBe(404);
    expect(otherCycle.body).toEqual({ error: `Cycle 01JD3Y4Z9V6Q8K2M5N7P0R1S3T of flock ${c.flock.id} not found` });
    const manager = await userWith({ role: 'manager' });
    expect((await call('POST', RECS, { token: manager.token, body: body(c.flock.id) })).status).toBe(403);
    const list = await call('GET', RECS, { token: admin, query: { flockId: c.flock.id } });
    expect(list.body.data).toEqual([]);
  });

  it('lists per flock and per farm, newest first, with filters and pagination', async () => {
    const admin = await adminLogin();
    const c = await flockWithCycle({ token: admin });
    const ids: string[] = [];
    for (const category of ['feed', 'water', 'feed', 'health'])
      ids.push((await call('POST', RECS, { token: admin, body: body(c.flock.id, { category }) })).body.data.id);
    const all = await call('GET', RECS, { token: admin, query: { flockId: c.flock.id } });
    expect(all.body.data.map((r: { id: string }) => r.id)).toEqual([...ids].reverse());
    const feed = await call('GET', RECS, { token: admin, query: { flockId: c.flock.id, category: 'feed' } });
    expect(feed.body.data.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[0]]);
    const farm = await call('GET', RECS, { token: admin, query: { farmId: await defaultFarmId(), limit: '2' } });
    expect(farm.body.data).toHaveLength(2);
    const next = await call('GET', RECS, { token: admin, query: { farmId: await defaultFarmId(), limit: '100', cursor: farm.body.page.nextCursor } });
    const seen = [...farm.body.data, ...next.body.data].map((r: { id: string }) => r.id);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of ids) expect(seen).toContain(id);
    expect((await call('GET', RECS, { token: admin })).status).toBe(400); // admins see every farm: name one
  });

  it('accept and dismiss once; a second decision is 409; stale If-Match 412; audited', async () => {
    const admin = await adminLogin();
    const c = await flockWithCycle({ token: admin });
    const a = (await call('POST', RECS, { token: admin, body: body(c.flock.id) })).body.data;
    const b = (await call('POST', RECS, { token: admin, body: body(c.flock.id) })).body.data;
    const accepted = await call('PUT', `${RECS}/${a.id}/accept`, { token: admin, headers: { 'If-Match': '"1"' }, body: { note: 'from next week' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({ status: 'accepted', decisionNote: 'from next week', decidedBy: expect.any(String), version: 2 });
    expect((await call('PUT', `${RECS}/${a.id}/dismiss`, { token: admin, body: {} })).status).toBe(409);
    expect((await call('PUT', `${RECS}/${b.id}/dismiss`, { token: admin, headers: { 'If-Match': '"7"' }, body: {} })).status).toBe(412);
    const racers = await Promise.all([
      call('PUT', `${RECS}/${b.id}/dismiss`, { token: admin, body: {} }),
      call('PUT', `${RECS}/${b.id}/accept`, { token: admin, body: {} }),
    ]);
    expect(racers.map((r) => r.status).sort()).toEqual([200, 409]);
    const audit = await call('GET', '/api/v1/admin/audit', { token: admin, query: { targetId: a.id } });
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(['recommendation.accept', 'recommendation.create']);
    const open = await call('GET', RECS, { token: admin, query: { flockId: c.flock.id, status: 'open' } });
    expect(open.body.data).toEqual([]);
  });

  it('another farm’s recommendations are 404 and never listed', async () => {
    const admin = await adminLogin();
    const c = await flockWithCycle({ token: admin });
    const rec = (await call('POST', RECS, { token: admin, body: body(c.flock.id) })).body.data;
    const outsider = await userWith({ role: 'manager', farmIds: [await otherFarm()] });
    expect((await call('GET', `${RECS}/${rec.id}`, { token: outsider.token })).status).toBe(404);
    expect((await call('PUT', `${RECS}/${rec.id}/accept`, { token: outsider.token, body: {} })).status).toBe(404);
    expect((await call('GET', RECS, { token: outsider.token, query: { flockId: c.flock.id } })).status).toBe(404);
    const own = await call('GET', RECS, { token: outsider.token });
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual([]);
  });
});
