/**
 * e2e: a week on a broiler farm with a developing water-line fault, end to end over real HTTP against
 * serverless-offline and DynamoDB Local, with the scheduled functions invoked through offline's Lambda port.
 *
 * What it proves: daily records and sensor frames flow in (a manager's token, a water meter and a climate
 * sensor in House 2), the alarms on new data (`rulesOnNewData`, started asynchronously by the writes) and the
 * alarm job (`rulesJob`) make the farm's DEFAULT water-drop rule and a statistical detector fire, each anomaly
 * naming the drinker line of house 2 as its first hypothesis; the detector's finding is the one
 * GET /api/v2/analytics/anomalies shows (one engine); the rule's anomaly, the detectors' anomalies and every
 * v2 detection of the drop name the same day it began (`startedOn`: the first day water fell); the anomaly shows on the manager's dashboard, is
 * escalated to a water incident (once: escalating again answers the same incident) that is acknowledged and
 * resolved with its times reported by the incident and the farm's operations metrics; and the hourly
 * `predictiveJob` has produced a harvest forecast and a feed run-out date that the predictive routes serve.
 *
 * The scenario: 10,000 Ross 308 chicks placed 27 days ago with 30,000 kg of feed; daily records for ages
 * 1–26 (5 deaths a day, feed on the Ross 308 daily intake, water at the expected 1.7 l per kg of it,
 * the house on the broiler temperature curve, 60 % humidity), weighings at the Ross 308 standard on days 7,
 * 14 and 21. The last 7 days (ages 20–26, today − 7 … today − 1) are the simulated week: feed stays normal
 * while water falls 0, −5, −12, −20, −28, −32, −35 % against expected, as the meter's hourly frames show too.
 * Every response is checked against the closed schema of its operation (checkedClient).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standardWeightGrams } from '../../shared/domain/analytics/breed-standards.js';
import { ROSS_308 } from '../../shared/domain/analytics/standards/ross-308.js';
import { broilerFarm, dayFromToday, expectStatus, flockDays, rossFlock, round1, targetTemperature, WATER_PER_FEED } from '../support/broiler-farm.js';
import { checkedClient } from '../support/contract.js';
import { client } from '../support/http.js';
import { startOffline, type Offline } from '../support/offline.js';
import { pollUntil } from '../support/poll.js';

type Json = Record<string, any>;

const AGE_TODAY = 27;
const { start: START, dateAt } = flockDays(AGE_TODAY);

const BIRDS = 10_000;
const DEATHS_PER_DAY = 5;
const FEED_DELIVERED_KG = 30_000;
/** The simulated week: ages 20…26 and the water against expected each day. */
const WEEK_FIRST_AGE = 20;
const WEEK_DROP = [0, 0.05, 0.12, 0.2, 0.28, 0.32, 0.35];
const LAST_AGE = WEEK_FIRST_AGE + WEEK_DROP.length - 1;
/** The first day water fell below expected: where the drop began. */
const FIRST_DROP_AGE = WEEK_FIRST_AGE + WEEK_DROP.findIndex((drop) => drop > 0);
const DETECTORS = ['robust_z', 'ewma', 'cusum'];

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const dropAt = (age: number) => (age >= WEEK_FIRST_AGE ? WEEK_DROP[age - WEEK_FIRST_AGE]! : 0);
const { breedFeedKg } = rossFlock(BIRDS, DEATHS_PER_DAY);
const expectedWaterLiters = (age: number) => breedFeedKg(age) * WATER_PER_FEED;
const waterLitersAt = (age: number) => round1(expectedWaterLiters(age) * (1 - dropAt(age)));
const feedKgAt = (age: number) => round1(breedFeedKg(age));

const isWaterDrop = (a: Json) => a.metric === 'waterDropPct';
const isWaterDetection = (a: Json) => a.metric === 'waterPctOfExpected' && a.detector !== null && a.detector.name && a.evidence?.direction === 'down';
const drinkerFirst = (a: Json) => /drinker/i.test(a.hypotheses?.[0]?.cause ?? '');
const describeAnomaly = (a: Json) =>
  `${a.source}/${a.detector?.name ?? a.ruleId} ${a.metric} day ${a.evidence?.day ?? a.window?.to} observed ${a.observed}: hypotheses ${JSON.stringify(
    (a.hypotheses ?? []).map((h: Json) => `${h.cause} (${h.score})`),
  )}; signals ${JSON.stringify(a.evidence?.signals ?? null)}`;

describe('a developing water-line fault over HTTP: sensors and records → rules and detectors → anomaly → incident, and forecasts', () => {
  let api: Offline;
  const http = checkedClient(client(() => api));
  let token: string;
  let farmId: string;
  let houseId: string;
  let flockId: string;
  let cycleId: string;
  let cycleBase: string;
  let rulesJob: Json;
  let predictiveJob: Json;

  const anomalies = async (source: 'rule' | 'detector'): Promise<Json[]> => {
    const res = await http('GET', `/api/v1/anomalies?farmId=${farmId}&source=${source}&limit=100`, { token });
    expectStatus(res, 200, `GET anomalies (${source})`);
    return res.body.data;
  };

  beforeAll(async () => {
    api = await startOffline();
    // the farm (with its default rules), House 2 and its manager by the admin; the flock, its cycle, the chicks and the feed by the manager
    ({ token, farmId, houseId, flockId, cycleId, cycleBase } = await broilerFarm(http, api, {
      farm: 'Water-line farm',
      house: { name: 'House 2', usableAreaM2: 800, capacity: 16_000 },
      manager: { email: 'manager@water-line.example.com', password: 'water-line-manager-1' },
      flock: 'Batch 12',
      start: START,
      birds: BIRDS,
      feedKg: FEED_DELIVERED_KG,
    }));

    // the sensors of House 2: a water meter and a climate sensor, reporting hourly
    const device = async (kind: string, name: string): Promise<string> => {
      const res = await http('POST', '/api/v1/iot/devices', { token, body: { houseId, kind, name, reportingIntervalSeconds: 3600 } });
      expectStatus(res, 201, `POST device ${kind}`);
      return res.body.data.deviceKey;
    };
    const meterKey = await device('water_meter', 'House 2 water meter');
    const climateKey = await device('climate', 'House 2 climate');

    // daily records in date order, and the weighings (Ross 308 standard) on their days
    for (let age = 1; age <= LAST_AGE; age++) {
      const date = dateAt(age);
      const target = targetTemperature(age);
      const record = await http('POST', `${cycleBase}/daily-records`, {
        token,
        body: {
          date,
          deaths: DEATHS_PER_DAY,
          feedKg: feedKgAt(age),
          waterLiters: waterLitersAt(age),
          temperatureMinC: round1(target - 1),
          temperatureMaxC: round1(target + 1),
          humidityPct: 60,
        },
      });
      expectStatus(record, 201, `POST daily record ${date} (age ${age})`);
      if (age % 7 === 0) {
        const grams = standardWeightGrams(ROSS_308, age)!.grams;
        expectStatus(await http('POST', `${cycleBase}/weights`, { token, body: { date, grams, sampleSize: 100 } }), 201, `POST weighing ${date}`);
      }
    }

    // the week's frames: the meter's running total at the end of each hour (the day's water spread evenly),
    // the climate on the age curve (±0.3 °C over the day) at 60 % humidity
    const meter: Json[] = [];
    const climate: Json[] = [];
    let total = 125_000;
    for (let age = WEEK_FIRST_AGE; age <= LAST_AGE; age++) {
      const perHour = waterLitersAt(age) / 24;
      for (let hour = 0; hour < 24; hour++) {
        const ts = `${dateAt(age)}T${String(hour).padStart(2, '0')}:59:00.000Z`;
        total += perHour;
        meter.push({ ts, metrics: { waterLitersTotal: round3(total) } });
        climate.push({ ts, metrics: { temperatureC: round1(targetTemperature(age) + 0.3 * Math.sin((2 * Math.PI * hour) / 24)), humidityPct: 60 } });
      }
    }
    for (const [key, readings] of [
      [meterKey, meter],
      [climateKey, climate],
    ] as const) {
      const res = await http('POST', '/api/v1/iot/ingest', { headers: { 'X-Device-Key': key }, body: { readings } });
      expectStatus(res, 200, 'POST ingest');
      expect(res.body.data, res.text).toMatchObject({ accepted: readings.length, duplicates: 0, rejected: [] });
    }

    // the scheduled functions, as EventBridge would start them
    const scheduled = { version: '0', id: 'e2e', 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString(), detail: {} };
    rulesJob = (await api.invoke('rulesJob', scheduled)) as Json;
    predictiveJob = (await api.invoke('predictiveJob', scheduled)) as Json;
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('the scheduled jobs answer done: the alarm job judged the farm without errors, the predictive job forecast the cycle', () => {
    expect(rulesJob, JSON.stringify(rulesJob)).toMatchObject({ status: 'done', result: { rules: { errors: [] }, detectors: { errors: [] } } });
    expect(rulesJob.result.farms).toBeGreaterThanOrEqual(1);
    expect(predictiveJob, JSON.stringify(predictiveJob)).toMatchObject({ status: 'done', result: { errors: 0 } });
    expect(predictiveJob.result.forecasts).toBeGreaterThanOrEqual(1);
  });

  it('the default water-drop rule fires: its anomaly names the drinker line of house 2 first', async () => {
    const list = await pollUntil(
      () => anomalies('rule'),
      (items) => items.some(isWaterDrop),
    );
    const found = list.find(isWaterDrop);
    let why = `rule anomalies: ${JSON.stringify(list.map((a) => `${a.metric}: ${a.title}`))}`;
    if (!found) {
      // what the rule saw, day by day, for the report (the backtest replays exactly the live evaluation)
      const rules = await http('GET', `/api/v1/rules?farmId=${farmId}&limit=100`, { token });
      const rule = (rules.body.data as Json[]).find((r) => r.defaultKey === 'default:water-drop');
      if (rule) {
        const test = await http('POST', `/api/v1/rules/${rule.id}/test`, {
          token,
          body: { flockId, from: `${dateAt(WEEK_FIRST_AGE - 3)}T00:00:00.000Z`, to: `${dayFromToday(0)}T00:00:00.000Z` },
        });
        why += `\nbacktest of ${rule.name} (${JSON.stringify(rule.condition)}): ${JSON.stringify(
          (test.body?.data?.evaluations ?? []).map((e: Json) => `${e.bucket} ${e.outcome} value ${e.value} ${JSON.stringify(e.inputs)}`),
        )}`;
      }
    }
    expect(found, why).toBeDefined();
    const anomaly = found!;
    expect(anomaly).toMatchObject({ farmId, houseId, flockId, cycleId, source: 'rule', metric: 'waterDropPct', detector: null });
    const rule = await http('GET', `/api/v1/rules/${anomaly.ruleId}`, { token });
    expectStatus(rule, 200, 'GET rule');
    expect(rule.body.data).toMatchObject({ defaultKey: 'default:water-drop', input: 'waterDropPct' });
    expect(anomaly.hypotheses[0]?.cause, describeAnomaly(anomaly)).toMatch(/drinker/i);
    expect(anomaly.hypotheses[0].check).toMatch(/house 2/i);
  });

  it('a detector fires on water against expected, and its first hypothesis is the drinker line too', async () => {
    const list = await pollUntil(
      () => anomalies('detector'),
      (items) => items.some((a) => isWaterDetection(a) && drinkerFirst(a)),
    );
    const water = list.filter(isWaterDetection);
    expect(water.length, `detector anomalies: ${JSON.stringify(list.map(describeAnomaly))}`).toBeGreaterThanOrEqual(1);
    const anomaly = water.find(drinkerFirst) ?? water[0]!;
    expect(anomaly).toMatchObject({ farmId, houseId, flockId, cycleId, source: 'detector', ruleId: null, metric: 'waterPctOfExpected' });
    expect(DETECTORS).toContain(anomaly.detector.name);
    expect(Object.keys(anomaly.detector.parameters).length).toBeGreaterThan(0);
    const day: string = anomaly.evidence.day;
    expect(day >= dateAt(WEEK_FIRST_AGE) && day <= dateAt(LAST_AGE), `detected day ${day} outside the simulated week`).toBe(true);
    expect(
      water.map((a) => a.hypotheses[0]?.cause ?? 'no hypothesis'),
      `water detector anomalies:\n${water.map(describeAnomaly).join('\n')}`,
    ).toContainEqual(expect.stringMatching(/drinker/i));
    expect(anomaly.hypotheses[0]?.check ?? '', describeAnomaly(anomaly)).toMatch(/house 2/i);
  });

  it('one engine: GET /api/v2/analytics/anomalies lists every stored detector finding on water among its detections', async () => {
    const water = (await anomalies('detector')).filter(isWaterDetection);
    expect(water.length).toBeGreaterThanOrEqual(1);
    const res = await http('GET', `/api/v2/analytics/anomalies/${flockId}/${cycleId}`, { token });
    expectStatus(res, 200, 'GET v2 anomalies');
    const detections: Json[] = res.body.data.detections;
    for (const a of water) {
      expect(
        detections.some((d) => d.metric === a.metric && d.detector === a.detector.name && d.bucket === a.evidence.day && d.direction === 'down'),
        `${describeAnomaly(a)} not among ${JSON.stringify(detections.map((d) => `${d.bucket} ${d.metric} ${d.detector} ${d.direction}`))}`,
      ).toBe(true);
    }
  });

  it('one event, one start: the rule’s anomaly, the detectors’ anomalies and every v2 detection of the drop say it began on its first day', async () => {
    const firstDropDay = dateAt(FIRST_DROP_AGE);
    const rule = (
      await pollUntil(
        () => anomalies('rule'),
        (items) => items.some(isWaterDrop),
      )
    ).find(isWaterDrop);
    expect(rule, 'no water-drop anomaly').toBeDefined();
    const detected = (await anomalies('detector')).filter(isWaterDetection);
    expect(detected.length).toBeGreaterThanOrEqual(1);
    const res = await http('GET', `/api/v2/analytics/anomalies/${flockId}/${cycleId}`, { token });
    expectStatus(res, 200, 'GET v2 anomalies');
    const drop = (res.body.data.detections as Json[]).filter((d) => d.metric === 'waterPctOfExpected' && d.direction === 'down');
    expect(drop.length).toBeGreaterThanOrEqual(1);
    const said = {
      v2: [...new Set(drop.map((d) => d.startedOn))],
      rule: rule!.startedOn,
      detectors: [...new Set(detected.map((a) => a.startedOn))],
    };
    expect(said, JSON.stringify(drop.map((d) => `${d.bucket} ${d.detector} since ${d.startedOn}`))).toEqual({
      v2: [firstDropDay],
      rule: firstDropDay,
      detectors: [firstDropDay],
    });
    // the start is never after the first day anything was detected
    expect(drop[0]!.bucket >= firstDropDay).toBe(true);
  });

  it('the manager’s dashboard shows the open anomalies', async () => {
    const res = await http('GET', '/api/v1/dashboard', { token });
    expectStatus(res, 200, 'GET dashboard');
    expect(res.body.data).toMatchObject({ role: 'manager', farmId });
    expect(res.body.data.openAnomalies.count).toBeGreaterThanOrEqual(1);
    expect(res.body.data.openAnomalies.latest.length).toBeGreaterThanOrEqual(1);
  });

  it('escalated once to a water incident, acknowledged and resolved: the incident and the farm’s metrics report the times', async () => {
    // the default water-drop rule's anomaly, the one that names the drinker line
    const escalated = (await anomalies('rule')).find(isWaterDrop);
    expect(escalated, 'no water-drop anomaly to escalate').toBeDefined();
    const anomalyId: string = escalated!.id;

    const first = await http('POST', `/api/v1/anomalies/${anomalyId}/escalate`, { token, body: {} });
    expectStatus(first, 201, 'escalate');
    const incident = first.body.data.incident;
    expect(incident).toMatchObject({ farmId, category: 'water', status: 'triggered', links: { anomalyIds: [anomalyId], flockIds: [flockId] } });
    expect(first.body.data.anomaly).toMatchObject({ id: anomalyId, incidentId: incident.id, status: 'acknowledged' });
    const again = await http('POST', `/api/v1/anomalies/${anomalyId}/escalate`, { token, body: {} });
    expectStatus(again, 200, 'escalate again');
    expect(again.body.data.incident.id).toBe(incident.id);

    const ack = await http('POST', `/api/v1/operations/incidents/${incident.id}/acknowledge`, {
      token,
      body: { note: 'Flushing the drinker lines of House 2' },
      headers: { 'If-Match': `"${incident.version}"` },
    });
    expectStatus(ack, 200, 'acknowledge incident');
    expect(ack.body.data.status).toBe('acknowledged');
    expect(ack.headers.get('etag')).toBe(`"${ack.body.data.version}"`);
    const resolved = await http('POST', `/api/v1/operations/incidents/${incident.id}/resolve`, {
      token,
      body: { note: 'Blocked regulator on line 3 replaced' },
      headers: { 'If-Match': `"${ack.body.data.version}"` },
    });
    expectStatus(resolved, 200, 'resolve incident');
    const done = resolved.body.data;
    expect(done.status).toBe('resolved');
    expect(typeof done.timeToAcknowledgeMinutes).toBe('number');
    expect(typeof done.timeToResolveMinutes).toBe('number');
    expect(done.timeToAcknowledgeMinutes).toBeGreaterThanOrEqual(0);
    expect(done.timeToResolveMinutes).toBeGreaterThanOrEqual(done.timeToAcknowledgeMinutes);
    expect(done.timeline.map((e: Json) => e.type)).toEqual(expect.arrayContaining(['created', 'acknowledged', 'resolved']));

    const metrics = await http('GET', `/api/v1/operations/metrics?farmId=${farmId}`, { token });
    expectStatus(metrics, 200, 'GET operations metrics');
    const m = metrics.body.data;
    expect(m.farmId).toBe(farmId);
    expect(m.incidents).toBeGreaterThanOrEqual(1);
    expect(m.acknowledged).toBeGreaterThanOrEqual(1);
    expect(m.resolved).toBeGreaterThanOrEqual(1);
    expect(typeof m.meanTimeToAcknowledgeMinutes).toBe('number');
    expect(typeof m.meanTimeToResolveMinutes).toBe('number');
    expect(m.meanTimeToAcknowledgeMinutes).toBeGreaterThanOrEqual(0);
    expect(m.meanTimeToResolveMinutes).toBeGreaterThanOrEqual(0);
  });

  it('the predictive job’s forecasts are served: harvest date and weight of the flock, the farm’s feed run-out in the future, its run without errors', async () => {
    const flock = await http('GET', `/api/v1/predictive/flocks/${flockId}`, { token });
    expectStatus(flock, 200, 'GET flock forecast');
    const f = flock.body.data;
    expect(f).toMatchObject({ flockId, farmId, houseId, cycleId, birdType: 'broiler', current: true, asOf: expect.any(String) });
    expect(f.computedAt).toEqual(expect.any(String));
    expect(f.modelVersion).toEqual(expect.any(String));
    expect(f.window.weighings).toBe(3);
    expect(f.harvest.date, JSON.stringify(f.harvest)).toBe(dateAt(35));
    expect(f.harvest).toMatchObject({ basis: 'target_age', targetAgeDays: 35, ageDays: 35 });
    expect(f.harvest.weight.grams).toBeGreaterThan(standardWeightGrams(ROSS_308, 28)!.grams);
    expect(f.harvest.weight.low).toBeLessThanOrEqual(f.harvest.weight.grams);
    expect(f.harvest.weight.high).toBeGreaterThanOrEqual(f.harvest.weight.grams);

    const farm = await http('GET', `/api/v1/predictive/farms/${farmId}`, { token });
    expectStatus(farm, 200, 'GET farm forecast');
    const feed = farm.body.data.feed;
    expect(feed, farm.text).not.toBeNull();
    expect(feed.computedAt).toEqual(expect.any(String));
    expect(feed.modelVersion).toEqual(expect.any(String));
    expect(feed.stock.totalKg).toBeGreaterThan(0);
    expect(feed.stock.runOutDate, JSON.stringify(feed.stock)).toEqual(expect.any(String));
    expect(feed.stock.runOutDate > dayFromToday(0), `run-out ${feed.stock.runOutDate} is not in the future`).toBe(true);
    expect(farm.body.data.healthRisks).toContainEqual(expect.objectContaining({ flockId, cycleId, harvestDate: dateAt(35) }));

    const runs = await http('GET', `/api/v1/predictive/runs?farmId=${farmId}`, { token });
    expectStatus(runs, 200, 'GET predictive runs');
    const run = (runs.body.data as Json[]).find((r) => r.id === predictiveJob.result.runId);
    expect(run, runs.text).toBeDefined();
    expect(run).toMatchObject({ farmId, trigger: 'schedule', actorId: 'system:predictive', errors: [] });
    expect(run!.items.forecasts).toBeGreaterThanOrEqual(1);
  });
});
