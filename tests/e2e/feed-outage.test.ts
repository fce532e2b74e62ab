/**
 * e2e: a feed outage on a broiler farm (the bins ran empty, the auger stopped), end to end over real HTTP
 * against serverless-offline and DynamoDB Local, with the alarm job invoked through offline's Lambda port.
 *
 * What it proves: three weeks of normal days raise nothing; then two days on which the birds get far less
 * feed while they still drink most of their water raise anomalies (the detectors on feed per bird and on
 * water, the default rules) whose first hypothesis is the feed supply (the silo or the feed line of the
 * house), not disease or the drinker line, each saying the outage began on its first day.
 *
 * The scenario: 8,000 Ross 308 chicks placed 24 days ago in House 3 with 30,000 kg of feed; daily records
 * for ages 1–23 (4 deaths a day, the house on the broiler temperature curve, 60 % humidity), a climate
 * sensor reporting hourly on that curve over the last days. Ages 1–21 are normal: feed on the Ross 308
 * daily intake (Aviagen, Ross 308 / Ross 308 FF Broiler: Performance Objectives 2022,
 * shared/domain/analytics/standards/ross-308.ts) and water at 1.7 l per kg of it (the default
 * consumption.broilerWaterFeedRatio; Aviagen, Ross Broiler Management Handbook 2018: a water:feed ratio of
 * about 1.6–1.8 at 21 °C). Ages 22–23 (today − 2, today − 1) are the outage: feed 60 % below that intake,
 * water only 20 % below (birds that cannot eat still drink, so the water:feed ratio jumps to about 3.4 l/kg),
 * mortality and temperature normal (the temperature curve of shared/domain/iot/climate.ts, after the
 * Aviagen and Cobb broiler guides).
 * Every response is checked against the closed schema of its operation (checkedClient).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broilerFarm, expectStatus, flockDays, rossFlock, round1, targetTemperature, WATER_PER_FEED } from '../support/broiler-farm.js';
import { pollUntil } from '../support/poll.js';
import { checkedClient } from '../support/contract.js';
import { client } from '../support/http.js';
import { startOffline, type Offline } from '../support/offline.js';

type Json = Record<string, any>;

const AGE_TODAY = 24;
const { start: START, dateAt } = flockDays(AGE_TODAY);

const BIRDS = 8_000;
const DEATHS_PER_DAY = 4;
const FEED_DELIVERED_KG = 30_000;
/** The outage: its ages, and feed and water against the breed's intake on them. */
const OUTAGE_AGES = [22, 23];
const OUTAGE_FEED_DROP = 0.6;
const OUTAGE_WATER_DROP = 0.2;
const FIRST_OUTAGE_AGE = OUTAGE_AGES[0]!;
const LAST_AGE = OUTAGE_AGES.at(-1)!;
/** The days of hourly climate frames before the outage. */
const CLIMATE_DAYS = 2;
const FEED_SUPPLY = /silo|feed line|feeder|auger|bin/i;

const inOutage = (age: number) => OUTAGE_AGES.includes(age);
const { breedFeedKg } = rossFlock(BIRDS, DEATHS_PER_DAY);
const feedKgAt = (age: number) => round1(breedFeedKg(age) * (inOutage(age) ? 1 - OUTAGE_FEED_DROP : 1));
const waterLitersAt = (age: number) => round1(breedFeedKg(age) * WATER_PER_FEED * (inOutage(age) ? 1 - OUTAGE_WATER_DROP : 1));

const isFeedDetection = (a: Json) => a.source === 'detector' && a.metric === 'feedGramsPerBird' && a.evidence?.direction === 'down';
const describeAnomaly = (a: Json) =>
  `${a.source}/${a.detector?.name ?? a.ruleId} ${a.metric} judged until ${a.judgedUntil}, started ${a.startedOn}: hypotheses ${JSON.stringify(
    (a.hypotheses ?? []).map((h: Json) => `${h.cause} (${h.score})`),
  )}; signals ${JSON.stringify(a.evidence?.signals ?? null)}`;

describe('a feed outage over HTTP: normal days raise nothing, the outage names the feed supply first', () => {
  let api: Offline;
  const http = checkedClient(client(() => api));
  let token: string;
  let farmId: string;
  let flockId: string;
  let cycleId: string;
  let rulesJob: Json;

  const anomalies = async (): Promise<Json[]> => {
    const res = await http('GET', `/api/v1/anomalies?farmId=${farmId}&limit=100`, { token });
    expectStatus(res, 200, 'GET anomalies');
    return res.body.data;
  };

  beforeAll(async () => {
    api = await startOffline();
    // the farm (with its default rules), House 3 and its manager by the admin; the flock, its cycle, the chicks and the feed by the manager
    let houseId: string;
    let cycleBase: string;
    ({ token, farmId, houseId, flockId, cycleId, cycleBase } = await broilerFarm(http, api, {
      farm: 'Feed outage farm',
      house: { name: 'House 3', usableAreaM2: 700, capacity: 14_000 },
      manager: { email: 'manager@feed-outage.example.com', password: 'feed-outage-manager-1' },
      flock: 'Batch 7',
      start: START,
      birds: BIRDS,
      feedKg: FEED_DELIVERED_KG,
    }));

    // the climate sensor of House 3: hourly frames on the age curve (±0.3 °C over the day) at 60 % humidity
    const device = await http('POST', '/api/v1/iot/devices', {
      token,
      body: { houseId, kind: 'climate', name: 'House 3 climate', reportingIntervalSeconds: 3600 },
    });
    expectStatus(device, 201, 'POST device');
    const readings: Json[] = [];
    for (let age = FIRST_OUTAGE_AGE - CLIMATE_DAYS; age <= LAST_AGE; age++) {
      for (let hour = 0; hour < 24; hour++) {
        const ts = `${dateAt(age)}T${String(hour).padStart(2, '0')}:59:00.000Z`;
        readings.push({ ts, metrics: { temperatureC: round1(targetTemperature(age) + 0.3 * Math.sin((2 * Math.PI * hour) / 24)), humidityPct: 60 } });
      }
    }
    const ingest = await http('POST', '/api/v1/iot/ingest', { headers: { 'X-Device-Key': device.body.data.deviceKey }, body: { readings } });
    expectStatus(ingest, 200, 'POST ingest');

    // daily records in date order (the alarms on new data judge each day as it comes in)
    for (let age = 1; age <= LAST_AGE; age++) {
      const target = targetTemperature(age);
      const record = await http('POST', `${cycleBase}/daily-records`, {
        token,
        body: {
          date: dateAt(age),
          deaths: DEATHS_PER_DAY,
          feedKg: feedKgAt(age),
          waterLiters: waterLitersAt(age),
          temperatureMinC: round1(target - 1),
          temperatureMaxC: round1(target + 1),
          humidityPct: 60,
        },
      });
      expectStatus(record, 201, `POST daily record ${dateAt(age)} (age ${age})`);
    }

    const scheduled = { version: '0', id: 'e2e', 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString(), detail: {} };
    rulesJob = (await api.invoke('rulesJob', scheduled)) as Json;
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('the alarm job judged the farm without errors', () => {
    expect(rulesJob, JSON.stringify(rulesJob)).toMatchObject({ status: 'done', result: { rules: { errors: [] }, detectors: { errors: [] } } });
  });

  it('the feed detector fires on the outage: its first hypothesis is the feed supply of house 3, and the outage began on its first day', async () => {
    const list = await pollUntil(anomalies, (items) => items.some(isFeedDetection));
    const feed = list.filter(isFeedDetection);
    expect(feed.length, `anomalies:\n${list.map(describeAnomaly).join('\n')}`).toBeGreaterThanOrEqual(1);
    for (const a of feed) {
      expect(a).toMatchObject({ farmId, flockId, cycleId, startedOn: dateAt(FIRST_OUTAGE_AGE) });
      expect(a.hypotheses[0]?.cause ?? 'no hypothesis', describeAnomaly(a)).toMatch(FEED_SUPPLY);
      expect(a.hypotheses[0].check).toMatch(/house 3/i);
    }
  });

  it('every anomaly is the outage’s: none started on a normal day, and each names the feed supply first', async () => {
    const list = await pollUntil(anomalies, (items) => items.some(isFeedDetection));
    expect(list.length).toBeGreaterThanOrEqual(1);
    for (const a of list) {
      expect(a.startedOn >= dateAt(FIRST_OUTAGE_AGE), `started on a normal day: ${describeAnomaly(a)}`).toBe(true);
      expect(a.hypotheses[0]?.cause ?? 'no hypothesis', describeAnomaly(a)).toMatch(FEED_SUPPLY);
    }
    // the statistical view agrees: no detection on a normal day
    const res = await http('GET', `/api/v2/analytics/anomalies/${flockId}/${cycleId}`, { token });
    expectStatus(res, 200, 'GET v2 anomalies');
    const early = (res.body.data.detections as Json[]).filter((d) => d.bucket < dateAt(FIRST_OUTAGE_AGE));
    expect(early.map((d) => `${d.bucket} ${d.metric} ${d.detector} ${d.direction}`)).toEqual([]);
  });
});
