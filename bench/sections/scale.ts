/**
 * Section 4: scale ingestion throughput, POST /api/v1/scale in batches of 500 weighings through the real
 * handler in process: one device sending one batch after another, then four devices at once, each a bird
 * scale registered in the flock's farm; DynamoDB calls per batch by command.
 */
import { fmt, probe, resetProbe } from '../lib/db-probe.js';
import { day, expectStatus } from '../lib/requests.js';
import { round } from '../lib/stats.js';
import type { Fixtures } from './fixtures.js';
import { log, section } from './settings.js';

export interface ScaleRun {
  mode: string;
  batches: number;
  weighings: number;
  accepted: number;
  seconds: number;
  weighingsPerSecond: number;
  meanBatchMs: number;
  callsPerBatch: Record<string, number>;
}

export async function measureScale({ api, token, farmId, newCycle }: Fixtures): Promise<ScaleRun[]> {
  log('\n4. Scale ingestion: POST /api/v1/scale, batches of 500 weighings');
  section('scale');
  const scaleCycle = await newCycle('Bench scale');
  const batch = (device: string, seq: number) => {
    const dates = [day(-5), day(-4), day(-3), day(-2), day(-1)];
    return {
      flockId: scaleCycle.flockId,
      deviceId: device,
      weighings: Array.from({ length: 500 }, (_, i) => {
        const s = (seq * 500 + i) % 36_000;
        const hh = String(6 + Math.floor(s / 3600)).padStart(2, '0');
        const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
        const ss = String(s % 60).padStart(2, '0');
        return { at: `${dates[i % dates.length]}T${hh}:${mm}:${ss}Z`, grams: 900 + ((i * 37 + seq * 11) % 200) };
      }),
    };
  };
  const scaleRuns: ScaleRun[] = [];
  // a batch names a bird scale registered in the flock's farm (registered before the clock starts)
  const scaleHouse = expectStatus(
    await api.call('POST', `/api/v1/config/farms/${farmId}/houses`, { token, body: { name: 'Bench scales', usableAreaM2: 1000, capacity: 10000 } }),
    201,
    'scale house',
  ).body.data.id as string;
  const registerScale = async (name: string) =>
    expectStatus(await api.call('POST', '/api/v1/iot/devices', { token, body: { farmId, houseId: scaleHouse, kind: 'scale', name } }), 201, 'register scale')
      .body.data.id as string;
  async function ingest(mode: string, devices: number, batchesPerDevice: number) {
    let accepted = 0;
    const batchMs: number[] = [];
    const scales = await Promise.all(Array.from({ length: devices }, (_, d) => registerScale(`${mode} scale ${d}`)));
    resetProbe();
    const t = performance.now();
    await Promise.all(
      Array.from({ length: devices }, async (_, d) => {
        for (let i = 0; i < batchesPerDevice; i++) {
          const t0 = performance.now();
          const res = expectStatus(await api.call('POST', '/api/v1/scale', { token, body: batch(scales[d]!, i) }), 200, 'scale batch');
          batchMs.push(performance.now() - t0);
          accepted += res.body.data.accepted as number;
        }
      }),
    );
    const seconds = (performance.now() - t) / 1000;
    const batches = devices * batchesPerDevice;
    const perBatch: Record<string, number> = {};
    for (const c of probe.calls) perBatch[c.command] = (perBatch[c.command] ?? 0) + 1;
    for (const k of Object.keys(perBatch)) perBatch[k] = round(perBatch[k]! / batches, 1);
    scaleRuns.push({
      mode,
      batches,
      weighings: batches * 500,
      accepted,
      seconds: round(seconds, 2),
      weighingsPerSecond: Math.round((batches * 500) / seconds),
      meanBatchMs: round(batchMs.reduce((a, b) => a + b, 0) / batchMs.length, 1),
      callsPerBatch: perBatch,
    });
  }
  await ingest('warmup', 1, 2);
  scaleRuns.length = 0;
  await ingest('sequential (1 device)', 1, 20);
  await ingest('parallel (4 devices)', 4, 5);
  console.table(
    scaleRuns.map((r) => ({
      mode: r.mode,
      batches: r.batches,
      weighings: r.weighings,
      accepted: r.accepted,
      seconds: r.seconds,
      'weighings/s': r.weighingsPerSecond,
      'mean batch ms': r.meanBatchMs,
      'calls/batch': fmt(r.callsPerBatch),
    })),
  );
  return scaleRuns;
}
