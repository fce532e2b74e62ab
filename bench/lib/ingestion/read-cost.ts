/** Part e: the read cost of a week of hourly readings of one device (GET …/readings?resolution=hour). */
import { DAY_MS, BATCH, MINUTE_MS, climate, framesBack, multi } from './frames.js';
import { fmtCounts } from './report.js';
import type { Rig } from './rig.js';
import { expectStatus } from '../requests.js';
import type { ReadCostRow } from './types.js';
import { KB, itemSize } from './write-units.js';
import { round } from '../stats.js';

export async function readCostOfAWeek(rig: Rig): Promise<ReadCostRow[]> {
  const { api, token, log, getDevice, ingestReadings, meter, newDevice, fetchItems, notes } = rig;
  log('\n   e. Read cost: GET /api/v1/iot/devices/{id}/readings?resolution=hour over the last 7 days (a reading every 10 minutes all week)');
  const readCost: ReadCostRow[] = [];
  for (const kind of ['climate', 'multi'] as const) {
    const d = await newDevice(kind);
    const device = await getDevice(d.id);
    const weekFrames = framesBack(Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS, 0, 7 * 24 * 6 + 1, kind === 'multi' ? multi : climate, 10 * MINUTE_MS);
    for (let i = 0; i < weekFrames.length; i += BATCH) await ingestReadings(device!, weekFrames.slice(i, i + BATCH), Date.now());
    const to = new Date();
    const from = new Date(to.getTime() - 7 * DAY_MS);
    const query = { resolution: 'hour', from: from.toISOString(), to: to.toISOString() };
    await api.call('GET', `/api/v1/iot/devices/${d.id}/readings`, { token, query }); // warm
    meter.reset();
    meter.on = true;
    const res = expectStatus(await api.call('GET', `/api/v1/iot/devices/${d.id}/readings`, { token, query }), 200, 'readings');
    meter.on = false;
    const calls = meter.counts();
    // The bytes the Query read: the stored rollups of those hours, sized like the writes.
    const hours = (res.body.data.buckets as Array<{ start: string }>).map((b) => `DEVICE#${d.id}|HOUR#${b.start.slice(0, 13)}`);
    const items = await fetchItems(hours);
    const bytesRead = [...items.values()].reduce((n, i) => n + itemSize(i), 0);
    readCost.push({
      device: kind,
      metrics: device!.metrics.length,
      hoursInWeek: 7 * 24 + 1,
      buckets: res.body.data.buckets.length as number,
      calls,
      queryCalls: calls.Query ?? 0,
      bytesRead,
      queryRcu: round(0.5 * Math.ceil(bytesRead / (4 * KB)), 1),
    });
  }
  meter.on = false;
  console.table(
    readCost.map((r) => ({
      device: `${r.device} (${r.metrics} metrics)`,
      'hour buckets': r.buckets,
      'Query calls': r.queryCalls,
      'all calls of the request': fmtCounts(r.calls),
      'rollup bytes read': r.bytesRead,
      'Query RCU (eventually consistent)': r.queryRcu,
    })),
  );
  notes.push(
    'Read cost counts the DynamoDB calls of the whole request in process: the rate limiter (UpdateItem), the user load (BatchGetItem), the device (GetItem) and the rollups (Query).',
  );
  return readCost;
}
