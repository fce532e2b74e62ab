/**
 * e2e support: a broiler farm set up over HTTP as its people would — the admin creates the farm (with its
 * default rules), a house and the farm's manager; the manager places a Ross 308 flock on a cycle with its
 * chicks and a feed delivery — and the small helpers the farm scenarios share.
 */
import { expect } from 'vitest';
import { standardFeedIntake } from '../../shared/domain/analytics/breed-standards.js';
import { ROSS_308 } from '../../shared/domain/analytics/standards/ross-308.js';
import { temperatureRange } from '../../shared/domain/iot/climate.js';
import type { Offline } from './offline.js';
import type { Req, Res } from './http.js';

type Http = (method: string, path: string, req?: Req) => Promise<Res>;

const DAY_MS = 86_400_000;
const TODAY_MS = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
/** The calendar date `n` days from today (UTC). */
export const dayFromToday = (n: number) => new Date(TODAY_MS + n * DAY_MS).toISOString().slice(0, 10);

/** The days of a flock `ageToday` days old today: its placement day, and the date the birds are `age` days old. */
export const flockDays = (ageToday: number) => ({ start: dayFromToday(-ageToday), dateAt: (age: number) => dayFromToday(age - ageToday) });

/** consumption.broilerWaterFeedRatio of the default analytics configuration (l per kg of the breed's feed intake). */
export const WATER_PER_FEED = 1.7;
export const round1 = (x: number) => Math.round(x * 10) / 10;

/** A Ross 308 flock losing `deathsPerDay` birds a day: the birds present on the day of an age, and the breed's feed intake of them that day (kg). */
export function rossFlock(birds: number, deathsPerDay: number) {
  const presentAt = (age: number) => birds - deathsPerDay * (age - 1);
  return { presentAt, breedFeedKg: (age: number) => (standardFeedIntake(ROSS_308, age)!.grams * presentAt(age)) / 1000 };
}

/** The middle of the broiler temperature curve at an age (the house's target). */
export function targetTemperature(age: number): number {
  const r = temperatureRange({ birdType: 'broiler', ageDays: age });
  return (r.min! + r.max!) / 2;
}

export const expectStatus = (res: Res, status: number, what: string) => expect(res.status, `${what}: ${res.text}`).toBe(status);

export interface BroilerFarmPlan {
  farm: string;
  house: { name: string; usableAreaM2: number; capacity: number };
  manager: { email: string; password: string };
  flock: string;
  /** Hatch, cycle start and placement day. */
  start: string;
  birds: number;
  feedKg: number;
}

/** The seeded admin signed in, and a new farm (UTC) of that name: the admin's token and the farm's id. */
export async function adminWithFarm(http: Http, api: Offline, name: string) {
  const admin = await http('POST', '/api/v1/auth/login', { body: { email: api.admin.email, password: api.admin.password } });
  expectStatus(admin, 200, 'admin login');
  const adminToken: string = admin.body.token;
  const farm = await http('POST', '/api/v1/config/farms', { token: adminToken, body: { name, timezone: 'UTC' } });
  expectStatus(farm, 201, 'POST farm');
  return { adminToken, farmId: farm.body.data.id as string };
}

/** Normal data raise nothing: the farm has no anomaly from a rule or from a detector (each listed by metric, day and title when it has). */
export async function expectNoAnomalies(http: Http, token: string, farmId: string) {
  for (const source of ['rule', 'detector']) {
    const res = await http('GET', `/api/v1/anomalies?farmId=${farmId}&source=${source}&limit=100`, { token });
    expectStatus(res, 200, `GET anomalies (${source})`);
    expect(
      res.body.data.map((a: Record<string, any>) => `${a.metric} ${a.evidence?.day ?? a.window?.to}: ${a.title}`), // eslint-disable-line @typescript-eslint/no-explicit-any
      `${source} anomalies on a normal flock`,
    ).toEqual([]);
  }
}

/** The farm, its house and manager, the flock's active cycle with its chicks and feed; the manager's token. */
export async function broilerFarm(http: Http, api: Offline, plan: BroilerFarmPlan) {
  const { adminToken, farmId } = await adminWithFarm(http, api, plan.farm);
  const house = await http('POST', `/api/v1/config/farms/${farmId}/houses`, { token: adminToken, body: plan.house });
  expectStatus(house, 201, 'POST house');
  const houseId: string = house.body.data.id;
  const created = await http('POST', '/api/v1/admin/users', {
    token: adminToken,
    body: { ...plan.manager, name: 'Farm Manager', role: 'manager', farmIds: [farmId] },
  });
  expectStatus(created, 201, 'POST user');
  const login = await http('POST', '/api/v1/auth/login', { body: plan.manager });
  expectStatus(login, 200, 'manager login');
  const token: string = login.body.token;

  const flock = await http('POST', '/api/v1/flocks', {
    token,
    body: { name: plan.flock, birdType: 'broiler', breed: 'Ross 308', farmId, houseId, hatchDate: plan.start },
  });
  expectStatus(flock, 201, 'POST flock');
  const flockId: string = flock.body.data.id;
  const cycle = await http('POST', `/api/v1/flocks/${flockId}/cycles`, { token, body: { startDate: plan.start, targetAgeDays: 35 } });
  expectStatus(cycle, 201, 'POST cycle');
  const cycleId: string = cycle.body.data.id;
  const cycleBase = `/api/v1/flocks/${flockId}/cycles/${cycleId}`;
  for (const body of [
    { type: 'bird_inflow', date: plan.start, quantity: plan.birds, averageWeightGrams: 42 },
    { type: 'feed_delivery', date: plan.start, quantityKg: plan.feedKg, feedType: 'grower' },
  ]) {
    expectStatus(await http('POST', `${cycleBase}/movements`, { token, body }), 201, `POST ${body.type}`);
  }
  return { adminToken, token, farmId, houseId, flockId, cycleId, cycleBase };
}
