/**
 * e2e support: a Hy-Line Brown layer farm set up over HTTP as its people would — the admin creates the farm
 * (with its default rules), a rearing house and a barn (floor) laying house, and the farm's manager — and the
 * guide's figures a scenario posts: feed and water for the birds present, eggs at the guide's hen-day.
 */
import { standardFeedIntake, standardValue, standardWaterIntake } from '../../shared/domain/analytics/breed-standards.js';
import { HY_LINE_BROWN } from '../../shared/domain/analytics/standards/hy-line-brown.js';
import { temperatureRange } from '../../shared/domain/iot/climate.js';
import { adminWithFarm, expectStatus, round1 } from './broiler-farm.js';
import type { Offline } from './offline.js';
import type { Req, Res } from './http.js';

type Http = (method: string, path: string, req?: Req) => Promise<Res>;

/** Hy-Line Brown's feed intake of `birds` at an age, kg (one decimal). */
export const hyLineFeedKg = (age: number, birds: number) => round1((standardFeedIntake(HY_LINE_BROWN, age)!.grams * birds) / 1000);
/** Hy-Line Brown's water intake of `birds` at an age, litres (one decimal); the guide's table starts at week 1, its value stands for the first days. */
export const hyLineWaterLiters = (age: number, birds: number) => round1((standardWaterIntake(HY_LINE_BROWN, Math.max(7, age))!.ml * birds) / 1000);
/** Eggs of `hens` at the guide's hen-day % for an age (0 before the guide's laying table starts, week 18). */
export const hyLineEggs = (age: number, hens: number) => Math.round((hens * (standardValue(HY_LINE_BROWN, 'henDayPct', age)?.value ?? 0)) / 100);
/** The guide's egg weight at an age, g (one decimal). */
export const hyLineEggGrams = (age: number) => round1(standardValue(HY_LINE_BROWN, 'eggWeight', age)!.value);

/** The house's climate on a layer's curve at an age: a degree either side of the curve's middle, 60 % humidity (the brooding form asks for both). */
export function layerClimate(age: number) {
  const r = temperatureRange({ birdType: 'layer', ageDays: age });
  const t = (r.min! + r.max!) / 2;
  return { temperatureMinC: round1(t - 1), temperatureMaxC: round1(t + 1), humidityPct: 60 };
}

export interface LayerFarmPlan {
  farm: string;
  rearingHouse: { name: string; usableAreaM2: number; capacity: number; type: 'floor' | 'aviary' };
  layingHouse: { name: string; usableAreaM2: number; capacity: number; type: 'floor' | 'aviary' };
  manager: { email: string; password: string };
}

/** The farm, its two houses and its manager; the manager's token. */
export async function layerFarm(http: Http, api: Offline, plan: LayerFarmPlan) {
  const { adminToken, farmId } = await adminWithFarm(http, api, plan.farm);
  const house = async (body: LayerFarmPlan['rearingHouse']) => {
    const res = await http('POST', `/api/v1/config/farms/${farmId}/houses`, { token: adminToken, body });
    expectStatus(res, 201, `POST house ${body.name}`);
    return res.body.data.id as string;
  };
  const rearingHouseId = await house(plan.rearingHouse);
  const layingHouseId = await house(plan.layingHouse);
  const created = await http('POST', '/api/v1/admin/users', {
    token: adminToken,
    body: { ...plan.manager, name: 'Farm Manager', role: 'manager', farmIds: [farmId] },
  });
  expectStatus(created, 201, 'POST manager');
  const login = await http('POST', '/api/v1/auth/login', { body: plan.manager });
  expectStatus(login, 200, 'manager login');
  return { adminToken, token: login.body.token as string, farmId, rearingHouseId, layingHouseId };
}

/** A Hy-Line Brown flock of the farm in a house, hatched on `hatchDate`, with a cycle opened on `startDate`: its ids and the cycle's base path. */
export async function hyLineFlock(http: Http, token: string, body: { name: string; farmId: string; houseId: string; hatchDate: string; startDate: string }) {
  const { startDate, ...flockBody } = body;
  const flock = await http('POST', '/api/v1/flocks', { token, body: { ...flockBody, birdType: 'layer', breed: 'Hy-Line Brown' } });
  expectStatus(flock, 201, `POST flock ${body.name}`);
  const flockId: string = flock.body.data.id;
  const cycle = await http('POST', `/api/v1/flocks/${flockId}/cycles`, { token, body: { startDate } });
  expectStatus(cycle, 201, `POST cycle of ${body.name}`);
  const cycleId: string = cycle.body.data.id;
  return { flockId, cycleId, base: `/api/v1/flocks/${flockId}/cycles/${cycleId}` };
}
