/**
 * Inputs a person types, through the real middleware and DynamoDB Local:
 * - a recursive input (a json-logic rule condition) is refused past its declared depth with 400 naming
 *   the field and the limit, however deep it goes (5,000 levels), before anything walks it;
 * - every period (`from`/`to`) takes a calendar date, read as the farm's day in its time zone, or a
 *   timestamp, with one meaning on every route; a rule's cooldown is written as an ISO 8601 `cooldown`
 *   (or in minutes), and the document describes it and the incident note's `text`;
 * - dates a person types are bounded (2000-01-01 … a year ahead), text holds no NUL nor unpaired
 *   surrogate in any field of any body (400 naming the field), a bird weighs at least 1 g, a weighing
 *   carries its flock's house,
 *   and the IoT rule names the field when it drops a frame (the MQTT bridge prints it).
 */
import type { Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, type CallResult } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { house } from '../support/farms.js';
import { firing, jobContext } from '../support/anomalies.js';
import { registerDevice } from '../support/iot.js';
import { farmFixture, type Fixture } from '../security/support/fixture.js';
import { apiRoutes, fill, hasBody, type Route } from '../security/support/routes.js';
import { setAt, validBody, variants, type Schema } from '../security/support/schema.js';
import { raiseAnomaly } from '../../shared/services/anomalies/raising.js';
import { commit } from '../../shared/db/commit.js';
import { weightWrites } from '../../shared/db/weights.js';
import { systemCaller } from '../../shared/domain/caller.js';
import { commandContext } from '../../shared/domain/command.js';
import { Conflict } from '../../shared/errors.js';
import { handler as telemetryRule } from '../../functions/iot/telemetry-rule.js';
import { outcomeText, type RuleOutcome } from '../../scripts/lib/mqtt-bridge.js';
import { captureLogs } from '../support/logs.js';

// hundreds of requests from the same accounts: the per-client limits are not what this file is about
for (const cls of ['GENERAL', 'AUTH', 'READ', 'DATE', 'INGEST']) process.env[`RATE_LIMIT_${cls}_MAX`] ??= '1000000';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const details = (res: CallResult): Array<{ field: string; message: string }> => res.body?.details ?? [];

afterEach(() => vi.restoreAllMocks());

/** A farm in a time zone far from UTC (UTC+14: its day starts at 10:00 UTC the day before), with a manager, a house and a flock there. */
async function kiritimatiFarm() {
  const admin = await adminLogin();
  const farm = await call('POST', '/api/v1/config/farms', { token: admin, body: { name: 'Line Islands farm', timezone: 'Pacific/Kiritimati' } });
  expect(farm.status, farm.raw).toBe(201);
  const farmId = farm.body.data.id as string;
  const houseId = await house(farmId, 'House K');
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  return { farmId, houseId, manager };
}

const rule = (farmId: string, over: Json = {}) => ({
  name: 'Mortality above 1 %',
  scope: { farmId },
  input: 'dailyMortalityPct',
  window: 'P1D',
  aggregation: 'last',
  condition: { op: '>', value: 1 },
  severity: 'warning',
  actions: ['raise_anomaly'],
  ...over,
});

/** `{"and": [ … ]}` around a comparison, `ands` times, as JSON text (a value 5,000 levels deep does not survive JSON.stringify). */
const nestedCondition = (ands: number) => `${'{"and":['.repeat(ands)}{">":[{"var":"value"},1]}${']}'.repeat(ands)}`;
const withCondition = (body: Json, condition: string) => `${JSON.stringify(body).slice(0, -1)},"condition":${condition}}`;

describe('a recursive input is refused past its depth, before anything walks it', () => {
  it('a json-logic condition 5,000 levels deep is 400 naming body.condition and its limit (POST, PUT and PATCH); 12 levels are accepted', async () => {
    const { farmId, manager } = await kiritimatiFarm();
    const { condition: _c, ...body } = rule(farmId);
    // 4 nested "and"s around a comparison: 11 levels of objects and arrays; 5 of them: 13
    const fits = await call('POST', '/api/v1/rules', { token: manager.token, rawBody: withCondition(body, nestedCondition(4)) });
    expect(fits.status, fits.raw).toBe(201);
    const limit = { field: 'body.condition', message: 'is nested too deep (at most 12 levels of objects and arrays)' };
    const justOver = await call('POST', '/api/v1/rules', { token: manager.token, rawBody: withCondition(body, nestedCondition(5)) });
    expect(justOver.status, justOver.raw).toBe(400);
    expect(details(justOver)).toEqual([limit]);

    const deep = nestedCondition(5000);
    const created = await call('POST', '/api/v1/rules', { token: manager.token, rawBody: withCondition(body, deep) });
    expect(created.status, created.raw.slice(0, 300)).toBe(400);
    expect(details(created)).toEqual([limit]);
    const id = fits.body.data.id as string;
    const replaced = await call('PUT', `/api/v1/rules/${id}`, { token: manager.token, rawBody: withCondition(body, deep) });
    expect([replaced.status, details(replaced)]).toEqual([400, [limit]]);
    const patched = await call('PATCH', `/api/v1/rules/${id}`, { token: manager.token, rawBody: `{"condition":${deep}}` });
    expect([patched.status, details(patched)]).toEqual([400, [limit]]);
    // nothing changed
    expect((await call('GET', `/api/v1/rules/${id}`, { token: manager.token })).body.data.version).toBe(1);
  });
});

describe('periods: a date is the farm’s day, a timestamp an instant, on every route', () => {
  it('anomalies filter by the farm-local day of a date, and by the instant of a timestamp (to: the whole day / excluded)', async () => {
    const { farmId, manager } = await kiritimatiFarm();
    // 12:00 UTC on 2026-11-20 is 02:00 on 2026-11-21 in Kiritimati, whose 21st starts at 2026-11-20T10:00Z
    const at = '2026-11-20T12:00:00.000Z';
    const { anomaly } = await raiseAnomaly(
      jobContext(),
      firing(farmId, { at, window: { from: '2026-11-20T11:00:00.000Z', to: at, duration: 'PT1H' }, dedupKey: 'periods:water' }),
    );
    const found = async (query: Record<string, string>) => {
      const res = await call('GET', '/api/v1/anomalies', { token: manager.token, query: { farmId, ...query } });
      expect(res.status, res.raw).toBe(200);
      return (res.body.data as Json[]).some((a) => a.id === anomaly.id);
    };
    expect(await found({ from: '2026-11-21' })).toBe(true);
    expect(await found({ from: '2026-11-22' })).toBe(false);
    expect(await found({ to: '2026-11-21' })).toBe(true);
    expect(await found({ to: '2026-11-20' })).toBe(false); // the farm's 20th ended at 10:00 UTC
    expect(await found({ from: '2026-11-21', to: '2026-11-21' })).toBe(true);
    // the same bounds as timestamps
    expect(await found({ from: '2026-11-20T10:00:00Z', to: '2026-11-21T10:00:00Z' })).toBe(true);
    expect(await found({ from: '2026-11-20T12:00:00.001Z' })).toBe(false);
    expect(await found({ to: at })).toBe(false); // a timestamp `to` is excluded
    const empty = await call('GET', '/api/v1/anomalies', { token: manager.token, query: { farmId, from: '2026-11-21', to: '2026-11-20' } });
    expect([empty.status, details(empty)]).toEqual([400, [{ field: 'query.to', message: 'must be after from' }]]);
    const garbage = await call('GET', '/api/v1/anomalies', { token: manager.token, query: { farmId, from: '2026-11-31' } });
    expect([garbage.status, details(garbage)]).toEqual([400, [{ field: 'query.from', message: 'must match format "date" or "date-time"' }]]);
  });

  it('a backtest over dates is the backtest over the farm-local days’ instants', async () => {
    const { farmId, houseId, manager } = await kiritimatiFarm();
    const fx = await flockWithCycle({ token: manager.token, farmId, houseId, startDate: day(-20) });
    const created = await call('POST', '/api/v1/rules', { token: manager.token, body: rule(farmId) });
    expect(created.status, created.raw).toBe(201);
    const test = (from: string, to: string) =>
      call('POST', `/api/v1/rules/${created.body.data.id}/test`, { token: manager.token, body: { flockId: fx.flock.id, from, to } });
    const byDates = await test('2026-11-01', '2026-11-05');
    expect(byDates.status, byDates.raw).toBe(200);
    // Kiritimati's 1st starts at 2026-10-31T10:00Z; its 5th ends at 2026-11-05T10:00Z
    const byInstants = await test('2026-10-31T10:00:00Z', '2026-11-05T10:00:00Z');
    expect(byInstants.status, byInstants.raw).toBe(200);
    expect(byDates.body.data).toEqual(byInstants.body.data);
  });

  it('sensor readings over dates, weighings and movements over timestamps: the same farm-local days', async () => {
    const { farmId, houseId, manager } = await kiritimatiFarm();
    const device = await registerDevice({ farmId, houseId, token: manager.token });
    const readings = await call('GET', `/api/v1/iot/devices/${device.id}/readings`, {
      token: manager.token,
      query: { from: '2026-11-21', to: '2026-11-21', resolution: 'raw' },
    });
    expect(readings.status, readings.raw).toBe(200);
    expect(readings.body.data).toMatchObject({ from: '2026-11-20T10:00:00.000Z', to: '2026-11-21T10:00:00.000Z' });

    const fx = await flockWithCycle({ token: manager.token, farmId, houseId, startDate: day(-20) });
    const weighed = day(-5);
    expect((await call('POST', `${fx.base}/weights`, { token: manager.token, body: { date: weighed, grams: 900 } })).status).toBe(201);
    // the farm's day `weighed` runs from 10:00 UTC the day before to 10:00 UTC on `weighed`
    const startUtc = new Date(Date.parse(`${weighed}T10:00:00Z`) - 86_400_000).toISOString();
    const dates = async (path: string, query: Record<string, string>) => {
      const res = await call('GET', `${fx.base}/${path}`, { token: manager.token, query });
      expect(res.status, res.raw).toBe(200);
      return (res.body.data as Json[]).map((r) => r.date);
    };
    expect(await dates('weights', { from: startUtc, to: startUtc.replace('T10:00', 'T11:00') })).toEqual([weighed]);
    expect(await dates('weights', { to: startUtc })).toEqual([]); // excluded: the day before ended there
    expect(await dates('weights', { from: weighed, to: weighed })).toEqual([weighed]);
    expect(await dates('movements', { from: `${weighed}T09:59:59Z`, to: `${weighed}T10:00:00Z` })).toEqual([]);
  });

  it('a rule’s cooldown is an ISO 8601 duration `cooldown` (or cooldownMinutes); the document states it and the incident note’s `text`', async () => {
    const { farmId, manager } = await kiritimatiFarm();
    const created = await call('POST', '/api/v1/rules', { token: manager.token, body: rule(farmId, { cooldown: 'PT6H' }) });
    expect(created.status, created.raw).toBe(201);
    expect(created.body.data).toMatchObject({ cooldown: 'PT6H', cooldownMinutes: 360 });
    const id = created.body.data.id as string;
    const patched = await call('PATCH', `/api/v1/rules/${id}`, { token: manager.token, body: { cooldown: 'P1DT12H' } });
    expect(patched.body.data).toMatchObject({ cooldown: 'P1DT12H', cooldownMinutes: 2160 });
    const inMinutes = await call('PATCH', `/api/v1/rules/${id}`, { token: manager.token, body: { cooldownMinutes: 90 } });
    expect(inMinutes.body.data).toMatchObject({ cooldown: 'PT1H30M', cooldownMinutes: 90 });
    for (const [body, message] of [
      [{ cooldown: 'PT1H', cooldownMinutes: 60 }, 'send cooldown or cooldownMinutes, not both'],
      [{ cooldown: 'P1M' }, 'P1M is not an ISO 8601 duration of weeks, days, hours or minutes, e.g. PT6H, P1D or PT0M'],
      [{ cooldown: 'P31D' }, 'P31D: a cooldown is at most P30D'],
    ] as const) {
      const res = await call('PATCH', `/api/v1/rules/${id}`, { token: manager.token, body });
      expect([res.status, details(res)], JSON.stringify(body)).toEqual([400, [{ field: 'body.cooldown', message }]]);
    }
    const doc = (await call('GET', '/openapi.json')).body as Json;
    const schemas = doc.components.schemas as Json;
    expect(schemas.CreateRuleBody.properties.cooldown.description).toMatch(/ISO 8601 duration/);
    expect(schemas.IncidentNoteBody.properties.text.description).toMatch(/timeline/);
  });
});

describe('nonsense is refused', () => {
  let fx: Fixture;
  let routes: Route[];
  beforeAll(async () => {
    fx = await farmFixture('Inputs');
    routes = (await apiRoutes()).filter(hasBody);
  });
  const send = (r: Route, body: unknown) =>
    call(
      r.method,
      fill(r.path, fx.ids),
      r.spec.capability === 'device' ? { headers: { 'X-Device-Key': fx.deviceKey }, body } : { token: fx.admin.token, body },
    );

  /** Paths of the schema's leaves in a valid body of it (the branch the sample takes), with their schemas. */
  function leaves(schema: Schema, path: Array<string | number> = []): Array<{ path: Array<string | number>; schema: Schema }> {
    if (Array.isArray(schema.anyOf)) {
      const branches = schema.anyOf as Schema[];
      // a period's end (a date or a timestamp) is no date a person records: it has no bounds
      if (branches.some((b) => b.format === 'date-time')) return [];
      return leaves(branches.find((s) => s.type !== 'null')!, path);
    }
    if (Array.isArray(schema.oneOf)) return leaves(schema.oneOf[0] as Schema, path);
    if (schema.type === 'object') return Object.entries((schema.properties ?? {}) as Record<string, Schema>).flatMap(([k, s]) => leaves(s, [...path, k]));
    if (schema.type === 'array' && schema.items) return leaves(schema.items as Schema, [...path, 0]);
    return [{ path, schema }];
  }
  const isText = (s: Schema) => s.type === 'string' && !s.format && !s.enum && s.const === undefined && (s.pattern === undefined || s.pattern === '\\S');

  it('a NUL character or an unpaired surrogate in any text field of any body is 400 naming the field', async () => {
    let checked = 0;
    for (const r of routes) {
      for (const variant of variants(r.spec.body!.schema as Schema)) {
        for (const [i, leaf] of leaves(variant)
          .filter((l) => isText(l.schema))
          .entries()) {
          const [odd, message] =
            i % 2 === 0
              ? ['\u0000', 'must not contain NUL characters (U+0000)']
              : ['\uD800', 'must not contain unpaired surrogates (it is not valid Unicode text)'];
          const bad = `pen ${odd}3`.padEnd(Number(leaf.schema.minLength ?? 0), 'x');
          const res = await send(r, setAt(validBody(variant), leaf.path, bad));
          const field = ['body', ...leaf.path].join('.');
          expect(res.status, `${r.method} ${r.path} ${field} → ${res.raw.slice(0, 300)}`).toBe(400);
          expect(details(res), `${r.method} ${r.path} ${field}`).toContainEqual({ field, message });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
    // a property name is text too (this body lets unknown properties through)
    const named = await call('POST', '/api/v2/analytics/validate-daily-data', {
      token: fx.admin.token,
      body: { dailyRecord: day(-1), productionStage: 'growing', 'pen\u00003': 1 },
    });
    expect([named.status, details(named)]).toEqual([400, [{ field: 'body.pen\u00003', message: 'its name must not contain NUL characters (U+0000)' }]]);
  });

  it('a date a person types lies between 2000-01-01 and a year ahead (ten years for an expiry): out of bounds is 400 naming the bound', async () => {
    const tooFar = day(4000);
    let checked = 0;
    for (const r of routes) {
      for (const variant of variants(r.spec.body!.schema as Schema)) {
        for (const leaf of leaves(variant).filter((l) => l.schema.format === 'date')) {
          const field = ['body', ...leaf.path].join('.');
          const early = await send(r, setAt(validBody(variant), leaf.path, '1999-12-31', variant));
          expect(details(early), `${r.method} ${r.path} ${field} → ${early.raw.slice(0, 300)}`).toContainEqual({
            field,
            message: 'must not be before 2000-01-01',
          });
          const late = await send(r, setAt(validBody(variant), leaf.path, tooFar, variant));
          expect(details(late), `${r.method} ${r.path} ${field} → ${late.raw.slice(0, 300)}`).toContainEqual({
            field,
            message: expect.stringMatching(/^must not be after \d{4}-\d{2}-\d{2} \((366|1100|3653) days after today\)$/),
          });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
    const hatch = await call('POST', '/api/v1/flocks', { token: fx.manager.token, body: { name: 'Old flock', birdType: 'broiler', hatchDate: '1900-01-01' } });
    expect([hatch.status, details(hatch)]).toEqual([400, [{ field: 'body.hatchDate', message: 'must not be before 2000-01-01' }]]);
  });

  it('a weighing carries the house of its flock, also one stored before it did', async () => {
    const { farmId, houseId, manager } = await kiritimatiFarm();
    const c = await flockWithCycle({ token: manager.token, farmId, houseId, startDate: day(-20) });
    const weighed = await call('POST', `${c.base}/weights`, { token: manager.token, body: { date: day(-3), samples: [1000, 1100] } });
    expect(weighed.status, weighed.raw).toBe(201);
    expect(weighed.body.data.houseId).toBe(houseId);
    // a manual weighing as it was stored before: without the house
    const now = new Date().toISOString();
    const legacy = {
      id: '01JD3Y4Z9V6Q8K2M5N7P0R1S3T',
      cycleId: c.cycle.id,
      flockId: c.flock.id,
      farmId,
      date: day(-4),
      method: 'manual_sample' as const,
      deviceId: null,
      houseId: null,
      grams: 950,
      sampleSize: 1,
      sd: null,
      cv: null,
      uniformityPct: null,
      notes: null,
      createdAt: now,
      createdBy: manager.id,
      updatedAt: now,
      version: 1,
    };
    await commit(commandContext(systemCaller('test', [], 'all')), { writes: [weightWrites.session(legacy, undefined, () => new Conflict('exists'))] });
    const list = await call('GET', `${c.base}/weights`, { token: manager.token });
    expect((list.body.data as Json[]).map((w) => [w.date, w.houseId])).toEqual([
      [day(-4), houseId],
      [day(-3), houseId],
    ]);
  });

  it('a weight below 1 g is no bird: refused when typed, rejected as implausible from a scale (its square would not store: was a 500)', async () => {
    const { farmId, houseId, manager } = await kiritimatiFarm();
    const c = await flockWithCycle({ token: manager.token, farmId, houseId, startDate: day(-20) });
    const typed = await call('POST', `${c.base}/weights`, { token: manager.token, body: { date: day(-2), samples: [2.7e-72, 4.9e-102] } });
    expect([typed.status, details(typed)]).toEqual([
      400,
      [
        { field: 'body.samples.0', message: 'must be >= 1' },
        { field: 'body.samples.1', message: 'must be >= 1' },
      ],
    ]);
    const at = `${day(-2)}T08:00:00Z`;
    const scale = await call('POST', '/api/v1/iot/devices', { token: manager.token, body: { farmId, houseId, kind: 'scale', name: 'Scale 1' } });
    expect(scale.status, scale.raw).toBe(201);
    const scaled = await call('POST', '/api/v1/scale', {
      token: manager.token,
      body: {
        flockId: c.flock.id,
        deviceId: scale.body.data.id,
        weighings: [
          { at, grams: 2.7e-72 },
          { at, grams: 4.9e-102 },
          { at, grams: 900 },
        ],
      },
    });
    expect(scaled.status, scaled.raw).toBe(200);
    expect(scaled.body.data).toMatchObject({ accepted: 1, rejectedBy: { implausible: 2 } });
  });

  it('the IoT rule drops a frame naming the field and the problem, and the MQTT bridge prints them', async () => {
    const log = captureLogs();
    const outcome = (await telemetryRule(
      { farmId: 'farm-1', deviceId: '01JD3Y4Z9V6Q8K2M5N7P0R1S3T', receivedAt: Date.now(), ts: 'yesterday', metrics: { temperatureC: 24 } },
      { awsRequestId: 'inputs-rule' } as Context,
    )) as RuleOutcome;
    const named = 'ts must match format "date-time"';
    expect(outcome).toMatchObject({
      status: 'dropped',
      reason: `Validation failed: ${named}`,
      details: [{ field: 'ts', message: 'must match format "date-time"' }],
    });
    expect(outcomeText(outcome)).toBe(`dropped: Validation failed: ${named}`);
    const line = log.lines().find((l) => l.msg === 'event');
    expect(line).toMatchObject({ outcome: 'dropped', reason: `Validation failed: ${named}` });
  });
});
