/**
 * e2e over MQTT, as devices publish to IoT Core: a simulated farm of 4 houses × 6 devices (scripts/lib/farm-simulator.ts)
 * publishes 10 simulated minutes through a real MQTT.js client (QoS 1) → the local broker → the rule bridge
 * (scripts/lib/mqtt-bridge.ts, the rule's SQL) → the iotTelemetryRule function in serverless-offline → DynamoDB Local,
 * and everything is read back over HTTP: hourly rollups, house conditions, device states, the cycles' water and feed.
 * The SAME frames posted over HTTP (POST /api/v1/iot/ingest, one frame a request) to a twin farm give the same answers.
 *
 * Frames are simulated time ending at the real now (compressed: 10 minutes published in a few seconds). The fault
 * cases: House 2's climate sensor flat-lines from minute 4, House 3 drinks 40 % from minute 5, and House 4's climate
 * sensor sends one frame out of the physical range (humidity 140 %).
 */
import { connectAsync, type MqttClient } from 'mqtt';
import { ulid } from 'ulidx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateFarm, type SimDevice, type SimFrame, type SimMinute } from '../../scripts/lib/farm-simulator.js';
import { telemetryTopic, type BridgedMessage, type RuleBridge } from '../../scripts/lib/mqtt-bridge.js';
import { checkedClient } from '../support/contract.js';
import { client } from '../support/http.js';
import { startOffline, type Offline } from '../support/offline.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

const HOUSES = 4;
const DEVICES_PER_HOUSE = 6;
const MINUTES = 10;
const BIRDS = 20_000;
const AGE_DAYS = 21;
const DAY_MS = 86_400_000;

/**
 * The window ends at the real now (the newest frame 30 s back), taken once the stack answers (a slow start on a
 * busy machine must not age the frames); the flocks hatched AGE_DAYS days before today.
 */
let START_MS = 0;
let HATCH_DATE = '';
let sim: ReturnType<typeof simulateFarm>;
let OUT_OF_RANGE: SimFrame;
let minutes: SimMinute[] = [];
let frames: SimFrame[] = [];
let accepted: SimFrame[] = [];
function simulateNow(): void {
  START_MS = Math.floor((Date.now() - (MINUTES - 0.5) * 60_000) / 1000) * 1000;
  HATCH_DATE = new Date(Date.now() - AGE_DAYS * DAY_MS).toISOString().slice(0, 10);
  sim = simulateFarm({
    houses: HOUSES,
    devicesPerHouse: DEVICES_PER_HOUSE,
    startMs: START_MS,
    minutes: MINUTES,
    ageDays: (START_MS - Date.parse(`${HATCH_DATE}T00:00:00Z`)) / DAY_MS,
    birdsPerHouse: BIRDS,
    faults: [
      { kind: 'flatline', house: 1, fromMinute: 4 },
      { kind: 'water-drop', house: 2, fromMinute: 5 },
    ],
    seed: 7,
  });
  minutes = [...sim.minutes()];
  OUT_OF_RANGE = minutes[3]!.frames.find((f) => f.device.house === 3 && f.device.kind === 'climate')!;
  OUT_OF_RANGE.metrics = { ...OUT_OF_RANGE.metrics, humidityPct: 140 };
  frames = minutes.flatMap((m) => m.frames);
  accepted = frames.filter((f) => f !== OUT_OF_RANGE);
}

interface Farm {
  id: string;
  houses: Array<{ id: string; flockId: string; cycleId: string }>;
  devices: Map<SimDevice, { id: string; key: string }>;
}

/** Expected hourly buckets of one device's accepted frames: count, sum, min, max, avg, first, last per metric. */
function expectedBuckets(device: SimDevice) {
  const byHour = new Map<string, SimFrame[]>();
  for (const f of accepted.filter((x) => x.device === device)) byHour.set(f.ts.slice(0, 13), [...(byHour.get(f.ts.slice(0, 13)) ?? []), f]);
  return [...byHour.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([hour, list]) => ({
      start: `${hour}:00:00.000Z`,
      metrics: Object.fromEntries(
        device.metrics.map((m) => {
          const values = list.map((f) => f.metrics[m]!);
          const sum = values.reduce((a, b) => a + b, 0);
          return [
            m,
            {
              count: values.length,
              sum,
              min: Math.min(...values),
              max: Math.max(...values),
              avg: sum / values.length,
              first: values[0]!,
              last: values.at(-1)!,
            },
          ];
        }),
      ),
    }));
}

/** Water and feed of each UTC day from a house's meter and silo frames, as the domain defines them (refills: rises ≥ 100 kg). */
function expectedDayFigures(house: number): Map<string, { water: number; feed: number }> {
  const of = (kind: string) => accepted.filter((f) => f.device.house === house && f.device.kind === kind);
  const out = new Map<string, { water: number; feed: number }>();
  const days = [...new Set(accepted.map((f) => f.ts.slice(0, 10)))].sort();
  for (const [i, day] of days.entries()) {
    const water = of('water_meter').filter((f) => f.ts.startsWith(day));
    const before = i > 0 ? of('water_meter').filter((f) => f.ts.startsWith(days[i - 1]!)) : [];
    const base = before.length > 0 ? before.at(-1)!.metrics.waterLitersTotal! : water[0]!.metrics.waterLitersTotal!;
    const silo = of('feed_silo')
      .filter((f) => f.ts.startsWith(day))
      .map((f) => f.metrics.siloKg!);
    let refills = 0;
    for (let k = 1; k < silo.length; k++) if (silo[k]! - silo[k - 1]! >= 100) refills += silo[k]! - silo[k - 1]!;
    out.set(day, { water: water.at(-1)!.metrics.waterLitersTotal! - base, feed: silo[0]! - silo.at(-1)! + refills });
  }
  return out;
}

async function until(what: string, done: () => boolean, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('sensors over MQTT → rule bridge → iotTelemetryRule → DynamoDB Local, read over HTTP', () => {
  let api: Offline;
  let bridge: RuleBridge;
  let device: MqttClient;
  const http = checkedClient(client(() => api));
  const bridged: BridgedMessage[] = [];
  const bridgeLog: string[] = [];
  let token: string;
  let mqttFarm: Farm;
  let httpFarm: Farm;
  /** The ingestion answer of each frame, by path. */
  const viaMqtt = new Map<SimFrame, Json>();
  const viaHttp = new Map<SimFrame, Json>();

  beforeAll(async () => {
    // the stack's own broker and rule bridge, as `npm start` runs them
    api = await startOffline({ log: (line) => line.startsWith('mqtt ') && bridgeLog.push(line), onBridgeMessage: (m) => bridged.push(m) });
    bridge = api.bridge;
    simulateNow();
    device = await connectAsync(api.mqttUrl, { clientId: `e2e-farm-${api.stage}`, clean: true });
    token = (await http('POST', '/api/v1/auth/login', { body: { email: api.admin.email, password: api.admin.password } })).body.token;
  });
  afterAll(async () => {
    await device?.endAsync(true);
    await api?.stop();
  });

  async function created(path: string, body: Json): Promise<Json> {
    const res = await http('POST', path, { token, body });
    expect(res.status, `${path} ${res.text}`).toBe(201);
    return res.body.data;
  }

  /** A farm through the API: houses with a broiler flock and an active cycle (birds placed), and the simulator's devices. */
  async function setUpFarm(name: string): Promise<Farm> {
    const farm = await created('/api/v1/config/farms', { name, timezone: 'UTC' });
    const houses = await Promise.all(
      Array.from({ length: HOUSES }, async (_, h) => {
        const house = await created(`/api/v1/config/farms/${farm.id}/houses`, { name: `House ${h + 1}`, usableAreaM2: 1000, capacity: BIRDS });
        const flock = await created('/api/v1/flocks', {
          name: `Broilers ${h + 1}`,
          birdType: 'broiler',
          farmId: farm.id,
          houseId: house.id,
          hatchDate: HATCH_DATE,
        });
        const cycle = await created(`/api/v1/flocks/${flock.id}/cycles`, { startDate: HATCH_DATE });
        await created(`/api/v1/flocks/${flock.id}/cycles/${cycle.id}/movements`, { type: 'bird_inflow', date: HATCH_DATE, quantity: BIRDS });
        return { id: house.id as string, flockId: flock.id as string, cycleId: cycle.id as string };
      }),
    );
    const devices = new Map<SimDevice, { id: string; key: string }>();
    await Promise.all(
      sim.devices.map(async (d) => {
        const body = { farmId: farm.id, houseId: houses[d.house]!.id, kind: d.kind, name: d.name, metrics: d.metrics };
        const registered = await created('/api/v1/iot/devices', body);
        devices.set(d, { id: registered.id, key: registered.deviceKey });
      }),
    );
    return { id: farm.id, houses, devices };
  }

  it('sets up two identical farms of 4 houses × 6 devices through the API', async () => {
    [mqttFarm, httpFarm] = await Promise.all([setUpFarm('MQTT farm'), setUpFarm('HTTP twin farm')]);
    expect(mqttFarm.devices.size).toBe(HOUSES * DEVICES_PER_HOUSE);
    expect(sim.devices.map((d) => d.kind).slice(0, 6)).toEqual(['climate', 'air_quality', 'water_meter', 'feed_silo', 'light', 'pressure']);
  }, 60_000);

  it('publishes 10 simulated minutes over MQTT (QoS 1) and the bridge delivers every frame to the rule function', async () => {
    const started = performance.now();
    for (const m of minutes) {
      await Promise.all(
        m.frames.map((f) =>
          device.publishAsync(telemetryTopic(mqttFarm.id, mqttFarm.devices.get(f.device)!.id), JSON.stringify({ ts: f.ts, metrics: f.metrics }), { qos: 1 }),
        ),
      );
    }
    await until(`${frames.length} frames through the bridge (${bridged.length} so far)`, () => bridged.length >= frames.length);
    const seconds = (performance.now() - started) / 1000;
    console.log(`MQTT → bridge → iotTelemetryRule: ${frames.length} frames in ${seconds.toFixed(1)} s (${(frames.length / seconds).toFixed(0)} frames/s)`);

    const bySource = new Map(bridged.map((b) => [`${b.deviceId} ${String(b.event.ts)}`, b]));
    for (const f of frames) {
      const b = bySource.get(`${mqttFarm.devices.get(f.device)!.id} ${f.ts}`);
      expect(b, `${f.device.name} ${f.ts}`).toBeDefined();
      // the rule's SQL: the message, plus farm and device from the topic and the time the bridge got it
      expect(b!.event).toEqual({
        ts: f.ts,
        metrics: f.metrics,
        farmId: mqttFarm.id,
        deviceId: mqttFarm.devices.get(f.device)!.id,
        receivedAt: expect.any(Number),
      });
      expect(b!.outcome.status, JSON.stringify(b!.outcome)).toBe('done');
      viaMqtt.set(f, (b!.outcome as { result: Json }).result);
    }
    expect(bridge.stats()).toMatchObject({ received: frames.length, done: frames.length, dropped: 0, failed: 0, skipped: 0, pending: 0 });
    expect(bridgeLog).toHaveLength(frames.length);
    // one compact line per message, never the payload
    for (const line of bridgeLog)
      expect(line).toMatch(/^mqtt flockwise\/\w+\/devices\/\w+\/telemetry → iotTelemetryRule: done: accepted [01], duplicates 0, rejected [01] \(\d+ ms\)$/);
  }, 60_000);

  it('posts the same frames over HTTP to the twin farm, one frame a request: every answer equals the rule function’s', async () => {
    for (const m of minutes) {
      await Promise.all(
        m.frames.map(async (f) => {
          const res = await http('POST', '/api/v1/iot/ingest', {
            headers: { 'X-Device-Key': httpFarm.devices.get(f.device)!.key },
            body: { readings: [{ ts: f.ts, metrics: f.metrics }] },
          });
          expect(res.status, res.text).toBe(200);
          viaHttp.set(f, res.body.data);
        }),
      );
    }
    for (const f of frames) expect(viaMqtt.get(f), `${f.device.name} ${f.ts}`).toEqual(viaHttp.get(f));
    for (const f of accepted) expect(viaMqtt.get(f)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    // out of the physical range: rejected, with the same reason on both paths
    expect(viaMqtt.get(OUT_OF_RANGE)).toEqual({
      accepted: 0,
      duplicates: 0,
      rejected: [{ index: 0, error: 'humidityPct 140 % is outside the physical range 0–100 %' }],
    });
  }, 60_000);

  async function buckets(farm: Farm, d: SimDevice, resolution: 'hour' | 'day' | 'raw' = 'hour'): Promise<Json> {
    const from =
      resolution === 'day' ? `${new Date(START_MS - DAY_MS).toISOString().slice(0, 10)}T00:00:00.000Z` : new Date(START_MS - 2 * 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const res = await http('GET', `/api/v1/iot/devices/${farm.devices.get(d)!.id}/readings?from=${from}&to=${to}&resolution=${resolution}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }

  it('hourly rollups: counts, sums, min, max, avg, first and last are those of the frames published; the HTTP twin’s hours and days are identical', async () => {
    await Promise.all(
      sim.devices.map(async (d) => {
        const [viaBroker, viaApi] = await Promise.all([buckets(mqttFarm, d), buckets(httpFarm, d)]);
        const expected = expectedBuckets(d);
        expect(viaBroker.buckets.map((b: Json) => b.start)).toEqual(expected.map((b) => b.start));
        for (const [i, bucket] of expected.entries()) {
          for (const [metric, e] of Object.entries(bucket.metrics)) {
            const got = viaBroker.buckets[i].metrics[metric];
            expect(got, `${d.name} ${bucket.start} ${metric}`).toMatchObject({ count: e.count, min: e.min, max: e.max, first: e.first, last: e.last });
            expect(got.sum).toBeCloseTo(e.sum, 5);
            // the average of the bucket, rounded to 3 decimals
            expect(got.avg).toBe(Math.round((got.sum / got.count) * 1000) / 1000);
            expect(Math.abs(got.avg - e.avg)).toBeLessThanOrEqual(0.0005 + 1e-9);
          }
        }
        // the same frames over HTTP: the same buckets, to the last digit, by hour and by day
        expect(viaApi.buckets).toEqual(viaBroker.buckets);
        const [dayViaBroker, dayViaApi] = await Promise.all([buckets(mqttFarm, d, 'day'), buckets(httpFarm, d, 'day')]);
        expect(dayViaBroker.buckets.reduce((n: number, b: Json) => n + b.metrics[d.metrics[0]!].count, 0)).toBe(accepted.filter((f) => f.device === d).length);
        expect(dayViaApi.buckets).toEqual(dayViaBroker.buckets);
      }),
    );
    // the flat-lining sensor's frames are stored as sent (ingestion does not judge them): min = max after the fault
    const flat = sim.devices.find((d) => d.house === 1 && d.kind === 'climate')!;
    const flatFrames = accepted.filter((f) => f.device === flat && f.tsMs >= START_MS + 4 * 60_000);
    const raw = await buckets(mqttFarm, flat, 'raw');
    const after = raw.readings.filter((r: Json) => Date.parse(r.ts) >= START_MS + 4 * 60_000);
    expect(after).toHaveLength(flatFrames.length);
    expect(new Set(after.map((r: Json) => JSON.stringify(r.metrics))).size).toBe(1);
    // the out-of-range frame is nowhere
    const outOfRange = await buckets(mqttFarm, OUT_OF_RANGE.device, 'raw');
    expect(outOfRange.readings.map((r: Json) => r.ts)).not.toContain(OUT_OF_RANGE.ts);
    expect(outOfRange.readings).toHaveLength(MINUTES - 1);
  }, 60_000);

  const conditionsOf = async (farm: Farm, h: number): Promise<Json> => {
    const res = await http('GET', `/api/v1/iot/houses/${farm.houses[h]!.id}/conditions?farmId=${farm.id}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  };
  const devicesOf = async (farm: Farm): Promise<Map<string, Json>> => {
    const res = await http('GET', `/api/v1/iot/devices?farmId=${farm.id}&limit=100`, { token });
    expect(res.status, res.text).toBe(200);
    return new Map<string, Json>(res.body.data.map((d: Json) => [d.id, d]));
  };

  it('house conditions list every metric of the house, each a value its device sent, checked against the flock’s age; the same metrics and statuses on both farms', async () => {
    for (let h = 0; h < HOUSES; h++) {
      for (const farm of [mqttFarm, httpFarm]) {
        const { flock, conditions, devices } = await conditionsOf(farm, h);
        expect(flock).toMatchObject({ id: farm.houses[h]!.flockId, cycleId: farm.houses[h]!.cycleId, birdType: 'broiler', ageDays: AGE_DAYS });
        expect(devices).toHaveLength(DEVICES_PER_HOUSE);
        const byMetric = Object.fromEntries(conditions.map((c: Json) => [c.metric, c]));
        expect(Object.keys(byMetric).sort()).toEqual([
          'co2Ppm',
          'coPpm',
          'humidityPct',
          'lux',
          'nh3Ppm',
          'siloKg',
          'staticPressurePa',
          'temperatureC',
          'waterLitersTotal',
        ]);
        for (const c of conditions) {
          const d = sim.devices.find((x) => x.house === h && x.metrics.includes(c.metric))!;
          expect(c.deviceId).toBe(farm.devices.get(d)!.id);
          const sent = accepted.find((f) => f.device === d && f.ts === c.ts);
          expect(sent, `House ${h + 1} ${c.metric} at ${c.ts}`).toBeDefined();
          expect(c.value).toBe(sent!.metrics[c.metric as keyof SimFrame['metrics']]);
        }
        // the simulated house is within every threshold; counters and pressure have none
        for (const metric of ['temperatureC', 'humidityPct', 'nh3Ppm', 'co2Ppm', 'coPpm', 'lux'])
          expect(byMetric[metric].status, `House ${h + 1} ${metric}`).toBe('ok');
        for (const metric of ['staticPressurePa', 'waterLitersTotal', 'siloKg']) expect(byMetric[metric].status).toBe('unchecked');
      }
    }
  }, 60_000);

  it('device states: every device was seen, at the time of one of its frames; its status follows from last seen, on both paths', async () => {
    const [viaBroker, viaApi] = await Promise.all([devicesOf(mqttFarm), devicesOf(httpFarm)]);
    expect(viaBroker.size).toBe(HOUSES * DEVICES_PER_HOUSE);
    for (const d of sim.devices) {
      const sent = accepted.filter((f) => f.device === d).map((f) => f.ts);
      for (const x of [viaBroker.get(mqttFarm.devices.get(d)!.id)!, viaApi.get(httpFarm.devices.get(d)!.id)!]) {
        expect(sent, d.name).toContain(x.lastSeen);
        // online for 2 reporting intervals (60 s) after last seen, stale until 4, then offline
        const silentS = (Date.now() - Date.parse(x.lastSeen)) / 1000;
        if (silentS < 115) expect(x.status).toBe('online');
        if (silentS > 245) expect(x.status).toBe('offline');
      }
    }
  });

  // Last seen and the latest values (the house conditions) move once per minute of READINGS: ten minutes sent in
  // a few seconds (compressed time here, a gateway flushing a backlog) still end on the newest frame.
  it('after the compressed run, every device is online with last seen = its newest frame', async () => {
    const newest = minutes.at(-1)!.tsMs;
    for (const farm of [mqttFarm, httpFarm]) {
      for (const d of (await devicesOf(farm)).values())
        expect({ name: d.name, lastSeen: Date.parse(d.lastSeen), status: d.status }).toEqual({ name: d.name, lastSeen: newest, status: 'online' });
    }
  });

  it('after the compressed run, the house conditions show each metric’s newest value', async () => {
    for (const farm of [mqttFarm, httpFarm]) {
      for (let h = 0; h < HOUSES; h++) {
        const { conditions } = await conditionsOf(farm, h);
        const newest = minutes.at(-1)!.frames.filter((f) => f.device.house === h);
        for (const f of newest) {
          for (const [metric, value] of Object.entries(f.metrics)) expect(conditions.find((c: Json) => c.metric === metric)).toMatchObject({ value, ts: f.ts });
        }
      }
    }
  });

  it('the meters and silos become each cycle’s water and feed of the day (source: sensor), the same over HTTP; House 3 drinks less', async () => {
    const waterOfWindow: number[] = [];
    for (const [h, house] of mqttFarm.houses.entries()) {
      const series = async (farm: Farm) => {
        const res = await http('GET', `/api/v2/analytics/daily/${farm.houses[h]!.flockId}/${farm.houses[h]!.cycleId}`, { token });
        expect(res.status, res.text).toBe(200);
        return res.body.data.days as Json[];
      };
      const [days, twinDays] = await Promise.all([series(mqttFarm), series(httpFarm)]);
      let water = 0;
      for (const [date, e] of expectedDayFigures(h)) {
        const day = days.find((d) => d.date === date);
        expect(day, `House ${h + 1} ${date} (cycle ${house.cycleId})`).toBeDefined();
        expect(day!.sources).toEqual({ waterLiters: 'sensor', feedKg: 'sensor' });
        expect(day!.waterLiters.value).toBeCloseTo(e.water, 2);
        expect(day!.feedKg.value).toBeCloseTo(e.feed, 2);
        const twin = twinDays.find((d) => d.date === date)!;
        expect([twin.waterLiters.value, twin.feedKg.value, twin.sources]).toEqual([day!.waterLiters.value, day!.feedKg.value, day!.sources]);
        water += e.water;
      }
      expect(water).toBeGreaterThanOrEqual(0);
      waterOfWindow.push(water);
    }
    // the water-drop fault: 40 % of the intake for half of the window, against the same rhythm in the other houses
    const others = waterOfWindow.filter((_, h) => h !== 2);
    expect(waterOfWindow[2]!).toBeLessThan(Math.min(...others));
  }, 60_000);

  describe('messages the rule drops (as in AWS: logged, never retried)', () => {
    const publish = async (topic: string, payload: string) => {
      const before = bridged.length;
      await device.publishAsync(topic, payload, { qos: 1 });
      await until('the bridge', () => bridged.length > before);
      return bridged.at(-1)!;
    };
    const frame = (tsMs: number) => JSON.stringify({ ts: new Date(tsMs).toISOString(), metrics: { temperatureC: 24, humidityPct: 60 } });
    const climate = () => sim.devices.find((d) => d.house === 0 && d.kind === 'climate')!;

    it('an unknown device id, a farm that does not match the device, a message that is no frame; nothing is stored', async () => {
      const unknown = await publish(telemetryTopic(mqttFarm.id, ulid()), frame(START_MS + 15_000));
      expect(unknown.outcome).toEqual({ status: 'dropped', reason: expect.stringMatching(/is not registered/) });

      // House 1's climate sensor, on a topic naming the twin farm
      const ts = START_MS + 30_000;
      const mismatch = await publish(telemetryTopic(httpFarm.id, mqttFarm.devices.get(climate())!.id), frame(ts));
      expect(mismatch.outcome).toEqual({ status: 'dropped', reason: expect.stringMatching(new RegExp(`does not belong to farm ${httpFarm.id}`)) });

      const noFrame = await publish(telemetryTopic(mqttFarm.id, mqttFarm.devices.get(climate())!.id), JSON.stringify({ hello: 'world' }));
      expect(noFrame.outcome.status).toBe('dropped');

      const raw = await buckets(mqttFarm, climate(), 'raw');
      expect(raw.readings.map((r: Json) => r.ts)).not.toContain(new Date(ts).toISOString());
      expect(raw.readings).toHaveLength(MINUTES);
      expect(bridge.stats()).toMatchObject({ dropped: 3, failed: 0 });
    });

    it('a payload that is not JSON is logged in one line and skipped; a payload naming another farm or device is overridden by the topic', async () => {
      const before = bridge.stats();
      await device.publishAsync(telemetryTopic(mqttFarm.id, mqttFarm.devices.get(climate())!.id), 'temperature=24', { qos: 1 });
      await until('the skip', () => bridge.stats().skipped === before.skipped + 1);
      expect(bridgeLog.at(-1)).toBe(
        `mqtt ${telemetryTopic(mqttFarm.id, mqttFarm.devices.get(climate())!.id)}: skipped, the payload is not a JSON object (14 bytes)`,
      );

      // SELECT *, then topic(2) AS farmId, topic(4) AS deviceId: the topic wins over the payload's own fields
      const ts = new Date(START_MS + 45_000).toISOString();
      const spoof = await publish(
        telemetryTopic(mqttFarm.id, mqttFarm.devices.get(climate())!.id),
        JSON.stringify({
          ts,
          metrics: { temperatureC: 24, humidityPct: 60 },
          farmId: httpFarm.id,
          deviceId: httpFarm.devices.get(climate())!.id,
          receivedAt: 0,
        }),
      );
      expect(spoof.event).toMatchObject({ farmId: mqttFarm.id, deviceId: mqttFarm.devices.get(climate())!.id, receivedAt: expect.any(Number) });
      expect(spoof.event.receivedAt).toBeGreaterThan(0);
      expect(spoof.outcome).toEqual({ status: 'done', result: { accepted: 1, duplicates: 0, rejected: [] } });
      // the same message again (a device's retry): a duplicate, stored once
      const again = await publish(
        telemetryTopic(mqttFarm.id, mqttFarm.devices.get(climate())!.id),
        JSON.stringify({ ts, metrics: { temperatureC: 24, humidityPct: 60 } }),
      );
      expect(again.outcome).toEqual({ status: 'done', result: { accepted: 0, duplicates: 1, rejected: [] } });
    });
  });
});
