/**
 * Part a, in process: the use case (`ingestReadings`) from one device, from several at once, from
 * multi-sensor controllers; then, to see where the time goes, the raw write alone and the previous layout
 * (one raw item per reading); and the DynamoDB calls of one batch through the route's whole stack.
 */
import { BATCH, MINUTE_MS, climate, framesBack, multi, type Metrics } from './frames.js';
import { fmtCounts, print } from './report.js';
import type { Rig } from './rig.js';
import { expectStatus } from '../requests.js';

export async function inProcessRuns(rig: Rig) {
  const { api, log, DEVICES, BATCHES, db, T, putRawReadings, settings, BatchWriteCommand, meter, newDevices, run, inProcess } = rig;
  log(`   a. ingestReadings in process: ${DEVICES} devices × ${BATCHES} batches of ${BATCH} (climate: 2 metrics a frame), 1 frame a minute back from now`);
  // DynamoDB Local's JIT: its write paths get markedly faster over the first few thousand items.
  await run('warm-up', await newDevices(DEVICES), 2, BATCH, inProcess, { metered: false, record: false });
  const a1 = await run('use case, 1 device', await newDevices(1), BATCHES, BATCH, inProcess, { metered: true });
  const aN = await run(`use case, ${DEVICES} devices`, await newDevices(DEVICES), BATCHES, BATCH, inProcess, { metered: true });
  const aMulti = await run(`use case, ${DEVICES} multi devices (9 metrics)`, await newDevices(DEVICES, 'multi'), 2, BATCH, inProcess, {
    metered: true,
    metricsOf: multi,
  });

  // ---- where the time goes: the raw part alone, with no use case ---------------------------------------------
  // The product's raw write (packs of a batch and UTC hour), as the use case calls it once the batch is counted.
  const ttlDays = settings().sensorRawTtlDays;
  const rawOnly = async (d: { id: string }, frames: Array<{ ts: string; metrics: Metrics }>) => {
    const readings = frames.map((f) => ({ tsMs: Date.parse(f.ts), metrics: f.metrics }));
    await putRawReadings(d.id, readings, { receivedAt: new Date().toISOString(), ttlDays });
    return frames.length;
  };
  const raw = await run(`raw packs only (putRawReadings), ${DEVICES} devices`, await newDevices(DEVICES), BATCHES, BATCH, rawOnly, { metered: true });
  raw.wcu = null; // the same items as the use case's raw part; priced there

  // Previous layout, for comparison: one raw item per reading, 25 a BatchWriteItem (the calls in parallel).
  const expiresAt = Math.floor(Date.now() / 1000) + ttlDays * 86_400;
  const perReading = async (d: { id: string }, frames: Array<{ ts: string; metrics: Metrics }>) => {
    const receivedAt = new Date().toISOString();
    const requests = frames.map((f) => ({
      PutRequest: { Item: { PK: `READINGS#${d.id}#${f.ts.slice(0, 10)}`, SK: f.ts, type: 'SensorReading', metrics: f.metrics, receivedAt, expiresAt } },
    }));
    await Promise.all(
      Array.from({ length: Math.ceil(requests.length / 25) }, async (_, c) => {
        let pending: unknown[] = requests.slice(c * 25, c * 25 + 25);
        while (pending.length > 0) {
          const res = await db().send(new BatchWriteCommand({ RequestItems: { [T]: pending as never } }));
          pending = res.UnprocessedItems?.[T] ?? [];
        }
      }),
    );
    return frames.length;
  };
  const previous = await run(
    `previous layout, for comparison: 1 raw item per reading, ${DEVICES} devices`,
    await newDevices(DEVICES),
    BATCHES,
    BATCH,
    perReading,
    {
      metered: true,
    },
  );

  log('   in process (readings/s of the use case; the raw packs alone are DynamoDB Local’s ceiling for that part):');
  print([a1, aN, aMulti, raw, previous]);
  for (const r of [a1, aN, aMulti]) {
    log(`   ${r.run}: DynamoDB calls per batch: ${fmtCounts(r.calls!)}; failed calls: ${fmtCounts(r.failedCalls!) || 'none'}`);
    log(`      in flight (% of wall time): ${fmtCounts(r.inFlightPct!, '%')}`);
  }
  for (const r of [raw, previous]) log(`   ${r.run}: calls per batch ${fmtCounts(r.calls!)}; in flight ${fmtCounts(r.inFlightPct!, '%')}`);

  // The route's whole stack (device key, ingest limiter, validation) for one batch, in process: its calls.
  const routeDevice = (await newDevices(1))[0]!;
  meter.reset();
  meter.on = true;
  expectStatus(
    await api.call('POST', '/api/v1/iot/ingest', {
      headers: { 'X-Device-Key': routeDevice.key },
      body: { readings: framesBack(Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS, 0, BATCH, climate) },
    }),
    200,
    'POST /api/v1/iot/ingest',
  );
  meter.on = false;
  const routeCalls = meter.counts();
  log(`   POST /api/v1/iot/ingest (whole route, in process), DynamoDB calls for one batch of ${BATCH}: ${fmtCounts(routeCalls)}`);
  return { a1, aN, aMulti, raw, previous, routeCalls };
}
