/**
 * Eggs by grade through the real middleware and DynamoDB Local: one daily form for a layer house takes the
 * grades, cracked, dirty, floor and double-yolk eggs and the average egg weight; the egg stock and sales
 * follow grades; a second write of a day's egg production corrects the first, never adds to it.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { day, flockWithCycle } from '../support/cycles.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function layerHouse() {
  const farmId = await otherFarm('Grading farm');
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  // hens in lay: hatched 200 days ago, in this house for 40 days
  const c = await flockWithCycle({ token: manager.token, farmId, birdType: 'layer', hatchDate: day(-200), startDate: day(-40) });
  await c.move({ type: 'bird_inflow', date: day(-40), quantity: 10_000 });
  await c.move({ type: 'feed_delivery', date: day(-40), feedType: 'layer-mash', quantityKg: 50_000 });
  const token = manager.token;
  const daily = (date: string, body: Json) => call('POST', `${c.base}/daily-records`, { token, body: { date, ...body } });
  const post = (body: Json) => call('POST', `${c.base}/movements`, { token, body });
  const summary = async () => (await call('GET', c.base, { token })).body.data as Json;
  const stock = async () => (await call('GET', '/api/v1/inventory/stock', { token, query: { farmId } })).body.data.eggs as Json;
  const eggProduction = (body: Json) => call('POST', '/api/v2/analytics/egg-production', { token, body: { flockId: c.flock.id, ...body } });
  return { ...c, token, farmId, daily, post, summary, stock, eggProduction };
}

const dayForm = { deaths: 2, feedKg: 1150, waterLiters: 2100 };

describe('eggs by grade', () => {
  it('one daily form takes grades, cracked, dirty, floor and double-yolk eggs and the egg weight; the stock keeps each grade', async () => {
    const h = await layerHouse();
    const form = await h.daily(day(-2), {
      ...dayForm,
      eggsCollected: 9300,
      eggsCracked: 40,
      eggsDirty: 60,
      eggsFloor: 25,
      eggsDoubleYolk: 12,
      eggGrades: { M: 3000, L: 5000, XL: 800 },
      averageEggWeightGrams: 62.4,
    });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    const eggs = (form.body.data.movements as Json[]).find((m) => m.type === 'egg_collection')!;
    expect(eggs).toMatchObject({
      totalEggs: 9300,
      cracked: 40,
      dirty: 60,
      floor: 25,
      doubleYolk: 12,
      grades: { M: 3000, L: 5000, XL: 800 },
      averageEggWeightGrams: 62.4,
    });
    expect(await h.stock()).toEqual({ count: 9300, byGrade: { L: 5000, M: 3000, XL: 800 }, ungraded: 500, shortfalls: [] });
    // the parts cannot exceed the whole
    const tooMany = await h.daily(day(-1), { ...dayForm, eggsCollected: 100, eggsFloor: 101, eggGrades: { L: 150 } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details).toEqual(
      expect.arrayContaining([
        { field: 'body.eggsFloor', message: 'must not exceed eggsCollected' },
        { field: 'body.eggGrades', message: 'add up to 150, more than eggsCollected (100)' },
      ]),
    );
  });

  it('a sale names its grade and takes from it; ungraded eggs sell without one; what a grade lacks is refused naming what is held', async () => {
    const h = await layerHouse();
    await h.post({ type: 'egg_collection', date: day(-2), totalEggs: 1000, grades: { L: 600, M: 300 } });
    const ungraded = await h.post({ type: 'egg_sale', date: day(-1), quantity: 200, unitPrice: 0.12 });
    expect(ungraded.status).toBe(409);
    expect(ungraded.body.error).toBe(
      `Cycle ${h.cycle.id} holds 100 ungraded eggs laid on or before ${day(-1)}; cannot sell 200 (it also holds L 600, M 300: name the grade in \`grade\`, or none for ungraded eggs)`,
    );
    const large = await h.post({ type: 'egg_sale', date: day(-1), quantity: 550, grade: 'L', unitPrice: 0.14 });
    expect(large.status, JSON.stringify(large.body)).toBe(201);
    expect(large.body.data).toMatchObject({ grade: 'L', fromLots: [{ laidOn: day(-2), quantity: 550 }] });
    const more = await h.post({ type: 'egg_sale', date: day(-1), quantity: 51, grade: 'L' });
    expect(more.status).toBe(409);
    expect(more.body.error).toContain('holds 50 eggs of grade L');
    expect((await h.post({ type: 'egg_loss', date: day(-1), quantity: 100, reason: 'Broken in the grader' })).status).toBe(201);
    expect(await h.stock()).toEqual({ count: 350, byGrade: { L: 50, M: 300 }, ungraded: 0, shortfalls: [] });
  });

  it('a second egg production of a day corrects the first, and corrects the daily record’s eggs: never 930 + 930', async () => {
    const h = await layerHouse();
    const first = await h.eggProduction({ date: day(-3), totalEggs: 930 });
    expect(first.status).toBe(201);
    const second = await h.eggProduction({ date: day(-3), totalEggs: 940, doubleYolk: 3 });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.message).toBe(`Egg production of ${day(-3)} corrected: it replaces the eggs recorded before (movement ${first.body.data.id})`);
    expect(second.body.data).toMatchObject({ id: first.body.data.id, totalEggs: 940, doubleYolk: 3 });
    expect((await h.summary()).eggs.collected).toBe(940);
    // a day with a daily record: its egg fields are replaced
    await h.daily(day(-2), { ...dayForm, eggsCollected: 930, eggsCracked: 5 });
    const viaV2 = await h.eggProduction({ date: day(-2), totalEggs: 950, grades: { L: 900 } });
    expect(viaV2.status, JSON.stringify(viaV2.body)).toBe(200);
    expect(viaV2.body.data).toMatchObject({ type: 'egg_collection', totalEggs: 950, grades: { L: 900 } });
    expect(viaV2.body.data.cracked).toBeUndefined();
    const record = (await call('GET', `${h.base}/daily-records/${day(-2)}`, { token: h.token })).body.data.record as Json;
    expect(record.fields).toMatchObject({ eggsCollected: 950, eggGrades: { L: 900 }, deaths: 2, feedKg: 1150 });
    expect(record.fields.eggsCracked).toBeUndefined();
    expect((await h.summary()).eggs.collected).toBe(940 + 950);
  });
});
