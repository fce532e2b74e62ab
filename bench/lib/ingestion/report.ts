/** The tables and lines the ingestion bench prints. */
import { round } from '../stats.js';
import { BATCH } from './frames.js';
import type { ThroughputRow } from './types.js';

export const print = (rows: ThroughputRow[]) =>
  console.table(
    rows.map((r) => ({
      run: r.run,
      devices: r.devices,
      batches: r.per === 'frame' ? '—' : r.batches,
      readings: r.readings,
      accepted: r.accepted,
      s: r.seconds,
      'readings/s': r.readingsPerSecond,
      'mean ms per batch|frame': r.meanMs,
      'WCU/reading': r.wcu?.perReading ?? '',
      'cores app|JVM': `${r.cpu.appCores ?? '?'} | ${r.cpu.dynamoCores ?? '?'}`,
      'CPU µs/reading app|JVM': `${r.cpu.appUsPerReading ?? '?'} | ${r.cpu.dynamoUsPerReading ?? '?'}`,
    })),
  );

export function fmtCounts(counts: Record<string, number>, unit = ''): string {
  return Object.entries(counts)
    .map(([k, v]) => `${k} ${unit ? `${v}${unit}` : `×${v}`}`)
    .join(', ');
}

/** Part d: the write units per reading of the metered runs, by kind of item written. */
export function printWriteUnits({ aN, aMulti, rule, previous }: Record<'aN' | 'aMulti' | 'rule' | 'previous', ThroughputRow>, log: (s: string) => void): void {
  log('\n   d. DynamoDB write units per reading (estimated from the items written: ⌈size/1 KB⌉, ×2 in transactions, + GSI writes):');
  console.table(
    [aN, aMulti, rule, previous].flatMap((r) =>
      Object.entries(r.wcu!.byKind).map(([kind, k]) => ({
        run: r.run,
        'items of': kind,
        items: k.items,
        'largest item B': k.maxItemBytes,
        WCU: k.wcu,
        'WCU/reading': round(k.wcu / r.readings, 3),
      })),
    ),
  );
  for (const r of [aN, aMulti, rule, previous]) log(`   ${r.run}: ${r.wcu!.total} WCU for ${r.readings} readings = ${r.wcu!.perReading} WCU per reading`);
  for (const r of [aN, aMulti, rule]) {
    const packs = r.wcu!.byKind['raw pack (batch × UTC hour)'];
    const per = r.per === 'frame' ? 'frame' : `batch of ${BATCH}`;
    if (packs)
      log(
        `   ${r.run}: raw packs ${round(packs.items / (r.per === 'frame' ? r.readings : r.batches), 2)} per ${per}, ${round(r.readings / packs.items, 1)} readings and ${round(packs.wcu / packs.items, 2)} WCU per pack (largest ${packs.maxItemBytes} B)`,
      );
  }
  // The frames above go back in time, so last seen moved once per device. Live, it moves at most once a minute
  // per device: for a device sending a frame a minute through the rule, once per frame.
  for (const r of [aN, aMulti]) {
    const seen = r.wcu!.byKind['device last seen'];
    if (seen)
      log(`   ${r.run}: a last-seen write costs ${round(seen.wcu / seen.items, 1)} WCU (item + GSI1 + GSI2 move); live, at most one per device a minute`);
  }
}
