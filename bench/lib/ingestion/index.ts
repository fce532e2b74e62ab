/**
 * Sensor ingestion throughput and cost (bench section 6), against the bench's DynamoDB Local table:
 *   a. the use case in process: `ingestReadings` (shared/services/iot/ingestion.ts), batches of 500
 *      frames, several devices at once, each device's frames one a minute back in time from now (in-process.ts);
 *   b. the same over HTTP: POST /api/v1/iot/ingest through serverless-offline (X-Device-Key) (http.ts);
 *   c. the IoT Core rule's function (functions/iot/telemetry-rule.ts), one frame per invocation as the
 *      rule sends them: in process (rule.ts), and through offline's Lambda invoke endpoint (http.ts);
 *   d. DynamoDB write units per reading, estimated from the items written (write-units.ts), and calls per batch;
 *   e. the read cost of a week of hourly readings of one device (GET …/readings?resolution=hour) (read-cost.ts).
 * Plus, to see where the time goes: the raw write alone (`putRawReadings`, the product's packs of a batch
 * and UTC hour, with no use case: DynamoDB Local's ceiling for that part), the previous layout (one raw
 * item per reading) for comparison, the time each DynamoDB command was in flight, transaction retries,
 * and the CPU used by this process and by DynamoDB Local's JVM (cpu.ts).
 * The parts run in the order a, c, d, b, e.
 */
import { overHttpRuns } from './http.js';
import { inProcessRuns } from './in-process.js';
import { readCostOfAWeek } from './read-cost.js';
import { printWriteUnits } from './report.js';
import { ingestionRig } from './rig.js';
import { ruleInProcessRun } from './rule.js';
import type { IngestionBenchOptions, IngestionReport } from './types.js';

export type { IngestionBenchOptions, IngestionReport, ReadCostRow, ThroughputRow } from './types.js';
export type { CpuUse } from './cpu.js';
export type { WriteUnits } from './write-units.js';
export { itemSize, valueSize } from './write-units.js';

export async function measureIngestion(o: IngestionBenchOptions): Promise<IngestionReport> {
  const rig = await ingestionRig(o);
  const { aN, aMulti, previous, routeCalls } = await inProcessRuns(rig);
  const rule = await ruleInProcessRun(rig);
  printWriteUnits({ aN, aMulti, rule, previous }, rig.log);
  await overHttpRuns(rig, o);
  const readCost = await readCostOfAWeek(rig);
  return { throughput: rig.throughput, routeCallsPerBatch: routeCalls, readCost, notes: rig.notes };
}
