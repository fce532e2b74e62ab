import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { defaultFarmId, house, otherFarm } from '../support/farms.js';
import { dbCalls, resetDbCalls } from '../../shared/db/client.js';

/** A calendar date `offset` days from today (UTC): the tests never depend on the day they run. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const START = day(-20);

async function setup(opts: { birdType?: string; farmId?: string; token?: string; hatchDate?: string; houseId?: string } = {}) {
  const m = opts.token ? { token: opts.token } : await userWith({ role: 'manager' });
  const flockRes = await call('POST', '/api/v1/flocks', {
    token: m.token,
    body: {
      name: 'Weighed',
      birdType: opts.birdType ?? 'broiler',
      hatchDate: opts.hatchDate ?? START,
      ...(opts.farmId ? { farmId: opts.farmId } : {}),
      ...(opts.houseId ? { houseId: opts.houseId } : {}),
    },
  });
  expect(flockRes.status, JSON.stringify(flockRes.body)).toBe(201);
  const flock = flockRes.body.data;
  const cycle = (await call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token: m.token, body: { startDate: START } })).body.data;
  const base = `/api/v1/flocks/${flock.id}/cycles/${cycle.id}`;
  const weigh = (body: Record<string, unknown>, headers?: Record<string, string>) => call('POST', `${base}/weights`, { token: m.token, body, headers });
  const weights = async (query?: Record<string, string>) => {
    const res = await call('GET', `${base}/weights`, { token: m.token, query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  // bird scales registered in the flock's farm, by the names the tests give them ('scale-1' → its device id)
  const devices = new Map<string, Promise<string>>();
  let scaleHouse: Promise<string> | undefined;
  const device = (name: string) => {
    if (!devices.has(name))
      devices.set(
        name,
        (async () => {
          if (!opts.houseId && !scaleHouse) scaleHouse = house(flock.farmId, `Scales ${name}`);
          const houseId = opts.houseId ?? (await scaleHouse!);
          const res = await call('POST', '/api/v1/iot/devices', { token: m.token, body: { farmId: flock.farmId, houseId, kind: 'scale', name } });
          expect(res.status, res.raw).toBe(201);
          return res.body.data.id as string;
        })(),
      );
    return devices.get(name)!;
  };
  /** A batch; a `deviceId` that is a valid id names a scale of the farm (registered on first use), any other is sent as is. */
  const scale = async (body: Record<string, unknown>, headers?: Record<string, string>) => {
    const name = body.deviceId;
    const deviceId = typeof name === 'string' && /^[A-Za-z0-9_.:-]+$/.test(name) ? await device(name) : name;
    return call('POST', '/api/v1/scale', { token: m.token, body: { flockId: flock.id, ...body, deviceId }, headers });
  };
  const move = (body: Record<string, unknown>) => call('POST', `${base}/movements`, { token: m.token, body });
  const summary = async () => (await call('GET', base, { token: m.token })).body.data;
  return { token: m.token, flock, cycle, base, weigh, weights, scale, device, move, summary };
}

const at = (date: string, time = '08:00:00Z') => `${date}T${time}`;

describe('weights of a cycle', () => {
  it('records a single average and a list of individual weighings; GET returns the contract’s shape in date order', async () => {
    const c = await setup();
    const avg = await c.weigh({ date: day(-13), grams: 180 });
    expect(avg.status, JSON.stringify(avg.body)).toBe(201);
    expect(avg.body.data).toMatchObject({
      date: day(-13),
      grams: 180,
      method: 'manual_sample',
      confidence: 'low',
      phase: 'brooding',
      daysInCycle: 7,
      ageDays: 7,
      sampleSize: null,
      sd: null,
      cv: null,
      uniformityPct: null,
      latestWeightUpdated: true,
    });
    // mean 520, deviations −40 −20 0 20 40 → 4000/4 = 1000, SD 31.6, CV 6.08 %, band [468, 572] holds all five
    const samples = await c.weigh({ date: day(-6), samples: [480, 500, 520, 540, 560], notes: 'pen 3' });
    expect(samples.status).toBe(201);
    expect(samples.body.data).toMatchObject({
      grams: 520,
      sampleSize: 5,
      sd: 31.6,
      cv: 6.08,
      uniformityPct: 100,
      confidence: 'low',
      phase: 'growing',
      daysInCycle: 14,
      notes: 'pen 3',
    });
    resetDbCalls();
    const avg100 = await c.weigh({ date: day(-9), grams: 300, sampleSize: 150 });
    // the cycle with its flock (one BatchGetItem, besides the caller's: the flock names the house weighed in), then the session and
    // the cycle's latest-weight check in one transaction (the alarms it starts run in their own function:
    // tests/support/lambda.ts)
    expect({
      GetItem: dbCalls.GetItem,
      BatchGetItem: dbCalls.BatchGetItem,
      TransactWriteItems: dbCalls.TransactWriteItems,
      Query: dbCalls.Query,
    }).toEqual({
      GetItem: undefined,
      BatchGetItem: 2,
      TransactWriteItems: 1,
      Query: undefined,
    });
    expect(avg100.body.data).toMatchObject({ confidence: 'medium', sampleSize: 150, latestWeightUpdated: false });

    resetDbCalls();
    const list = await c.weights();
    expect({ GetItem: dbCalls.GetItem, BatchGetItem: dbCalls.BatchGetItem, Query: dbCalls.Query, TransactWriteItems: dbCalls.TransactWriteItems }).toEqual({
      GetItem: undefined,
      BatchGetItem: 2,
      Query: 1,
      TransactWriteItems: undefined,
    });
    expect(list.map((w) => w.date)).toEqual([day(-13), day(-9), day(-6)]);
    for (const w of list) {
      expect(typeof w.date).toBe('string');
      expect(w.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(typeof w.grams).toBe('number');
      expect(['manual_sample', 'automatic_scale', 'estimated']).toContain(w.method);
      expect(['high', 'medium', 'low']).toContain(w.confidence);
      expect(['brooding', 'growing', 'finishing', 'rearing', 'laying', 'molting']).toContain(w.phase);
      expect(Number.isInteger(w.daysInCycle)).toBe(true);
      expect(w).not.toHaveProperty('samples');
    }
    expect(list.map((w) => w.daysInCycle)).toEqual([7, 11, 14]);
    expect((await c.weights({ from: day(-10), to: day(-7) })).map((w) => w.grams)).toEqual([300]);
    const paged = await call('GET', `${c.base}/weights`, { token: c.token, query: { limit: '2' } });
    expect(paged.body.data).toHaveLength(2);
    const rest = await call('GET', `${c.base}/weights`, { token: c.token, query: { limit: '2', cursor: paged.body.page.nextCursor } });
    expect(rest.body.data.map((w: { date: string }) => w.date)).toEqual([day(-6)]);
  });

  it('phase follows the hatch date: pullets placed at 18 weeks weigh in as laying', async () => {
    const c = await setup({ birdType: 'layer', hatchDate: day(-146) });
    const res = await c.weigh({ date: day(-20), grams: 1450 });
    expect(res.body.data).toMatchObject({ phase: 'laying', daysInCycle: 0, ageDays: 126 });
    const c2 = await setup({ birdType: 'layer' });
    expect((await c2.weigh({ date: day(-20), grams: 40 })).body.data.phase).toBe('brooding');
  });

  it('the cycle summary takes the latest weight for its FCR; an older weighing does not replace a newer one', async () => {
    const c = await setup();
    for (const mv of [
      { type: 'bird_inflow', date: START, quantity: 1000 },
      { type: 'feed_delivery', date: START, feedType: 'starter', quantityKg: 2000 },
      { type: 'feed_consumption', date: day(-7), quantityKg: 500 },
      { type: 'bird_mortality', date: day(-8), quantity: 10 },
    ])
      expect((await c.move(mv)).status, mv.type).toBe(201);
    expect((await c.summary()).kpis.fcr).toEqual({ value: null, unit: 'kg/kg', reason: 'no body weight: no weighing yet' });

    expect((await c.weigh({ date: day(-6), grams: 520 })).body.data.latestWeightUpdated).toBe(true);
    let s = await c.summary();
    expect(s.latestWeight).toEqual({ date: day(-6), grams: 520 });
    // 500 kg ÷ (990 birds × 0.520 kg) = 500 ÷ 514.8 = 0.97125… → 0.971
    expect(s.kpis.fcr).toMatchObject({ value: 0.971, unit: 'kg/kg' });

    const older = await c.weigh({ date: day(-10), grams: 300 });
    expect(older.status).toBe(201);
    expect(older.body.data.latestWeightUpdated).toBe(false);
    s = await c.summary();
    expect(s.latestWeight).toEqual({ date: day(-6), grams: 520 });

    // the same date again: the last one written wins
    expect((await c.weigh({ date: day(-6), samples: [540, 560] })).body.data.latestWeightUpdated).toBe(true);
    s = await c.summary();
    expect(s.latestWeight).toEqual({ date: day(-6), grams: 550 });
    // 500 ÷ (990 × 0.55) = 500 ÷ 544.5 = 0.91827… → 0.918
    expect(s.kpis.fcr).toMatchObject({ value: 0.918, unit: 'kg/kg' });
  });

  it('a closed cycle takes no weighings (409), neither manual nor from a scale', async () => {
    const c = await setup();
    expect((await c.weigh({ date: day(-5), grams: 600 })).status).toBe(201);
    expect((await call('POST', `${c.base}/close`, { token: c.token, body: { endDate: day(-1) } })).status).toBe(200);
    const res = await c.weigh({ date: day(-2), grams: 700 });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Cycle ${c.cycle.id} is closed; it takes no new weighings`);
    const batch = await c.scale({ deviceId: 'scale-1', cycleId: c.cycle.id, weighings: [{ at: at(day(-2)), grams: 700 }] });
    expect(batch.status).toBe(409);
    const noActive = await c.scale({ deviceId: 'scale-1', weighings: [{ at: at(day(-2)), grams: 700 }] });
    expect(noActive.status).toBe(409);
    expect(noActive.body.error).toMatch(/has no active cycle/);
    expect((await c.weights()).map((w) => w.grams)).toEqual([600]);
    expect((await c.summary()).latestWeight).toEqual({ date: day(-5), grams: 600 });
  });

  it('validates: exactly one of grams or samples, positive weights, at most 1000 samples, dates within the cycle and not in the future', async () => {
    const c = await setup();
    const cases: Array<[Record<string, unknown>, Array<{ field: string; message?: string }>]> = [
      [
        { date: day(-5), grams: 500, samples: [500] },
        [{ field: 'body.samples', message: 'send either grams (one average) or samples (individual weighings), not both' }],
      ],
      [{ date: day(-5) }, [{ field: 'body.grams', message: 'is required unless samples (individual weighings) are sent' }]],
      [{ date: day(-5), grams: -3 }, [{ field: 'body.grams', message: 'must be >= 1' }]],
      [
        { date: day(-5), samples: [500, -1, 0] },
        [
          { field: 'body.samples.1', message: 'must be >= 1' },
          { field: 'body.samples.2', message: 'must be >= 1' },
        ],
      ],
      [{ date: day(-5), samples: Array(1001).fill(500) }, [{ field: 'body.samples', message: 'must NOT have more than 1000 items' }]],
      [{ date: day(-5), samples: [] }, [{ field: 'body.samples', message: 'must NOT have fewer than 1 items' }]],
      [{ date: day(-5), samples: [500], sampleSize: 3 }, [{ field: 'body.sampleSize' }]],
      [{ date: day(-5), grams: 20_000 }, [{ field: 'body.grams', message: 'must be <= 10000' }]],
      [{ date: day(-21), grams: 40 }, [{ field: 'body.date', message: `must not be before the cycle's start date ${START}` }]],
      [{ date: day(2), grams: 900 }, [{ field: 'body.date', message: 'must not be in the future' }]],
      [{ date: 'tomorrow', grams: 900, extra: 1 }, [{ field: 'body.date' }, { field: 'body.extra', message: 'is not allowed' }]],
    ];
    for (const [body, details] of cases) {
      const res = await c.weigh(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toBeTypeOf('string');
      expect(res.body.details, JSON.stringify(body).slice(0, 80)).toHaveLength(details.length);
      expect(res.body.details, JSON.stringify(body).slice(0, 80)).toEqual(expect.arrayContaining(details.map((d) => expect.objectContaining(d))));
    }
    expect(await c.weights()).toEqual([]);
    expect((await c.weigh({ date: day(0), grams: 900 })).status).toBe(201); // today is fine
  });

  it('retries with one Idempotency-Key store one record, also when they race; another body is 422', async () => {
    const c = await setup();
    const body = { date: day(-4), samples: [800, 820, 840] };
    const key = { 'Idempotency-Key': 'weigh-7c1d' };
    const racing = await Promise.all([1, 2, 3, 4].map(() => c.weigh(body, key)));
    expect(racing.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(racing.map((r) => r.body.data.id)).size).toBe(1);
    expect(racing.filter((r) => r.headers['Idempotent-Replayed'] === 'true')).toHaveLength(3);
    expect(await c.weights()).toHaveLength(1);
    const other = await c.weigh({ ...body, samples: [800] }, key);
    expect(other).toMatchObject({ status: 422, body: { error: 'Idempotency-Key was already used with a different request' } });
    expect(await c.weights()).toHaveLength(1);
  });

  it('another farm’s cycle is 404 on every weights route, the scale included', async () => {
    const farmA = await otherFarm('Weights A');
    const a = await userWith({ role: 'manager', farmIds: [farmA] });
    const b = await userWith({ role: 'manager', farmIds: [await otherFarm('Weights B')] });
    const c = await setup({ farmId: farmA, token: a.token });
    expect((await c.weigh({ date: day(-3), grams: 900 })).status).toBe(201);
    const weighings = [{ at: at(day(-3)), grams: 900 }];
    for (const [method, path, body] of [
      ['GET', `${c.base}/weights`, undefined],
      ['POST', `${c.base}/weights`, { date: day(-3), grams: 950 }],
      ['POST', '/api/v1/scale', { deviceId: 'intruder', flockId: c.flock.id, weighings }],
      ['POST', '/api/v1/scale', { deviceId: 'intruder', flockId: c.flock.id, cycleId: c.cycle.id, weighings }],
    ] as const) {
      const res = await call(method, path, { token: b.token, body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(404);
    }
    expect((await c.weights()).map((w) => w.grams)).toEqual([900]);
    // a viewer of the farm may read but not weigh
    const viewer = await userWith({ role: 'viewer', farmIds: [farmA] });
    expect((await call('GET', `${c.base}/weights`, { token: viewer.token })).status).toBe(200);
    expect((await call('POST', `${c.base}/weights`, { token: viewer.token, body: { date: day(-3), grams: 950 } })).status).toBe(403);
    expect((await call('POST', '/api/v1/scale', { token: viewer.token, body: { deviceId: 'd', flockId: c.flock.id, weighings } })).status).toBe(403);
  });
});

describe('automatic scales', () => {
  it('groups a batch per day, rejects implausible readings, outliers and readings outside the cycle, and reports the counts', async () => {
    const c = await setup();
    const d1 = day(-3);
    const d2 = day(-2);
    const weighings = [
      // d1: 1900, 2000, 2100 kept; 0 and 12000 implausible; 5000 beyond +50 % of the median (2000)
      { at: at(d1, '06:00:00+02:00'), grams: 1900 },
      { at: at(d1, '06:01:00+02:00'), grams: 2000 },
      { at: at(d1, '06:02:00+02:00'), grams: 2100 },
      { at: at(d1, '06:03:00+02:00'), grams: 0 },
      { at: at(d1, '06:04:00+02:00'), grams: 12_000 },
      { at: at(d1, '06:05:00+02:00'), grams: 5000 },
      // d2: 2080, 2120, 2150, 2050 kept; −4 implausible
      { at: at(d2), grams: 2080 },
      { at: at(d2), grams: 2120 },
      { at: at(d2), grams: 2150 },
      { at: at(d2), grams: 2050 },
      { at: at(d2), grams: -4 },
      // before the cycle started, and tomorrow
      { at: at(day(-25)), grams: 45 },
      { at: at(day(1)), grams: 2300 },
    ];
    const scale1 = await c.device('scale-1');
    resetDbCalls();
    const res = await c.scale({ deviceId: 'scale-1', cycleId: c.cycle.id, weighings });
    const calls = { ...dbCalls };
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(calls.TransactWriteItems).toBe(1);
    expect(calls.GetItem ?? 0).toBe(0); // flock, cycle, the scale and the stored days came in the one BatchGetItem (plus the caller's)
    expect(calls.BatchGetItem).toBe(2);
    expect(res.body.data).toMatchObject({
      deviceId: scale1,
      flockId: c.flock.id,
      cycleId: c.cycle.id,
      accepted: 7,
      rejected: 6,
      rejectedBy: { implausible: 3, outlier: 1, outsideCycle: 2 },
      latestWeightUpdated: true,
    });
    const days = res.body.data.days as Array<{ date: string; accepted: number; rejected: number; session: Record<string, unknown> | null }>;
    expect(days.map((d) => [d.date, d.accepted, d.rejected])).toEqual([
      [day(-25), 0, 1],
      [d1, 3, 3],
      [d2, 4, 1],
      [day(1), 0, 1],
    ]);
    expect(days[0]!.session).toBeNull();
    // d1: mean 2000, SD 100 (20000/2), CV 5 %; d2: mean 8400/4 = 2100, deviations −20 20 50 −50 → 5800/3 = 1933.3, SD 43.97 → 44.0, CV 2.09 %
    expect(days[1]!.session).toMatchObject({
      method: 'automatic_scale',
      grams: 2000,
      sampleSize: 3,
      sd: 100,
      cv: 5,
      uniformityPct: 100,
      deviceId: scale1,
      confidence: 'low',
      daysInCycle: 17,
    });
    expect(days[2]!.session).toMatchObject({ grams: 2100, sampleSize: 4, sd: 44, cv: 2.09, uniformityPct: 100, daysInCycle: 18, phase: 'growing' });

    const list = await c.weights();
    expect(list.map((w) => [w.date, w.method, w.id, w.grams])).toEqual([
      [d1, 'automatic_scale', scale1, 2000],
      [d2, 'automatic_scale', scale1, 2100],
    ]);
    expect((await c.summary()).latestWeight).toEqual({ date: d2, grams: 2100 });
  });

  it('a second batch for the same device and day merges into its session; another device gets its own', async () => {
    const c = await setup();
    const d = day(-1);
    const first = await c.scale({ deviceId: 'scale-A', weighings: [1850, 1950, 2000].map((g, i) => ({ at: at(d, `07:0${i}:00Z`), grams: g })) });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.cycleId).toBe(c.cycle.id); // the active cycle when none is sent
    const second = await c.scale({ deviceId: 'scale-A', weighings: [2050, 2150, 4100].map((g, i) => ({ at: at(d, `09:0${i}:00Z`), grams: g })) });
    expect(second.body.data).toMatchObject({ accepted: 2, rejected: 1, rejectedBy: { outlier: 1, implausible: 0, outsideCycle: 0 } });
    // 4100 is judged against the merged day's median (≈ 2000 → band [1000, 3000]) and goes.
    // merged: 1850 1950 2000 2050 2150 → mean 2000; deviations ±150 ±50 0 → 50000/4 = 12500, SD 111.8, CV 5.59 %; all within [1800, 2200]
    const session = second.body.data.days[0].session;
    expect(session).toMatchObject({ grams: 2000, sampleSize: 5, sd: 111.8, cv: 5.59, uniformityPct: 100 });
    await c.scale({ deviceId: 'scale-B', weighings: [{ at: at(d), grams: 1500 }] });
    const list = await c.weights();
    // sessions of one day in device id order: scale-A was registered first
    expect(list.map((w) => [w.id, w.sampleSize, w.grams])).toEqual([
      [await c.device('scale-A'), 5, 2000],
      [await c.device('scale-B'), 1, 1500],
    ]);
    expect((await c.summary()).latestWeight).toEqual({ date: d, grams: 1500 });
  });

  it('many readings from one device: high confidence; a retried upload with its Idempotency-Key counts once', async () => {
    const c = await setup();
    const d = day(-1);
    // 200 readings: 1900 and 2100 alternating → mean 2000, SD √(200·100²/199) = 100.25, CV 5.01 %, all within ±10 %
    const weighings = Array.from({ length: 200 }, (_, i) => ({
      at: at(d, `10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`),
      grams: i % 2 ? 2100 : 1900,
    }));
    const key = { 'Idempotency-Key': 'scale-A-batch-1' };
    const results = await Promise.all([1, 2, 3].map(() => c.scale({ deviceId: 'scale-A', weighings }, key)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results.filter((r) => r.headers['Idempotent-Replayed'] === 'true')).toHaveLength(2);
    const [session] = await c.weights();
    expect(session).toMatchObject({ sampleSize: 200, grams: 2000, sd: 100.3, cv: 5.01, uniformityPct: 100, confidence: 'high' });
  });

  it('concurrent batches of one device merge without losing readings; concurrent weighings leave the newest date as latest', async () => {
    const c = await setup();
    const d = day(-2);
    const batches = await Promise.all(
      [0, 1, 2, 3, 4].map((b) =>
        c.scale({ deviceId: 'scale-R', cycleId: c.cycle.id, weighings: [1950, 2000, 2050].map((g, i) => ({ at: at(d, `1${b}:0${i}:00Z`), grams: g })) }),
      ),
    );
    expect(batches.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const [session] = await c.weights();
    expect(session).toMatchObject({ sampleSize: 15, grams: 2000 });
    const dates = [day(-9), day(-5), day(-1), day(-7), day(-3)];
    const results = await Promise.all(dates.map((date, i) => c.weigh({ date, grams: 1000 + i })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect((await c.summary()).latestWeight).toEqual({ date: day(-1), grams: 1002 });
  });

  it('the house of a batch must be the flock’s', async () => {
    const houseId = await house(await defaultFarmId(), `Scale house ${Date.now()}`);
    const c = await setup({ houseId });
    const elsewhere = await house(await defaultFarmId(), `Other scale house ${Date.now()}`);
    const wrong = await c.scale({ deviceId: 'd1', houseId: elsewhere, weighings: [{ at: at(day(-1)), grams: 2000 }] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details).toEqual([{ field: 'body.houseId', message: `flock ${c.flock.id} is in house ${houseId}` }]);
    // a house that is not the farm's: the 404 of a missing one
    const nowhere = await c.scale({ deviceId: 'd1', houseId: 'ELSEWHERE', weighings: [{ at: at(day(-1)), grams: 2000 }] });
    expect(nowhere.status).toBe(404);
    expect(nowhere.body).toEqual({ error: 'House ELSEWHERE not found' });
    const right = await c.scale({ deviceId: 'd1', weighings: [{ at: at(day(-1)), grams: 2000 }] });
    expect(right.body.data.days[0].session.houseId).toBe(houseId);
  });

  it('a batch names a scale registered in the flock’s farm: another farm’s scale and made-up ids are refused alike (404), nothing stored', async () => {
    const [farmA, farmB] = [await otherFarm('Scales A'), await otherFarm('Scales B')];
    const a = await userWith({ role: 'manager', farmIds: [farmA] });
    const b = await userWith({ role: 'manager', farmIds: [farmB] });
    const [ca, cb] = [await setup({ farmId: farmA, token: a.token }), await setup({ farmId: farmB, token: b.token })];
    const weighings = [{ at: at(day(-1)), grams: 2000 }];
    for (const deviceId of [await ca.device('scale-A'), '01JD3Y4Z9V6Q8K2M5N7P0R1S3T', 'scale-from-nowhere']) {
      const res = await call('POST', '/api/v1/scale', { token: b.token, body: { deviceId, flockId: cb.flock.id, weighings } });
      expect(res.status, deviceId).toBe(404);
      expect(res.body).toEqual({ error: `Device ${deviceId} not found` });
    }
    expect(await ca.weights()).toEqual([]);
    expect(await cb.weights()).toEqual([]);
    // a device of the farm that does not weigh birds is named as such
    const houseId = await house(farmB, 'Climate house');
    const climate = await call('POST', '/api/v1/iot/devices', { token: b.token, body: { farmId: farmB, houseId, kind: 'climate', name: 'Climate' } });
    const notAScale = await call('POST', '/api/v1/scale', { token: b.token, body: { deviceId: climate.body.data.id, flockId: cb.flock.id, weighings } });
    expect(notAScale.status).toBe(400);
    expect(notAScale.body.details).toEqual([
      { field: 'body.deviceId', message: `device ${climate.body.data.id} (climate) does not weigh birds: its metrics have no birdWeightGrams` },
    ]);
    // B's own scale is taken
    const own = await cb.scale({ deviceId: 'scale-B', weighings });
    expect(own.status, own.raw).toBe(200);
    expect((await cb.weights()).map((w) => [w.id, w.grams])).toEqual([[await cb.device('scale-B'), 2000]]);
  });

  it('validates the batch: at most 1000 readings and 98 dates, a timestamp with its offset, a known flock', async () => {
    const c = await setup();
    const tooMany = await c.scale({ deviceId: 'd1', weighings: Array(1001).fill({ at: at(day(-1)), grams: 2000 }) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details).toEqual([{ field: 'body.weighings', message: 'must NOT have more than 1000 items' }]);
    const bad = await c.scale({ deviceId: 'bad id#', weighings: [{ at: '2026-11-20T08:00:00', grams: 'heavy' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['body.deviceId', 'body.weighings.0.at', 'body.weighings.0.grams']);
    const spread = await c.scale({ deviceId: 'd1', weighings: Array.from({ length: 99 }, (_, i) => ({ at: at(day(-1 - i)), grams: 2000 })) });
    expect(spread.status).toBe(400);
    expect(spread.body.details[0].field).toBe('body.weighings');
    const unknownFlock = await c.scale({ deviceId: 'd1', flockId: '01JD3Y4Z9V6Q8K2M5N7P0R1S3T', weighings: [{ at: at(day(-1)), grams: 2000 }] });
    expect(unknownFlock.status).toBe(404);
  });
});
