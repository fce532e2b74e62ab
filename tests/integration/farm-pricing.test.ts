import { beforeAll, describe, expect, it } from 'vitest';
import { call as inProcessCall } from '../support/api.js';
import { checkedCall } from '../support/contract.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { day, flockWithCycle, type CycleFixture } from '../support/cycles.js';
import { otherFarm } from '../support/farms.js';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';

/** Every JSON response is checked against the closed schema of its operation (tests/support/contract.ts). */
const call = checkedCall(inProcessCall);

/**
 * Two farms with the same cycle: 1,000 chicks placed without a unitCost, 2,000 kg of starter delivered
 * without a price, 500 kg of it consumed. The UK farm prices starter at 0.38 GBP/kg; everything else
 * falls back to the service's pricing (the defaults: chicks 0.55, feed 0.45 USD/kg).
 *   UK: feed 500 × 0.38 = 190 GBP, chicks 1,000 × 0.55 = 550 GBP (the service's amount, as GBP)
 *   US: feed 500 × 0.45 = 225 USD, chicks 550 USD
 */
const pricing = (farmId: string) => `/api/v1/config/farms/${farmId}/pricing`;
const financials = (c: CycleFixture) => `/api/v2/analytics/financials/${c.flock.id}/${c.cycle.id}`;

let admin: string;
let uk: string;
let us: string;
let ukCycle: CycleFixture;
let usCycle: CycleFixture;

async function cycleOf(farmId: string) {
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  const c = await flockWithCycle({ token: manager.token, farmId, startDate: day(-10) });
  await c.move({ type: 'bird_inflow', date: day(-10), quantity: 1000 });
  await c.move({ type: 'feed_delivery', date: day(-10), feedType: 'starter', quantityKg: 2000 });
  await c.move({ type: 'feed_consumption', date: day(-5), feedType: 'starter', quantityKg: 500 });
  return c;
}

async function money(c: CycleFixture) {
  const res = await call('GET', financials(c), { token: c.token });
  expect(res.status, res.raw).toBe(200);
  return res.body.data as { cycle: Record<string, unknown>; financials: Record<string, any> };
}

beforeAll(async () => {
  admin = await adminLogin();
  [uk, us] = await Promise.all([otherFarm('UK farm'), otherFarm('US farm')]);
  [ukCycle, usCycle] = await Promise.all([cycleOf(uk), cycleOf(us)]);
});

describe('farm pricing', () => {
  it('a farm without an override answers the service’s pricing, version 0, every field from the service', async () => {
    const res = await call('GET', pricing(uk), { token: ukCycle.token });
    expect(res.status, res.raw).toBe(200);
    expect(res.headers.ETag).toBe('"0"');
    expect(res.body.data).toMatchObject({ farmId: uk, currency: 'USD', override: {}, effective: ANALYTICS_DEFAULTS.pricing, warnings: [], version: 0 });
    expect(new Set(Object.values(res.body.data.sources))).toEqual(new Set(['service']));
  });

  it('a worker of the farm may read it but not change it (403); another farm’s id is 404 like a missing farm', async () => {
    const worker = await userWith({ role: 'worker', farmIds: [uk] });
    expect((await call('GET', pricing(uk), { token: worker.token })).status).toBe(200);
    expect((await call('PUT', pricing(uk), { token: worker.token, body: { currency: 'GBP' } })).status).toBe(403);
    expect((await call('DELETE', pricing(uk), { token: worker.token })).status).toBe(403);
    expect((await call('GET', pricing(us), { token: ukCycle.token })).status).toBe(404);
    expect((await call('GET', `${pricing(us)}/history`, { token: ukCycle.token })).status).toBe(404);
    // a farm's own manager sets its prices; another farm's manager gets the 404 of a missing farm, never 403
    const own = await otherFarm('Pricing manager farm');
    const ownManager = await userWith({ role: 'manager', farmIds: [own] });
    const set = await call('PUT', pricing(own), { token: ownManager.token, body: { currency: 'GBP', feedPerKg: 0.41 } });
    expect(set.status, set.raw).toBe(200);
    expect(set.body.data).toMatchObject({ currency: 'GBP', version: 1 });
    expect((await call('PUT', pricing(us), { token: ukCycle.token, body: { currency: 'GBP' } })).status).toBe(404);
    expect((await call('DELETE', pricing(us), { token: ukCycle.token })).status).toBe(404);
    expect((await call('GET', pricing('no-such-farm'), { token: admin })).status).toBe(404);
    expect((await call('PUT', pricing('no-such-farm'), { token: admin, body: { currency: 'GBP' } })).status).toBe(404);
  });

  it('refuses a currency that is not ISO 4217, and unknown fields', async () => {
    const bad = await call('PUT', pricing(uk), { token: admin, body: { currency: 'ABC' } });
    expect(bad.status, bad.raw).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ field: 'body.currency' })]);
    expect((await call('PUT', pricing(uk), { token: admin, body: { currency: 'GBP', discount: 1 } })).status).toBe(400);
    expect((await call('GET', pricing(uk), { token: admin })).body.data.version).toBe(0);
  });

  it('a UK farm sets GBP and its starter price: its financials are in GBP at its price, the other prices fall back, another farm keeps USD', async () => {
    const res = await call('PUT', pricing(uk), { token: admin, headers: { 'If-Match': '"0"' }, body: { currency: 'GBP', feedPerKgByType: { starter: 0.38 } } });
    expect(res.status, res.raw).toBe(200);
    expect(res.headers.ETag).toBe('"1"');
    expect(res.body.data).toMatchObject({
      currency: 'GBP',
      override: { currency: 'GBP', feedPerKgByType: { starter: 0.38 } },
      effective: { ...ANALYTICS_DEFAULTS.pricing, currency: 'GBP', feedPerKgByType: { starter: 0.38 } },
      version: 1,
    });
    expect(res.body.data.sources).toMatchObject({ currency: 'farm', 'feedPerKgByType.starter': 'farm', feedPerKg: 'service', chickPerBird: 'service' });
    expect(res.body.data.warnings).toContain("chickPerBird: the service's 0.55 USD is used as 0.55 GBP; set it for this farm");

    const ukMoney = await money(ukCycle);
    expect(ukMoney.cycle).toMatchObject({ currency: 'GBP', pricingVersion: 1 });
    expect(ukMoney.financials.currency).toBe('GBP');
    expect(ukMoney.financials.costs.feed.amount).toBe(190);
    expect(ukMoney.financials.costs.chicks.amount).toBe(550);

    const usMoney = await money(usCycle);
    expect(usMoney.cycle).toMatchObject({ currency: 'USD', pricingVersion: 0 });
    expect(usMoney.financials.currency).toBe('USD');
    expect(usMoney.financials.costs.feed.amount).toBe(225);
    expect(usMoney.financials.costs.chicks.amount).toBe(550);

    // a cost rule's backtest names the farm's currency
    const rule = await call('POST', '/api/v1/rules', {
      token: ukCycle.token,
      body: {
        name: 'Cost per kg',
        scope: { farmId: uk },
        input: 'costPerKgLive',
        window: 'P1D',
        aggregation: 'last',
        condition: { op: '>', value: 100 },
        severity: 'warning',
        actions: ['raise_anomaly'],
      },
    });
    expect(rule.status, rule.raw).toBe(201);
    const test = await call('POST', `/api/v1/rules/${rule.body.data.id}/test`, {
      token: ukCycle.token,
      body: { flockId: ukCycle.flock.id, from: day(-3), to: day(0) },
    });
    expect(test.status, test.raw).toBe(200);
    expect(test.body.data.unit).toBe('GBP/kg');

    const audit = await call('GET', '/api/v1/admin/audit', { token: admin, query: { targetId: uk } });
    expect(audit.body.data[0]).toMatchObject({ action: 'farm_pricing.update', changes: { currency: expect.objectContaining({ to: 'GBP' }) } });
  });

  it('a stale version is a conflict (If-Match 412, body version 409) and writes nothing; an unchanged PUT keeps the version', async () => {
    const stale = await call('PUT', pricing(uk), { token: admin, headers: { 'If-Match': '"0"' }, body: { currency: 'EUR' } });
    expect(stale.status, stale.raw).toBe(412);
    const conflict = await call('PUT', pricing(uk), { token: admin, body: { currency: 'EUR', version: 3 } });
    expect(conflict.status, conflict.raw).toBe(409);
    const same = await call('PUT', pricing(uk), { token: admin, body: { feedPerKgByType: { starter: 0.38 }, currency: 'GBP', version: 1 } });
    expect(same.status, same.raw).toBe(200);
    const now = await call('GET', pricing(uk), { token: admin });
    expect(now.body.data).toMatchObject({ currency: 'GBP', version: 1 });
    const history = await call('GET', `${pricing(uk)}/history`, { token: admin });
    expect(history.body.data).toHaveLength(1);
    expect(history.body.data[0]).toMatchObject({ version: 1, changedFields: ['currency', 'feedPerKgByType'], override: { currency: 'GBP' } });
  });

  it('removing the override restores the service’s pricing, as a new version kept in the history', async () => {
    const stale = await call('DELETE', pricing(uk), { token: admin, headers: { 'If-Match': '"0"' } });
    expect(stale.status, stale.raw).toBe(412);
    const res = await call('DELETE', pricing(uk), { token: admin, headers: { 'If-Match': '"1"' } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({ currency: 'USD', override: {}, effective: ANALYTICS_DEFAULTS.pricing, version: 2, warnings: [] });
    const ukMoney = await money(ukCycle);
    expect(ukMoney.cycle).toMatchObject({ currency: 'USD', pricingVersion: 2 });
    expect(ukMoney.financials.costs.feed.amount).toBe(225);
    const history = await call('GET', `${pricing(uk)}/history`, { token: admin });
    expect(history.body.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(history.body.data[0]).toMatchObject({ changedFields: ['currency', 'feedPerKgByType'], override: {} });
    // nothing left to remove: the same version
    expect((await call('DELETE', pricing(uk), { token: admin })).body.data.version).toBe(2);
  });
});
