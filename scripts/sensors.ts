/**
 * `npm run sensors`: a simulated broiler farm publishing over MQTT, as devices publish to IoT Core, to the
 * broker of `npm start` (scripts/lib/mqtt-bridge.ts hands every message to the rule function).
 *
 * Through the HTTP API it signs in, creates or reuses a farm, its houses, a broiler flock with an active
 * cycle in each house (birds placed) and the devices of each house; then it publishes one frame per
 * device per simulated minute (scripts/lib/farm-simulator.ts) to `flockwise/<farmId>/devices/<deviceId>/telemetry`.
 * Simulated time runs `--compression` times faster than real time and ends at the real now, so every frame
 * is in the past (ingestion takes frames up to 30 days old, at most 5 minutes ahead). `--help` lists the options.
 */
import { parseArgs } from 'node:util';
import { connectAsync } from 'mqtt';
import { FAULT_KINDS, simulateFarm, type FaultKind, type FaultSpec, type SimDevice, type SimMetrics } from './lib/farm-simulator.js';
import { telemetryTopic } from './lib/mqtt-bridge.js';
import { isoDate } from '../shared/platform/calendar.js';

const env = process.env;
const USAGE = `npm run sensors -- [options]

  --api URL            the API (default $API_URL or http://localhost:$PORT, PORT default 3000)
  --mqtt URL           the broker (default $MQTT_URL or mqtt://localhost:$MQTT_PORT, MQTT_PORT default 1883)
  --email, --password  an account that may create farms and devices (default $ADMIN_EMAIL / $ADMIN_PASSWORD,
                       else the admin npm start seeds: admin@flockwise.local / flockwise-admin-1)
  --farm NAME          farm to create or reuse (default "Simulated farm")
  --houses N           houses (default 4)
  --devices M          devices per house (default 6: climate, air quality, water meter, feed silo, light, pressure)
  --minutes N          simulated minutes (default 60)
  --compression X      simulated seconds per real second, at least 1 (default 60: a simulated minute a second; 1 = real time)
  --age-days D         age of newly placed flocks at the start (default 21)
  --birds N            birds per house (default 20000)
  --fault KIND         flatline (the house's climate sensor repeats its values) or water-drop (the house drinks
                       40 % of its normal intake); repeat for both
  --fault-house N      the house with the fault, 1-based (default 2, or 1 with a single house)
  --fault-at MINUTE    the simulated minute the fault starts (default half-way)
  --seed N             same seed, same values (default 1)
  --quiet              only the summary`;

function options() {
  const { values } = parseArgs({
    options: {
      api: { type: 'string' },
      mqtt: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      farm: { type: 'string', default: 'Simulated farm' },
      houses: { type: 'string', default: '4' },
      devices: { type: 'string', default: '6' },
      minutes: { type: 'string', default: '60' },
      compression: { type: 'string', default: '60' },
      'age-days': { type: 'string', default: '21' },
      birds: { type: 'string', default: '20000' },
      fault: { type: 'string', multiple: true, default: [] },
      'fault-house': { type: 'string' },
      'fault-at': { type: 'string' },
      seed: { type: 'string', default: '1' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const num = (name: string, raw: string, min: number, max: number, integer = true): number => {
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n)))
      throw new Error(`--${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
    return n;
  };
  const houses = num('houses', values.houses, 1, 50);
  const minutes = num('minutes', values.minutes, 1, 29 * 1440);
  for (const f of values.fault) if (!(FAULT_KINDS as readonly string[]).includes(f)) throw new Error(`--fault ${f}: one of ${FAULT_KINDS.join(', ')}`);
  const faultHouse = num('fault-house', values['fault-house'] ?? String(Math.min(2, houses)), 1, houses) - 1;
  const faultAt = values['fault-at'] === undefined ? undefined : num('fault-at', values['fault-at'], 0, minutes - 1);
  return {
    api: (values.api ?? env.API_URL ?? `http://localhost:${env.PORT ?? 3000}`).replace(/\/$/, ''),
    mqtt: values.mqtt ?? env.MQTT_URL ?? `mqtt://localhost:${env.MQTT_PORT ?? 1883}`,
    email: values.email ?? env.ADMIN_EMAIL ?? 'admin@flockwise.local',
    password: values.password ?? env.ADMIN_PASSWORD ?? 'flockwise-admin-1',
    farm: values.farm,
    houses,
    devicesPerHouse: num('devices', values.devices, 1, 20),
    minutes,
    // below 1 the simulated clock would run ahead of the real one, and frames more than 5 minutes ahead are rejected
    compression: num('compression', values.compression, 1, 1e7, false),
    ageDays: num('age-days', values['age-days'], 0, 400),
    birds: num('birds', values.birds, 1, 1_000_000),
    faultKinds: values.fault as FaultKind[],
    faultHouse,
    /** Minute 0 upwards; by default half-way through the minutes actually simulated. */
    faultAt,
    seed: num('seed', values.seed, 0, 2 ** 31),
    quiet: values.quiet,
  };
}

type Json = Record<string, unknown>;

function apiClient(base: string) {
  let token: string | undefined;
  const call = async <T = Json>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw new Error(`${method} ${base}${path}: ${(err as Error).message} (is \`npm start\` running?)`);
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : {}) as T;
  };
  /** Every item of a listing, page by page. */
  const list = async <T>(path: string): Promise<T[]> => {
    const out: T[] = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const page: { data: T[]; page?: { nextCursor: string | null } } = await call(
        'GET',
        `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      out.push(...page.data);
      cursor = page.page?.nextCursor ?? null;
    } while (cursor);
    return out;
  };
  return {
    call,
    list,
    login: async (email: string, password: string) => {
      token = (await call<{ token: string }>('POST', '/api/v1/auth/login', { email, password })).token;
    },
  };
}

interface Named {
  id: string;
  name: string;
}

/** The newest stored reading of a device since `fromMs` (hourly rollups to find the hour, then its raw readings), or null. */
async function newestReading(api: ReturnType<typeof apiClient>, deviceId: string, fromMs: number): Promise<{ tsMs: number; metrics: SimMetrics } | null> {
  const to = new Date(Date.now() + 10 * 60_000).toISOString();
  const hours = await api.call<{ data: { buckets: Array<{ start: string }> } }>(
    'GET',
    `/api/v1/iot/devices/${deviceId}/readings?resolution=hour&from=${new Date(fromMs).toISOString()}&to=${to}`,
  );
  const last = hours.data.buckets.at(-1);
  if (!last) return null;
  const raw = await api.call<{ data: { readings: Array<{ ts: string; metrics: SimMetrics }> } }>(
    'GET',
    `/api/v1/iot/devices/${deviceId}/readings?resolution=raw&from=${last.start}&to=${new Date(Date.parse(last.start) + 3_600_000).toISOString()}`,
  );
  const newest = raw.data.readings.at(-1);
  return newest ? { tsMs: Date.parse(newest.ts), metrics: newest.metrics } : null;
}

async function main(): Promise<void> {
  const o = options();
  const api = apiClient(o.api);
  await api.login(o.email, o.password);

  // farm and houses: reused by name
  const farm =
    (await api.list<Named>('/api/v1/config/farms')).find((f) => f.name === o.farm) ??
    (await api.call<{ data: Named }>('POST', '/api/v1/config/farms', { name: o.farm, timezone: 'UTC' })).data;
  const existingHouses = await api.list<Named>(`/api/v1/config/farms/${farm.id}/houses`);
  const houseIds: string[] = [];
  for (let h = 1; h <= o.houses; h++) {
    const name = `House ${h}`;
    const house =
      existingHouses.find((x) => x.name === name) ??
      (await api.call<{ data: Named }>('POST', `/api/v1/config/farms/${farm.id}/houses`, { name, usableAreaM2: 1000, capacity: o.birds })).data;
    houseIds.push(house.id);
  }

  // a broiler flock with an active cycle in each house: its age sets the temperature curve, its cycle takes the water and feed figures
  const nowMs = Date.now();
  let ageDays = o.ageDays;
  for (const [i, houseId] of houseIds.entries()) {
    const flocks = await api.list<Named & { activeCycleId: string | null; hatchDate: string | null }>(`/api/v1/flocks?farmId=${farm.id}&houseId=${houseId}`);
    const active = flocks.find((f) => f.activeCycleId);
    if (active) {
      if (i === 0 && active.hatchDate) ageDays = (nowMs - Date.parse(`${active.hatchDate}T00:00:00Z`)) / 86_400_000;
      continue;
    }
    const hatchDate = isoDate(nowMs - o.ageDays * 86_400_000);
    const flock = (
      await api.call<{ data: Named }>('POST', '/api/v1/flocks', {
        name: `Simulated broilers, house ${i + 1}`,
        birdType: 'broiler',
        breed: 'Ross 308',
        farmId: farm.id,
        houseId,
        hatchDate,
      })
    ).data;
    const cycle = (await api.call<{ data: Named }>('POST', `/api/v1/flocks/${flock.id}/cycles`, { startDate: hatchDate, targetAgeDays: 42 })).data;
    await api.call('POST', `/api/v1/flocks/${flock.id}/cycles/${cycle.id}/movements`, {
      type: 'bird_inflow',
      date: hatchDate,
      quantity: o.birds,
      averageWeightGrams: 42,
    });
  }

  // devices: reused by house and name (publishing needs no secret locally)
  const layout = simulateFarm({ houses: o.houses, devicesPerHouse: o.devicesPerHouse, startMs: nowMs, minutes: 0 }).devices;
  const registered = await api.list<Named & { houseId: string }>(`/api/v1/iot/devices?farmId=${farm.id}`);
  const deviceIds = new Map<string, string>();
  const reused: SimDevice[] = [];
  for (const d of layout) {
    const houseId = houseIds[d.house]!;
    const found = registered.find((r) => r.houseId === houseId && r.name === d.name);
    if (found) reused.push(d);
    const body = { farmId: farm.id, houseId, kind: d.kind, name: d.name, metrics: d.metrics, reportingIntervalSeconds: 60 };
    deviceIds.set(d.name, found?.id ?? (await api.call<{ data: Named }>('POST', '/api/v1/iot/devices', body)).data.id);
  }

  // Simulated time ends at the real now: the first frame is (minutes − minutes/compression) minutes back. A reused
  // meter or silo carries on from its newest stored reading, and the window starts after it (counters never go back).
  const realStart = Date.now();
  const lag = 60_000 * (1 - 1 / o.compression);
  let simStart = realStart - o.minutes * lag;
  const initialLevels: Record<string, number> = {};
  for (const d of reused.filter((x) => x.kind === 'water_meter' || x.kind === 'feed_silo')) {
    const newest = await newestReading(api, deviceIds.get(d.name)!, realStart - 29 * 86_400_000);
    if (!newest) continue;
    initialLevels[d.name] = newest.metrics[d.metrics[0]!]!;
    simStart = Math.max(simStart, newest.tsMs + 60_000);
  }
  const minutes = lag > 0 ? Math.min(o.minutes, Math.floor((realStart - simStart) / lag)) : o.minutes;
  if (minutes < 1) {
    throw new Error(
      `the farm's meters already have frames up to ${new Date(simStart - 60_000).toISOString()}: nothing is left to simulate before now at ${o.compression}× ` +
        '(wait, use --compression 1 for real time, or another --farm)',
    );
  }
  if (minutes < o.minutes) console.log(`carrying on after the frames already stored: ${minutes} of the ${o.minutes} minutes fit before now`);
  const faults = o.faultKinds.map((kind): FaultSpec => ({ kind, house: o.faultHouse, fromMinute: o.faultAt ?? Math.floor(minutes / 2) }));
  const sim = simulateFarm({
    houses: o.houses,
    devicesPerHouse: o.devicesPerHouse,
    startMs: Math.floor(simStart),
    minutes,
    ageDays: ageDays + (simStart - nowMs) / 86_400_000,
    birdsPerHouse: o.birds,
    faults,
    initialLevels,
    seed: o.seed,
  });
  console.log(
    `farm "${o.farm}" ${farm.id}: ${o.houses} houses × ${o.devicesPerHouse} devices; ${minutes} simulated minutes at ${o.compression}× ` +
      `(≈ ${Math.ceil((minutes * 60) / o.compression)} s) from ${new Date(simStart).toISOString()} to ${o.mqtt}` +
      (faults.length ? `; fault ${faults.map((f) => `${f.kind} in House ${f.house + 1} from minute ${f.fromMinute}`).join(', ')}` : ''),
  );

  const client = await connectAsync(o.mqtt, { clientId: `flockwise-sensors-${process.pid}`, clean: true });
  let stopping = false;
  process.once('SIGINT', () => {
    stopping = true;
  });
  const totals = houseIds.map(() => ({ frames: 0, waterFirst: null as number | null, waterLast: 0, feedKg: 0, siloLast: null as number | null, lastTemp: 0 }));
  let published = 0;
  let lastReport = 0;
  for (const m of sim.minutes()) {
    if (stopping) break;
    const due = realStart + (m.minute * 60_000) / o.compression;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await Promise.all(
      m.frames.map((f) =>
        client.publishAsync(telemetryTopic(farm.id, deviceIds.get(f.device.name)!), JSON.stringify({ ts: f.ts, metrics: f.metrics }), { qos: 1 }),
      ),
    );
    published += m.frames.length;
    for (const f of m.frames) {
      const t = totals[f.device.house]!;
      t.frames++;
      const water = f.metrics.waterLitersTotal;
      if (water !== undefined) {
        t.waterFirst ??= water;
        t.waterLast = water;
      }
      const silo = f.metrics.siloKg;
      if (silo !== undefined) {
        // a rise of 100 kg or more is a delivery, as ingestion counts it
        if (t.siloLast !== null && t.siloLast - silo > -100) t.feedKg += t.siloLast - silo;
        t.siloLast = silo;
      }
      if (f.metrics.temperatureC !== undefined && f.device.slot === 0) t.lastTemp = f.metrics.temperatureC;
    }
    if (!o.quiet && (Date.now() - lastReport > 5000 || m.minute === minutes - 1)) {
      lastReport = Date.now();
      const houses = totals.map((t, i) => `H${i + 1} ${t.lastTemp.toFixed(1)} °C ${((t.waterLast ?? 0) - (t.waterFirst ?? 0)).toFixed(0)} l`).join(' · ');
      console.log(`${m.frames[0]?.ts.slice(0, 16)}Z  minute ${m.minute + 1}/${minutes}  ${published} frames  ${houses}`);
    }
  }
  await client.endAsync();

  console.log(`\npublished ${published} frames (QoS 1). Per house over the simulated window:`);
  for (const [i, t] of totals.entries()) {
    const water = (t.waterLast ?? 0) - (t.waterFirst ?? 0);
    console.log(`  House ${i + 1} (${houseIds[i]}): ${t.frames} frames, water ${water.toFixed(1)} l, feed ≈ ${Math.max(0, t.feedKg).toFixed(1)} kg`);
  }
  console.log(
    `\nRead them back (a token from POST ${o.api}/api/v1/auth/login):\n` +
      `  curl -s "${o.api}/api/v1/iot/houses/${houseIds[0]}/conditions?farmId=${farm.id}" -H "Authorization: Bearer $TOKEN"\n` +
      `  curl -s "${o.api}/api/v1/iot/devices?farmId=${farm.id}" -H "Authorization: Bearer $TOKEN"`,
  );
}

main().catch((err: unknown) => {
  console.error(`npm run sensors failed: ${(err as Error).message}`);
  process.exit(1);
});
