/**
 * e2e: heat is heat, disease is disease. Two broiler farms on one stack (real HTTP against
 * serverless-offline and DynamoDB Local, the scheduled alarm job invoked through offline's Lambda port),
 * each posting its sensor frames and then its daily records, as a farm does (the sensors report through
 * the day, the record is entered at its end); the farm's DEFAULT daily-mortality rule fires on the last day.
 *
 * (a) Heat farm (Lagos, UTC+1): 2,000 Ross 308 chicks placed 31 days ago, 2 deaths a day, feed on the
 *     Ross 308 daily intake and water at the expected 1.7 l per kg of it (daily records of ages 21–30). On the last recorded day (age 30)
 *     the climate sensor of House 2 reports hourly 29 °C at night up to 36.0 °C at 14:00 local (the broiler
 *     curve says 21 °C ± 2 from day 28), 150 birds die, feed falls 12 % and the birds drink what a house at
 *     that temperature should (+6.5 % per °C of the day's mean above 21 °C). The anomaly's first hypothesis
 *     is heat stress, naming the reading ("36.0 °C at 14:00 in House 2, 15.0 °C above the 21.0 °C target
 *     for age 30 days"), and the day's expected water is higher than on the days on the curve.
 * (b) Disease farm (UTC): the same flock, its house on the temperature curve (hourly frames at the target
 *     ±0.3 °C, 60 % humidity) over the last 4 days, while deaths rise (4, 6, 12, 30 a day) and feed and
 *     water fall (to 98, 90 and 72 % of the breed intake). Its anomaly ranks disease first, with the
 *     temperature on the curve as evidence.
 * Every response is checked against the closed schema of its operation (checkedClient).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standardFeedIntake } from '../../shared/domain/analytics/breed-standards.js';
import { ROSS_308 } from '../../shared/domain/analytics/standards/ross-308.js';
import { temperatureRange } from '../../shared/domain/iot/climate.js';
import { checkedClient } from '../support/contract.js';
import { client, type Res } from '../support/http.js';
import { startOffline, type Offline } from '../support/offline.js';
import { pollUntil } from '../support/poll.js';

type Json = Record<string, any>;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const TODAY_MS = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
const AGE_TODAY = 31;
const LAST_AGE = 30;
/** The daily records posted: the last 10 days (enough for the 7-day mortality baseline and the 3-day feed and water trends). */
const FIRST_RECORDED_AGE = 21;
/** The calendar date the birds are `age` days old. */
const dateAt = (age: number) => new Date(TODAY_MS + (age - AGE_TODAY) * DAY_MS).toISOString().slice(0, 10);
const START = dateAt(0);
const BIRDS = 2_000;
/** consumption.broilerWaterFeedRatio and waterIncreasePctPerDegC of the default analytics configuration. */
const WATER_PER_FEED = 1.7;
const WATER_PCT_PER_DEG = 6.5;

const round1 = (x: number) => Math.round(x * 10) / 10;
/** The middle of the broiler temperature curve at an age (the house's target). */
const targetAt = (age: number) => {
  const r = temperatureRange({ birdType: 'broiler', ageDays: age });
  return (r.min! + r.max!) / 2;
};

/** The disease farm's house at hour h of a day: on the curve, ±0.3 °C over the day. */
const onCurveAt = (age: number, h: number) => round1(targetAt(age) + 0.3 * Math.sin((2 * Math.PI * h) / 24));

/** A farm's days: deaths, feed and water as fractions of the breed intake and its expected water, the house's range of the day. */
interface Plan {
  deaths: (age: number) => number;
  feed: (age: number) => number;
  water: (age: number) => number;
  temperature?: (age: number) => { min: number; max: number };
}

/** The heat day: 29 °C at night, 36 °C at 14:00 local, linear in between (local hours 6–22). */
const heatAt = (localHour: number) => round1(29 + 7 * Math.max(0, 1 - Math.abs(localHour - 14) / 8));
const HEAT_MEAN_C = Array.from({ length: 24 }, (_, h) => heatAt(h)).reduce((a, b) => a + b, 0) / 24;

const HEAT: Plan = {
  deaths: (age) => (age === LAST_AGE ? 150 : 2),
  feed: (age) => (age === LAST_AGE ? 0.88 : 1),
  // hot birds drink what the house temperature makes them drink
  water: (age) => (age === LAST_AGE ? 1 + ((HEAT_MEAN_C - 21) * WATER_PCT_PER_DEG) / 100 : 1),
  temperature: (age) => (age === LAST_AGE ? { min: 29, max: 36 } : { min: round1(targetAt(age) - 1), max: round1(targetAt(age) + 1) }),
};
const SICK_FROM = 27;
const SICK = [
  { deaths: 4, intake: 1 },
  { deaths: 6, intake: 0.98 },
  { deaths: 12, intake: 0.9 },
  { deaths: 30, intake: 0.72 },
];
const DISEASE: Plan = {
  deaths: (age) => (age >= SICK_FROM ? SICK[age - SICK_FROM]!.deaths : 2),
  feed: (age) => (age >= SICK_FROM ? SICK[age - SICK_FROM]!.intake : 1),
  water: (age) => (age >= SICK_FROM ? SICK[age - SICK_FROM]!.intake : 1),
};

const describeAnomaly = (a: Json) =>
  `${a.source}/${a.detector?.name ?? a.ruleId} ${a.metric} observed ${a.observed}: hypotheses ${JSON.stringify(
    (a.hypotheses ?? []).map((h: Json) => `${h.cause} (${h.score}): ${JSON.stringify(h.supporting)}`),
  )}; signals ${JSON.stringify(a.evidence?.signals ?? null)}`;

describe('alarms that are right: heat is heat, disease is disease', () => {
  let api: Offline;
  const http = checkedClient(client(() => api));
  let adminToken: string;
  const farms: Record<'heat' | 'disease', { farmId: string; flockId: string; cycleId: string }> = {} as never;

  const expectStatus = (res: Res, status: number, what: string) => expect(res.status, `${what}: ${res.text}`).toBe(status);
  const mortalityAnomaly = async (farmId: string): Promise<Json | undefined> => {
    const list = await pollUntil(
      async () => {
        const res = await http('GET', `/api/v1/anomalies?farmId=${farmId}&source=rule&limit=100`, { token: adminToken });
        expectStatus(res, 200, 'GET anomalies');
        return res.body.data as Json[];
      },
      (items) => items.some((a) => a.metric === 'dailyMortalityPct'),
    );
    return list.find((a) => a.metric === 'dailyMortalityPct');
  };

  /** A farm with House 2, its climate sensor, the flock and its cycle; the frames, then the daily records. */
  async function farmWith(name: string, timezone: string, plan: Plan, frames: (climateAge: number) => Json[], climateAges: number[]) {
    const farm = await http('POST', '/api/v1/config/farms', { token: adminToken, body: { name, timezone } });
    expectStatus(farm, 201, 'POST farm');
    const farmId: string = farm.body.data.id;
    const house = await http('POST', `/api/v1/config/farms/${farmId}/houses`, {
      token: adminToken,
      body: { name: 'House 2', usableAreaM2: 200, capacity: 4_000 },
    });
    expectStatus(house, 201, 'POST house');
    const houseId: string = house.body.data.id;
    const flock = await http('POST', '/api/v1/flocks', {
      token: adminToken,
      body: { name: `${name} batch`, birdType: 'broiler', breed: 'Ross 308', farmId, houseId, hatchDate: START },
    });
    expectStatus(flock, 201, 'POST flock');
    const flockId: string = flock.body.data.id;
    const cycle = await http('POST', `/api/v1/flocks/${flockId}/cycles`, { token: adminToken, body: { startDate: START, targetAgeDays: 35 } });
    expectStatus(cycle, 201, 'POST cycle');
    const cycleId: string = cycle.body.data.id;
    const base = `/api/v1/flocks/${flockId}/cycles/${cycleId}`;
    const inflow = await http('POST', `${base}/movements`, {
      token: adminToken,
      body: { type: 'bird_inflow', date: START, quantity: BIRDS, averageWeightGrams: 42 },
    });
    expectStatus(inflow, 201, 'POST bird_inflow');
    const feed = await http('POST', `${base}/movements`, {
      token: adminToken,
      body: { type: 'feed_delivery', date: START, quantityKg: 8_000, feedType: 'grower' },
    });
    expectStatus(feed, 201, 'POST feed_delivery');

    const device = await http('POST', '/api/v1/iot/devices', {
      token: adminToken,
      body: { houseId, kind: 'climate', name: 'House 2 climate', reportingIntervalSeconds: 3600 },
    });
    expectStatus(device, 201, 'POST device');
    const readings = climateAges.flatMap(frames);
    const ingest = await http('POST', '/api/v1/iot/ingest', { headers: { 'X-Device-Key': device.body.data.deviceKey }, body: { readings } });
    expectStatus(ingest, 200, 'POST ingest');
    expect(ingest.body.data, ingest.text).toMatchObject({ accepted: readings.length, duplicates: 0, rejected: [] });

    let present = BIRDS - 2 * (FIRST_RECORDED_AGE - 1);
    for (let age = FIRST_RECORDED_AGE; age <= LAST_AGE; age++) {
      const breedFeedKg = (standardFeedIntake(ROSS_308, age)!.grams * present) / 1000;
      const record = await http('POST', `${base}/daily-records`, {
        token: adminToken,
        body: {
          date: dateAt(age),
          deaths: plan.deaths(age),
          feedKg: round1(breedFeedKg * plan.feed(age)),
          waterLiters: round1(breedFeedKg * WATER_PER_FEED * plan.water(age)),
          // the day's range as the farmer reads it off the house controller
          temperatureMinC: plan.temperature?.(age).min ?? round1(targetAt(age) - 1),
          temperatureMaxC: plan.temperature?.(age).max ?? round1(targetAt(age) + 1),
          humidityPct: 60,
        },
      });
      expectStatus(record, 201, `POST daily record age ${age}`);
      present -= plan.deaths(age);
    }
    return { farmId, flockId, cycleId };
  }

  beforeAll(async () => {
    api = await startOffline();
    const admin = await http('POST', '/api/v1/auth/login', { body: { email: api.admin.email, password: api.admin.password } });
    expectStatus(admin, 200, 'admin login');
    adminToken = admin.body.token;

    // (a) the heat day, hour by hour on the Lagos clock (UTC+1): local hour h is UTC h − 1
    const lagosDayStart = Date.parse(`${dateAt(LAST_AGE)}T00:00:00.000Z`) - HOUR_MS;
    const heat = farmWith(
      'Heat farm',
      'Africa/Lagos',
      HEAT,
      () =>
        Array.from({ length: 24 }, (_, h) => ({
          ts: new Date(lagosDayStart + h * HOUR_MS + 30 * 60_000).toISOString(),
          metrics: { temperatureC: heatAt(h), humidityPct: 55 },
        })),
      [LAST_AGE],
    );
    // (b) the disease farm's house on the curve, hourly, over the sick days
    const disease = farmWith(
      'Disease farm',
      'UTC',
      DISEASE,
      (age) =>
        Array.from({ length: 24 }, (_, h) => ({
          ts: `${dateAt(age)}T${String(h).padStart(2, '0')}:30:00.000Z`,
          metrics: { temperatureC: onCurveAt(age, h), humidityPct: 60 },
        })),
      [27, 28, 29, 30],
    );
    [farms.heat, farms.disease] = await Promise.all([heat, disease]);

    const scheduled = { version: '0', id: 'e2e', 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString(), detail: {} };
    const rulesJob = (await api.invoke('rulesJob', scheduled)) as Json;
    // the alarm job judged both farms without errors
    expect(rulesJob, JSON.stringify(rulesJob)).toMatchObject({ status: 'done', result: { rules: { errors: [] }, detectors: { errors: [] } } });
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('(a) a 29–36 °C day with a mortality spike at day 30: heat stress first, its evidence naming the reading, its hour and the house', async () => {
    const anomaly = await mortalityAnomaly(farms.heat.farmId);
    expect(anomaly, 'no daily-mortality anomaly on the heat farm').toBeDefined();
    const first = anomaly!.hypotheses[0];
    expect(first?.cause, describeAnomaly(anomaly!)).toBe('Heat stress');
    expect(first.supporting).toContainEqual(expect.stringContaining('36.0 °C at 14:00 in House 2, 15.0 °C above the 21.0 °C target for age 30 days'));
    expect(first.check).toMatch(/house 2/i);
    expect(anomaly!.evidence.signals).toMatchObject({ temperatureDeviationC: 15, temperature: { valueC: 36, at: '14:00', ageDays: 30 } });
    const disease = anomaly!.hypotheses.find((h: Json) => h.cause === 'Disease');
    if (disease) expect(disease.score).toBeLessThanOrEqual(first.score);
  });

  it('(a) the heat day expects more water than the days on the curve: the house temperature corrects the water:feed ratio', async () => {
    const { flockId, cycleId } = farms.heat;
    const res = await http('GET', `/api/v2/analytics/daily/${flockId}/${cycleId}`, { token: adminToken });
    expectStatus(res, 200, 'GET daily analytics');
    const days = res.body.data.days as Json[];
    const at = (age: number) => days.find((d) => d.date === dateAt(age))!;
    const perBird = (d: Json) => d.expectedWaterLiters.value / d.birds.present;
    const ratio = (age: number) => perBird(at(age)) / (standardFeedIntake(ROSS_308, age)!.grams / 1000);
    expect(ratio(LAST_AGE - 1)).toBeCloseTo(WATER_PER_FEED, 2);
    expect(ratio(LAST_AGE)).toBeCloseTo(WATER_PER_FEED * (1 + ((round1(HEAT_MEAN_C) - 21) * WATER_PCT_PER_DEG) / 100), 2);
    expect(at(LAST_AGE).expectedWaterLiters.assumptions.join(' ')).toContain(`at ${round1(HEAT_MEAN_C)} °C`);
    // the birds drank what the hot house makes them drink: on the expected water, not a drop
    expect(at(LAST_AGE).waterPctOfExpected.value).toBeGreaterThan(95);
  });

  it('(b) deaths rising over 4 days with feed and water falling, the house on the curve: disease first', async () => {
    const anomaly = await mortalityAnomaly(farms.disease.farmId);
    expect(anomaly, 'no daily-mortality anomaly on the disease farm').toBeDefined();
    const first = anomaly!.hypotheses[0];
    expect(first?.cause, describeAnomaly(anomaly!)).toBe('Disease');
    // the first of the hours at the day's highest hourly mean (21.3 °C from 04:00 to 08:00 UTC)
    const hours = Array.from({ length: 24 }, (_, h) => onCurveAt(LAST_AGE, h));
    const hottest = hours.indexOf(Math.max(...hours));
    expect(first.supporting).toContainEqual(
      expect.stringContaining(
        `house temperature on the age curve (hottest hour ${hours[hottest]!.toFixed(1)} °C at ${String(hottest).padStart(2, '0')}:00 in House 2`,
      ),
    );
    expect(anomaly!.hypotheses.some((h: Json) => h.cause === 'Heat stress')).toBe(false);
  });
});
