import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulidx';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { db, dbCalls, resetDbCalls, tableName } from '../../shared/db/client.js';
import { movementKey, movementsOfCycle, movementsOfFarm } from '../../shared/db/keys.js';
import { MOVEMENT_CSV_COLUMNS, parseCsv } from '../../shared/presentation/csv.js';

/** A farm of its own with a manager assigned to it; flocks with an active cycle each, built through the API. */
async function setup(name = 'Inventory farm') {
  const farm = await otherFarm(name);
  const manager = await userWith({ role: 'manager', farmIds: [farm] });
  const token = manager.token;
  async function flock(flockName: string, opts: { birdType?: string; cycle?: boolean } = {}) {
    const created = await call('POST', '/api/v1/flocks', {
      token,
      body: { name: flockName, birdType: opts.birdType ?? 'layer', farmId: farm, hatchDate: '2026-10-01' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const f = created.body.data;
    if (opts.cycle === false) return { flock: f, cycle: undefined, base: '', post: async () => Promise.reject(new Error('no cycle')) };
    const cycle = (await call('POST', `/api/v1/flocks/${f.id}/cycles`, { token, body: { startDate: '2026-11-01' } })).body.data;
    const base = `/api/v1/flocks/${f.id}/cycles/${cycle.id}`;
    const post = async (body: Record<string, unknown>) => {
      const res = await call('POST', `${base}/movements`, { token, body });
      expect(res.status, `${body.type}: ${JSON.stringify(res.body)}`).toBe(201);
      return res.body.data;
    };
    return { flock: f, cycle, base, post };
  }
  const get = (path: string, query: Record<string, string> = {}, as = token) => call('GET', `/api/v1/inventory/${path}`, { token: as, query });
  return { farm, token, flock, get };
}

/** Every page of a search, following nextCursor. */
async function allPages(get: (q: Record<string, string>) => Promise<{ status: number; body: any }>, query: Record<string, string>) {
  const items: any[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const res = await get({ ...query, ...(cursor ? { cursor } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    items.push(...res.body.data);
    sizes.push(res.body.data.length);
    cursor = res.body.page.nextCursor ?? undefined;
    if (!cursor) return { items, sizes };
  }
  throw new Error('too many pages');
}

describe('inventory: stock', () => {
  it('every stock number equals what the movements imply', async () => {
    const s = await setup('Stock farm');
    const a = await s.flock('A Layers');
    const b = await s.flock('B Layers');
    const idle = await s.flock('C Empty', { cycle: false });
    const gone = await s.flock('D Archived', { cycle: false });
    expect((await call('DELETE', `/api/v1/flocks/${gone.flock.id}`, { token: s.token })).status).toBe(204);
    const closed = await s.flock('E Closed');
    await closed.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 70 });
    expect((await call('POST', `${closed.base}/close`, { token: s.token, body: { endDate: '2026-11-20' } })).status).toBe(200);

    await a.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 500 });
    await a.post({ type: 'bird_mortality', date: '2026-11-02', quantity: 7, cause: 'heat' });
    await a.post({ type: 'bird_cull', date: '2026-11-03', quantity: 3 });
    await a.post({ type: 'bird_sale', date: '2026-11-10', quantity: 40 });
    await b.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 300 });
    await b.post({ type: 'bird_mortality', date: '2026-11-02', quantity: 2 });
    await b.post({ type: 'bird_transfer_out', date: '2026-11-04', quantity: 50, counterpartFlockId: a.flock.id });
    await a.post({ type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 1000 });
    await b.post({ type: 'feed_delivery', date: '2026-11-01', feedType: 'grower', quantityKg: 400.25 });
    await a.post({ type: 'feed_consumption', date: '2026-11-02', feedType: 'starter', quantityKg: 120.5 });
    await b.post({ type: 'feed_consumption', date: '2026-11-02', feedType: 'grower', quantityKg: 100 });
    await b.post({ type: 'feed_consumption', date: '2026-11-03', feedType: 'starter', quantityKg: 30.1 });
    await a.post({ type: 'egg_collection', date: '2026-11-05', totalEggs: 1200, grades: { L: 700, M: 300 } });
    await b.post({ type: 'egg_collection', date: '2026-11-05', totalEggs: 800, cracked: 10 });
    await a.post({ type: 'egg_sale', date: '2026-11-06', quantity: 500, grade: 'L' });
    await b.post({ type: 'egg_loss', date: '2026-11-06', quantity: 25 });

    const res = await s.get('stock'); // the manager's only farm: farmId may be omitted
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stock = res.body.data;
    expect(stock.farmId).toBe(s.farm);
    expect(Date.parse(stock.asOf)).toBeGreaterThan(Date.now() - 60_000);
    expect(stock.birds.flocks).toEqual([
      {
        flockId: a.flock.id,
        name: 'A Layers',
        birdType: 'layer',
        houseId: null,
        cycleId: a.cycle.id,
        cycleStartDate: '2026-11-01',
        placed: 500,
        alive: 500 - 7 - 3 - 40 + 50,
      },
      {
        flockId: b.flock.id,
        name: 'B Layers',
        birdType: 'layer',
        houseId: null,
        cycleId: b.cycle.id,
        cycleStartDate: '2026-11-01',
        placed: 300,
        alive: 300 - 2 - 50,
      },
      { flockId: idle.flock.id, name: 'C Empty', birdType: 'layer', houseId: null, cycleId: null, cycleStartDate: null, placed: 0, alive: 0 },
      { flockId: closed.flock.id, name: 'E Closed', birdType: 'layer', houseId: null, cycleId: null, cycleStartDate: null, placed: 0, alive: 0 },
    ]);
    expect(stock.birds.total).toBe(500 + 248);
    expect(stock.feed).toEqual({
      totalKg: 1149.65,
      byType: [
        { feedType: 'grower', kg: 300.25, shortfalls: [] },
        { feedType: 'starter', kg: 849.4, shortfalls: [] },
      ],
    });
    // the stock follows grades: 700 L and 300 M graded, 500 L sold; the rest ungraded
    expect(stock.eggs).toEqual({ count: 1200 + 800 - 500 - 25, byGrade: { L: 200, M: 300 }, ungraded: 200 + 800 - 25, shortfalls: [] });
    // The same numbers as the cycle summaries the ledger keeps.
    for (const f of [a, b]) {
      const summary = (await call('GET', f.base, { token: s.token })).body.data;
      expect(stock.birds.flocks.find((x: { flockId: string }) => x.flockId === f.flock.id)).toMatchObject({
        alive: summary.birds.alive,
        placed: summary.birds.placed,
      });
    }
    // Explicit farmId gives the same answer.
    const explicit = await s.get('stock', { farmId: s.farm });
    expect({ ...explicit.body.data, asOf: null }).toEqual({ ...stock, asOf: null });
  });

  it('a farm without flocks or stock answers zeros', async () => {
    const s = await setup('Empty farm');
    const res = await s.get('stock', { farmId: s.farm });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ farmId: s.farm, birds: { total: 0, flocks: [] }, feed: { totalKg: 0, byType: [] }, eggs: { count: 0 } });
  });

  it('reads a constant number of items: the same DynamoDB calls for 1 and for 3 flocks', async () => {
    const s = await setup('Counting farm');
    const first = await s.flock('One');
    await first.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 10 });
    await first.post({ type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 10 });
    const calls = async () => {
      resetDbCalls();
      const res = await s.get('stock');
      expect(res.status).toBe(200);
      return { calls: { ...dbCalls }, flocks: res.body.data.birds.flocks.length };
    };
    const one = await calls();
    for (const n of ['Two', 'Three']) {
      const f = await s.flock(n);
      await f.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 10 });
      await f.post({ type: 'feed_delivery', date: '2026-11-01', feedType: `feed-${n}`, quantityKg: 5 });
    }
    const three = await calls();
    expect([one.flocks, three.flocks]).toEqual([1, 3]);
    expect(three.calls).toEqual(one.calls);
    // Data calls: Query flocks + Query stock + BatchGet (farm + active cycles); the other BatchGet loads the caller,
    // the one UpdateItem counts the general and the `date` rate limits (one counter item).
    expect(one.calls).toEqual({ UpdateItem: 1, BatchGetItem: 2, Query: 2 });
  });
});

describe('inventory: movement search', () => {
  async function ledger() {
    const s = await setup('Search farm');
    const a = await s.flock('Alpha');
    const b = await s.flock('Bravo');
    const m: Record<string, any> = {};
    m.a1 = await a.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 100 });
    m.b1 = await b.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 50 });
    m.a2 = await a.post({ type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 200 });
    m.a3 = await a.post({ type: 'bird_mortality', date: '2026-11-02', quantity: 1 });
    m.b2 = await b.post({ type: 'bird_mortality', date: '2026-11-03', quantity: 2 });
    m.a4 = await a.post({ type: 'bird_mortality', date: '2026-11-03', quantity: 3 });
    m.a5 = await a.post({ type: 'water_consumption', date: '2026-11-04', liters: 40 });
    m.b3 = await b.post({ type: 'feed_consumption', date: '2026-11-04', quantityKg: 12 });
    m.b4 = await b.post({ type: 'egg_collection', date: '2026-11-05', totalEggs: 30 });
    m.a6 = await a.post({ type: 'bird_mortality', date: '2026-11-06', quantity: 1 });
    // Newest first: by date, then id (ULIDs: creation order within a day), descending.
    const all = Object.values(m).sort((x, y) => `${y.date}#${y.id}`.localeCompare(`${x.date}#${x.id}`));
    return { ...s, a, b, m, all };
  }

  it('filters by type, date range and flock; newest first by default, oldest first with order=asc', async () => {
    const l = await ledger();
    const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((x) => x.id);
    const everything = await l.get('movements', { limit: '100' });
    expect(everything.status).toBe(200);
    expect(ids(everything)).toEqual(l.all.map((x) => x.id));
    expect(everything.body.page).toEqual({ limit: 100, nextCursor: null });
    expect(everything.body.data[0]).toMatchObject({
      id: l.m.a6.id,
      farmId: l.farm,
      flockId: l.a.flock.id,
      cycleId: l.a.cycle.id,
      type: 'bird_mortality',
      quantity: 1,
      lock: null,
    });

    const asc = await l.get('movements', { order: 'asc', limit: '100' });
    expect(ids(asc)).toEqual(l.all.map((x) => x.id).reverse());

    const deaths = await l.get('movements', { type: 'bird_mortality' });
    expect(ids(deaths)).toEqual([l.m.a6.id, l.m.a4.id, l.m.b2.id, l.m.a3.id]);

    const range = await l.get('movements', { from: '2026-11-02', to: '2026-11-04' });
    expect(ids(range)).toEqual(l.all.filter((x) => x.date >= '2026-11-02' && x.date <= '2026-11-04').map((x) => x.id));
    expect(range.body.data).toHaveLength(5);

    const bravo = await l.get('movements', { flockId: l.b.flock.id });
    expect(ids(bravo)).toEqual([l.m.b4.id, l.m.b3.id, l.m.b2.id, l.m.b1.id]);

    const combined = await l.get('movements', { flockId: l.a.flock.id, type: 'bird_mortality', from: '2026-11-03', order: 'asc' });
    expect(ids(combined)).toEqual([l.m.a4.id, l.m.a6.id]);

    expect((await l.get('movements', { from: '2026-11-05', to: '2026-11-04' })).body.details).toEqual([{ field: 'query.to', message: 'must be after from' }]);
    expect((await l.get('movements', { type: 'bird_teleport' })).status).toBe(400);
    expect((await l.get('movements', { order: 'sideways' })).status).toBe(400);
    expect((await l.get('movements', { limit: '101' })).status).toBe(400);
    expect((await l.get('movements', { bogus: '1' })).status).toBe(400);
  });

  it('shows each movement’s lock, reading the page’s distinct cycles in one BatchGet', async () => {
    const l = await ledger();
    await call('PUT', `${l.a.base}/movements/${l.m.a3.id}/lock`, { token: l.token, body: { reason: 'counted' } });
    await call('POST', `${l.b.base}/close`, { token: l.token, body: { endDate: '2026-11-21' } });
    resetDbCalls();
    const res = await l.get('movements', { limit: '100' });
    expect({ ...dbCalls }).toEqual({ UpdateItem: 1, BatchGetItem: 2, Query: 1 });
    const byId = new Map(res.body.data.map((x: { id: string }) => [x.id, x]));
    expect((byId.get(l.m.a3.id) as any).lock).toMatchObject({ type: 'manual', reason: 'counted' });
    expect((byId.get(l.m.a4.id) as any).lock).toBeNull();
    for (const id of [l.m.b1.id, l.m.b2.id, l.m.b3.id, l.m.b4.id])
      expect((byId.get(id) as any).lock).toMatchObject({ type: 'automatic', reason: 'cycle closed' });
  });

  it('paginates across pages without duplicates or gaps, also with filters; forged cursors are 400', async () => {
    const l = await ledger();
    const get = (q: Record<string, string>) => l.get('movements', q);
    const pages = await allPages(get, { limit: '3' });
    expect(pages.sizes).toEqual([3, 3, 3, 1]);
    expect(pages.items.map((x) => x.id)).toEqual(l.all.map((x) => x.id));
    const ascPages = await allPages(get, { limit: '4', order: 'asc' });
    expect(ascPages.items.map((x) => x.id)).toEqual(l.all.map((x) => x.id).reverse());
    const filtered = await allPages(get, { limit: '1', type: 'bird_mortality' });
    expect(filtered.items.map((x) => x.id)).toEqual([l.m.a6.id, l.m.a4.id, l.m.b2.id, l.m.a3.id]);
    expect(new Set(filtered.items.map((x) => x.id)).size).toBe(4);
    const exact = await get({ limit: '10' }); // exactly all of them: no empty last page
    expect(exact.body.page.nextCursor).toBeNull();

    const first = await get({ limit: '2' });
    const cursor = first.body.page.nextCursor as string;
    const invalid = { error: 'Invalid cursor', details: [{ field: 'query.cursor', message: 'is not a cursor returned by this list' }] };
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    // the raw key where the first page stopped: what a cursor used to be, and a client could write
    const last = l.all[1]!;
    const decoded = { ...movementKey(last.cycleId, last.id), ...movementsOfFarm(l.farm), GSI2SK: `${last.date}#${last.id}` };
    const otherFarmId = await otherFarm('Cursor target');
    for (const forged of [
      'not-a-cursor',
      b64(decoded),
      b64({ GSI2PK: `MOVEMENTS#${otherFarmId}`, GSI2SK: decoded.GSI2SK, PK: decoded.PK, SK: decoded.SK }),
      b64({ GSI2PK: decoded.GSI2PK, GSI2SK: decoded.GSI2SK }),
      b64({ ...decoded, extra: 'x' }),
      b64({ ...decoded, PK: 'USER#x' }),
      b64({ ...decoded, GSI2SK: 5 }),
    ]) {
      const res = await get({ cursor: forged });
      expect(res, forged).toMatchObject({ status: 400, body: invalid });
    }
    // A real cursor outside the requested date range is refused, not a 500.
    expect(await get({ cursor, to: '2026-11-04' })).toMatchObject({ status: 400, body: invalid });
    // A cursor of one farm is no good for another (the admin sees both).
    const admin = await adminLogin();
    expect(await l.get('movements', { farmId: otherFarmId, cursor }, admin)).toMatchObject({ status: 400, body: invalid });
    expect((await l.get('movements', { farmId: l.farm, cursor }, admin)).status).toBe(200);
  });
});

describe('inventory: CSV export', () => {
  it('exports the search as RFC 4180 CSV with escaping and formula-injection protection', async () => {
    const s = await setup('Export farm');
    const a = await s.flock('Export flock');
    const note = 'Found near the door, "very" hot\nsecond line';
    const inflow = await a.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 100, source: '=HYPERLINK("http://evil.example","click")' });
    const death = await a.post({ type: 'bird_mortality', date: '2026-11-02', quantity: 4, cause: 'heat', notes: note });
    const cull = await a.post({ type: 'bird_cull', date: '2026-11-03', quantity: 1, reason: '@SUM(1+1)', notes: '-2+3' });
    const feed = await a.post({ type: 'feed_delivery', date: '2026-11-03', feedType: '+starter', quantityKg: 250.5 });
    await call('PUT', `${a.base}/movements/${death.id}/lock`, { token: s.token, body: { reason: 'vet report' } });

    const res = await s.get('movements/export', { from: '2026-11-01', to: '2026-11-30' });
    expect(res.status, res.raw).toBe(200);
    expect(res.headers['Content-Type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['Content-Disposition']).toBe(`attachment; filename="movements-${s.farm}-2026-11-01-2026-11-30.csv"`);
    expect(res.headers['X-Total-Count']).toBe('4');
    expect(res.raw.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(res.raw);
    expect(rows[0]).toEqual([...MOVEMENT_CSV_COLUMNS]);
    expect(rows).toHaveLength(1 + 4);
    const records = rows.slice(1).map((r) => Object.fromEntries(rows[0]!.map((h, i) => [h, r[i]])));
    expect(records.map((r) => r.id)).toEqual([inflow.id, death.id, cull.id, feed.id]); // chronological by default

    const d = records[1]!;
    expect(d).toMatchObject({
      date: '2026-11-02',
      type: 'bird_mortality',
      flockId: a.flock.id,
      cycleId: a.cycle.id,
      quantity: '4',
      cause: 'heat',
      notes: note,
      lockType: 'manual',
      createdBy: death.createdBy,
      createdAt: death.createdAt,
    });
    expect(JSON.parse(d.fields!)).toEqual({ quantity: 4, cause: 'heat', notes: note });
    expect(res.raw).toContain('"Found near the door, ""very"" hot\nsecond line"');

    expect(records[2]).toMatchObject({ reason: "'@SUM(1+1)", notes: "'-2+3", lockType: '' });
    expect(records[3]).toMatchObject({ feedType: "'+starter", quantityKg: '250.5' });
    expect(JSON.parse(records[0]!.fields!)).toEqual({ quantity: 100, source: '=HYPERLINK("http://evil.example","click")' }); // inside JSON: not at a cell start
    for (const r of records) for (const [column, value] of Object.entries(r)) expect(value, column).not.toMatch(/^[=+\-@\t\r]/);

    // The same filters as the search; newest first on request; the file name without a range.
    const deaths = await s.get('movements/export', { type: 'bird_mortality', flockId: a.flock.id });
    expect(
      parseCsv(deaths.raw)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([death.id]);
    expect(deaths.headers['Content-Disposition']).toMatch(new RegExp(`^attachment; filename="movements-${s.farm}-all-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    const desc = await s.get('movements/export', { order: 'desc' });
    expect(
      parseCsv(desc.raw)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([feed.id, cull.id, death.id, inflow.id]);
    const none = await s.get('movements/export', { from: '2027-01-01' });
    expect(parseCsv(none.raw)).toEqual([[...MOVEMENT_CSV_COLUMNS]]);
    expect((await s.get('movements/export', { from: '2026-12-01', to: '2026-11-01' })).status).toBe(400);
    expect((await s.get('movements/export', { limit: '5' })).status).toBe(400); // no paging on the export
  });

  it('refuses more than 10,000 rows with a 400 asking for a narrower range', async () => {
    const farm = await otherFarm('Big export farm');
    const m = await userWith({ role: 'manager', farmIds: [farm] });
    const cycleId = ulid();
    const flockId = ulid();
    const now = new Date().toISOString();
    // 10,001 ledger items written straight to the table (the API would take minutes); 5,001 on 2026-01-01, 5,000 on 2026-01-02.
    const items = Array.from({ length: 10_001 }, (_, i) => {
      const id = ulid();
      const date = i <= 5_000 ? '2026-01-01' : '2026-01-02';
      return {
        ...movementKey(cycleId, id),
        ...movementsOfCycle(cycleId),
        GSI1SK: `${date}#${id}`,
        ...movementsOfFarm(farm),
        GSI2SK: `${date}#${id}`,
        entity: 'Movement',
        id,
        cycleId,
        flockId,
        farmId: farm,
        type: 'water_consumption',
        date,
        fields: { liters: 1 },
        lock: null,
        createdAt: now,
        createdBy: m.id,
        updatedAt: now,
        version: 1,
      };
    });
    const batches: (typeof items)[] = [];
    for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
    for (let i = 0; i < batches.length; i += 16) {
      await Promise.all(
        batches.slice(i, i + 16).map(async (batch) => {
          let pending: Record<string, unknown>[] | undefined = batch.map((Item) => ({ PutRequest: { Item } }));
          while (pending?.length) {
            const res = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
            pending = res.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined;
          }
        }),
      );
    }
    const get = (query: Record<string, string>) => call('GET', '/api/v1/inventory/movements/export', { token: m.token, query });
    const tooMany = await get({});
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe('The export matches more than 10000 movements; narrow the date range (from, to)');
    const secondDay = await get({ from: '2026-01-02' });
    expect(secondDay.status).toBe(200);
    expect(parseCsv(secondDay.raw)).toHaveLength(1 + 5_000);
    // The search pages through the same partition.
    const page = await call('GET', '/api/v1/inventory/movements', { token: m.token, query: { limit: '100', from: '2026-01-02' } });
    expect(page.body.data).toHaveLength(100);
    expect(page.body.page.nextCursor).toEqual(expect.any(String));
    // A filter that matches nothing: each page evaluates a bounded number of movements (5 reads of 200), so
    // pages come back empty with a cursor until the partition is exhausted.
    const first = await call('GET', '/api/v1/inventory/movements', { token: m.token, query: { type: 'bird_mortality' } });
    expect(first.body).toMatchObject({ data: [], page: { nextCursor: expect.any(String) } });
    const walk = await allPages((q) => call('GET', '/api/v1/inventory/movements', { token: m.token, query: q }), { type: 'bird_mortality' });
    expect(walk.items).toEqual([]);
    expect(walk.sizes).toHaveLength(11);
  }, 120_000);
});

describe('inventory: farm scoping and access', () => {
  it('another farm’s manager gets 404 on all three routes (as for a missing farm) and never sees its rows', async () => {
    const s = await setup('Scoped farm A');
    const a = await s.flock('Private flock');
    await a.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 10 });
    await a.post({ type: 'feed_delivery', date: '2026-11-01', feedType: 'secret-feed', quantityKg: 99 });
    const other = await setup('Scoped farm B');
    const own = await other.flock('Own flock');
    await own.post({ type: 'bird_inflow', date: '2026-11-01', quantity: 5 });
    const missing = ulid();
    for (const path of ['stock', 'movements', 'movements/export']) {
      const foreign = await other.get(path, { farmId: s.farm });
      expect(foreign, path).toMatchObject({ status: 404, body: { error: `Farm ${s.farm} not found` } });
      expect(foreign.raw).not.toContain('secret-feed');
      const unknown = await other.get(path, { farmId: missing });
      expect(unknown, path).toMatchObject({ status: 404, body: { error: `Farm ${missing} not found` } });
      // An admin (who may see every farm) gets the same 404 for a farm that does not exist.
      expect((await other.get(path, { farmId: missing }, await adminLogin())).status, path).toBe(404);
    }
    // B's own views hold only B's rows.
    const stock = (await other.get('stock')).body.data;
    expect(stock).toMatchObject({ farmId: other.farm, birds: { total: 5 }, feed: { byType: [] } });
    const search = (await other.get('movements')).body.data;
    expect(search.map((x: { farmId: string }) => x.farmId)).toEqual([other.farm]);
    const csv = parseCsv((await other.get('movements/export')).raw);
    expect(csv).toHaveLength(2);
    expect(csv[1]![3]).toBe(own.flock.id);
    // A flockId of farm A inside farm B's search finds nothing.
    expect((await other.get('movements', { flockId: a.flock.id })).body.data).toEqual([]);
  });

  it('farmId is required unless the caller has exactly one farm; the capability view_analytics is required', async () => {
    const f1 = await otherFarm('Two-farm 1');
    const f2 = await otherFarm('Two-farm 2');
    const two = await userWith({ role: 'manager', farmIds: [f1, f2] });
    const admin = await adminLogin();
    for (const path of ['stock', 'movements', 'movements/export']) {
      const res = await call('GET', `/api/v1/inventory/${path}`, { token: two.token });
      expect(res, path).toMatchObject({ status: 400, body: { details: [{ field: 'query.farmId', message: 'is required: you are assigned to 2 farms' }] } });
      expect((await call('GET', `/api/v1/inventory/${path}`, { token: two.token, query: { farmId: f2 } })).status, path).toBe(200);
      expect((await call('GET', `/api/v1/inventory/${path}`, { token: admin })).body.details, path).toEqual([
        { field: 'query.farmId', message: 'is required: admins see every farm' },
      ]);
      expect((await call('GET', `/api/v1/inventory/${path}`, { token: admin, query: { farmId: f1 } })).status, path).toBe(200);
    }
    const noCapability = await userWith({ role: 'worker', farmIds: [f1], capabilities: ['create_movement'] });
    for (const path of ['stock', 'movements', 'movements/export']) {
      expect((await call('GET', `/api/v1/inventory/${path}`, { token: noCapability.token })).status, path).toBe(403);
    }
    const viewer = await userWith({ role: 'viewer', farmIds: [f1] });
    expect((await call('GET', '/api/v1/inventory/stock', { token: viewer.token })).status).toBe(200);
    expect((await call('GET', '/api/v1/inventory/stock')).status).toBe(401);
  });
});
