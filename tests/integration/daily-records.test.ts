import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';

async function cycleOf(birdType: 'broiler' | 'layer', hatchDate: string, startDate: string) {
  const farm = await otherFarm(`Daily ${birdType}`);
  const m = await userWith({ role: 'manager', farmIds: [farm] });
  const flock = (await call('POST', '/api/v1/flocks', { token: m.token, body: { name: 'D', birdType, hatchDate, farmId: farm } })).body.data;
  const cycle = (await call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token: m.token, body: { startDate } })).body.data;
  const base = `/api/v1/flocks/${flock.id}/cycles/${cycle.id}`;
  const post = (path: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    call('POST', `${base}${path}`, { token: m.token, body, headers });
  return { token: m.token, base, post, summary: async () => (await call('GET', base, { token: m.token })).body.data };
}

const brooding = { temperatureMinC: 31, temperatureMaxC: 33, humidityPct: 55 };

describe('daily records', () => {
  it('writes the day’s movements; a second submission for the day replaces it instead of doubling', async () => {
    const c = await cycleOf('broiler', '2026-11-01', '2026-11-01');
    await c.post('/movements', { type: 'bird_inflow', date: '2026-11-01', quantity: 1000 });
    await c.post('/movements', { type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 800 });
    const first = await c.post('/daily-records', { date: '2026-11-02', deaths: { heat: 3, unknown: 1 }, culls: 2, feedKg: 30, waterLiters: 55, ...brooding });
    expect(first.status).toBe(201);
    expect(first.body.data.record).toMatchObject({ date: '2026-11-02', stage: 'brooding', version: 1 });
    expect(first.body.data.movements.map((m: { type: string }) => m.type).sort()).toEqual([
      'bird_cull',
      'bird_mortality',
      'bird_mortality',
      'feed_consumption',
      'water_consumption',
    ]);
    let s = await c.summary();
    expect(s.birds).toMatchObject({ deaths: 4, culls: 2, alive: 994 });
    expect(s.feed.consumedKg).toBe(30);

    const again = await c.post('/daily-records', { date: '2026-11-02', deaths: 5, feedKg: 32, waterLiters: 60, ...brooding });
    expect(again.status).toBe(200);
    expect(again.body.data.record.version).toBe(2);
    s = await c.summary();
    expect(s.birds).toMatchObject({ deaths: 5, culls: 0, alive: 995 });
    expect(s.feed.consumedKg).toBe(32);
    expect(s.waterLiters).toBe(60);
    expect(s.movementCount).toBe(2 + 3);

    const day = await call('GET', `${c.base}/daily-records/2026-11-02`, { token: c.token });
    expect(day.body.data.record.fields).toMatchObject({ deaths: 5, feedKg: 32 });
    expect(day.body.data.movements).toHaveLength(3);
    const movementId = day.body.data.movements[0].id;
    const direct = await call('DELETE', `${c.base}/movements/${movementId}`, { token: c.token });
    expect(direct.status).toBe(409);
    expect(direct.body.error).toMatch(/belongs to the daily record of 2026-11-02/);
    expect((await call('GET', `${c.base}/daily-records`, { token: c.token })).body.data.map((r: { date: string }) => r.date)).toEqual(['2026-11-02']);
    expect((await call('GET', `${c.base}/daily-records/2026-11-03`, { token: c.token })).status).toBe(404);
  });

  it('enforces the mandatory fields of the day’s production stage and cross-field rules', async () => {
    const c = await cycleOf('layer', '2026-01-01', '2026-06-01');
    const res = await c.post('/daily-records', { date: '2026-11-02', deaths: 0, feedKg: 0, eggsCracked: 5, eggsCollected: 2 });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: 'body.waterLiters', message: 'is required in the laying stage' },
      { field: 'body.eggsCracked', message: 'must not exceed eggsCollected' },
    ]);
    // tomorrow and after: within the bounds a person may type (a year ahead), but in the future
    const soon = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    expect((await c.post('/daily-records', { date: soon, deaths: 0, feedKg: 0, waterLiters: 0, eggsCollected: 0 })).body.details[0]).toEqual({
      field: 'body.date',
      message: 'must not be in the future',
    });
  });

  it('takes the photoperiod: lightHours and longestDarkHours stored; 400 for lightHours 25 and a dark period above 24 − lightHours', async () => {
    const c = await cycleOf('layer', '2026-01-01', '2026-06-01');
    const laying = { deaths: 0, feedKg: 0, waterLiters: 0, eggsCollected: 0 };
    const res = await c.post('/daily-records', { date: '2026-11-02', ...laying, lightHours: 16, longestDarkHours: 7.5 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.record.fields).toMatchObject({ lightHours: 16, longestDarkHours: 7.5 });
    const day = await call('GET', `${c.base}/daily-records/2026-11-02`, { token: c.token });
    expect(day.body.data.record.fields).toMatchObject({ lightHours: 16, longestDarkHours: 7.5 });
    const tooLong = await c.post('/daily-records', { date: '2026-11-03', ...laying, lightHours: 25 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details.map((d: { field: string }) => d.field)).toEqual(['body.lightHours']);
    const tooDark = await c.post('/daily-records', { date: '2026-11-03', ...laying, lightHours: 16, longestDarkHours: 8.5 });
    expect(tooDark.status).toBe(400);
    expect(tooDark.body.details).toEqual([{ field: 'body.longestDarkHours', message: 'must not exceed 24 − lightHours (8)' }]);
  });

  it('refuses a form that would make a balance negative, writing nothing', async () => {
    const c = await cycleOf('broiler', '2026-11-01', '2026-11-01');
    await c.post('/movements', { type: 'bird_inflow', date: '2026-11-01', quantity: 10 });
    const res = await c.post('/daily-records', { date: '2026-11-02', deaths: 11, feedKg: 0, waterLiters: 0, ...brooding });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^Only 10 bird\(s\) alive/);
    expect((await call('GET', `${c.base}/daily-records`, { token: c.token })).body.data).toEqual([]);
    expect((await c.summary()).birds.deaths).toBe(0);
  });

  it('an idempotent retry replays the first answer', async () => {
    const c = await cycleOf('broiler', '2026-11-01', '2026-11-01');
    await c.post('/movements', { type: 'bird_inflow', date: '2026-11-01', quantity: 100 });
    const body = { date: '2026-11-02', deaths: 1, feedKg: 0, waterLiters: 10, ...brooding };
    const [a, b] = await Promise.all([
      c.post('/daily-records', body, { 'Idempotency-Key': 'day-2' }),
      c.post('/daily-records', body, { 'Idempotency-Key': 'day-2' }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.record.movementIds).toEqual(b.body.data.record.movementIds);
    expect((await c.summary()).birds.deaths).toBe(1);
  });
});

/** A value for each field a form may require (0 deaths is a value: the check is presence, not size). */
const VALUES: Record<string, unknown> = {
  deaths: 0,
  feedKg: 20,
  waterLiters: 36,
  temperatureMinC: 30,
  temperatureMaxC: 33,
  humidityPct: 60,
  eggsCollected: 100,
};

interface FormField {
  name: string;
  unit: string | null;
  description: string;
}

describe('GET …/daily-records/form', () => {
  /** The form of `date` lists exactly what the submission then requires: without any one of them 400 naming it, with only them 201. */
  async function formMatchesSubmit(c: Awaited<ReturnType<typeof cycleOf>>, date: string, stage: string, required: string[]) {
    const res = await call('GET', `${c.base}/daily-records/form`, { token: c.token, query: { date } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({ date, stage, existing: null });
    const fields: FormField[] = res.body.data.requiredFields;
    expect(fields.map((f) => f.name)).toEqual(required);
    for (const f of [...fields, ...res.body.data.optionalFields]) expect(f.description.length, f.name).toBeGreaterThan(0);
    const optional = (res.body.data.optionalFields as FormField[]).map((f) => f.name);
    expect(optional.filter((n) => required.includes(n))).toEqual([]);
    expect(optional).toEqual(expect.arrayContaining(['culls', 'notes']));

    const full = Object.fromEntries([['date', date], ...fields.map((f) => [f.name, VALUES[f.name]])]);
    for (const { name } of fields) {
      const { [name]: _left, ...without } = full;
      const refused = await c.post('/daily-records', without);
      expect(refused.status, name).toBe(400);
      expect(refused.body.details, name).toEqual([{ field: `body.${name}`, message: `is required in the ${stage} stage` }]);
    }
    const saved = await c.post('/daily-records', full);
    expect(saved.status, saved.raw).toBe(201);
    expect(saved.body.data.record).toMatchObject({ date, stage });
    const again = await call('GET', `${c.base}/daily-records/form`, { token: c.token, query: { date } });
    expect(again.body.data.existing).toMatchObject({ date, stage, version: 1, fields: Object.fromEntries(fields.map((f) => [f.name, VALUES[f.name]])) });
    return res.body.data as { ageDays: number; requiredFields: FormField[]; optionalFields: FormField[] };
  }

  it('a brooding day: the six fields the submission requires, with units', async () => {
    const c = await cycleOf('broiler', '2026-11-01', '2026-11-01');
    await c.post('/movements', { type: 'bird_inflow', date: '2026-11-01', quantity: 1000 });
    await c.post('/movements', { type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 800 });
    const form = await formMatchesSubmit(c, '2026-11-03', 'brooding', ['deaths', 'feedKg', 'waterLiters', 'temperatureMinC', 'temperatureMaxC', 'humidityPct']);
    expect(form.ageDays).toBe(2);
    expect(Object.fromEntries(form.requiredFields.map((f) => [f.name, f.unit]))).toEqual({
      deaths: 'birds',
      feedKg: 'kg',
      waterLiters: 'L',
      temperatureMinC: '°C',
      temperatureMaxC: '°C',
      humidityPct: '%',
    });
    expect(form.optionalFields.map((f) => f.name)).not.toContain('eggsCollected');
  });

  it('a finishing day: mortality, feed, water and the maximum temperature', async () => {
    const c = await cycleOf('broiler', '2026-10-01', '2026-10-01');
    await c.post('/movements', { type: 'bird_inflow', date: '2026-10-01', quantity: 1000 });
    await c.post('/movements', { type: 'feed_delivery', date: '2026-10-01', feedType: 'finisher', quantityKg: 5000 });
    const form = await formMatchesSubmit(c, '2026-11-01', 'finishing', ['deaths', 'feedKg', 'waterLiters', 'temperatureMaxC']);
    expect(form.ageDays).toBe(31);
    expect(form.optionalFields.map((f) => f.name)).toEqual(expect.arrayContaining(['temperatureMinC', 'humidityPct']));
  });

  it('a laying day requires eggsCollected and offers the egg sub-counts; without a date, today (UTC)', async () => {
    const c = await cycleOf('layer', '2026-01-01', '2026-06-01');
    await c.post('/movements', { type: 'bird_inflow', date: '2026-06-01', quantity: 500 });
    await c.post('/movements', { type: 'feed_delivery', date: '2026-06-01', feedType: 'layer mash', quantityKg: 5000 });
    const form = await formMatchesSubmit(c, '2026-11-02', 'laying', ['deaths', 'feedKg', 'waterLiters', 'eggsCollected']);
    expect(form.optionalFields.map((f) => f.name)).toEqual(expect.arrayContaining(['eggsCracked', 'eggsDirty']));
    const today = await call('GET', `${c.base}/daily-records/form`, { token: c.token });
    expect(today.status).toBe(200);
    expect(today.body.data.date).toBe(new Date().toISOString().slice(0, 10));
  });

  it('a schema-valid, complete form before any feed delivery is the documented 409, writing nothing', async () => {
    const c = await cycleOf('broiler', '2026-11-01', '2026-11-01');
    await c.post('/movements', { type: 'bird_inflow', date: '2026-11-01', quantity: 100 });
    const res = await c.post('/daily-records', { date: '2026-11-02', deaths: 0, feedKg: 5, waterLiters: 9, ...brooding });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^No feed in stock on farm .*; record a feed_delivery first$/);
    expect((await call('GET', `${c.base}/daily-records/form`, { token: c.token, query: { date: '2026-11-02' } })).body.data.existing).toBeNull();
  });

  it('400 naming query.date for a date outside the cycle or malformed; 404 for another farm’s cycle', async () => {
    const c = await cycleOf('broiler', '2026-11-01', '2026-11-01');
    const form = (date: string, token = c.token) => call('GET', `${c.base}/daily-records/form`, { token, query: { date } });
    const before = await form('2026-10-31');
    expect(before.status).toBe(400);
    expect(before.body.details).toEqual([{ field: 'query.date', message: "must not be before the cycle's start date 2026-11-01" }]);
    const future = await form('2099-01-01');
    expect(future.status).toBe(400);
    expect(future.body.details).toEqual([{ field: 'query.date', message: 'must not be in the future' }]);
    const malformed = await form('2026-13-01');
    expect(malformed.status).toBe(400);
    expect(malformed.body.details.map((d: { field: string }) => d.field)).toEqual(['query.date']);

    const stranger = await userWith({ role: 'manager', farmIds: [await otherFarm('Form stranger farm')] });
    const hidden = await form('2026-11-02', stranger.token);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ error: expect.any(String) });
  });
});

describe('POST /api/v2/analytics/validate-daily-data', () => {
  it('reports what a stage requires and what is missing, without saving', async () => {
    const { token } = await userWith({ role: 'veterinarian' });
    const ok = await call('POST', '/api/v2/analytics/validate-daily-data', {
      token,
      body: { dailyRecord: '2026-11-02', productionStage: 'laying', deaths: 0, feedKg: 120, waterLiters: 230, eggsCollected: 950, barn: 'B2' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      valid: true,
      productionStage: 'laying',
      missingFields: [],
      requiredFields: ['deaths', 'feedKg', 'waterLiters', 'eggsCollected'],
    });
    expect(ok.body.data.warnings).toEqual([]);
    const missing = await call('POST', '/api/v2/analytics/validate-daily-data', {
      token,
      body: { dailyRecord: 'r1', productionStage: 'brooding', deaths: 2, feedKg: 10, waterLiters: 30 },
    });
    expect(missing.body.data).toMatchObject({ valid: false, missingFields: ['temperatureMinC', 'temperatureMaxC', 'humidityPct'] });
    expect(missing.body.message).toBe('Daily record is missing temperatureMinC, temperatureMaxC, humidityPct for the brooding stage');
    expect(missing.body.data.warnings).toEqual(['water:feed ratio 3.00 is outside the normal 1.6–2.0']);
  });

  it('warns (never refuses) about form fields the stage does not take', async () => {
    const { token } = await userWith({ role: 'veterinarian' });
    const res = await call('POST', '/api/v2/analytics/validate-daily-data', {
      token,
      body: { dailyRecord: 'r2', productionStage: 'finishing', deaths: 1, feedKg: 100, waterLiters: 180, temperatureMaxC: 27, eggsCollected: 4, barn: 'B2' },
    });
    expect(res.body.data).toMatchObject({ valid: true, missingFields: [], warnings: ['eggsCollected is not part of the finishing form'] });
  });

  it('400 with details for a malformed body; 403 without edit_analytics', async () => {
    const { token } = await userWith({ role: 'veterinarian' });
    const bad = await call('POST', '/api/v2/analytics/validate-daily-data', { token, body: { dailyRecord: 5, productionStage: 'hatching' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['body.dailyRecord', 'body.productionStage']);
    const worker = await userWith({ role: 'worker' });
    expect(
      (await call('POST', '/api/v2/analytics/validate-daily-data', { token: worker.token, body: { dailyRecord: 'x', productionStage: 'laying' } })).status,
    ).toBe(403);
  });
});

describe('daily records of another farm', () => {
  it('answer 404 on every route and change nothing', async () => {
    const c = await cycleOf('broiler', '2026-11-01', '2026-11-01');
    await c.post('/movements', { type: 'bird_inflow', date: '2026-11-01', quantity: 100 });
    await c.post('/daily-records', { date: '2026-11-02', deaths: 1, feedKg: 0, waterLiters: 10, ...brooding });
    const stranger = await userWith({ role: 'manager', farmIds: [await otherFarm('Stranger farm')] });
    for (const [method, path, body] of [
      ['POST', `${c.base}/daily-records`, { date: '2026-11-02', deaths: 50, feedKg: 0, waterLiters: 10, ...brooding }],
      ['GET', `${c.base}/daily-records`, undefined],
      ['GET', `${c.base}/daily-records/2026-11-02`, undefined],
      ['GET', `${c.base}/daily-records/form`, undefined],
    ] as const) {
      const res = await call(method, path, { token: stranger.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await c.summary()).birds.deaths).toBe(1);
  });
});
