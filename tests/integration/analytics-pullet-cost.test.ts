/**
 * The rearing cost per pullet follows the birds into the laying cycle, through the real middleware and
 * DynamoDB Local, checked against the arithmetic below (pricing defaults: medication, other costs 0; no
 * water or vaccination recorded). Hatch = the rearing start, 140 days ago; the move at 17 weeks (day 119).
 *
 *   rearing  day 0    bird_inflow 1,000 at 0.85 → chicks 850.00; feed_delivery grower 6,000 kg at 0.40
 *            day 30   50 dead                   day 60  5,000 kg grower eaten → feed 5,000 × 0.40 = 2,000.00
 *            cost so far 2,850.00 ÷ 950 birds alive = 3.00 per pullet (costPerBirdAlive)
 *            day 119  bird_transfer_out 950 at unitCost 3.00 → transferredOut 2,850.00; gross 2,850.00, total 0.00
 *   laying   day 119  (the transfer in: 950 hens housed, pullets 950 × 3.00 = 2,850.00); layer 2,000 kg at 0.50
 *            day 130  4,975 eggs at 60 g (298.5 kg)   day 135  950 kg eaten → feed 475.00
 *            day 137  5,000 eggs at 73.3 g (366.5 kg) day 138  7,600 eggs sold at 0.50 → revenue 3,800.00
 *            cost 2,850 + 475 = 3,325.00; margin 3,800 − 3,325 = 475.00
 *            margin per hen housed 475 ÷ 950 = 0.50; feed per hen housed 950 ÷ 950 = 1.00 kg
 *            cost per dozen 3,325 × 12 ÷ 9,975 eggs = 4.00; egg mass 298.5 + 366.5 = 665 kg → 3,325 ÷ 665 = 5.00 per kg
 *   the farm: rearing 0.00 + laying 3,325.00 = 850 + 2,000 + 475: the pullets' cost counted once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call as inProcessCall } from '../support/api.js';
import { checkedCall } from '../support/contract.js';
import { userWith } from '../support/accounts.js';
import { day, flockWithCycle, type CycleFixture } from '../support/cycles.js';
import { otherFarm } from '../support/farms.js';

/** Every JSON response is checked against the closed schema of its operation (tests/support/contract.ts). */
const call = checkedCall(inProcessCall);

const HATCH = -140;
const age = (n: number) => day(HATCH + n);
let rearing: CycleFixture;
let laying: CycleFixture;

const financials = async (c: CycleFixture) => {
  const res = await call('GET', `/api/v2/analytics/financials/${c.flock.id}/${c.cycle.id}`, { token: c.token });
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
  return res.body.data.financials;
};

let beforeMove: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  rearing = await flockWithCycle({ birdType: 'layer', breed: 'Hy-Line Brown', startDate: age(0), hatchDate: age(0) });
  laying = await flockWithCycle({ token: rearing.token, birdType: 'layer', breed: 'Hy-Line Brown', startDate: age(119), hatchDate: age(0) });
  await rearing.move({ type: 'bird_inflow', date: age(0), quantity: 1000, unitCost: 0.85 });
  await rearing.move({ type: 'feed_delivery', date: age(0), feedType: 'grower', quantityKg: 6000, unitPrice: 0.4 });
  await rearing.move({ type: 'bird_mortality', date: age(30), quantity: 50 });
  await rearing.move({ type: 'feed_consumption', date: age(60), feedType: 'grower', quantityKg: 5000 });
  beforeMove = await financials(rearing);
  await rearing.move({ type: 'bird_transfer_out', date: age(119), quantity: 950, counterpartFlockId: laying.flock.id, unitCost: 3 });
  await laying.move({ type: 'feed_delivery', date: age(119), feedType: 'layer', quantityKg: 2000, unitPrice: 0.5 });
  await laying.move({ type: 'egg_collection', date: age(130), totalEggs: 4975, averageEggWeightGrams: 60 });
  await laying.move({ type: 'feed_consumption', date: age(135), feedType: 'layer', quantityKg: 950 });
  await laying.move({ type: 'egg_collection', date: age(137), totalEggs: 5000, averageEggWeightGrams: 73.3 });
  await laying.move({ type: 'egg_sale', date: age(138), quantity: 7600, unitPrice: 0.5 });
}, 120_000);

describe('the cost of a pullet follows it from the rearing cycle to the laying cycle', () => {
  it('the rearing cycle answers its cost so far per bird alive, the unitCost to send with the move', () => {
    expect(beforeMove.costs.total).toBe(2850);
    expect(beforeMove.costPerBirdAlive).toEqual({ value: 3, unit: 'USD/bird', basis: 'total cost 2,850 USD ÷ 950 birds alive' });
  });

  it('the transfer records the unitCost on both sides', async () => {
    const query = { type: 'bird_transfer_in' };
    const res = await call('GET', `${laying.base}/movements`, { token: laying.token, query });
    expect(res.body.data).toEqual([expect.objectContaining({ quantity: 950, unitCost: 3, counterpartCycleId: rearing.cycle.id })]);
    const out = await call('GET', `${rearing.base}/movements`, { token: rearing.token, query: { type: 'bird_transfer_out' } });
    expect(out.body.data).toEqual([expect.objectContaining({ quantity: 950, unitCost: 3, counterpartCycleId: laying.cycle.id })]);
  });

  it('the laying cycle carries the pullet cost: margin and feed per hen housed, cost per dozen and per kg of eggs', async () => {
    const f = await financials(laying);
    expect(f.costs.pullets).toMatchObject({ amount: 2850, quantity: 950, pricedFromMovements: 950, averageUnitPrice: 3, assumptions: [] });
    expect(f.costs.chicks.amount).toBe(0);
    expect(f.assumptions.join(' ')).not.toMatch(/carry no chick cost/);
    expect(f.costs.feed.amount).toBe(475);
    expect(f.costs.total).toBe(3325);
    expect(f.revenue.total).toBe(3800);
    expect(f.margin.value).toBe(475);
    expect(f.layer.hensHoused).toBe(950);
    expect(f.layer.marginPerHenHoused).toEqual({ value: 0.5, unit: 'USD/hen', basis: 'margin 475 USD ÷ 950 hens housed (placed + transferred in)' });
    expect(f.layer.feedPerHenHousedKg).toMatchObject({ value: 1, unit: 'kg/hen' });
    expect(f.layer.costPerDozenEggs).toEqual({ value: 4, unit: 'USD/dozen', basis: 'total cost 3,325 USD × 12 ÷ 9,975 eggs collected' });
    expect(f.layer.eggMassKg).toMatchObject({ value: 665, unit: 'kg' });
    expect(f.layer.costPerKgEggs).toMatchObject({ value: 5, unit: 'USD/kg', basis: 'total cost 3,325 USD ÷ 665 kg of eggs' });
  });

  it('the rearing cycle passes the cost on as a transfer out at cost: the farm counts it once', async () => {
    const f = await financials(rearing);
    expect(f.costs.chicks.amount).toBe(850);
    expect(f.costs.feed.amount).toBe(2000);
    expect(f.costs.gross).toBe(2850);
    expect(f.costs.transferredOut).toMatchObject({ amount: 2850, quantity: 950, averageUnitPrice: 3, assumptions: [] });
    expect(f.costs.total).toBe(0);
    expect(f.costPerBirdAlive).toMatchObject({ value: null, reason: 'no bird alive' });
    const laid = await financials(laying);
    expect(f.costs.total + laid.costs.total).toBe(850 + 2000 + 475);
  });
});

describe('pullets sent to another farm', () => {
  it('the transfer keeps its unitCost; completed, the receiving cycle counts 400 × 0.50 = 200 as its pullet cost, the sender passes it on', async () => {
    const side = async (name: string) => {
      const farmId = await otherFarm(name);
      const { token } = await userWith({ role: 'manager', farmIds: [farmId] });
      return { farmId, c: await flockWithCycle({ token, farmId, birdType: 'layer', startDate: day(-30) }) };
    };
    const [a, b] = await Promise.all([side('Rearing farm'), side('Laying farm')]);
    await a.c.move({ type: 'bird_inflow', date: day(-30), quantity: 500, unitCost: 0.5 });
    const requested = await call('POST', '/api/v1/sharing/transfers', {
      token: a.c.token,
      body: { kind: 'birds', from: { farmId: a.farmId, flockId: a.c.flock.id }, to: { farmId: b.farmId, flockId: b.c.flock.id }, quantity: 400, unitCost: 0.5 },
    });
    expect(requested.status, requested.raw).toBe(201);
    expect(requested.body.data.unitCost).toBe(0.5);
    const id = requested.body.data.id;
    expect((await call('POST', `/api/v1/sharing/transfers/${id}/approve`, { token: b.c.token, body: {} })).status).toBe(200);
    const done = await call('POST', `/api/v1/sharing/transfers/${id}/complete`, { token: a.c.token, body: {} });
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data.unitCost).toBe(0.5);
    const received = await financials(b.c);
    expect(received.costs.pullets).toMatchObject({ amount: 200, quantity: 400 });
    const sent = await financials(a.c);
    // chicks 500 × 0.50 = 250 (0.50 per bird alive); 400 passed on at 0.50 = 200 → total 250 − 200 = 50, the 100 kept
    expect(sent.costs.transferredOut).toMatchObject({ amount: 200, quantity: 400 });
    expect(sent.costs.total).toBe(50);
    expect(sent.costPerBirdAlive.value).toBe(0.5);
  });
});
