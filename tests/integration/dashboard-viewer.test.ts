/**
 * The viewer's dashboard through the real middleware and DynamoDB Local: a broiler flock keeps its headline
 * KPIs (mortality, livability, FCR, EPEF), a laying flock shows the manager's layer card (hen-day, egg mass,
 * feed per kg egg, livability), never FCR or EPEF, which mean nothing for hens.
 *   Barn    layer: 500 hens moved in on day −10, 450 eggs of 60 g a day from day −3 to day −1, 55 kg of feed a day
 *           → hen-day 1,350 ÷ 1,500 = 90 %; egg mass 90 % × 60 g = 54 g/hen/day; feed per kg egg 165 ÷ 81 = 2.037
 *   Shed    broiler: 1,000 chicks on day −10, 8 dead today
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { day, flockWithCycle, type CycleFixture } from '../support/cycles.js';

let farmId: string;
let barn: CycleFixture;
let shed: CycleFixture;

beforeAll(async () => {
  const admin = await adminLogin();
  farmId = (await call('POST', '/api/v1/config/farms', { token: admin, body: { name: 'Viewer farm', timezone: 'UTC' } })).body.data.id;
  const { token } = await userWith({ role: 'manager', farmIds: [farmId] });
  shed = await flockWithCycle({ token, farmId, startDate: day(-10) });
  await shed.move({ type: 'bird_inflow', date: day(-10), quantity: 1000 });
  await shed.move({ type: 'bird_mortality', date: day(0), quantity: 8 });
  barn = await flockWithCycle({ token, farmId, birdType: 'layer', startDate: day(-10) });
  await barn.move({ type: 'bird_inflow', date: day(-10), quantity: 500 });
  await barn.move({ type: 'feed_delivery', date: day(-10), feedType: 'layer', quantityKg: 1000 });
  for (let d = -3; d <= -1; d++) {
    await barn.move({ type: 'feed_consumption', date: day(d), feedType: 'layer', quantityKg: 55 });
    await barn.move({ type: 'egg_collection', date: day(d), totalEggs: 450, averageEggWeightGrams: 60 });
  }
});

describe('the viewer’s dashboard', { timeout: 120_000 }, () => {
  it('a laying flock has the manager’s layer card (hen-day, egg mass, feed per kg egg, livability), no FCR or EPEF; a broiler flock its headline KPIs', async () => {
    const viewer = await userWith({ role: 'viewer', farmIds: [farmId] });
    const res = await call('GET', '/api/v1/dashboard', { token: viewer.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const v = res.body.data;
    expect(v.role).toBe('viewer');
    const layer = v.flocks.find((f: { flockId: string }) => f.flockId === barn.flock.id);
    expect(layer).toMatchObject({
      kind: 'layer',
      birdType: 'layer',
      birdsAlive: 500,
      livabilityPct: { value: 100, unit: '%' },
      henDayPct: { value: 90, unit: '%' },
      eggMassGrams: { value: 54, unit: 'g/hen/day' },
      feedPerKgEgg: { value: 2.037, unit: 'kg/kg' },
    });
    expect(layer).not.toHaveProperty('fcr');
    expect(layer).not.toHaveProperty('epef');

    const manager = await userWith({ role: 'manager', farmIds: [farmId] });
    const m = (await call('GET', '/api/v1/dashboard', { token: manager.token })).body.data;
    expect(layer).toEqual(m.flocks.find((f: { flockId: string }) => f.flockId === barn.flock.id));

    const broiler = v.flocks.find((f: { flockId: string }) => f.flockId === shed.flock.id);
    expect(broiler).toMatchObject({ birdType: 'broiler', birdsAlive: 992, mortalityPct: { value: 0.8, unit: '%' }, fcr: { unit: 'kg/kg' }, epef: {} });
    expect(broiler).not.toHaveProperty('kind');
  });
});
