/**
 * Lists that name a flock, a cycle or a house need no `farmId`: the record tells the farm. Generated from
 * the route table: every GET route that takes `farmId` together with `flockId`, `cycleId` or `houseId` (in
 * its query or its path) answers an admin, and a manager of two farms, who name only that record. A record
 * of a farm the caller cannot see is answered like a missing one; naming nothing still needs `farmId`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulidx';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { day, flockWithCycle, type CycleFixture } from '../support/cycles.js';
import { otherFarm } from '../support/farms.js';
import { apiRoutes, fill, type Route } from '../security/support/routes.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The parameters that name a record of one farm. */
const NAMED = ['flockId', 'cycleId', 'houseId'] as const;
type Named = (typeof NAMED)[number];

const queryNames = (r: Route): string[] => Object.keys(((r.spec.query?.schema as Json | undefined)?.properties as Json | undefined) ?? {});
const pathNames = (r: Route): string[] => [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** GET routes that take `farmId` and name a flock, cycle or house: each with the named parameters it takes. */
async function namingLists(): Promise<Array<{ route: Route; named: Named[] }>> {
  return (await apiRoutes())
    .filter((r) => r.method === 'GET' && queryNames(r).includes('farmId'))
    .map((route) => ({ route, named: NAMED.filter((n) => queryNames(route).includes(n) || pathNames(route).includes(n)) }))
    .filter((l) => l.named.length > 0);
}

let admin: string;
let farmId: string;
let houseId: string;
let fx: CycleFixture;
let scheduleId: string;
let deviceId: string;

/** A farm made through the API: a house, a flock in it with a cycle and a placement, a schedule of that cycle, a sensor in the house. */
beforeAll(async () => {
  admin = await adminLogin();
  farmId = (await call('POST', '/api/v1/config/farms', { token: admin, body: { name: 'Named records farm' } })).body.data.id;
  houseId = (await call('POST', `/api/v1/config/farms/${farmId}/houses`, { token: admin, body: { name: 'House A', usableAreaM2: 1000, capacity: 15000 } })).body
    .data.id;
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  fx = await flockWithCycle({ token: manager.token, farmId, houseId, startDate: day(-5) });
  await fx.move({ type: 'bird_inflow', date: day(-5), quantity: 1000 });
  const schedule = await call('POST', '/api/v1/schedules', {
    token: manager.token,
    body: {
      title: 'Check drinkers',
      kind: 'inspection',
      houseId,
      flockId: fx.flock.id,
      cycleId: fx.cycle.id,
      timing: { every: 1, unit: 'day', from: day(-1) },
    },
  });
  expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
  scheduleId = schedule.body.data.id;
  const device = await call('POST', '/api/v1/iot/devices', { token: manager.token, body: { houseId, kind: 'climate', name: 'Climate front' } });
  expect(device.status, JSON.stringify(device.body)).toBe(201);
  deviceId = device.body.data.id;
});

const ids = (): Record<Named, string> => ({ flockId: fx.flock.id, cycleId: fx.cycle.id, houseId });

/** The route called with only `name` (and the path's own parameters) naming the record. */
function request(route: Route, name: Named, values: Record<Named, string>) {
  const path = fill(route.path, values);
  return { path, query: pathNames(route).includes(name) ? {} : { [name]: values[name] } };
}

describe('lists that name a flock, a cycle or a house', () => {
  it('the route table has such lists (the README’s sensor example and the schedules of a cycle among them)', async () => {
    const labels = (await namingLists()).map((l) => l.route.label);
    expect(labels).toEqual(expect.arrayContaining(['GET /api/v1/schedules', 'GET /api/v1/iot/houses/{houseId}/conditions', 'GET /api/v1/anomalies']));
  });

  it('an admin who names only the record gets its farm’s list, on every such route', async () => {
    for (const { route, named } of await namingLists()) {
      for (const name of named) {
        const { path, query } = request(route, name, ids());
        const res = await call('GET', path, { token: admin, query });
        expect(res.status, `${route.label} ?${name} ${JSON.stringify(res.body)}`).toBe(200);
      }
    }
  });

  it('a manager of two farms too; the lists hold the farm’s records', async () => {
    const two = await userWith({ role: 'manager', farmIds: [await otherFarm('Second farm'), farmId] });
    for (const { route, named } of await namingLists()) {
      for (const name of named) {
        const { path, query } = request(route, name, ids());
        expect((await call('GET', path, { token: two.token, query })).status, `${route.label} ?${name}`).toBe(200);
      }
    }
    const schedules = await call('GET', '/api/v1/schedules', { token: admin, query: { cycleId: fx.cycle.id } });
    expect(schedules.body.data.map((s: Json) => s.id)).toEqual([scheduleId]);
    const devices = await call('GET', '/api/v1/iot/devices', { token: two.token, query: { houseId } });
    expect(devices.body.data.map((d: Json) => d.id)).toEqual([deviceId]);
    const conditions = await call('GET', `/api/v1/iot/houses/${houseId}/conditions`, { token: admin });
    expect(conditions.body.data).toMatchObject({ farmId, houseId });
    const movements = await call('GET', '/api/v1/inventory/movements', { token: admin, query: { flockId: fx.flock.id } });
    expect(movements.body.data.map((m: Json) => m.type)).toEqual(['bird_inflow']);
  });

  it('a record of a farm the caller cannot see is answered like a missing one; naming nothing still needs farmId', async () => {
    const stranger = await userWith({ role: 'manager', farmIds: [await otherFarm('Stranger 1'), await otherFarm('Stranger 2')] });
    for (const { route, named } of await namingLists()) {
      // a list of every farm the caller sees (GET /flocks) filters by the record: nothing to find out
      if (!pathNames(route).some((n) => NAMED.includes(n as Named)) && (await call('GET', route.path, { token: stranger.token })).status === 200) continue;
      for (const name of named) {
        const theirs = request(route, name, ids());
        const missing = request(route, name, { flockId: ulid(), cycleId: ulid(), houseId: ulid() });
        const a = await call('GET', theirs.path, { token: stranger.token, query: theirs.query });
        const b = await call('GET', missing.path, { token: stranger.token, query: missing.query });
        // a flock or a house is not found; a cycle (found by its locator) leaves the farm to be named
        expect(a.status, `${route.label} ?${name}`).toBe(name === 'cycleId' ? 400 : 404);
        expect(b.status, `${route.label} ?${name}`).toBe(a.status);
        expect(JSON.stringify(a.body).replace(/[0-9A-Z]{26}/g, 'ID'), route.label).toBe(JSON.stringify(b.body).replace(/[0-9A-Z]{26}/g, 'ID'));
      }
    }
    const none = await call('GET', '/api/v1/schedules', { token: admin });
    expect(none).toMatchObject({ status: 400, body: { details: [{ field: 'query.farmId', message: 'is required: admins see every farm' }] } });
  });
});
