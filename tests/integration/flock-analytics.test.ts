import { beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulidx';
import { call as inProcessCall } from '../support/api.js';
import { checkedCall } from '../support/contract.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { day } from '../support/cycles.js';
import { otherFarm } from '../support/farms.js';
import { dbCalls, resetDbCalls, totalDbCalls } from '../../shared/db/client.js';

/** Every JSON response is checked against the closed schema of its operation (tests/support/contract.ts). */
const call = checkedCall(inProcessCall);

/**
 * Flock analytics over the API, on a farm of its own (today = day 0; no hatch dates, so age counts from
 * each cycle's start date; "Ross 308" placement weight = 44 g, Cobb 500 = 42 g):
 *
 *   Alpha  broiler Ross 308  cycle A1 day −90 … closed day −55 (age 35): placed 1,000, 40 dead, feed 3,600 kg, 2,000 g on day −55
 *                              mortality 4 %, livability 96 %, FCR 3,600 ÷ (960 × 2.0 = 1,920) = 1.875,
 *                              ADG (2,000 − 44) ÷ 35 = 55.886 → 55.9, EPEF 96 × 2.0 × 100 ÷ (35 × 1.875) = 292.57 → 293
 *                            cycle A2 day −35 … active (age 35): placed 1,000, 20 dead, feed 3,100 kg, 2,200 g today
 *                              mortality 2 %, livability 98 %, FCR 3,100 ÷ (980 × 2.2 = 2,156) = 1.43785 → 1.438,
 *                              ADG (2,200 − 44) ÷ 35 = 61.6, EPEF 98 × 2.2 × 100 ÷ (35 × 1.43785) = 428.42 → 428
 *   Bravo  broiler Ross 308  day −35: placed 2,000, 100 dead, feed 6,000 kg, 2,100 g → FCR 6,000 ÷ (1,900 × 2.1) = 1.50376 → 1.504, livability 95 %
 *   Charlie broiler Cobb 500 day −35: placed 500, 5 dead, feed 1,700 kg, 2,400 g → FCR 1,700 ÷ (495 × 2.4) = 1.43098 → 1.431, livability 99 %,
 *                              EPEF 99 × 2.4 × 100 ÷ (35 × 1.43098) = 474.4 → 474
 *   Delta  layer             day −35: placed 300, 6 dead, feed 300 kg and 1,500 eggs on day −1 (its laying period) → livability 98 %,
 *                              hen-housed eggs 5, feed/dozen 300 × 12 ÷ 1,500 = 2.4
 *   Foxtrot broiler          day −10: placed 100 (nothing else); closed today and a second cycle started (placed 100, none dead)
 *   Echo   broiler           no cycle
 *
 *   ranking by FCR (lower first): Charlie 1.431, Alpha 1.438, Bravo 1.504, then by name Delta (broilers only), Echo (no active
 *     cycle), Foxtrot (no weighing)
 *   ranking by livability (higher first): Foxtrot 100, Charlie 99, Alpha 98 = Delta 98 (shared rank 3), Bravo 95 (rank 5), Echo
 */
const FA = '/api/v1/flock-analytics';
let farm: string;
let token: string;
const flocks: Record<string, { id: string; cycles: string[] }> = {};

async function post(path: string, body: unknown) {
  const res = await call('POST', path, { token, body });
  expect(res.status, `${path} ${res.raw.slice(0, 300)}`).toBeLessThan(300);
  return res.body.data;
}

async function flock(name: string, birdType: string, breed?: string) {
  const f = await post('/api/v1/flocks', { name, birdType, farmId: farm, ...(breed ? { breed } : {}) });
  flocks[name] = { id: f.id, cycles: [] };
  return f.id as string;
}

async function cycle(name: string, start: number, moves: Array<Record<string, unknown>>, weight?: { at: number; grams: number }) {
  const f = flocks[name]!;
  const c = await post(`/api/v1/flocks/${f.id}/cycles`, { startDate: day(start) });
  f.cycles.push(c.id);
  const base = `/api/v1/flocks/${f.id}/cycles/${c.id}`;
  for (const m of moves) await post(`${base}/movements`, m);
  if (weight) await post(`${base}/weights`, { date: day(weight.at), grams: weight.grams, sampleSize: 100 });
  return base;
}

const get = async (path: string, query?: Record<string, string>, as = token) => {
  const res = await call('GET', path, { token: as, query });
  expect(res.status, res.raw.slice(0, 500)).toBe(200);
  return res.body.data;
};

beforeAll(async () => {
  farm = await otherFarm('Flock analytics farm');
  token = (await userWith({ role: 'manager', farmIds: [farm] })).token;
  await flock('Alpha', 'broiler', 'Ross 308');
  const a1 = await cycle(
    'Alpha',
    -90,
    [
      { type: 'bird_inflow', date: day(-90), quantity: 1000 },
      { type: 'feed_delivery', date: day(-90), feedType: 'starter', quantityKg: 20000 },
      { type: 'bird_mortality', date: day(-80), quantity: 40 },
      { type: 'feed_consumption', date: day(-60), quantityKg: 3600 },
    ],
    { at: -55, grams: 2000 },
  );
  await post(`${a1}/close`, { endDate: day(-55) });
  await cycle(
    'Alpha',
    -35,
    [
      { type: 'bird_inflow', date: day(-35), quantity: 1000 },
      { type: 'bird_mortality', date: day(-30), quantity: 20 },
      { type: 'feed_consumption', date: day(-5), quantityKg: 3100 },
    ],
    { at: 0, grams: 2200 },
  );
  await flock('Bravo', 'broiler', 'Ross 308');
  await cycle(
    'Bravo',
    -35,
    [
      { type: 'bird_inflow', date: day(-35), quantity: 2000 },
      { type: 'bird_mortality', date: day(-20), quantity: 100 },
      { type: 'feed_consumption', date: day(-3), quantityKg: 6000 },
    ],
    { at: 0, grams: 2100 },
  );
  await flock('Charlie', 'broiler', 'Cobb 500');
  await cycle(
    'Charlie',
    -35,
    [
      { type: 'bird_inflow', date: day(-35), quantity: 500 },
      { type: 'bird_mortality', date: day(-20), quantity: 5 },
      { type: 'feed_consumption', date: day(-3), quantityKg: 1700 },
    ],
    { at: 0, grams: 2400 },
  );
  await flock('Delta', 'layer');
  await cycle('Delta', -35, [
    { type: 'bird_inflow', date: day(-35), quantity: 300 },
    { type: 'bird_mortality', date: day(-20), quantity: 6 },
    { type: 'feed_consumption', date: day(-1), quantityKg: 300 },
    { type: 'egg_collection', date: day(-1), totalEggs: 1500 },
  ]);
  await flock('Echo', 'broiler');
  await flock('Foxtrot', 'broiler');
  await cycle('Foxtrot', -10, [{ type: 'bird_inflow', date: day(-10), quantity: 100 }]);
});

const id = (name: string) => flocks[name]!.id;

describe('flock KPI history', () => {
  it('two cycles of one flock, oldest first, with their KPIs, the change vs the previous cycle and the best cycle', async () => {
    const h = await get(`${FA}/${id('Alpha')}`);
    expect(h.flock).toMatchObject({ id: id('Alpha'), name: 'Alpha', farmId: farm, breed: 'Ross 308', activeCycleId: flocks.Alpha!.cycles[1] });
    expect(h.complete).toBe(true);
    expect(h.cycles.map((c: { cycle: { id: string } }) => c.cycle.id)).toEqual(flocks.Alpha!.cycles);
    const [c1, c2] = h.cycles;
    expect(c1.cycle).toMatchObject({ status: 'closed', startDate: day(-90), endDate: day(-55), ageDays: 35 });
    expect(c1.kpis).toMatchObject({
      birdsHoused: { value: 1000 },
      birdsAlive: { value: 960 },
      mortalityPct: { value: 4, unit: '%' },
      livabilityPct: { value: 96 },
      feedConsumedKg: { value: 3600, unit: 'kg' },
      fcr: { value: 1.875, unit: 'kg/kg' },
      avgWeight: { value: 2000, date: day(-55) },
      ageDays: { value: 35 },
      adg: { value: 55.9, unit: 'g/day' },
      epef: { value: 293, unit: 'index' },
    });
    expect(c1.changes).toBeNull();
    expect(c2.cycle).toMatchObject({ status: 'active', startDate: day(-35), endDate: null, ageDays: 35 });
    expect(c2.kpis).toMatchObject({
      mortalityPct: { value: 2 },
      livabilityPct: { value: 98 },
      fcr: { value: 1.438 },
      adg: { value: 61.6 },
      epef: { value: 428 },
    });
    expect(c2.kpis.henHousedEggs).toMatchObject({ value: null, reason: 'layers and breeders only' });
    expect(c2.changes.fcr).toEqual({ previous: 1.875, delta: -0.437, unit: 'kg/kg', improved: true }); // 1.438 − 1.875, lower is better
    expect(c2.changes.livabilityPct).toEqual({ previous: 96, delta: 2, unit: '%', improved: true });
    expect(c2.changes.mortalityPct).toEqual({ previous: 4, delta: -2, unit: '%', improved: true });
    expect(c2.changes.epef).toEqual({ previous: 293, delta: 135, unit: 'index', improved: true });
    expect(c2.changes.feedConsumedKg).toEqual({ previous: 3600, delta: -500, unit: 'kg', improved: null });
    const [first, second] = flocks.Alpha!.cycles;
    expect(h.best.fcr).toEqual({ cycleId: second, figure: { value: 1.438, unit: 'kg/kg' } });
    expect(h.best.livabilityPct).toEqual({ cycleId: second, figure: { value: 98, unit: '%' } });
    expect(h.best.avgWeight).toEqual({ cycleId: second, figure: { value: 2200, unit: 'g' } });
    expect(h.best.henHousedEggs).toBeNull();
    expect(first).not.toBe(second);
  });

  it('a flock without cycles has an empty history', async () => {
    const h = await get(`${FA}/${id('Echo')}`);
    expect(h.cycles).toEqual([]);
    expect(h.best.fcr).toBeNull();
  });

  it('costs one Query whatever the number of cycles', async () => {
    resetDbCalls();
    await get(`${FA}/${id('Alpha')}`);
    // besides the caller's load (BatchGetItem) and the rate-limit counters (UpdateItem)
    expect(dbCalls.Query).toBe(1);
    // one more call, in parallel with the Query: the analytics configuration (its fallbacks decide the weight FCR and EPEF use)
    expect(dbCalls.GetItem ?? 0).toBe(1);
  });
});

describe('compare', () => {
  it('flocks (active cycle) and a named closed cycle side by side, with the best item per KPI', async () => {
    const [a1] = flocks.Alpha!.cycles;
    const c = await get(`${FA}/compare`, { flockIds: [id('Alpha'), id('Bravo'), id('Charlie')].join(','), cycles: `${id('Alpha')}:${a1}` });
    expect(c.items.map((i: { key: string; selectedBy: string }) => [i.key, i.selectedBy])).toEqual([
      [id('Alpha'), 'active_cycle'],
      [id('Bravo'), 'active_cycle'],
      [id('Charlie'), 'active_cycle'],
      [`${id('Alpha')}:${a1}`, 'named'],
    ]);
    expect(c.items.map((i: { kpis: { fcr: { value: number } } }) => i.kpis.fcr.value)).toEqual([1.438, 1.504, 1.431, 1.875]);
    expect(c.items[3].cycle).toMatchObject({ id: a1, status: 'closed' });
    expect(c.best.fcr).toMatchObject({ item: 2, flockId: id('Charlie'), figure: { value: 1.431, unit: 'kg/kg' } });
    expect(c.best.livabilityPct).toMatchObject({ item: 2, figure: { value: 99, unit: '%' } });
    expect(c.best.mortalityPct).toMatchObject({ item: 2, figure: { value: 1, unit: '%' } });
    expect(c.best.avgWeight).toMatchObject({ item: 2, figure: { value: 2400, unit: 'g' } });
    expect(c.best.henHousedEggs).toBeNull();
  });

  it('a flock without an active cycle stands for its latest cycle; one without any cycle has no KPIs', async () => {
    // close Foxtrot’s only cycle: it now stands for it as its latest
    const fox = flocks.Foxtrot!;
    await post(`/api/v1/flocks/${fox.id}/cycles/${fox.cycles[0]}/close`, { endDate: day(0) });
    const c = await get(`${FA}/compare`, { flockIds: `${fox.id},${id('Echo')}` });
    expect(c.items[0]).toMatchObject({ selectedBy: 'latest_cycle', cycle: { id: fox.cycles[0], status: 'closed' }, kpis: { birdsHoused: { value: 100 } } });
    expect(c.items[1]).toMatchObject({ selectedBy: 'none', cycle: null, kpis: { fcr: { value: null, reason: `flock ${id('Echo')} has no cycle yet` } } });
    // and a new active cycle for Foxtrot, for the rankings below
    await cycle('Foxtrot', 0, [{ type: 'bird_inflow', date: day(0), quantity: 100 }]);
  });

  it('400 naming the problem: 1 or 11 items, duplicates, malformed pairs, nothing named, the same cycle twice', async () => {
    const ids11 = Array.from({ length: 11 }, () => ulid()).join(',');
    for (const [query, field, message] of [
      [{ flockIds: id('Alpha') }, 'query.flockIds', 'compare takes 2 to 10 items (flocks and cycles together); got 1'],
      [{ flockIds: ids11 }, 'query.flockIds', 'compare takes 2 to 10 items (flocks and cycles together); got 11'],
      [{ flockIds: `${id('Alpha')},${id('Alpha')}` }, 'query.flockIds', `flock ${id('Alpha')} is named twice`],
      [{ flockIds: id('Alpha'), cycles: `${id('Bravo')}-x` }, 'query.cycles', `item 1 "${id('Bravo')}-x" is not flockId:cycleId (two ULIDs)`],
      [{}, 'query.flockIds', undefined],
      [
        { flockIds: id('Alpha'), cycles: `${id('Alpha')}:${flocks.Alpha!.cycles[1]}` },
        'query.flockIds',
        `flock ${id('Alpha')} stands for its cycle ${flocks.Alpha!.cycles[1]}, which is also named: compare each cycle once`,
      ],
    ] as Array<[Record<string, string>, string, string | undefined]>) {
      const res = await call('GET', `${FA}/compare`, { token, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.details, res.raw).toContainEqual(message ? { field, message } : expect.objectContaining({ field }));
      if (message) expect(res.body.error).toContain(message);
    }
  });

  it('costs the same number of DynamoDB calls for 2 flocks as for 5', async () => {
    const count = async (names: string[]) => {
      resetDbCalls();
      await get(`${FA}/compare`, { flockIds: names.map(id).join(',') });
      return { total: totalDbCalls(), ...dbCalls } as Record<string, number>;
    };
    const two = await count(['Alpha', 'Bravo']);
    const five = await count(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Foxtrot']);
    // the broilers cost nothing more; Delta is a layer: its layer figures count its days, so its daily rollups (one
    // Query) and its farm's time zone (one BatchGetItem: the farm's today) are read besides
    expect(five).toEqual({ ...two, BatchGetItem: two.BatchGetItem! + 1, Query: 1, total: two.total! + 2 });
    expect(two.BatchGetItem).toBe(3); // the caller's load + the flocks + their active cycles
    expect(two.Query ?? 0).toBe(0);
  });
});

describe('ranking', () => {
  it('by FCR: lowest first; flocks without a value last, with the reason', async () => {
    const r = await get(`${FA}/ranking`, { kpi: 'fcr' });
    expect(r).toMatchObject({ farmId: farm, status: 'active', total: 6, ranked: 3, complete: true, kpi: { name: 'fcr', unit: 'kg/kg', better: 'lower' } });
    expect(
      r.flocks.map((f: { flock: { name: string }; rank: number | null; figure: { value: number | null } }) => [f.flock.name, f.rank, f.figure.value]),
    ).toEqual([
      ['Charlie', 1, 1.431],
      ['Alpha', 2, 1.438],
      ['Bravo', 3, 1.504],
      ['Delta', null, null],
      ['Echo', null, null],
      ['Foxtrot', null, null],
    ]);
    const reasons = Object.fromEntries(r.flocks.map((f: { flock: { name: string }; figure: { reason?: string } }) => [f.flock.name, f.figure.reason]));
    expect(reasons).toMatchObject({
      Delta: 'broilers only (layers: feed per egg and per dozen eggs)',
      Echo: 'no active cycle',
      Foxtrot: 'no body weight: no weighing yet',
    });
    expect(r.flocks[0]).toMatchObject({ selectedBy: 'active_cycle', cycle: { id: flocks.Charlie!.cycles[0] }, figure: { unit: 'kg/kg' } });
  });

  it('by livability: highest first, equal values share a rank; limit cuts the list', async () => {
    const r = await get(`${FA}/ranking`, { kpi: 'livabilityPct' });
    // Foxtrot 100 placed, none dead: 100 %; Charlie 99; Alpha 98 = Delta 98; Bravo 95
    expect(
      r.flocks.map((f: { flock: { name: string }; rank: number | null; figure: { value: number | null } }) => [f.flock.name, f.rank, f.figure.value]),
    ).toEqual([
      ['Foxtrot', 1, 100],
      ['Charlie', 2, 99],
      ['Alpha', 3, 98],
      ['Delta', 3, 98],
      ['Bravo', 5, 95],
      ['Echo', null, null],
    ]);
    const top = await get(`${FA}/ranking`, { kpi: 'livabilityPct', limit: '2' });
    expect(top.flocks.map((f: { flock: { name: string } }) => f.flock.name)).toEqual(['Foxtrot', 'Charlie']);
    expect(top.total).toBe(6);
    const eggs = await get(`${FA}/ranking`, { kpi: 'feedPerDozenEggs' });
    expect(eggs.flocks[0]).toMatchObject({ rank: 1, figure: { value: 2.4, unit: 'kg/dozen' }, flock: { name: 'Delta' } }); // 300 × 12 ÷ 1,500
  });

  it('costs the same number of DynamoDB calls for 2 flocks as for 5', async () => {
    // a second farm with two flocks, each with an active cycle (no movements needed for the count)
    const small = await otherFarm('Two flocks');
    const other = (await userWith({ role: 'manager', farmIds: [small] })).token;
    for (const name of ['One', 'Two']) {
      const f = await call('POST', '/api/v1/flocks', { token: other, body: { name, birdType: 'broiler', farmId: small } });
      expect((await call('POST', `/api/v1/flocks/${f.body.data.id}/cycles`, { token: other, body: { startDate: day(-5) } })).status).toBe(201);
    }
    const count = async (as: string) => {
      resetDbCalls();
      const data = await get(`${FA}/ranking`, { kpi: 'fcr' }, as);
      return {
        flocksWithCycle: data.flocks.filter((f: { cycle: unknown }) => f.cycle).length,
        calls: { total: totalDbCalls(), ...dbCalls } as Record<string, number>,
      };
    };
    const two = await count(other);
    const five = await count(token); // Alpha, Bravo, Charlie, Delta, Foxtrot (+ Echo without a cycle)
    expect(two.flocksWithCycle).toBe(2);
    expect(five.flocksWithCycle).toBe(5);
    expect(five.calls).toEqual(two.calls);
    expect(two.calls).toMatchObject({ Query: 1, BatchGetItem: 2 }); // the farm's flocks; the caller's load + the farm and the active cycles
  });

  it('status=all: a flock without an active cycle ranks by its latest cycle', async () => {
    // close Bravo: with status=active it has no value, with status=all its closed cycle counts
    const bravo = flocks.Bravo!;
    await post(`/api/v1/flocks/${bravo.id}/cycles/${bravo.cycles[0]}/close`, { endDate: day(0) });
    const active = await get(`${FA}/ranking`, { kpi: 'fcr' });
    expect(active.flocks.find((f: { flock: { name: string } }) => f.flock.name === 'Bravo')).toMatchObject({
      rank: null,
      figure: { value: null, reason: 'no active cycle' },
    });
    const all = await get(`${FA}/ranking`, { kpi: 'fcr', status: 'all' });
    expect(all.flocks.slice(0, 3).map((f: { flock: { name: string }; selectedBy: string }) => [f.flock.name, f.selectedBy])).toEqual([
      ['Charlie', 'active_cycle'],
      ['Alpha', 'active_cycle'],
      ['Bravo', 'latest_cycle'],
    ]);
    expect(all.flocks.find((f: { flock: { name: string } }) => f.flock.name === 'Echo')).toMatchObject({ figure: { value: null, reason: 'no cycle yet' } });
  });

  it('400: an unknown KPI lists the allowed values; an admin must name the farm', async () => {
    const res = await call('GET', `${FA}/ranking`, { token, query: { kpi: 'happiness' } });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      {
        field: 'query.kpi',
        message:
          'must be one of: fcr, livabilityPct, mortalityPct, epef, adg, avgWeight, henHousedEggs, feedPerEgg, feedPerDozenEggs, henDayPct, eggMassGrams, feedPerKgEgg',
      },
    ]);
    const admin = await adminLogin();
    const noFarm = await call('GET', `${FA}/ranking`, { token: admin });
    expect(noFarm.status).toBe(400);
    expect(noFarm.body.details[0].field).toBe('query.farmId');
    // EPEF, higher first: Charlie 99 × 2.4 × 100 ÷ (35 × 1.430976) = 23,760 ÷ 50.0842 = 474.4 → 474; Alpha 428
    const epef = await get(`${FA}/ranking`, { farmId: farm, kpi: 'epef' }, admin);
    expect(
      epef.flocks.slice(0, 2).map((f: { flock: { name: string }; figure: { value: number; unit: string } }) => [f.flock.name, f.figure.value, f.figure.unit]),
    ).toEqual([
      ['Charlie', 474, 'index'],
      ['Alpha', 428, 'index'],
    ]);
    const missing = await call('GET', `${FA}/ranking`, { token: admin, query: { farmId: ulid() } });
    expect(missing.status).toBe(404);
  });
});

describe('KPI catalogue', () => {
  it('lists the rankable KPIs with unit, description and direction', async () => {
    const kpis = await get(`${FA}/kpis`);
    expect(kpis.map((k: { name: string; better: string }) => [k.name, k.better])).toEqual([
      ['fcr', 'lower'],
      ['livabilityPct', 'higher'],
      ['mortalityPct', 'lower'],
      ['epef', 'higher'],
      ['adg', 'higher'],
      ['avgWeight', 'higher'],
      ['henHousedEggs', 'higher'],
      ['feedPerEgg', 'lower'],
      ['feedPerDozenEggs', 'lower'],
      ['henDayPct', 'higher'],
      ['eggMassGrams', 'higher'],
      ['feedPerKgEgg', 'lower'],
    ]);
    for (const k of kpis) expect(k).toMatchObject({ unit: expect.any(String), description: expect.any(String) });
  });
});

describe('access', () => {
  let stranger: { flockId: string; cycleId: string };
  beforeAll(async () => {
    const far = await otherFarm('Someone else’s farm');
    const owner = (await userWith({ role: 'manager', farmIds: [far] })).token;
    const f = await call('POST', '/api/v1/flocks', { token: owner, body: { name: 'Secret flock', birdType: 'broiler', farmId: far } });
    const c = await call('POST', `/api/v1/flocks/${f.body.data.id}/cycles`, { token: owner, body: { startDate: day(-5) } });
    stranger = { flockId: f.body.data.id, cycleId: c.body.data.id };
  });

  it('another farm’s flock is 404 exactly like a missing one, on every route', async () => {
    const ghost = ulid();
    const hist = await call('GET', `${FA}/${stranger.flockId}`, { token });
    const none = await call('GET', `${FA}/${ghost}`, { token });
    expect([hist.status, none.status]).toEqual([404, 404]);
    expect(hist.body).toEqual({ error: `Flock ${stranger.flockId} not found` });
    expect(none.body).toEqual({ error: `Flock ${ghost} not found` });
    expect(hist.raw).not.toContain('Secret');

    const cmp = await call('GET', `${FA}/compare`, { token, query: { flockIds: `${id('Alpha')},${stranger.flockId}` } });
    expect(cmp.status).toBe(404);
    expect(cmp.body).toEqual({ error: `Flock ${stranger.flockId} not found` });
    const pair = await call('GET', `${FA}/compare`, { token, query: { flockIds: id('Alpha'), cycles: `${stranger.flockId}:${stranger.cycleId}` } });
    expect(pair.body).toEqual({ error: `Flock ${stranger.flockId} not found` });
    const ownFlockWrongCycle = await call('GET', `${FA}/compare`, { token, query: { flockIds: id('Bravo'), cycles: `${id('Alpha')}:${stranger.cycleId}` } });
    expect(ownFlockWrongCycle.status).toBe(404);
    expect(ownFlockWrongCycle.body).toEqual({ error: `Cycle ${stranger.cycleId} of flock ${id('Alpha')} not found` });

    const rank = await call('GET', `${FA}/ranking`, { token, query: { farmId: await otherFarm('Not mine') } });
    expect(rank.status).toBe(404);
  });

  it('403 without view_analytics', async () => {
    const none = await userWith({ role: 'viewer', capabilities: [], farmIds: [farm] });
    for (const [path, query] of [
      [`${FA}/${id('Alpha')}`],
      [`${FA}/compare`, { flockIds: `${id('Alpha')},${id('Bravo')}` }],
      [`${FA}/ranking`],
      [`${FA}/kpis`],
    ] as Array<[string, Record<string, string>?]>) {
      const res = await call('GET', path, { token: none.token, query });
      expect(res.status, path).toBe(403);
      expect(res.body.error).toContain('view_analytics');
    }
  });
});
