/** Section 6: sensor ingestion (bench/lib/ingestion/), in process and over HTTP. */
import type { BenchDb } from '../lib/bench-db.js';
import { measureIngestion, type IngestionReport } from '../lib/ingestion/index.js';
import { round } from '../lib/stats.js';
import type { Fixtures } from './fixtures.js';
import { INGEST_BATCHES, INGEST_DEVICES, SKIP_HTTP, log, section } from './settings.js';

export async function measureSensorIngestion({ api, token, farmId }: Fixtures, { benchEnv, dynamo, tableName }: BenchDb): Promise<IngestionReport> {
  log(`\n6. Sensor ingestion: batches of 500 frames (in process and over HTTP), the IoT rule's function, write units, read cost`);
  section('ingestion');
  const started = performance.now();
  const sensorIngestion = await measureIngestion({
    api,
    token,
    farmId,
    tableName,
    env: { ...benchEnv },
    dynamoPid: dynamo.process.pid,
    devices: INGEST_DEVICES,
    batchesPerDevice: INGEST_BATCHES,
    skipHttp: SKIP_HTTP,
    log,
  });
  log(`   section 6 took ${round((performance.now() - started) / 1000, 1)} s`);
  return sensorIngestion;
}
