import { describe, expect, it } from 'vitest';
import { ulid } from 'ulidx';
import { call, type CallResult } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { getDefaultFarmId } from '../../shared/db/farms.js';
import { dbCalls, resetDbCalls } from '../../shared/db/client.js';

const FARMS = '/api/v1/config/farms';

async function createFarm(token: string, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await call('POST', FARMS, { token, body: { name: `Farm ${ulid().slice(-6)}`, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function createHouse(token: string, farmId: string, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await call('POST', `${FARMS}/${farmId}/houses`, {
    token,
    body: { name: `House ${ulid().slice(-6)}`, usableAreaM2: 1200, capacity: 15000, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function auditOf(targetId: string): Promise<Array<Record<string, any>>> {
  const res = await call('GET', '/api/v1/admin/audit', { token: await adminLogin(), query: { targetId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Every farm the caller may see, page by page. */
async function allFarms(token: string): Promise<Array<Record<string, any>>> {
  const out: Array<Record<string, any>> = [];
  let cursor: string | undefined;
  do {
    const page = await call('GET', FARMS, { token, query: { limit: '100', ...(cursor ? { cursor } : {}) } });
    expect(page.status).toBe(200);
    out.push(...page.body.data);
    cursor = page.body.page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

const statuses = (results: CallResult[]) => results.map((r) => r.status).sort();

describe('farms', () => {
  it('an admin creates a farm with every field; GET returns it with its ETag; the admin list holds it', async () => {
    const admin = await adminLogin();
    const res = await call('POST', FARMS, {
      token: admin,
      body: {
        name: '  Ndiaye   Poultry ',
        location: 'Route de Thiès km 12, Pout',
        countryCode: 'SN',
        timezone: 'africa/dakar',
        totalAreaHa: 4.5,
        notes: 'Two broiler houses',
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.ETag).toBe('"1"');
    const farm = res.body.data;
    expect(farm).toEqual({
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      name: 'Ndiaye Poultry',
      location: 'Route de Thiès km 12, Pout',
      countryCode: 'SN',
      timezone: 'Africa/Dakar',
      totalAreaHa: 4.5,
      densityTier: 33,
      waterReserveLiters: null,
      notes: 'Two broiler houses',
      isDefault: false,
      createdBy: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: farm.createdAt,
      version: 1,
    });
    expect(new Date(farm.createdAt).toISOString()).toBe(farm.createdAt);

    const got = await call('GET', `${FARMS}/${farm.id}`, { token: admin });
    expect(got.status).toBe(200);
    expect(got.headers.ETag).toBe('"1"');
    expect(got.body.data).toEqual(farm);

    const listed = await call('GET', FARMS, { token: admin, query: { limit: '100' } });
    expect(listed.status).toBe(200);
    expect(listed.body.page.limit).toBe(100);
    expect(listed.raw).not.toMatch(/GSI1|"PK"|"SK"|houseType|nameKey/);
    expect((await allFarms(admin)).find((f) => f.id === farm.id)).toEqual(farm);
  });

  it('defaults: timezone UTC, optional fields null; the seeded default farm keeps working and is listed', async () => {
    const admin = await adminLogin();
    const farm = await createFarm(admin, { name: 'Minimal' });
    expect(farm).toMatchObject({ timezone: 'UTC', location: null, countryCode: null, totalAreaHa: null, notes: null, isDefault: false });
    const defaultId = await getDefaultFarmId();
    const def = await call('GET', `${FARMS}/${defaultId}`, { token: admin });
    expect(def.status).toBe(200);
    expect(def.body.data).toMatchObject({ id: defaultId, name: 'Default farm', isDefault: true, timezone: 'UTC', createdBy: null, version: 1 });
  });

  it('refuses invalid farm bodies with a 400 naming each field, and writes nothing', async () => {
    const admin = await adminLogin();
    const before = (await allFarms(admin)).length;
    const bad = await call('POST', FARMS, {
      token: admin,
      body: { name: '   ', countryCode: 'sen', totalAreaHa: 0, timezone: '+01:00', notes: 'x'.repeat(2001), isDefault: true, id: 'X' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Validation failed');
    const fields = bad.body.details.map((d: { field: string }) => d.field);
    for (const f of ['body.name', 'body.countryCode', 'body.totalAreaHa', 'body.timezone', 'body.notes', 'body.isDefault', 'body.id'])
      expect(fields, f).toContain(f);
    expect(bad.body.details).toContainEqual({ field: 'body.isDefault', message: 'is not allowed' });

    const missing = await call('POST', FARMS, { token: admin, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ field: 'body.name', message: 'is required' }]);

    const zone = await call('POST', FARMS, { token: admin, body: { name: 'Z', timezone: 'Mars/Olympus_Mons' } });
    expect(zone.status).toBe(400);
    expect(zone.body.details).toEqual([{ field: 'body.timezone', message: expect.stringContaining('not a known IANA time zone') }]);

    const emptyPatch = await call('PATCH', `${FARMS}/${await getDefaultFarmId()}`, { token: admin, body: {} });
    expect(emptyPatch.status).toBe(400);
    const badId = await call('GET', `${FARMS}/not%20an%20id`, { token: admin });
    expect(badId.status).toBe(400);
    expect(badId.body.details[0].field).toBe('params.farmId');

    expect((await allFarms(admin)).length).toBe(before);
  });

  it('patches a farm: changed fields only, null clears, ETag follows the version, audit records the diff; no-op writes nothing', async () => {
    const admin = await adminLogin();
    const farm = await createFarm(admin, { name: 'Before', notes: 'old notes', countryCode: 'FR', timezone: 'Europe/Paris' });
    const res = await call('PATCH', `${FARMS}/${farm.id}`, {
      token: admin,
      headers: { 'If-Match': '"1"' },
      body: { name: 'After', notes: null, totalAreaHa: 12 },
    });
    expect(res.status).toBe(200);
    expect(res.headers.ETag).toBe('"2"');
    expect(res.body.data).toMatchObject({ name: 'After', notes: null, totalAreaHa: 12, countryCode: 'FR', timezone: 'Europe/Paris', version: 2 });
    expect((await call('GET', `${FARMS}/${farm.id}`, { token: admin })).body.data).toEqual(res.body.data);

    const same = await call('PATCH', `${FARMS}/${farm.id}`, { token: admin, body: { name: 'After' } });
    expect(same.status).toBe(200);
    expect(same.body.data.version).toBe(2);

    const entries = await auditOf(farm.id);
    expect(entries.map((e) => e.action)).toEqual(['farm.update', 'farm.create']);
    expect(entries[0]!.changes).toEqual({ name: { from: 'Before', to: 'After' }, totalAreaHa: { from: null, to: 12 }, notes: { from: 'old notes', to: null } });
    expect(entries[0]).toMatchObject({ targetType: 'farm', actorId: farm.createdBy });
    expect(entries[1]!.changes).toMatchObject({ name: 'Before', countryCode: 'FR', timezone: 'Europe/Paris' });
  });

  it('a renamed farm moves in the admin list (ordered by name, case-insensitively)', async () => {
    const admin = await adminLogin();
    const a = await createFarm(admin, { name: 'zz-last' });
    const b = await createFarm(admin, { name: 'AA-first' });
    const order = async () => (await allFarms(admin)).map((f) => f.id as string);
    let ids = await order();
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect((await call('PATCH', `${FARMS}/${a.id}`, { token: admin, body: { name: 'aa-0-now-first' } })).status).toBe(200);
    ids = await order();
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
  });

  it('optimistic concurrency on farms: stale If-Match → 412, stale version → 409, racing patches → one wins', async () => {
    const admin = await adminLogin();
    const farm = await createFarm(admin);
    const stale = await call('PATCH', `${FARMS}/${farm.id}`, { token: admin, headers: { 'If-Match': '"5"' }, body: { name: 'X' } });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatch(/If-Match/);
    expect((await call('PATCH', `${FARMS}/${farm.id}`, { token: admin, body: { name: 'X', version: 5 } })).status).toBe(409);
    const racers = await Promise.all(
      ['r1', 'r2', 'r3', 'r4', 'r5'].map((name) => call('PATCH', `${FARMS}/${farm.id}`, { token: admin, body: { name, version: 1 } })),
    );
    expect(statuses(racers)).toEqual([200, 409, 409, 409, 409]);
    const now = await call('GET', `${FARMS}/${farm.id}`, { token: admin });
    expect(now.body.data.version).toBe(2);
    expect(now.body.data.name).toBe(racers.find((r) => r.status === 200)!.body.data.name);
    // without If-Match or version, racing writers are still conditional: nobody silently overwrites
    const blind = await Promise.all(['b1', 'b2', 'b3', 'b4'].map((name) => call('PATCH', `${FARMS}/${farm.id}`, { token: admin, body: { name } })));
    expect(blind.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const final = (await call('GET', `${FARMS}/${farm.id}`, { token: admin })).body.data;
    expect(final.version).toBe(2 + blind.filter((r) => r.status === 200).length);
    expect((await auditOf(farm.id)).filter((e) => e.action === 'farm.update')).toHaveLength(final.version - 1);
  });

  it('paginates the admin list with an opaque cursor and refuses a forged one', async () => {
    const admin = await adminLogin();
    await Promise.all([createFarm(admin), createFarm(admin), createFarm(admin)]);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call('GET', FARMS, { token: admin, query: { limit: '2', ...(cursor ? { cursor } : {}) } });
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((f: { id: string }) => f.id));
      cursor = page.body.page.nextCursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual((await allFarms(admin)).map((f) => f.id).sort());
    const forged = Buffer.from(JSON.stringify({ GSI1PK: 'USERS', GSI1SK: 'a', PK: 'USER#1', SK: 'PROFILE' })).toString('base64url');
    const bad = await call('GET', FARMS, { token: admin, query: { cursor: forged } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('query.cursor');
    expect((await call('GET', FARMS, { token: admin, query: { limit: '0' } })).status).toBe(400);
  });
});

describe('farm creation by a manager', () => {
  it('assigns the new farm to its non-admin creator in the same transaction (audited, user version bumped)', async () => {
    const admin = await adminLogin();
    const manager = await userWith({ role: 'manager' });
    const before = (await call('GET', `/api/v1/admin/users/${manager.id}`, { token: admin })).body.data;
    const farm = await createFarm(manager.token, { name: 'My own farm' });
    expect(farm.createdBy).toBe(manager.id);
    const after = (await call('GET', `/api/v1/admin/users/${manager.id}`, { token: admin })).body.data;
    expect(after.farmIds).toEqual([...before.farmIds, farm.id]);
    expect(after.version).toBe(before.version + 1);
    expect((await call('GET', `${FARMS}/${farm.id}`, { token: manager.token })).status).toBe(200);
    const mine = await call('GET', FARMS, { token: manager.token });
    expect(mine.body.data.map((f: { id: string }) => f.id)).toEqual(after.farmIds);

    expect((await auditOf(farm.id)).map((e) => e.action)).toEqual(['farm.create']);
    const assignment = (await auditOf(manager.id)).find((e) => e.action === 'farm.assign-creator');
    expect(assignment).toMatchObject({ actorId: manager.id, targetType: 'user', changes: { farmIds: { added: [farm.id] } } });

    // a stale admin PATCH of the user (read before the assignment) cannot silently drop the new farm
    const stale = await call('PATCH', `/api/v1/admin/users/${manager.id}`, { token: admin, body: { farmIds: before.farmIds, version: before.version } });
    expect(stale.status).toBe(409);
  });

  it('parallel creates by one manager all succeed and all land in its farmIds (atomic append)', async () => {
    const admin = await adminLogin();
    const manager = await userWith({ role: 'manager', farmIds: [] });
    const results = await Promise.all([1, 2, 3, 4].map((n) => call('POST', FARMS, { token: manager.token, body: { name: `Parallel ${n}` } })));
    expect(statuses(results)).toEqual([201, 201, 201, 201]);
    const user = (await call('GET', `/api/v1/admin/users/${manager.id}`, { token: admin })).body.data;
    expect([...user.farmIds].sort()).toEqual(results.map((r) => r.body.data.id).sort());
    expect(user.version).toBe(manager.version + 4);
  });

  it('refuses (409, nothing written) a farm whose non-admin creator already holds 100 farms', async () => {
    const admin = await adminLogin();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(...(await Promise.all(Array.from({ length: 20 }, () => createFarm(admin)))).map((f) => f.id));
    const manager = await userWith({ role: 'manager', farmIds: ids });
    const before = (await allFarms(admin)).length;
    const res = await call('POST', FARMS, { token: manager.token, body: { name: 'One too many' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/maximum of 100 farms/);
    const after = await allFarms(admin);
    expect(after.length).toBe(before);
    expect(after.some((f) => f.name === 'One too many')).toBe(false);
    expect((await call('GET', FARMS, { token: manager.token })).body.data).toHaveLength(25);
    expect((await call('GET', `/api/v1/admin/users/${manager.id}`, { token: admin })).body.data.version).toBe(1);
  });

  it('an admin creator is not assigned (admins see every farm)', async () => {
    const admin = await adminLogin();
    const { id } = await userWith({ role: 'admin' });
    const before = (await call('GET', `/api/v1/admin/users/${id}`, { token: admin })).body.data;
    await createFarm(admin);
    const after = (await call('GET', `/api/v1/admin/users/${id}`, { token: admin })).body.data;
    expect(after.version).toBe(before.version);
  });

  it('lists a non-admin’s farms in assignment order, page by page', async () => {
    const admin = await adminLogin();
    const farms = [];
    for (let i = 0; i < 5; i++) farms.push(await createFarm(admin, { name: `Assigned ${i}` }));
    const order = [farms[3]!.id, farms[0]!.id, farms[4]!.id, farms[1]!.id, farms[2]!.id];
    const worker = await userWith({ role: 'worker', farmIds: order });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await call('GET', FARMS, { token: worker.token, query: { limit: '2', ...(cursor ? { cursor } : {}) } });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((f: { id: string }) => f.id));
      cursor = page.body.page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(seen).toEqual(order);
    expect(pages).toBe(3);
    const bad = await call('GET', FARMS, { token: worker.token, query: { cursor: 'garbage!' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('query.cursor');
    const none = await userWith({ role: 'viewer', farmIds: [] });
    const empty = await call('GET', FARMS, { token: none.token });
    expect(empty.body).toEqual({ message: 'OK', data: [], page: { limit: 25, nextCursor: null } });
  });
});

describe('houses', () => {
  it('creates, lists, reads and patches houses; audits each write', async () => {
    const admin = await adminLogin();
    const farm = await createFarm(admin);
    const res = await call('POST', `${FARMS}/${farm.id}/houses`, {
      token: admin,
      body: { name: ' House  A ', usableAreaM2: 1250.5, capacity: 16000, type: 'floor', notes: 'tunnel ventilated' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.ETag).toBe('"1"');
    const house = res.body.data;
    expect(house).toEqual({
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      farmId: farm.id,
      name: 'House A',
      usableAreaM2: 1250.5,
      capacity: 16000,
      type: 'floor',
      notes: 'tunnel ventilated',
      createdBy: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: house.createdAt,
      version: 1,
    });
    const b = await createHouse(admin, farm.id, { name: 'House B' });
    expect(b.type).toBeNull();

    const listed = await call('GET', `${FARMS}/${farm.id}/houses`, { token: admin });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([house, b]);
    expect(listed.body.page).toEqual({ limit: 25, nextCursor: null });
    const got = await call('GET', `${FARMS}/${farm.id}/houses/${house.id}`, { token: admin });
    expect(got.body.data).toEqual(house);
    expect(got.headers.ETag).toBe('"1"');

    const patched = await call('PATCH', `${FARMS}/${farm.id}/houses/${house.id}`, {
      token: admin,
      headers: { 'If-Match': '"1"' },
      body: { capacity: 15000, type: null, notes: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.ETag).toBe('"2"');
    expect(patched.body.data).toMatchObject({ capacity: 15000, type: null, notes: null, name: 'House A', version: 2 });
    expect((await call('GET', `${FARMS}/${farm.id}/houses/${house.id}`, { token: admin })).body.data).toEqual(patched.body.data);

    const entries = await auditOf(house.id);
    expect(entries.map((e) => e.action)).toEqual(['house.update', 'house.create']);
    expect(entries[0]!.changes).toEqual({
      capacity: { from: 16000, to: 15000 },
      type: { from: 'floor', to: null },
      notes: { from: 'tunnel ventilated', to: null },
    });
    expect(entries[1]!.changes).toMatchObject({ farmId: farm.id, name: 'House A', usableAreaM2: 1250.5, capacity: 16000, type: 'floor' });
    expect(entries[1]!.targetType).toBe('house');

    expect((await call('GET', `${FARMS}/${farm.id}/houses/${ulid()}`, { token: admin })).body).toEqual({
      error: expect.stringMatching(/^House .* not found$/),
    });
  });

  it('validates house bodies (area > 0, integer capacity > 0, known type, no extra fields)', async () => {
    const admin = await adminLogin();
    const farm = await createFarm(admin);
    const bad = await call('POST', `${FARMS}/${farm.id}/houses`, {
      token: admin,
      body: { name: '', usableAreaM2: 0, capacity: 1.5, type: 'igloo', farmId: 'X' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual(
      expect.arrayContaining([
        { field: 'body.name', message: expect.any(String) },
        { field: 'body.usableAreaM2', message: 'must be > 0' },
        { field: 'body.capacity', message: 'must be integer' },
        { field: 'body.type', message: 'must be one of: floor, cage, aviary, free_range, other' },
        { field: 'body.farmId', message: 'is not allowed' },
      ]),
    );
    const missing = await call('POST', `${FARMS}/${farm.id}/houses`, { token: admin, body: { name: 'H' } });
    expect(missing.body.details).toEqual([
      { field: 'body.usableAreaM2', message: 'is required' },
      { field: 'body.capacity', message: 'is required' },
    ]);
    const negative = await call('POST', `${FARMS}/${farm.id}/houses`, { token: admin, body: { name: 'H', usableAreaM2: -5, capacity: 0 } });
    expect(negative.body.details.map((d: { field: string }) => d.field)).toEqual(['body.usableAreaM2', 'body.capacity']);
    expect((await call('GET', `${FARMS}/${farm.id}/houses`, { token: admin })).body.data).toEqual([]);
  });

  it('house names are unique within a farm (case- and space-insensitive), free in other farms, and freed by a rename', async () => {
    const admin = await adminLogin();
    const farm = await createFarm(admin);
    const other = await createFarm(admin);
    const first = await createHouse(admin, farm.id, { name: 'Broiler House 1' });
    const dup = await call('POST', `${FARMS}/${farm.id}/houses`, { token: admin, body: { name: ' broiler   house 1', usableAreaM2: 10, capacity: 10 } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: 'A house named "broiler house 1" already exists in this farm' });
    await createHouse(admin, other.id, { name: 'Broiler House 1' });

    const second = await createHouse(admin, farm.id, { name: 'Broiler House 2' });
    const clash = await call('PATCH', `${FARMS}/${farm.id}/houses/${second.id}`, { token: admin, body: { name: 'BROILER HOUSE 1' } });
    expect(clash.status).toBe(409);
    expect((await call('GET', `${FARMS}/${farm.id}/houses/${second.id}`, { token: admin })).body.data).toMatchObject({ name: 'Broiler House 2', version: 1 });

    // a case-only rename keeps its own name
    const recased = await call('PATCH', `${FARMS}/${farm.id}/houses/${first.id}`, { token: admin, body: { name: 'broiler house 1' } });
    expect(recased.status).toBe(200);
    expect(recased.body.data.name).toBe('broiler house 1');
    // a real rename frees the old name
    expect((await call('PATCH', `${FARMS}/${farm.id}/houses/${first.id}`, { token: admin, body: { name: 'Layer House' } })).status).toBe(200);
    await createHouse(admin, farm.id, { name: 'Broiler House 1' });
    const dupRenamed = await call('POST', `${FARMS}/${farm.id}/houses`, { token: admin, body: { name: 'layer house', usableAreaM2: 10, capacity: 10 } });
    expect(dupRenamed.status).toBe(409);
    const names = (await call('GET', `${FARMS}/${farm.id}/houses`, { token: admin })).body.data.map((h: { name: string }) => h.name);
    expect(names.sort()).toEqual(['Broiler House 1', 'Broiler House 2', 'Layer House']);
  });

  it('five parallel creates of one name: exactly one 201, four 409, one house', async () => {
    const admin = await adminLogin();
    const farm = await createFarm(admin);
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map(() => call('POST', `${FARMS}/${farm.id}/houses`, { token: admin, body: { name: 'Contested', usableAreaM2: 100, capacity: 1000 } })),
    );
    expect(statuses(results)).toEqual([201, 409, 409, 409, 409]);
    const houses = (await call('GET', `${FARMS}/${farm.id}/houses`, { token: admin })).body.data;
    expect(houses).toHaveLength(1);
    expect(houses[0].id).toBe(results.find((r) => r.status === 201)!.body.data.id);
    expect((await auditOf(houses[0].id)).map((e) => e.action)).toEqual(['house.create']);
  });

  it('parallel creates of different names in one farm all succeed', async () => {
    const admin = await adminLogin();
    const farm = await createFarm(admin);
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => call('POST', `${FARMS}/${farm.id}/houses`, { token: admin, body: { name: `House ${n}`, usableAreaM2: 100, capacity: 1000 } })),
    );
    expect(statuses(results)).toEqual([201, 201, 201, 201, 201]);
  });

  it('optimistic concurrency on houses: stale If-Match → 412, stale version → 409, racing renames → one wins', async () => {
    const admin = await adminLogin();
    const farm = await createFarm(admin);
    const house = await createHouse(admin, farm.id);
    const path = `${FARMS}/${farm.id}/houses/${house.id}`;
    expect((await call('PATCH', path, { token: admin, headers: { 'If-Match': '"9"' }, body: { capacity: 5 } })).status).toBe(412);
    expect((await call('PATCH', path, { token: admin, body: { capacity: 5, version: 9 } })).status).toBe(409);
    const racers = await Promise.all(['R1', 'R2', 'R3', 'R4'].map((name) => call('PATCH', path, { token: admin, body: { name, version: 1 } })));
    expect(statuses(racers)).toEqual([200, 409, 409, 409]);
    const winner = racers.find((r) => r.status === 200)!.body.data.name;
    // only the winner's name is claimed: the losers' names stay free, the original name was released
    const names = ['R1', 'R2', 'R3', 'R4'].filter((n) => n !== winner);
    for (const name of [...names, house.name]) await createHouse(admin, farm.id, { name });
    expect((await call('POST', `${FARMS}/${farm.id}/houses`, { token: admin, body: { name: winner, usableAreaM2: 1, capacity: 1 } })).status).toBe(409);
  });

  it('pages through a farm’s houses and refuses a cursor of another list', async () => {
    const admin = await adminLogin();
    const farm = await createFarm(admin);
    const other = await createFarm(admin);
    for (let i = 0; i < 3; i++) await createHouse(admin, farm.id, { name: `P${i}` });
    await createHouse(admin, other.id, { name: 'elsewhere' });
    const first = await call('GET', `${FARMS}/${farm.id}/houses`, { token: admin, query: { limit: '2' } });
    expect(first.body.data.map((h: { name: string }) => h.name)).toEqual(['P0', 'P1']);
    const second = await call('GET', `${FARMS}/${farm.id}/houses`, { token: admin, query: { limit: '2', cursor: first.body.page.nextCursor } });
    expect(second.body.data.map((h: { name: string }) => h.name)).toEqual(['P2']);
    expect(second.body.page.nextCursor).toBeNull();
    const foreign = await call('GET', `${FARMS}/${other.id}/houses`, { token: admin, query: { cursor: first.body.page.nextCursor } });
    expect(foreign.status).toBe(400);
    const outside = Buffer.from(JSON.stringify({ PK: `FARM#${farm.id}`, SK: 'META' })).toString('base64url');
    const bad = await call('GET', `${FARMS}/${farm.id}/houses`, { token: admin, query: { cursor: outside } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('query.cursor');
  });
});

describe('data calls per request (besides the general limiter UpdateItem and the user-load BatchGetItem)', () => {
  it('farm GET: one GetItem; house GET: one BatchGetItem; house list: GetItem + Query; farm out of scope: none', async () => {
    const admin = await adminLogin();
    const farm = await createFarm(admin);
    const house = await createHouse(admin, farm.id);
    const stranger = await userWith({ role: 'viewer', farmIds: [] });
    const cost = async (path: string, token = admin) => {
      resetDbCalls();
      const res = await call('GET', path, { token });
      return { status: res.status, calls: { ...dbCalls } };
    };
    expect(await cost(`${FARMS}/${farm.id}`)).toEqual({ status: 200, calls: { UpdateItem: 1, BatchGetItem: 1, GetItem: 1 } });
    expect(await cost(`${FARMS}/${farm.id}/houses/${house.id}`)).toEqual({ status: 200, calls: { UpdateItem: 1, BatchGetItem: 2 } });
    expect(await cost(`${FARMS}/${farm.id}/houses`)).toEqual({ status: 200, calls: { UpdateItem: 1, BatchGetItem: 1, GetItem: 1, Query: 1 } });
    expect(await cost(`${FARMS}/${farm.id}`, stranger.token)).toEqual({ status: 404, calls: { UpdateItem: 1, BatchGetItem: 1 } });
  });
});

describe('farm scoping and capabilities', () => {
  it('a manager of farm B gets the same 404 for farm A as for a farm that does not exist, on every route, and never sees A', async () => {
    const admin = await adminLogin();
    const farmA = await createFarm(admin, { name: 'Farm A' });
    const farmB = await createFarm(admin, { name: 'Farm B' });
    const houseA = await createHouse(admin, farmA.id, { name: 'A1' });
    const houseB = await createHouse(admin, farmB.id, { name: 'B1' });
    const manager = await userWith({ role: 'manager', farmIds: [farmB.id] });

    const attempts = (farmId: string, houseId: string) =>
      [
        ['GET', `${FARMS}/${farmId}`, undefined],
        ['PATCH', `${FARMS}/${farmId}`, { name: 'Mine now' }],
        ['GET', `${FARMS}/${farmId}/houses`, undefined],
        ['POST', `${FARMS}/${farmId}/houses`, { name: 'Intruder', usableAreaM2: 1, capacity: 1 }],
        ['GET', `${FARMS}/${farmId}/houses/${houseId}`, undefined],
        ['PATCH', `${FARMS}/${farmId}/houses/${houseId}`, { capacity: 1 }],
      ] as const;
    const missing = ulid();
    for (const [i, [method, path, body]] of attempts(farmA.id, houseA.id).entries()) {
      const res = await call(method, path, { token: manager.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body, `${method} ${path}`).toEqual({ error: `Farm ${farmA.id} not found` });
      // the very same answer as for a farm that does not exist (only the id echoed differs)
      const [m2, p2, b2] = attempts(missing, houseA.id)[i]!;
      const none = await call(m2, p2, { token: manager.token, body: b2 });
      expect(none.status).toBe(404);
      expect(none.body).toEqual({ error: `Farm ${missing} not found` });
      expect(Object.keys(none.headers).sort()).toEqual(Object.keys(res.headers).sort());
      // and an admin asking for the missing farm gets the same answer too
      expect((await call(m2, p2, { token: admin, body: b2 })).body).toEqual({ error: `Farm ${missing} not found` });
    }
    // farm A's house addressed through farm B is no house of B
    expect((await call('GET', `${FARMS}/${farmB.id}/houses/${houseA.id}`, { token: manager.token })).body).toEqual({ error: `House ${houseA.id} not found` });

    const list = await call('GET', FARMS, { token: manager.token, query: { limit: '100' } });
    expect(list.body.data.map((f: { id: string }) => f.id)).toEqual([farmB.id]);
    expect(list.raw).not.toContain(farmA.id);
    expect((await call('GET', `${FARMS}/${farmB.id}/houses`, { token: manager.token })).body.data.map((h: { id: string }) => h.id)).toEqual([houseB.id]);

    // nothing of farm A changed
    const a = await call('GET', `${FARMS}/${farmA.id}`, { token: admin });
    expect(a.body.data).toMatchObject({ name: 'Farm A', version: 1 });
    const housesA = (await call('GET', `${FARMS}/${farmA.id}/houses`, { token: admin })).body.data;
    expect(housesA).toEqual([houseA]);
    // while the manager works normally on farm B
    expect((await call('PATCH', `${FARMS}/${farmB.id}`, { token: manager.token, body: { notes: 'managed' } })).status).toBe(200);
    expect((await call('POST', `${FARMS}/${farmB.id}/houses`, { token: manager.token, body: { name: 'B2', usableAreaM2: 10, capacity: 100 } })).status).toBe(
      201,
    );
  });

  it('a house cannot be created in a farm that does not exist, even by an admin (404, nothing written)', async () => {
    const admin = await adminLogin();
    const missing = ulid();
    const res = await call('POST', `${FARMS}/${missing}/houses`, { token: admin, body: { name: 'Ghost', usableAreaM2: 10, capacity: 10 } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `Farm ${missing} not found` });
    expect((await call('GET', `${FARMS}/${missing}/houses`, { token: admin })).status).toBe(404);
  });

  it('viewers and workers read their farms but get 403 on every write', async () => {
    const admin = await adminLogin();
    const farm = await createFarm(admin);
    const house = await createHouse(admin, farm.id);
    for (const role of ['viewer', 'worker'] as const) {
      const u = await userWith({ role, farmIds: [farm.id] });
      expect((await call('GET', FARMS, { token: u.token })).status).toBe(200);
      expect((await call('GET', `${FARMS}/${farm.id}`, { token: u.token })).status).toBe(200);
      expect((await call('GET', `${FARMS}/${farm.id}/houses`, { token: u.token })).status).toBe(200);
      expect((await call('GET', `${FARMS}/${farm.id}/houses/${house.id}`, { token: u.token })).status).toBe(200);
      for (const [method, path, body] of [
        ['POST', FARMS, { name: 'Nope' }],
        ['PATCH', `${FARMS}/${farm.id}`, { name: 'Nope' }],
        ['POST', `${FARMS}/${farm.id}/houses`, { name: 'Nope', usableAreaM2: 1, capacity: 1 }],
        ['PATCH', `${FARMS}/${farm.id}/houses/${house.id}`, { name: 'Nope' }],
      ] as const) {
        const res = await call(method, path, { token: u.token, body });
        expect(res.status, `${role} ${method} ${path}`).toBe(403);
        expect(res.body).toEqual({ error: 'Missing capability: manage_farms' });
      }
    }
    const noRead = await userWith({ role: 'worker', capabilities: ['create_movement'], farmIds: [farm.id] });
    expect((await call('GET', FARMS, { token: noRead.token })).body).toEqual({ error: 'Missing capability: view_analytics' });
    expect((await call('GET', FARMS)).status).toBe(401);
    expect((await call('GET', `${FARMS}/${farm.id}`, { token: admin })).body.data.version).toBe(1);
  });
});
