/**
 * What every part of the ingestion bench works with: the modules of the service it measures, a house with
 * a broiler flock in its cycle, devices registered through the API, the meter on the service's client, and
 * `run`, which sends batches from several devices at once and makes a row of the throughput table.
 */
import { cpuWindow } from './cpu.js';
import { BATCH, DAY_MS, MINUTE_MS, climate, framesBack, type Metrics } from './frames.js';
import type { IngestionBenchOptions, ThroughputRow } from './types.js';
import { Meter, keyString, writeUnits } from './write-units.js';
import { expectStatus } from '../requests.js';
import { round } from '../stats.js';

export async function ingestionRig(o: IngestionBenchOptions) {
  const { api, token, farmId, log } = o;
  const DEVICES = o.devices ?? 8;
  const BATCHES = o.batchesPerDevice ?? 6;
  const RULE_FRAMES = o.ruleFramesPerDevice ?? 100;
  const RULE_OFFLINE_FRAMES = o.ruleOfflineFramesPerDevice ?? 40;
  if (BATCHES * BATCH * MINUTE_MS > 29 * DAY_MS) throw new Error('the frames of one device must stay within the raw retention (30 days)');

  const { db, tableName } = await import('../../../shared/db/client.js');
  const { getDevice } = await import('../../../shared/db/devices.js');
  const { ingestReadings } = await import('../../../shared/services/iot/ingestion.js');
  const { handler: telemetryRule } = await import('../../../functions/iot/telemetry-rule.js');
  const { putRawReadings } = await import('../../../shared/db/sensor-readings.js');
  const { settings } = await import('../../../shared/config/env.js');
  const { BatchGetCommand, BatchWriteCommand } = await import('@aws-sdk/lib-dynamodb');
  const meter = new Meter(db());
  const T = tableName();

  const houseId = expectStatus(
    await api.call('POST', `/api/v1/config/farms/${farmId}/houses`, { token, body: { name: 'Bench sensor house', usableAreaM2: 1500, capacity: 25_000 } }),
    201,
    'create house',
  ).body.data.id as string;
  // A broiler flock in its cycle in the house, as in production: ingestion reads it (the temperature's age
  // curve, the cycle's sensor figures). Hatched 21 days ago: 24 °C ± 2, which the bench's climate keeps to.
  const hatchDate = new Date(Date.now() - 21 * DAY_MS).toISOString().slice(0, 10);
  const flockId = expectStatus(
    await api.call('POST', '/api/v1/flocks', { token, body: { name: 'Bench sensor flock', birdType: 'broiler', hatchDate, farmId, houseId } }),
    201,
    'create flock',
  ).body.data.id as string;
  expectStatus(await api.call('POST', `/api/v1/flocks/${flockId}/cycles`, { token, body: { startDate: hatchDate } }), 201, 'create cycle');
  let deviceCount = 0;
  async function newDevice(kind: 'climate' | 'multi'): Promise<{ id: string; key: string }> {
    const res = expectStatus(
      await api.call('POST', '/api/v1/iot/devices', { token, body: { houseId, farmId, kind, name: `Bench ${kind} ${++deviceCount}` } }),
      201,
      'register device',
    );
    return { id: res.body.data.id as string, key: res.body.data.deviceKey as string };
  }
  const newDevices = (n: number, kind: 'climate' | 'multi' = 'climate') => Promise.all(Array.from({ length: n }, () => newDevice(kind)));

  const fetchItems = async (keys: string[]) => {
    const found = new Map<string, Record<string, unknown>>();
    for (let i = 0; i < keys.length; i += 100) {
      const Keys = keys.slice(i, i + 100).map((k) => {
        const [PK, SK] = k.split('|');
        return { PK, SK };
      });
      const res = await db().send(new BatchGetCommand({ RequestItems: { [T]: { Keys } } }));
      for (const item of res.Responses?.[T] ?? []) found.set(keyString(item), item);
      // DynamoDB Local answers these small reads whole; unprocessed keys would only make the estimate lower.
    }
    return found;
  };

  const throughput: ThroughputRow[] = [];
  const notes: string[] = [];

  /**
   * `devices` devices in parallel, each sending `batches` batches one after another (batch i: its frames
   * i·n … i·n + n − 1 minutes before `newestMs`); `send` posts one batch and answers the accepted count.
   */
  async function run(
    name: string,
    devices: Array<{ id: string; key: string }>,
    batches: number,
    perBatch: number,
    send: (device: { id: string; key: string }, frames: Array<{ ts: string; metrics: Metrics }>) => Promise<number>,
    opts: { metered: boolean; metricsOf?: (i: number) => Metrics; record?: boolean; per?: 'batch' | 'frame'; appPid?: number },
  ): Promise<ThroughputRow> {
    const newestMs = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
    meter.reset();
    meter.on = opts.metered;
    let accepted = 0;
    let batchMsSum = 0;
    const cpuUse = cpuWindow(opts.appPid, o.dynamoPid);
    const t0 = performance.now();
    await Promise.all(
      devices.map(async (d) => {
        for (let i = 0; i < batches; i++) {
          const frames = framesBack(newestMs, i * perBatch, perBatch, opts.metricsOf ?? climate);
          const b0 = performance.now();
          const n = await send(d, frames); // (not `accepted += await …`: that reads `accepted` before the await)
          accepted += n;
          batchMsSum += performance.now() - b0;
        }
      }),
    );
    const wallMs = performance.now() - t0;
    meter.on = false;
    const count = devices.length * batches;
    const readings = count * perBatch;
    const cpu = cpuUse.stop(wallMs, readings);
    if (accepted !== readings) throw new Error(`${name}: ${accepted} of ${readings} readings accepted (the frames are meant to be all new and valid)`);
    const per = opts.per ?? 'batch';
    const perUnit = (counts: Record<string, number>) =>
      Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, round(v / (per === 'frame' ? readings : count), 2)]));
    const row: ThroughputRow = {
      run: name,
      devices: devices.length,
      batches: count,
      readings,
      accepted,
      seconds: round(wallMs / 1000, 2),
      readingsPerSecond: Math.round(readings / (wallMs / 1000)),
      meanMs: round(batchMsSum / (per === 'frame' ? readings : count), 1),
      per,
      calls: opts.metered ? perUnit(meter.counts()) : null,
      failedCalls: opts.metered ? meter.failures() : null,
      inFlightPct: opts.metered ? meter.inFlight(wallMs) : null,
      cpu,
      wcu: opts.metered ? await writeUnits(meter, readings, fetchItems) : null,
    };
    if (opts.record !== false) throughput.push(row);
    return row;
  }

  // The use case, as the HTTP route calls it once the device key is checked (the device loaded per batch).
  const inProcess = async (d: { id: string }, frames: Array<{ ts: string; metrics: Metrics }>) => {
    const device = await getDevice(d.id);
    return (await ingestReadings(device!, frames, Date.now())).accepted;
  };

  // the options, the service's modules, and what the parts share
  const options = { api, token, farmId, log, DEVICES, BATCHES, RULE_FRAMES, RULE_OFFLINE_FRAMES };
  const service = { db, T, getDevice, ingestReadings, telemetryRule, putRawReadings, settings, BatchWriteCommand };
  return { ...options, ...service, meter, newDevice, newDevices, fetchItems, throughput, notes, run, inProcess };
}

export type Rig = Awaited<ReturnType<typeof ingestionRig>>;
