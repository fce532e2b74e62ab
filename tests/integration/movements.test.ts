import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { db, resetDbCalls, dbCalls, tableName } from '../../shared/db/client.js';
import { movementKey } from '../../shared/db/keys.js';

async function setup(opts: { birdType?: string; farmId?: string; token?: string } = {}) {
  const m = opts.token ? { token: opts.token } : await userWith({ role: 'manager' });
  const flock = (
    await call('POST', '/api/v1/flocks', {
      token: m.token,
      body: { name: 'Ledger', birdType: opts.birdType ?? 'broiler', hatchDate: '2026-11-01', ...(opts.farmId ? { farmId: opts.farmId } : {}) },
    })
  ).body.data;
  const cycle = (await call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token: m.token, body: { startDate: '2026-11-01' } })).body.data;
  const base = `/api/v1/flocks/${flock.id}/cycles/${cycle.id}`;
  const post = (body: Record<string, unknown>, headers?: Record<string, string>) => call('POST', `${base}/movements`, { token: m.token, body, headers });
  const summary = async () => (await call('GET', base, { token: m.token })).body.data;
  return { token: m.token, flock, cycle, base, post, summary };
}

describe('movement ledger', () => {
  it('a broiler week: every number of the summary equals what the movements imply', async () => {
    const c = await setup();
    const writes = [
      { type: 'bird_inflow', date: '2026-11-01', quantity: 1000, averageWeightGrams: 42 },
      { type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 500, unitPrice: 0.6 },
      { type: 'bird_mortality', date: '2026-11-02', quantity: 5, cause: 'heat' },
      { type: 'bird_mortality', date: '2026-11-03', quantity: 3 },
      { type: 'bird_cull', date: '2026-11-03', quantity: 2, reason: 'leg problems' },
      { type: 'feed_consumption', date: '2026-11-02', quantityKg: 120.5 },
      { type: 'water_consumption', date: '2026-11-02', liters: 210.25 },
      { type: 'vaccination', date: '2026-11-03', vaccine: 'Newcastle', method: 'spray' },
      { type: 'bird_sale', date: '2026-11-07', quantity: 100, totalWeightKg: 25 },
    ];
    for (const w of writes) expect((await c.post(w)).status, w.type).toBe(201);
    const s = await c.summary();
    expect(s.birds).toEqual({ placed: 1000, transferredIn: 0, deaths: 8, culls: 2, sold: 100, transferredOut: 0, alive: 890 });
    expect(s.feed).toEqual({ deliveredKg: 500, consumedKg: 120.5 });
    expect(s).toMatchObject({ waterLiters: 210.25, vaccinations: 1, movementCount: 9 });
    expect(s.kpis).toMatchObject({ mortalityPct: { value: 0.8, unit: '%' }, livabilityPct: { value: 99, unit: '%' } });
    expect(s.kpis.fcr).toMatchObject({ value: null, unit: 'kg/kg' });
    expect(s.kpis.fcr.reason).toMatch(/weighing/);
    const consumption = (await call('GET', `${c.base}/movements`, { token: c.token, query: { type: 'feed_consumption' } })).body.data;
    expect(consumption).toHaveLength(1);
    expect(consumption[0].feedType).toBe('starter');
    const week = await call('GET', `${c.base}/movements`, { token: c.token, query: { from: '2026-11-02', to: '2026-11-03' } });
    expect(week.body.data.map((m: { date: string }) => m.date)).toEqual(['2026-11-02', '2026-11-02', '2026-11-02', '2026-11-03', '2026-11-03', '2026-11-03']);
  });

  it('refuses a movement that would make a balance negative, naming it, and changes nothing', async () => {
    const c = await setup();
    await c.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 50 });
    const before = await c.summary();
    const tooMany = await c.post({ type: 'bird_mortality', date: '2026-11-02', quantity: 51 });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toBe(`Only 50 bird(s) alive in cycle ${c.cycle.id}; this movement needs 51 bird(s) alive. Balances never go negative`);
    const noFeed = await c.post({ type: 'feed_consumption', date: '2026-11-02', quantityKg: 1, feedType: 'grower' });
    expect(noFeed.status).toBe(409);
    expect(noFeed.body.error).toMatch(/^Only 0 kg of feed "grower" in stock on farm/);
    const noEggs = await c.post({ type: 'egg_sale', date: '2026-11-02', quantity: 10 });
    expect(noEggs.status).toBe(409);
    expect(noEggs.body.error).toMatch(new RegExp(`^Cycle ${c.cycle.id} has no eggs on hand`));
    const after = await c.summary();
    expect({ ...after, updatedAt: undefined }).toEqual({ ...before, updatedAt: undefined });
    expect((await call('GET', `${c.base}/movements`, { token: c.token })).body.data).toHaveLength(1);
  });

  it('40 concurrent writers on a balance of 20: exactly 20 accepted, the balance ends at 0', async () => {
    const c = await setup();
    await c.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 20 });
    const results = await Promise.all(Array.from({ length: 40 }, () => c.post({ type: 'bird_mortality', date: '2026-11-02', quantity: 1 })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    expect(results.filter((r) => r.status === 409)).toHaveLength(20);
    const s = await c.summary();
    expect(s.birds).toMatchObject({ placed: 20, deaths: 20, alive: 0 });
    expect(s.movementCount).toBe(21);
  });

  it('feed consumption needs a feed type when the farm stocks several', async () => {
    const farm = await otherFarm('Feed farm');
    const m = await userWith({ role: 'manager', farmIds: [farm] });
    const c = await setup({ farmId: farm, token: m.token });
    await c.post({ type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 100 });
    await c.post({ type: 'feed_delivery', date: '2026-11-01', feedType: 'grower', quantityKg: 100 });
    const res = await c.post({ type: 'feed_consumption', date: '2026-11-02', quantityKg: 10 });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'body.feedType', message: 'is required: the farm stocks grower, starter' }]);
  });

  it('validates each type by its own schema and names the fields', async () => {
    const c = await setup();
    const unknown = await c.post({ type: 'bird_teleport', date: '2026-11-01' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.some((d: { field: string }) => d.field === 'body.type')).toBe(true);
    const missing = await c.post({ type: 'feed_delivery', date: '2026-11-01', quantityKg: -5, extra: true });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual(
      expect.arrayContaining([
        { field: 'body.feedType', message: 'is required' },
        { field: 'body.quantityKg', message: 'must be > 0' },
        { field: 'body.extra', message: 'is not allowed' },
      ]),
    );
    expect((await c.post({ type: 'bird_inflow', date: 'yesterday', quantity: 1.5 })).body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'body.date',
      'body.quantity',
    ]);
  });

  it('retries with one Idempotency-Key store one record, also when they race; another body is 422', async () => {
    const c = await setup();
    await c.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 100 });
    const body = { type: 'bird_mortality', date: '2026-11-02', quantity: 3 };
    const key = { 'Idempotency-Key': 'retry-3f2a' };
    const racing = await Promise.all([1, 2, 3, 4, 5].map(() => c.post(body, key)));
    expect(racing.every((r) => r.status === 201)).toBe(true);
    expect(new Set(racing.map((r) => r.body.data.id)).size).toBe(1);
    expect(racing.filter((r) => r.headers['Idempotent-Replayed'] === 'true')).toHaveLength(4);
    const later = await c.post(body, key);
    expect(later.body.data.id).toBe(racing[0]!.body.data.id);
    expect((await c.summary()).birds.deaths).toBe(3);
    const other = await c.post({ ...body, quantity: 4 }, key);
    expect(other).toMatchObject({ status: 422, body: { error: 'Idempotency-Key was already used with a different request' } });
    expect((await c.post(body, { 'Idempotency-Key': 'bad key with spaces' })).status).toBe(400);
  });

  it('transfers move birds between two flocks’ active cycles in one transaction', async () => {
    const a = await setup();
    const b = await setup({ token: a.token });
    await a.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 100 });
    const out = await a.post({ type: 'bird_transfer_out', date: '2026-11-05', quantity: 30, counterpartFlockId: b.flock.id });
    expect(out.status).toBe(201);
    expect(out.body.data.transferId).toEqual(expect.any(String));
    expect((await a.summary()).birds).toMatchObject({ transferredOut: 30, alive: 70 });
    expect((await b.summary()).birds).toMatchObject({ transferredIn: 30, alive: 30 });
    const mirrored = (await call('GET', `${b.base}/movements`, { token: b.token })).body.data;
    expect(mirrored).toMatchObject([{ type: 'bird_transfer_in', counterpartFlockId: a.flock.id, transferId: out.body.data.transferId }]);
    const back = await b.post({ type: 'bird_transfer_out', date: '2026-11-06', quantity: 31, counterpartFlockId: a.flock.id });
    expect(back.status).toBe(409);
    expect((await a.summary()).birds.alive).toBe(70);
    expect((await a.post({ type: 'bird_transfer_in', date: '2026-11-06', quantity: 1, counterpartFlockId: a.flock.id })).status).toBe(400);
  });

  it('locks: manual lock and unlock with a reason, audited; closing the cycle locks automatically for good', async () => {
    const c = await setup();
    const m = (await c.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 10 })).body.data;
    const url = `${c.base}/movements/${m.id}`;
    expect(m.lock).toBeNull();
    const noReason = await call('PUT', `${url}/unlock`, { token: c.token, body: {} });
    expect(noReason).toMatchObject({ status: 400, body: { error: 'Validation failed', details: [{ field: 'body.reason', message: 'is required' }] } });
    const locked = await call('PUT', `${url}/lock`, { token: c.token, body: { reason: 'checked by supervisor' } });
    expect(locked.body.data.lock).toMatchObject({ type: 'manual', reason: 'checked by supervisor', byRole: 'manager' });
    expect((await call('PUT', `${url}/lock`, { token: c.token, body: { reason: 'again' } })).status).toBe(409);
    const unlocked = await call('PUT', `${url}/unlock`, { token: c.token, body: { reason: 'typo in quantity' } });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.data.lock).toBeNull();
    expect((await call('PUT', `${url}/unlock`, { token: c.token, body: { reason: 'again' } })).status).toBe(409);
    const audit = await call('GET', '/api/v1/admin/audit', { token: await adminLogin(), query: { targetId: m.id } });
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(['movement.unlock', 'movement.lock']);
    expect(audit.body.data[0].changes.reason).toBe('typo in quantity');

    await call('POST', `${c.base}/close`, { token: c.token, body: { endDate: '2026-11-21' } });
    const after = await call('GET', url, { token: c.token });
    expect(after.body.data.lock).toMatchObject({ type: 'automatic', reason: 'cycle closed' });
    const refused = await call('PUT', `${url}/unlock`, { token: c.token, body: { reason: 'please' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/automatic locks cannot be unlocked/);
    expect((await c.post({ type: 'bird_mortality', date: '2026-11-20', quantity: 1 })).status).toBe(409);
  });

  it('a movement older than the auto-lock period (72 h) is locked automatically', async () => {
    const c = await setup();
    const m = (await c.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 10 })).body.data;
    const old = new Date(Date.now() - 73 * 3600_000).toISOString();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: movementKey(c.cycle.id, m.id),
        UpdateExpression: 'SET createdAt = :t',
        ExpressionAttributeValues: { ':t': old },
      }),
    );
    const got = await call('GET', `${c.base}/movements/${m.id}`, { token: c.token });
    expect(got.body.data.lock).toMatchObject({ type: 'automatic', reason: 'older than 72 h' });
    expect((await call('PUT', `${c.base}/movements/${m.id}/unlock`, { token: c.token, body: { reason: 'x' } })).status).toBe(409);
  });

  it('another farm’s movements are 404 on every route', async () => {
    const farmA = await otherFarm('Mov A');
    const a = await userWith({ role: 'manager', farmIds: [farmA] });
    const b = await userWith({ role: 'manager', farmIds: [await otherFarm('Mov B')] });
    const c = await setup({ farmId: farmA, token: a.token });
    const m = (await c.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 10 })).body.data;
    for (const [method, path, body] of [
      ['GET', `${c.base}/movements`, undefined],
      ['POST', `${c.base}/movements`, { type: 'bird_mortality', date: '2026-11-02', quantity: 1 }],
      ['GET', `${c.base}/movements/${m.id}`, undefined],
      ['PUT', `${c.base}/movements/${m.id}/lock`, { reason: 'x' }],
      ['PUT', `${c.base}/movements/${m.id}/unlock`, { reason: 'x' }],
    ] as const) {
      const res = await call(method, path, { token: b.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await c.summary()).birds.alive).toBe(10);
  });

  it('a delivery names a supplier and an order of its own farm: another farm’s and made-up ids are refused alike (404), nothing written', async () => {
    const [farmA, farmB] = [await otherFarm('Deliveries A'), await otherFarm('Deliveries B')];
    const a = await userWith({ role: 'manager', farmIds: [farmA] });
    const b = await userWith({ role: 'manager', farmIds: [farmB] });
    const procure = async (token: string, farmId: string) => {
      const supplier = (await call('POST', '/api/v1/procurement/suppliers', { token, body: { name: 'Mill', kinds: ['feed', 'chicks'], farmIds: [farmId] } }))
        .body.data;
      const order = await call('POST', '/api/v1/procurement/orders', {
        token,
        body: {
          farmId,
          supplierId: supplier.id,
          expectedDate: '2026-11-05',
          lines: [{ itemKind: 'feed', feedType: 'starter', quantity: 100, unit: 'kg', unitPrice: 0.5 }],
        },
      });
      expect(order.status, order.raw).toBe(201);
      return { supplierId: supplier.id as string, orderId: order.body.data.id as string };
    };
    const [ofA, ofB] = [await procure(a.token, farmA), await procure(b.token, farmB)];
    const c = await setup({ farmId: farmB, token: b.token });
    const feed = { type: 'feed_delivery', date: '2026-11-02', feedType: 'starter', quantityKg: 1000 };
    const madeUp = '01JD3Y4Z9V6Q8K2M5N7P0R1S3T';
    for (const [body, id, what] of [
      [{ ...feed, supplierId: ofA.supplierId }, ofA.supplierId, 'Supplier'],
      [{ ...feed, supplierId: madeUp }, madeUp, 'Supplier'],
      [{ ...feed, orderId: ofA.orderId }, ofA.orderId, 'Purchase order'],
      [{ ...feed, orderId: 'made-up-order' }, 'made-up-order', 'Purchase order'],
      [{ type: 'bird_inflow', date: '2026-11-01', quantity: 100, supplierId: ofA.supplierId }, ofA.supplierId, 'Supplier'],
      [{ type: 'bird_inflow', date: '2026-11-01', quantity: 100, supplierId: 'S1' }, 'S1', 'Supplier'],
    ] as const) {
      const res = await c.post(body);
      expect(res.status, `${JSON.stringify(body)} ${res.raw}`).toBe(404);
      expect(res.body).toEqual({ error: `${what} ${id} not found` });
    }
    expect((await c.summary()).birds.placed).toBe(0);
    expect((await call('GET', `${c.base}/movements`, { token: b.token })).body.data).toEqual([]);
    // the farm's own supplier and order are taken; an order of another supplier than the one named is a 400
    const own = await c.post({ ...feed, ...ofB });
    expect(own.status, own.raw).toBe(201);
    expect(own.body.data).toMatchObject(ofB);
    const other = (await call('POST', '/api/v1/procurement/suppliers', { token: b.token, body: { name: 'Other mill', kinds: ['feed'], farmIds: [farmB] } }))
      .body.data;
    const mismatch = await c.post({ ...feed, supplierId: other.id, orderId: ofB.orderId });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.details).toEqual([{ field: 'body.orderId', message: `is an order with supplier ${ofB.supplierId}, not with supplierId ${other.id}` }]);
    // corrections are checked the same way
    const patched = await call('PATCH', `${c.base}/movements/${own.body.data.id}`, { token: b.token, body: { supplierId: ofA.supplierId, orderId: null } });
    expect(patched.status).toBe(404);
    expect(patched.body).toEqual({ error: `Supplier ${ofA.supplierId} not found` });
  });

  it('the cycle summary reads the same number of items after 10 and after 1,000 movements', async () => {
    const c = await setup();
    const callsForSummary = async () => {
      resetDbCalls();
      await c.summary();
      return { ...dbCalls };
    };
    const record = async (n: number) => {
      for (let i = 0; i < n; i += 20)
        await Promise.all(Array.from({ length: Math.min(20, n - i) }, () => c.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 1 })));
    };
    await record(10);
    const at10 = await callsForSummary();
    await record(990);
    const at1000 = await callsForSummary();
    expect(at1000).toEqual(at10);
    // the rate-limit counter (UpdateItem), the user load (BatchGetItem) and ONE data call: flock, cycle and
    // the analytics configuration in one BatchGetItem (the analytics' read; the configuration decides FCR's weight)
    expect(at10).toEqual({ UpdateItem: 1, BatchGetItem: 2 });
    expect((await c.summary()).birds.alive).toBe(1000);
  }, 120_000);
});

describe('input schemas', () => {
  it('lists every movement type with label, description, required and optional fields', async () => {
    const { token } = await userWith({ role: 'viewer' });
    const all = await call('GET', '/api/v1/inventory/input-schema', { token });
    expect(Object.keys(all.body.data)).toHaveLength(19);
    expect(all.body.data.medicine_delivery).toMatchObject({ type: 'medicine_delivery', requiredFields: ['date', 'product', 'quantity', 'unit'] });
    expect(all.body.data.bird_inflow).toMatchObject({ type: 'bird_inflow', label: 'Birds placed', requiredFields: ['date', 'quantity'] });
    expect(all.body.data.bird_inflow.optionalFields).toEqual(
      expect.arrayContaining(['breed', 'source', 'supplierId', 'unitCost', 'averageWeightGrams', 'notes']),
    );
    expect(all.body.data.feed_delivery.requiredFields).toEqual(['date', 'feedType', 'quantityKg']);
    const one = await call('GET', '/api/v1/inventory/input-schema/egg_collection', { token });
    expect(one.body.data).toMatchObject({ type: 'egg_collection', label: 'Eggs collected', requiredFields: ['date', 'totalEggs'] });
    expect(one.body.data.description).toBeUndefined();
    const unknown = await call('GET', '/api/v1/inventory/input-schema/bird_teleport', { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/^Unknown movement type "bird_teleport"/);
  });
});

describe('editing and deleting movements', () => {
  it('corrects an unlocked movement: counters move by the net change; the type cannot change', async () => {
    const c = await setup();
    await c.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 100 });
    const m = (await c.post({ type: 'bird_mortality', date: '2026-11-02', quantity: 5, cause: 'heat' })).body.data;
    const url = `${c.base}/movements/${m.id}`;
    const fixed = await call('PATCH', url, { token: c.token, headers: { 'If-Match': '"1"' }, body: { quantity: 7, cause: null } });
    expect(fixed.status).toBe(200);
    expect(fixed.body.data).toMatchObject({ quantity: 7, version: 2 });
    expect(fixed.body.data.cause).toBeUndefined();
    expect((await c.summary()).birds).toMatchObject({ deaths: 7, alive: 93 });
    expect((await call('PATCH', url, { token: c.token, headers: { 'If-Match': '"1"' }, body: { quantity: 8 } })).status).toBe(412);
    expect((await call('PATCH', url, { token: c.token, body: { type: 'bird_cull' } })).body.details).toEqual([
      { field: 'body.type', message: 'cannot be changed' },
    ]);
    expect((await call('PATCH', url, { token: c.token, body: { quantity: -1 } })).body.details).toEqual([{ field: 'body.quantity', message: 'must be >= 1' }]);
    const tooMany = await call('PATCH', url, { token: c.token, body: { quantity: 101 } });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toMatch(/^Only 93 bird\(s\) alive/);
    expect((await c.summary()).birds.deaths).toBe(7);
  });

  it('a movement is read and written with the same flat fields: what a GET answers goes back as it is', async () => {
    const c = await setup();
    const supplier = await call('POST', '/api/v1/procurement/suppliers', {
      token: c.token,
      body: { name: 'Mill', kinds: ['feed'], farmIds: [c.flock.farmId] },
    });
    const supplierId = supplier.body.data.id;
    const created = await c.post({ type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 500, supplierId });
    const url = `${c.base}/movements/${created.body.data.id}`;
    const read = await call('GET', url, { token: c.token });
    expect(read.body.data).toEqual({
      id: created.body.data.id,
      flockId: c.flock.id,
      cycleId: c.cycle.id,
      farmId: c.flock.farmId,
      type: 'feed_delivery',
      date: '2026-11-01',
      feedType: 'starter',
      quantityKg: 500,
      supplierId,
      lock: null,
      createdAt: expect.any(String),
      createdBy: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
    expect(read.body.data).toEqual(created.body.data);

    // the object read, minus its read-only metadata, with one change: `type` and `version` go back as read
    const READ_ONLY = ['id', 'flockId', 'cycleId', 'farmId', 'lock', 'createdAt', 'createdBy', 'updatedAt'];
    const writableOf = (m: Record<string, unknown>) => Object.fromEntries(Object.entries(m).filter(([k]) => !READ_ONLY.includes(k)));
    const back = await call('PATCH', url, { token: c.token, body: { ...writableOf(read.body.data), quantityKg: 550 } });
    expect(back.status, back.raw).toBe(200);
    expect(back.body.data).toEqual({ ...read.body.data, quantityKg: 550, updatedAt: expect.any(String), version: 2 });
    expect((await c.summary()).feed.deliveredKg).toBe(550);
    // sent back as read, plus a service field it does not have as null (absent): no change but the version
    const again = await call('PATCH', url, { token: c.token, body: { ...writableOf(back.body.data), transferId: null } });
    expect(again.status, again.raw).toBe(200);
    expect(again.body.data).toEqual({ ...back.body.data, updatedAt: expect.any(String), version: 3 });
    const current = writableOf(again.body.data);

    // a different type, or a service field it does not have, is refused naming it; nothing changes
    const retyped = await call('PATCH', url, { token: c.token, body: { ...current, type: 'feed_consumption' } });
    expect(retyped.status).toBe(400);
    expect(retyped.body.details).toEqual([{ field: 'body.type', message: 'cannot be changed' }]);
    const linked = await call('PATCH', url, { token: c.token, body: { ...current, dailyRecordDate: '2026-11-01' } });
    expect(linked.status).toBe(400);
    expect(linked.body.details).toEqual([{ field: 'body.dailyRecordDate', message: 'cannot be changed' }]);
    // the read-only metadata stays refused (mass-assignment guard), each named where it was sent, `lock: null` too
    const whole = await call('PATCH', url, { token: c.token, body: again.body.data });
    expect(whole.status).toBe(400);
    expect(whole.body.details).toEqual(READ_ONLY.map((k) => ({ field: `body.${k}`, message: 'is not allowed' })));
    expect((await call('GET', url, { token: c.token })).body.data).toEqual(again.body.data);

    // a transfer read back: its service fields unchanged pass the field check (then a transfer is never edited: 409);
    // its transferId changed is a 400 naming it
    const b = await setup({ token: c.token });
    await c.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 100 });
    const out = (await c.post({ type: 'bird_transfer_out', date: '2026-11-05', quantity: 30, counterpartFlockId: b.flock.id })).body.data;
    expect(out).toMatchObject({ transferId: expect.any(String), counterpartCycleId: b.cycle.id, counterpartMovementId: expect.any(String) });
    const transfer = writableOf(out);
    const transferUrl = `${c.base}/movements/${out.id}`;
    const unchanged = await call('PATCH', transferUrl, { token: c.token, body: transfer });
    expect(unchanged.status).toBe(409);
    expect(unchanged.body.error).toMatch(/^A transfer changes two flocks/);
    const moved = await call('PATCH', transferUrl, { token: c.token, body: { ...transfer, transferId: 'another-transfer' } });
    expect(moved.status).toBe(400);
    expect(moved.body.details).toEqual([{ field: 'body.transferId', message: 'cannot be changed' }]);
    expect((await call('GET', transferUrl, { token: c.token })).body.data).toEqual(out);
  });

  it('deletes an unlocked movement and reverses it; a locked one stays', async () => {
    const c = await setup();
    const inflow = (await c.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 10 })).body.data;
    const dead = (await c.post({ type: 'bird_mortality', date: '2026-11-02', quantity: 4 })).body.data;
    expect((await call('DELETE', `${c.base}/movements/${inflow.id}`, { token: c.token })).status).toBe(409); // 4 dead need 4 placed
    expect((await call('DELETE', `${c.base}/movements/${dead.id}`, { token: c.token })).status).toBe(204);
    expect((await c.summary()).birds).toMatchObject({ deaths: 0, alive: 10 });
    await call('PUT', `${c.base}/movements/${inflow.id}/lock`, { token: c.token, body: { reason: 'audited' } });
    const locked = await call('DELETE', `${c.base}/movements/${inflow.id}`, { token: c.token });
    expect(locked.status).toBe(409);
    expect(locked.body.error).toMatch(/is locked \(manual: audited\); unlock it first/);
    expect((await call('PATCH', `${c.base}/movements/${inflow.id}`, { token: c.token, body: { quantity: 11 } })).status).toBe(409);
    expect((await call('GET', `${c.base}/movements/${dead.id}`, { token: c.token })).status).toBe(404);
  });

  it('deleting one side of a transfer removes both and restores both flocks', async () => {
    const a = await setup();
    const b = await setup({ token: a.token });
    await a.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 50 });
    const out = (await a.post({ type: 'bird_transfer_out', date: '2026-11-03', quantity: 20, counterpartFlockId: b.flock.id })).body.data;
    expect((await call('PATCH', `${a.base}/movements/${out.id}`, { token: a.token, body: { quantity: 10 } })).status).toBe(409);
    expect((await call('DELETE', `${a.base}/movements/${out.id}`, { token: a.token })).status).toBe(204);
    expect((await a.summary()).birds).toMatchObject({ transferredOut: 0, alive: 50 });
    expect((await b.summary()).birds).toMatchObject({ transferredIn: 0, alive: 0 });
    expect((await call('GET', `${b.base}/movements`, { token: b.token })).body.data).toEqual([]);
  });
});
