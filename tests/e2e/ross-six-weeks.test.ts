/**
 * e2e: a Ross 308 broiler farm's six weeks on the farm's real calendar, over HTTP against the stack
 * `npm start` runs (serverless-offline and DynamoDB Local through the same launcher), with the scheduled
 * alarm job invoked through offline's Lambda port.
 *
 * The calendar: the feed arrives three days before the chicks, on a farm between cycles (a delivery to
 * the farm's stock, no cycle involved); the cycle is opened the same day to book it, and the chicks are
 * placed three days later, so the birds' age counts from the placement, not the booking. A second
 * delivery comes mid-cycle. 10,000 day-old Ross 308 chicks at 42 g; for ages 1–41 a daily record with
 * 3 deaths, feed on the Ross 308 daily intake for the birds present, water at 1.7 l per kg of that feed,
 * and the house on the broiler temperature curve; weighings of 100 birds at the Ross 308 objective every
 * 7 days; the birds are weighed and sold at 42 days. Sources: Aviagen, Ross 308 Broiler Performance
 * Objectives 2022 (daily weight and feed intake, transcribed in shared/domain/analytics/standards/ross-308.ts);
 * water:feed 1.7 and the temperature curve as docs/domain.md gives them.
 *
 * What it proves: normal data raise no alarm (no rule or detector anomaly, no action for a worker, nothing
 * on the manager's dashboard), and the KPIs equal a hand computation from the records posted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standardWeightGrams } from '../../shared/domain/analytics/breed-standards.js';
import { ROSS_308 } from '../../shared/domain/analytics/standards/ross-308.js';
import { expectNoAnomalies, expectStatus, flockDays, round1, rossFlock, targetTemperature, WATER_PER_FEED } from '../support/broiler-farm.js';
import { checkedClient } from '../support/contract.js';
import { client } from '../support/http.js';
import { startOffline, type Offline } from '../support/offline.js';

type Json = Record<string, any>;

/** Harvest is today, at 42 days. */
const HARVEST_AGE = 42;
const { start: PLACED, dateAt } = flockDays(HARVEST_AGE);
const FEED_BEFORE_CHICKS = dateAt(-3);

const BIRDS = 10_000;
const CHICK_GRAMS = 42;
const DEATHS_PER_DAY = 3;
const DELIVERIES = [
  { date: FEED_BEFORE_CHICKS, quantityKg: 22_000 },
  { date: dateAt(20), quantityKg: 26_000 },
];

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;
const { breedFeedKg } = rossFlock(BIRDS, DEATHS_PER_DAY);
const feedKgAt = (age: number) => round1(breedFeedKg(age));
const waterLitersAt = (age: number) => round1(feedKgAt(age) * WATER_PER_FEED);

describe('a Ross 308 farm’s six weeks over HTTP: feed before chicks, normal data, no alarm, KPIs by hand', () => {
  let api: Offline;
  const http = checkedClient(client(() => api));
  let token: string;
  let workerToken: string;
  let farmId: string;
  let flockId: string;
  let cycleId: string;
  let cycleBase: string;
  let rulesJob: Json;

  beforeAll(async () => {
    api = await startOffline();
    const admin = await http('POST', '/api/v1/auth/login', { body: { email: api.admin.email, password: api.admin.password } });
    expectStatus(admin, 200, 'admin login');
    const adminToken: string = admin.body.token;
    const farm = await http('POST', '/api/v1/config/farms', { token: adminToken, body: { name: 'Six-week farm', timezone: 'UTC' } });
    expectStatus(farm, 201, 'POST farm');
    farmId = farm.body.data.id;
    const house = await http('POST', `/api/v1/config/farms/${farmId}/houses`, {
      token: adminToken,
      body: { name: 'House 1', usableAreaM2: 1200, capacity: 20_000 },
    });
    expectStatus(house, 201, 'POST house');
    const login = async (role: string, email: string) => {
      const password = `${role}-six-weeks-password-1`;
      expectStatus(
        await http('POST', '/api/v1/admin/users', { token: adminToken, body: { email, password, name: role, role, farmIds: [farmId] } }),
        201,
        `POST ${role}`,
      );
      const res = await http('POST', '/api/v1/auth/login', { body: { email, password } });
      expectStatus(res, 200, `${role} login`);
      return res.body.token as string;
    };
    token = await login('manager', 'manager@six-weeks.example.com');
    workerToken = await login('worker', 'worker@six-weeks.example.com');

    // three days before the chicks, the farm has no cycle: the feed goes to the farm's stock (House 1's bin)
    const early = await http('POST', '/api/v1/inventory/movements', {
      token,
      body: {
        farmId,
        type: 'feed_delivery',
        date: DELIVERIES[0]!.date,
        feedType: 'broiler',
        quantityKg: DELIVERIES[0]!.quantityKg,
        houseId: house.body.data.id,
      },
    });
    expectStatus(early, 201, 'POST farm feed delivery before the chicks');

    const flock = await http('POST', '/api/v1/flocks', {
      token,
      body: { name: 'Batch 1', birdType: 'broiler', breed: 'Ross 308', farmId, houseId: house.body.data.id },
    });
    expectStatus(flock, 201, 'POST flock');
    flockId = flock.body.data.id;
    // the cycle is opened when the feed is booked; the chicks come three days later
    const cycle = await http('POST', `/api/v1/flocks/${flockId}/cycles`, { token, body: { startDate: FEED_BEFORE_CHICKS, targetAgeDays: HARVEST_AGE } });
    expectStatus(cycle, 201, 'POST cycle');
    cycleId = cycle.body.data.id;
    cycleBase = `/api/v1/flocks/${flockId}/cycles/${cycleId}`;
    expectStatus(
      await http('POST', `${cycleBase}/movements`, { token, body: { type: 'bird_inflow', date: PLACED, quantity: BIRDS, averageWeightGrams: CHICK_GRAMS } }),
      201,
      'POST bird_inflow',
    );

    for (let age = 1; age < HARVEST_AGE; age++) {
      const date = dateAt(age);
      if (date === DELIVERIES[1]!.date) {
        const mid = await http('POST', '/api/v1/inventory/movements', {
          token,
          body: { farmId, type: 'feed_delivery', date, feedType: 'broiler', quantityKg: DELIVERIES[1]!.quantityKg },
        });
        expectStatus(mid, 201, 'POST mid-cycle feed delivery');
      }
      const t = targetTemperature(age);
      const record = await http('POST', `${cycleBase}/daily-records`, {
        token,
        body: {
          date,
          deaths: DEATHS_PER_DAY,
          feedKg: feedKgAt(age),
          waterLiters: waterLitersAt(age),
          temperatureMinC: round1(t - 1),
          temperatureMaxC: round1(t + 1),
          humidityPct: 60,
        },
      });
      expectStatus(record, 201, `POST daily record age ${age}`);
      expect(record.body.warnings, `age ${age}: ${record.text}`).toBeUndefined();
      if (age % 7 === 0) {
        const grams = standardWeightGrams(ROSS_308, age)!.grams;
        expectStatus(await http('POST', `${cycleBase}/weights`, { token, body: { date, grams, sampleSize: 100 } }), 201, `POST weighing age ${age}`);
      }
    }
    // harvest day: the birds are weighed before they are loaded
    const harvestGrams = standardWeightGrams(ROSS_308, HARVEST_AGE)!.grams;
    expectStatus(
      await http('POST', `${cycleBase}/weights`, { token, body: { date: dateAt(HARVEST_AGE), grams: harvestGrams, sampleSize: 100 } }),
      201,
      'POST harvest weighing',
    );
    const scheduled = { version: '0', id: 'e2e', 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString(), detail: {} };
    rulesJob = (await api.invoke('rulesJob', scheduled)) as Json;
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('the age counts from the placement, not from the day the cycle was opened to book the feed', async () => {
    const res = await http('GET', cycleBase, { token });
    expectStatus(res, 200, 'GET cycle');
    expect(res.body.data).toMatchObject({ startDate: FEED_BEFORE_CHICKS, placedOn: PLACED, ageFrom: 'placement', ageDays: HARVEST_AGE });
  });

  it('normal data raise nothing: no anomaly from a rule or a detector, no action for a worker, nothing on the dashboard', async () => {
    expect(rulesJob, JSON.stringify(rulesJob)).toMatchObject({ status: 'done', result: { rules: { errors: [] }, detectors: { errors: [] } } });
    await expectNoAnomalies(http, token, farmId);
    const v2 = await http('GET', `/api/v2/analytics/anomalies/${flockId}/${cycleId}`, { token });
    expectStatus(v2, 200, 'GET v2 anomalies');
    expect(v2.body.data.detections.map((d: Json) => `${d.bucket} ${d.metric} ${d.detector} ${d.direction}`)).toEqual([]);
    const worker = await http('GET', '/api/v1/dashboard', { token: workerToken });
    expectStatus(worker, 200, 'GET worker dashboard');
    expect(worker.body.data.dueActions).toEqual([]);
    const manager = await http('GET', '/api/v1/dashboard', { token });
    expectStatus(manager, 200, 'GET manager dashboard');
    expect(manager.body.data.openAnomalies.count).toBe(0);
  });

  it('the KPIs at 42 days equal a hand computation from the records', async () => {
    const deaths = DEATHS_PER_DAY * (HARVEST_AGE - 1);
    const alive = BIRDS - deaths;
    let feedKg = 0;
    for (let age = 1; age < HARVEST_AGE; age++) feedKg += feedKgAt(age);
    const weightKg = standardWeightGrams(ROSS_308, HARVEST_AGE)!.grams / 1000;
    const fcr = feedKg / (alive * weightKg);
    const livability = (alive / BIRDS) * 100;
    const res = await http('GET', cycleBase, { token });
    expectStatus(res, 200, 'GET cycle');
    const c = res.body.data;
    expect(c.birds).toMatchObject({ placed: BIRDS, deaths, alive });
    expect(c.feed.consumedKg).toBeCloseTo(feedKg, 3);
    expect(c.kpis.mortalityPct).toMatchObject({ value: round((deaths / BIRDS) * 100, 2), unit: '%' });
    expect(c.kpis.livabilityPct).toMatchObject({ value: round(livability, 2), unit: '%' });
    expect(c.kpis.fcr).toMatchObject({ value: round(fcr, 3), unit: 'kg/kg' });
    expect(c.kpis.epef).toMatchObject({ value: Math.round((livability * weightKg * 100) / (HARVEST_AGE * fcr)), unit: 'index' });
    const v2 = await http('GET', `/api/v2/analytics/cycle/${flockId}/${cycleId}`, { token });
    expectStatus(v2, 200, 'GET v2 cycle');
    expect(v2.body.data.kpis.adgSincePlacement.value).toBeCloseTo(round((weightKg * 1000 - CHICK_GRAMS) / HARVEST_AGE, 1), 1);
  });

  it('the farm stock is what was delivered less what the cycle ate, and the flock is sold and the cycle closed', async () => {
    let eaten = 0;
    for (let age = 1; age < HARVEST_AGE; age++) eaten += feedKgAt(age);
    const delivered = DELIVERIES.reduce((a, d) => a + d.quantityKg, 0);
    const stock = await http('GET', `/api/v1/inventory/stock?farmId=${farmId}`, { token });
    expectStatus(stock, 200, 'GET stock');
    expect(stock.body.data.feed.byType).toEqual([{ feedType: 'broiler', kg: round(delivered - eaten, 6), shortfalls: [] }]);
    const alive = BIRDS - DEATHS_PER_DAY * (HARVEST_AGE - 1);
    const weightKg = standardWeightGrams(ROSS_308, HARVEST_AGE)!.grams / 1000;
    const sale = await http('POST', `${cycleBase}/movements`, {
      token,
      body: { type: 'bird_sale', date: dateAt(HARVEST_AGE), quantity: alive, totalWeightKg: round(alive * weightKg, 1) },
    });
    expectStatus(sale, 201, 'POST bird_sale');
    const closed = await http('POST', `${cycleBase}/close`, { token, body: { endDate: dateAt(HARVEST_AGE) } });
    expectStatus(closed, 200, 'close cycle');
    expect(closed.body.data).toMatchObject({ status: 'closed', birds: { alive: 0, sold: alive } });
  });
});
