/**
 * e2e: governance (withdrawal periods, compliance report, export and restore) over real HTTP against serverless-offline and DynamoDB Local, every JSON
 * response checked against the closed schema of its operation (checkedClient); exports and restores run in
 * continuityWorker, which the routes start asynchronously through offline's Lambda port.
 *
 * What it proves: a bird sale on day 3 of a 7-day withdrawal is refused (409 naming the product and the
 * last restricted day), the override by a veterinarian (manage_compliance) passes and the audit says who,
 * why and which window; a cycle whose stocking density crosses its tier fails the compliance report in JSON
 * and in CSV; a farm with two cycles exported and restored under a new name has equal cycle summaries, KPIs
 * and stock; a restore interrupted on purpose (CONTINUITY_FAIL_AFTER_BATCHES, scoped to one farm name by
 * CONTINUITY_FAIL_FARM_NAME) fails and leaves no farm item, flock or movement behind.
 *
 * The scenario: the admin creates Governance farm (House A, 1,000 m²) with its manager and veterinarian.
 * Flock A: 20,000 broilers placed 30 days ago in House A, weighed at 2,000 g two days ago (40 kg/m² over
 * the default 33 kg/m² tier), treated with Amoxicillin 3 days ago (7-day withdrawal: restricted up to day +4).
 * Flock B: 1,000 broilers placed 12 days ago, with feed, daily records and a weighing.
 */
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { localClient } from '../../scripts/lib/local-dynamodb.js';
import { checkedClient } from '../support/contract.js';
import { client, type Res } from '../support/http.js';
import { startOffline, type Offline } from '../support/offline.js';
import { pollUntil } from '../support/poll.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read any field

const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
const INTERRUPTED = 'Interrupted restore';
const PRODUCT = 'Amoxicillin 50%';

/** A value without the ids that differ by design between a farm and its restored copy. */
const withoutIds = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(withoutIds)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v).flatMap(([k, x]) => (['id', 'flockId', 'cycleId', 'farmId', 'houseId', 'movementId'].includes(k) ? [] : [[k, withoutIds(x)]])),
        )
      : v;

describe('governance over HTTP: withdrawal periods, stocking density, export and restore', () => {
  let api: Offline;
  const http = checkedClient(client(() => api));
  let adminToken: string;
  let farmId: string;
  let houseId: string;
  const people: Record<'manager' | 'vet', { token: string; id: string }> = {} as never;
  const flocks: Record<'a' | 'b', { flockId: string; cycleId: string; base: string }> = {} as never;
  let exportId: string;

  const expectStatus = (res: Res, status: number, what: string) => expect(res.status, `${what}: ${res.text}`).toBe(status);
  const move = async (f: 'a' | 'b', body: Json) =>
    expectStatus(await http('POST', `${flocks[f].base}/movements`, { token: people.manager.token, body }), 201, `POST ${body.type}`);

  async function person(key: 'manager' | 'vet', role: string) {
    const account = { email: `${key}@governance.example.com`, password: `governance-${key}-password-1` };
    const created = await http('POST', '/api/v1/admin/users', { token: adminToken, body: { ...account, name: `Governance ${key}`, role, farmIds: [farmId] } });
    expectStatus(created, 201, `POST user ${key}`);
    const login = await http('POST', '/api/v1/auth/login', { body: account });
    expectStatus(login, 200, `login ${key}`);
    people[key] = { token: login.body.token, id: created.body.data.id };
  }

  async function flockWithCycle(key: 'a' | 'b', name: string, start: string, house?: string) {
    const token = people.manager.token;
    const flock = await http('POST', '/api/v1/flocks', {
      token,
      body: { name, birdType: 'broiler', farmId, hatchDate: start, ...(house ? { houseId: house } : {}) },
    });
    expectStatus(flock, 201, `POST flock ${name}`);
    const cycle = await http('POST', `/api/v1/flocks/${flock.body.data.id}/cycles`, { token, body: { startDate: start } });
    expectStatus(cycle, 201, `POST cycle ${name}`);
    flocks[key] = { flockId: flock.body.data.id, cycleId: cycle.body.data.id, base: `/api/v1/flocks/${flock.body.data.id}/cycles/${cycle.body.data.id}` };
  }

  /** What a farm looks like through the API: each cycle's summary and KPIs (by flock name and start), the stock. */
  async function figures(farm: string) {
    const token = people.manager.token;
    const list = await http('GET', `/api/v1/flocks?farmId=${farm}&limit=100`, { token });
    expectStatus(list, 200, 'GET flocks');
    const out: Json = {};
    for (const f of list.body.data as Json[]) {
      const cycles = await http('GET', `/api/v1/flocks/${f.id}/cycles`, { token });
      for (const c of cycles.body.data as Json[]) {
        const summary = await http('GET', `/api/v1/flocks/${f.id}/cycles/${c.id}`, { token });
        const kpis = await http('GET', `/api/v2/analytics/cycle/${f.id}/${c.id}`, { token });
        expectStatus(kpis, 200, 'GET cycle analytics');
        out[`${f.name}/${c.startDate}`] = withoutIds({ summary: summary.body.data, kpis: kpis.body.data.kpis });
      }
    }
    const stock = await http('GET', `/api/v1/inventory/stock?farmId=${farm}`, { token });
    expectStatus(stock, 200, 'GET stock');
    const { asOf: _asOf, ...rest } = stock.body.data as Json;
    return { cycles: out, stock: withoutIds(rest) };
  }

  const restore = (farmName: string) =>
    http('POST', '/api/v1/continuity/restores', {
      token: people.manager.token,
      body: { exportId, farmName },
      headers: { 'Idempotency-Key': `restore-${farmName.replace(/\W+/g, '-')}` },
    });
  const restoreDone = (id: string) =>
    pollUntil(
      () => http('GET', `/api/v1/continuity/restores/${id}`, { token: people.manager.token }).then((r) => r.body.data as Json),
      (r) => r.status === 'completed' || r.status === 'failed',
      20_000,
      200,
    );

  beforeAll(async () => {
    // the failure hook fires only for a restore into a farm of that name: the other restore completes
    api = await startOffline({
      fault: { name: 'restore interrupted after its first batch', env: { CONTINUITY_FAIL_AFTER_BATCHES: '1', CONTINUITY_FAIL_FARM_NAME: INTERRUPTED } },
    });
    const admin = await http('POST', '/api/v1/auth/login', { body: { email: api.admin.email, password: api.admin.password } });
    expectStatus(admin, 200, 'admin login');
    adminToken = admin.body.token;
    const farm = await http('POST', '/api/v1/config/farms', { token: adminToken, body: { name: 'Governance farm', timezone: 'UTC' } });
    expectStatus(farm, 201, 'POST farm');
    farmId = farm.body.data.id;
    const house = await http('POST', `/api/v1/config/farms/${farmId}/houses`, {
      token: adminToken,
      body: { name: 'House A', usableAreaM2: 1000, capacity: 30_000 },
    });
    expectStatus(house, 201, 'POST house');
    houseId = house.body.data.id;
    await person('manager', 'manager');
    await person('vet', 'veterinarian');

    await flockWithCycle('a', 'Flock A', day(-30), houseId);
    await move('a', { type: 'bird_inflow', date: day(-30), quantity: 20_000, averageWeightGrams: 42 });
    await move('a', { type: 'feed_delivery', date: day(-30), quantityKg: 60_000, feedType: 'grower', unitPrice: 0.4 });
    expectStatus(
      await http('POST', `${flocks.a.base}/weights`, { token: people.manager.token, body: { date: day(-2), grams: 2000, sampleSize: 100 } }),
      201,
      'POST weighing A',
    );
    await move('a', { type: 'medication', date: day(-3), product: PRODUCT, dose: '20 mg/kg', withdrawalDays: 7 });

    await flockWithCycle('b', 'Flock B', day(-12));
    await move('b', { type: 'bird_inflow', date: day(-12), quantity: 1000, averageWeightGrams: 42 });
    await move('b', { type: 'feed_delivery', date: day(-12), quantityKg: 2000, feedType: 'starter', unitPrice: 0.5 });
    for (const [i, offset] of [-11, -10, -9].entries()) {
      const record = await http('POST', `${flocks.b.base}/daily-records`, {
        token: people.manager.token,
        body: { date: day(offset), deaths: i + 1, feedKg: 30, feedType: 'starter', waterLiters: 60, temperatureMinC: 31, temperatureMaxC: 33, humidityPct: 60 },
      });
      expectStatus(record, 201, `POST daily record ${day(offset)}`);
    }
    expectStatus(
      await http('POST', `${flocks.b.base}/weights`, { token: people.manager.token, body: { date: day(-9), grams: 180, sampleSize: 50 } }),
      201,
      'POST weighing B',
    );
  }, 90_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('a bird sale on day 3 of a 7-day withdrawal is refused (409 naming the product and the end date); the veterinarian’s override passes and is audited', async () => {
    const sale = { type: 'bird_sale', date: day(0), quantity: 20 };
    const refused = await http('POST', `${flocks.a.base}/movements`, { token: people.manager.token, body: sale });
    expectStatus(refused, 409, 'POST sale in the window');
    expect(refused.body.error).toContain(PRODUCT);
    expect(refused.body.error).toContain(day(4));
    const reason = 'Residue test negative, laboratory certificate 2026-117';
    const overridden = await http('POST', `${flocks.a.base}/movements`, {
      token: people.vet.token,
      body: { ...sale, override: { reason } },
      headers: { 'Idempotency-Key': 'governance-override' },
    });
    expectStatus(overridden, 201, 'POST sale with the override');
    expect(overridden.body.data.override).toEqual({ reason });

    const audit = await http('GET', `/api/v1/admin/audit?targetId=${overridden.body.data.id}`, { token: adminToken });
    expectStatus(audit, 200, 'GET audit');
    const entry = (audit.body.data as Json[]).find((e) => e.action === 'compliance.withdrawal_override');
    expect(entry, JSON.stringify(audit.body.data)).toMatchObject({
      actorId: people.vet.id,
      targetType: 'movement',
      changes: { reason, windows: [expect.objectContaining({ product: PRODUCT, endDate: day(4) })] },
    });
    const summary = await http('GET', flocks.a.base, { token: people.manager.token });
    expect(summary.body.data.birds).toMatchObject({ sold: 20, alive: 19_980 });
  });

  it('the cycle over its density tier fails the compliance report, in JSON and in CSV', async () => {
    const path = `/api/v1/compliance/cycles/${flocks.a.flockId}/${flocks.a.cycleId}/report`;
    const json = await http('GET', path, { token: people.manager.token });
    expectStatus(json, 200, 'GET report');
    const density = (json.body.data.rules as Json[]).find((r) => r.rule === 'stocking_density')!;
    expect(density.status).toBe('fail');
    expect(density.findings).toContainEqual(
      expect.objectContaining({ status: 'fail', date: day(-2), evidence: expect.objectContaining({ houseId, value: 40, limit: 33, unit: 'kg/m2' }) }),
    );
    expect(json.body.data.status).toBe('fail');

    const csv = await http('GET', path, { token: people.manager.token, headers: { Accept: 'text/csv' } });
    expectStatus(csv, 200, 'GET report as CSV');
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('rule,title,source,ruleStatus,summary,findingStatus,date,message,evidence');
    const densityRows = lines.filter((l) => l.startsWith('stocking_density,'));
    expect(densityRows.length).toBeGreaterThanOrEqual(1);
    expect(densityRows.some((l) => l.includes(',fail,') && l.includes(day(-2)))).toBe(true);
  });

  it('the farm with two cycles, exported and restored under a new name: cycle summaries, KPIs and stock are equal', async () => {
    const created = await http('POST', '/api/v1/continuity/exports', {
      token: people.manager.token,
      body: { farmId },
      headers: { 'Idempotency-Key': 'governance-export' },
    });
    expectStatus(created, 202, 'POST export');
    exportId = created.body.data.id;
    const done = await pollUntil(
      () => http('GET', `/api/v1/continuity/exports/${exportId}`, { token: people.manager.token }).then((r) => r.body.data as Json),
      (e) => e.status === 'completed' || e.status === 'failed',
      20_000,
      200,
    );
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', farmId, error: null });
    expect(done.counts).toMatchObject({ farm: 1, flock: 2, cycle: 2 });

    const started = await restore('Governance farm (restored)');
    expectStatus(started, 202, 'POST restore');
    const r = await restoreDone(started.body.data.id);
    expect(r, JSON.stringify(r)).toMatchObject({ status: 'completed', sourceFarmId: farmId, error: null, checks: { mismatches: [] } });
    expect(r.farmId).not.toBe(farmId);
    const farm = await http('GET', `/api/v1/config/farms/${r.farmId}`, { token: people.manager.token });
    expectStatus(farm, 200, 'GET restored farm');
    expect(farm.body.data.name).toBe('Governance farm (restored)');

    const source = await figures(farmId);
    expect(Object.keys(source.cycles).sort()).toEqual([`Flock A/${day(-30)}`, `Flock B/${day(-12)}`]);
    expect(await figures(r.farmId)).toEqual(source);
  });

  it('a restore interrupted on purpose fails and leaves no half-written farm', async () => {
    const started = await restore(INTERRUPTED);
    expectStatus(started, 202, 'POST restore (interrupted)');
    const r = await restoreDone(started.body.data.id);
    expect(r, JSON.stringify(r)).toMatchObject({ status: 'failed' });
    expect(r.error).toMatch(/injected failure after 1 batches/);
    expect((await http('GET', `/api/v1/config/farms/${r.farmId}`, { token: adminToken })).status).toBe(404);
    const flocksOfIt = await http('GET', `/api/v1/flocks?farmId=${r.farmId}`, { token: adminToken });
    expect(flocksOfIt.status === 404 || flocksOfIt.body.data.length === 0, flocksOfIt.text).toBe(true);
    const farms = await http('GET', '/api/v1/config/farms?limit=100', { token: adminToken });
    expect((farms.body.data as Json[]).map((f) => f.name)).not.toContain(INTERRUPTED);
    // nothing left in the table: the farm's partition, its flock list (GSI1) and its movement list (GSI2)
    const db = localClient(inject('dynamoEndpoint'));
    try {
      const count = async (key: string, index?: { name: string; attr: string }) =>
        (
          await db.send(
            new QueryCommand({
              TableName: api.tableName,
              ...(index ? { IndexName: index.name } : {}),
              KeyConditionExpression: `${index?.attr ?? 'PK'} = :pk`,
              ExpressionAttributeValues: { ':pk': { S: key } },
              Select: 'COUNT',
            }),
          )
        ).Count;
      expect(await count(`FARM#${r.farmId}`)).toBe(0);
      expect(await count(`FLOCKS#${r.farmId}`, { name: 'GSI1', attr: 'GSI1PK' })).toBe(0);
      expect(await count(`MOVEMENTS#${r.farmId}`, { name: 'GSI2', attr: 'GSI2PK' })).toBe(0);
    } finally {
      db.destroy();
    }
  });
});
