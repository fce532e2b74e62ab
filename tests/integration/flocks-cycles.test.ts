import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { defaultFarmId, house, otherFarm } from '../support/farms.js';
import { day, flockWithCycle } from '../support/cycles.js';

async function manager(farmIds?: string[]) {
  return userWith({ role: 'manager', ...(farmIds ? { farmIds } : {}) });
}

describe('flocks', () => {
  it('creates a flock in the default farm, reads, lists and updates it with optimistic concurrency', async () => {
    const m = await manager();
    const farmId = await defaultFarmId();
    const houseId = await house(farmId);
    const created = await call('POST', '/api/v1/flocks', {
      token: m.token,
      body: { name: ' Barn A broilers ', birdType: 'broiler', breed: 'Ross 308', houseId, hatchDate: '2026-11-01', source: 'Hatchery X' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Barn A broilers',
      farmId,
      houseId,
      birdType: 'broiler',
      status: 'active',
      activeCycleId: null,
      version: 1,
    });
    const id = created.body.data.id;
    const got = await call('GET', `/api/v1/flocks/${id}`, { token: m.token });
    expect(got.body.data).toEqual(created.body.data);
    const listed = await call('GET', '/api/v1/flocks', { token: m.token, query: { birdType: 'broiler' } });
    expect(listed.body.data.map((f: { id: string }) => f.id)).toContain(id);
    expect((await call('PATCH', `/api/v1/flocks/${id}`, { token: m.token, headers: { 'If-Match': '"9"' }, body: { name: 'X' } })).status).toBe(412);
    const patched = await call('PATCH', `/api/v1/flocks/${id}`, { token: m.token, body: { name: 'Renamed', version: 1 } });
    expect(patched.body.data).toMatchObject({ name: 'Renamed', version: 2 });
    expect((await call('PATCH', `/api/v1/flocks/${id}`, { token: m.token, body: { birdType: 'layer' } })).body.details).toEqual([
      { field: 'body.birdType', message: 'is not allowed' },
    ]);
  });

  it('validates bird type, dates, unknown farms and houses', async () => {
    const m = await manager();
    const bad = await call('POST', '/api/v1/flocks', { token: m.token, body: { name: '', birdType: 'duck', hatchDate: '2026-13-40' } });
    expect(bad.status).toBe(400);
    expect([...new Set(bad.body.details.map((d: { field: string }) => d.field))].sort()).toEqual(['body.birdType', 'body.hatchDate', 'body.name']);
    // an id a body names that is not of the caller's farm is a missing record: 404 naming it
    const unknownHouse = await call('POST', '/api/v1/flocks', { token: m.token, body: { name: 'F', birdType: 'layer', houseId: 'NOPE' } });
    expect(unknownHouse.status).toBe(404);
    expect(unknownHouse.body).toEqual({ error: 'House NOPE not found' });
  });

  it('workers and viewers cannot create flocks', async () => {
    const w = await userWith({ role: 'worker' });
    const res = await call('POST', '/api/v1/flocks', { token: w.token, body: { name: 'F', birdType: 'layer' } });
    expect(res).toMatchObject({ status: 403, body: { error: 'Missing capability: manage_flocks' } });
  });

  it('another farm’s flock is 404 on every route and never listed', async () => {
    const farmA = await otherFarm('Farm A');
    const farmB = await otherFarm('Farm B');
    const a = await manager([farmA]);
    const b = await manager([farmB]);
    const flock = (await call('POST', '/api/v1/flocks', { token: a.token, body: { name: 'A flock', birdType: 'layer', farmId: farmA } })).body.data;
    const cycle = (await call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token: a.token, body: { startDate: '2026-11-01' } })).body.data;
    const notFound = { error: `Flock ${flock.id} not found` };
    expect(await call('GET', `/api/v1/flocks/${flock.id}`, { token: b.token })).toMatchObject({ status: 404, body: notFound });
    expect(await call('PATCH', `/api/v1/flocks/${flock.id}`, { token: b.token, body: { name: 'mine' } })).toMatchObject({ status: 404, body: notFound });
    expect(await call('DELETE', `/api/v1/flocks/${flock.id}`, { token: b.token })).toMatchObject({ status: 404 });
    expect(await call('GET', `/api/v1/flocks/${flock.id}/cycles`, { token: b.token })).toMatchObject({ status: 404 });
    expect(await call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token: b.token, body: { startDate: '2026-11-02' } })).toMatchObject({ status: 404 });
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PATCH', '', { name: 'x' }],
      ['POST', '/close', {}],
    ] as const) {
      const res = await call(method, `/api/v1/flocks/${flock.id}/cycles/${cycle.id}${suffix}`, { token: b.token, body });
      expect(res.status, `${method} cycle${suffix}`).toBe(404);
    }
    // a farm named in a body is checked like one in a path: another farm's answers as a missing one
    const sneaky = await call('POST', '/api/v1/flocks', { token: b.token, body: { name: 'sneaky', birdType: 'layer', farmId: farmA } });
    expect(sneaky.status).toBe(404);
    expect(sneaky.body).toEqual({ error: `Farm ${farmA} not found` });
    expect((await call('GET', '/api/v1/flocks', { token: b.token, query: { farmId: farmA } })).status).toBe(404);
    const listB = await call('GET', '/api/v1/flocks', { token: b.token, query: { limit: '100' } });
    expect(listB.body.data.map((f: { id: string }) => f.id)).not.toContain(flock.id);
    const listAdmin = await call('GET', '/api/v1/flocks', { token: await adminLogin(), query: { limit: '100', farmId: farmA } });
    expect(listAdmin.body.data.map((f: { id: string }) => f.id)).toEqual([flock.id]);
  });

  it('lists across several farms page by page with a cursor', async () => {
    const [f1, f2] = [await otherFarm('P1'), await otherFarm('P2')];
    const m = await manager([f1, f2]);
    for (const farmId of [f1, f1, f2, f2, f2])
      await call('POST', '/api/v1/flocks', { token: m.token, body: { name: `F ${farmId.slice(-4)}`, birdType: 'broiler', farmId } });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call('GET', '/api/v1/flocks', { token: m.token, query: { limit: '2', ...(cursor ? { cursor } : {}) } });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((f: { id: string }) => f.id));
      cursor = page.body.page.nextCursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(5);
    expect(seen).toHaveLength(5);
  });
});

describe('cycles', () => {
  it('one active cycle per flock, also under concurrent starts; close frees the flock; archive waits for close', async () => {
    const m = await manager();
    const flock = (await call('POST', '/api/v1/flocks', { token: m.token, body: { name: 'C', birdType: 'broiler', hatchDate: '2026-11-01' } })).body.data;
    const starts = await Promise.all(
      [1, 2, 3, 4].map(() => call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token: m.token, body: { startDate: '2026-11-01' } })),
    );
    expect(starts.map((s) => s.status).sort()).toEqual([201, 409, 409, 409]);
    const cycle = starts.find((s) => s.status === 201)!.body.data;
    expect(cycle).toMatchObject({
      status: 'active',
      birds: { placed: 0, alive: 0 },
      kpis: {
        mortalityPct: { value: null, unit: '%', reason: 'no birds placed yet' },
        livabilityPct: { value: null, unit: '%', reason: 'no birds placed yet' },
        fcr: { value: null, unit: 'kg/kg', reason: 'no birds placed yet' },
        epef: { value: null, unit: 'index', reason: 'no birds placed yet' },
      },
    });
    expect((await call('GET', `/api/v1/flocks/${flock.id}`, { token: m.token })).body.data.activeCycleId).toBe(cycle.id);
    expect((await call('DELETE', `/api/v1/flocks/${flock.id}`, { token: m.token })).status).toBe(409);

    const early = await call('POST', `/api/v1/flocks/${flock.id}/cycles/${cycle.id}/close`, { token: m.token, body: { endDate: '2026-10-01' } });
    expect(early.body.details[0].field).toBe('body.endDate');
    // a date within the bounds a person may type (a year ahead), but in the future
    const future = await call('POST', `/api/v1/flocks/${flock.id}/cycles/${cycle.id}/close`, { token: m.token, body: { endDate: day(30) } });
    expect(future.status).toBe(400);
    expect(future.body.details[0]).toEqual({ field: 'body.endDate', message: 'must not be in the future' });
    const closed = await call('POST', `/api/v1/flocks/${flock.id}/cycles/${cycle.id}/close`, {
      token: m.token,
      body: { endDate: '2026-11-20', reason: 'shipped' },
    });
    expect(closed.body.data).toMatchObject({ status: 'closed', endDate: '2026-11-20', ageDays: 19 });
    expect((await call('POST', `/api/v1/flocks/${flock.id}/cycles/${cycle.id}/close`, { token: m.token, body: {} })).status).toBe(409);
    expect((await call('GET', `/api/v1/flocks/${flock.id}`, { token: m.token })).body.data.activeCycleId).toBeNull();
    const second = await call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token: m.token, body: { startDate: '2026-11-21' } });
    expect(second.status).toBe(201);
    const cycles = await call('GET', `/api/v1/flocks/${flock.id}/cycles`, { token: m.token });
    expect(cycles.body.data.map((c: { id: string }) => c.id)).toEqual([second.body.data.id, cycle.id]);
    expect(
      (await call('POST', `/api/v1/flocks/${flock.id}/cycles/${second.body.data.id}/close`, { token: m.token, body: { endDate: '2026-11-21' } })).status,
    ).toBe(200);
    expect((await call('DELETE', `/api/v1/flocks/${flock.id}`, { token: m.token })).status).toBe(204);
    expect((await call('GET', `/api/v1/flocks/${flock.id}`, { token: m.token })).body.data.status).toBe('archived');
    expect((await call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token: m.token, body: { startDate: '2027-01-01' } })).status).toBe(409);
  });

  it('updates a cycle’s targets with a version check and audits it', async () => {
    const m = await manager();
    const flock = (await call('POST', '/api/v1/flocks', { token: m.token, body: { name: 'T', birdType: 'layer' } })).body.data;
    const cycle = (await call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token: m.token, body: { startDate: '2026-11-01' } })).body.data;
    const res = await call('PATCH', `/api/v1/flocks/${flock.id}/cycles/${cycle.id}`, {
      token: m.token,
      headers: { 'If-Match': '"1"' },
      body: { targetAgeDays: 500, name: 'Laying 1' },
    });
    expect(res.body.data).toMatchObject({ targetAgeDays: 500, name: 'Laying 1', version: 2 });
    expect(res.headers.ETag).toBe('"2"');
    expect((await call('PATCH', `/api/v1/flocks/${flock.id}/cycles/${cycle.id}`, { token: m.token, body: { alive: 5 } })).status).toBe(400);
  });
});

describe('idempotent creates', () => {
  it('retried creates of a farm, a house, a flock and a cycle with one Idempotency-Key each write once, also when they race', async () => {
    const m = await manager();
    const key = (k: string) => ({ 'Idempotency-Key': `${k}-${m.id}` });
    const race = async (path: string, body: Record<string, unknown>, k: string) => {
      const results = await Promise.all([1, 2, 3].map(() => call('POST', path, { token: m.token, body, headers: key(k) })));
      expect(results.map((r) => `${r.status} ${r.body.error ?? ''}`)).toEqual(['201 ', '201 ', '201 ']);
      expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
      expect(results.filter((r) => r.headers['Idempotent-Replayed'] === 'true')).toHaveLength(2);
      return results[0]!.body.data;
    };
    const farm = await race('/api/v1/config/farms', { name: 'Idempotent farm' }, 'farm');
    const house = await race(`/api/v1/config/farms/${farm.id}/houses`, { name: 'H1', usableAreaM2: 500, capacity: 8000 }, 'house');
    const flock = await race('/api/v1/flocks', { name: 'Once', birdType: 'broiler', farmId: farm.id, houseId: house.id }, 'flock');
    const cycle = await race(`/api/v1/flocks/${flock.id}/cycles`, { startDate: '2026-11-01' }, 'cycle');
    expect((await call('GET', `/api/v1/flocks/${flock.id}`, { token: m.token })).body.data.activeCycleId).toBe(cycle.id);
    const flocks = await call('GET', '/api/v1/flocks', { token: m.token, query: { farmId: farm.id } });
    expect(flocks.body.data).toHaveLength(1);
    const other = await call('POST', '/api/v1/flocks', {
      token: m.token,
      body: { name: 'Different', birdType: 'layer', farmId: farm.id },
      headers: key('flock'),
    });
    expect(other.status).toBe(422);
  });
});

describe('one KPI, one Figure (docs/analytics.md § Figures)', () => {
  it('the cycle summary and the flock history answer the same Figures as /api/v2/analytics for the same cycle', async () => {
    const c = await flockWithCycle({ breed: 'Ross 308', startDate: day(-21) });
    await c.move({ type: 'bird_inflow', date: day(-21), quantity: 1000 });
    await c.move({ type: 'feed_delivery', date: day(-21), feedType: 'starter', quantityKg: 2000 });
    await c.move({ type: 'feed_consumption', date: day(-10), quantityKg: 600 });
    await c.move({ type: 'feed_consumption', date: day(0), quantityKg: 300 });
    await c.move({ type: 'bird_mortality', date: day(-5), quantity: 12, cause: 'heat' });
    const weighing = await call('POST', `${c.base}/weights`, { token: c.token, body: { date: day(0), grams: 800 } });
    expect(weighing.status, JSON.stringify(weighing.body)).toBe(201);

    const summary = (await call('GET', c.base, { token: c.token })).body.data.kpis;
    const analytics = (await call('GET', `/api/v2/analytics/cycle/${c.flock.id}/${c.cycle.id}`, { token: c.token })).body.data.kpis;
    const history = (await call('GET', `/api/v1/flock-analytics/${c.flock.id}`, { token: c.token })).body.data.cycles[0].kpis;
    // mortality 12 ÷ 1,000 = 1.2 %; livability 988 ÷ 1,000 = 98.8 %; FCR 900 ÷ (988 × 0.8) = 1.139;
    // EPEF 98.8 × 0.8 × 100 ÷ (21 days × 1.13866) = 331
    expect(summary).toEqual({
      mortalityPct: { value: 1.2, unit: '%' },
      livabilityPct: { value: 98.8, unit: '%' },
      fcr: { value: 1.139, unit: 'kg/kg' },
      epef: { value: 331, unit: 'index' },
    });
    for (const kpi of ['mortalityPct', 'livabilityPct', 'fcr', 'epef'] as const) {
      expect(analytics[kpi], `analytics ${kpi}`).toEqual(summary[kpi]);
      expect(history[kpi], `flock history ${kpi}`).toEqual(summary[kpi]);
    }
  });

  it('with a weighing older than fallbacks.carryForwardWeightDays the three routes take the same weight (null, then the breed standard)', async () => {
    // an open Ross 308 cycle placed 30 days ago, weighed 12 days ago (more than the default 7 days before the series end, today)
    const c = await flockWithCycle({ breed: 'Ross 308', startDate: day(-30) });
    await c.move({ type: 'bird_inflow', date: day(-30), quantity: 1000 });
    await c.move({ type: 'feed_delivery', date: day(-30), feedType: 'starter', quantityKg: 3000 });
    await c.move({ type: 'feed_consumption', date: day(-15), quantityKg: 900 });
    await c.move({ type: 'feed_consumption', date: day(0), quantityKg: 700 });
    await c.move({ type: 'bird_mortality', date: day(-5), quantity: 20, cause: 'heat' });
    const weighing = await call('POST', `${c.base}/weights`, { token: c.token, body: { date: day(-12), grams: 700 } });
    expect(weighing.status, JSON.stringify(weighing.body)).toBe(201);
    const read = async () => ({
      summary: (await call('GET', c.base, { token: c.token })).body.data.kpis,
      analytics: (await call('GET', `/api/v2/analytics/cycle/${c.flock.id}/${c.cycle.id}`, { token: c.token })).body.data.kpis,
      history: (await call('GET', `/api/v1/flock-analytics/${c.flock.id}`, { token: c.token })).body.data.cycles[0].kpis,
    });
    const agree = (r: Awaited<ReturnType<typeof read>>) => {
      for (const kpi of ['mortalityPct', 'livabilityPct', 'fcr', 'epef'] as const) {
        expect(r.analytics[kpi], `analytics ${kpi}`).toEqual(r.summary[kpi]);
        expect(r.history[kpi], `flock history ${kpi}`).toEqual(r.summary[kpi]);
      }
    };
    const stale = `the latest weighing (${day(-12)}) is 12 days old, more than fallbacks.carryForwardWeightDays (7)`;

    // defaults (weightFromBreedStandard false): no body weight, on every route, with the same reason
    const before = await read();
    expect(before.summary.fcr).toEqual({ value: null, unit: 'kg/kg', reason: `no body weight: ${stale}` });
    expect(before.summary.epef).toEqual({ value: null, unit: 'index', reason: `no body weight: ${stale}` });
    agree(before);

    // weightFromBreedStandard: the Ross 308 standard at day 30 stands in, on every route, said so the same way
    const admin = await adminLogin();
    const put = await call('PUT', '/api/v1/config/analytics', { token: admin, body: { fallbacks: { weightFromBreedStandard: true } } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const after = await read();
    const assumption = expect.stringMatching(/standard weight at day 30 .*stands in \(fallbacks\.weightFromBreedStandard\)$/);
    expect(after.summary.fcr).toEqual({ value: expect.any(Number), unit: 'kg/kg', assumptions: [assumption] });
    expect(after.summary.fcr.assumptions[0]).toMatch(new RegExp(`^${stale.replace(/[()]/g, '\\$&')}: Ross 308 standard weight at day 30`));
    expect(after.summary.epef).toEqual({ value: expect.any(Number), unit: 'index', assumptions: after.summary.fcr.assumptions });
    agree(after);
  });
});
