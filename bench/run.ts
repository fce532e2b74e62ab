/**
 * `npm run bench` (not part of `npm test`): starts its own in-memory DynamoDB Local, creates a table,
 * seeds an admin and measures, in-process through the real handlers:
 *   1. the middleware's cost: full stack vs. the bare service call on the same input (ratio);
 *   2. DynamoDB calls per read request (limiter, user load and data calls apart), and the cycle
 *      summary's data calls at 10 / 100 / 1,000 movements;
 *   3. per-function bundle size and cold init (fresh process require of each minified CJS bundle);
 *   4. scale ingestion throughput (batches of 500 weighings);
 * and over HTTP:
 *   5. latency p50/p95/p99 and requests/s through serverless-offline (autocannon) at 1/10/50 connections,
 *      next to raw DynamoDB Local GetItem/Query/TransactWriteItems at the same concurrency (ratio API ÷ raw);
 *   6. sensor ingestion (bench/lib/ingestion/): readings/s in batches of 500 in process and over HTTP,
 *      frames/s through the IoT rule's function, write units per reading, the read cost of a week of hours.
 * Prints tables and writes bench/results/latest.json. Figures are recorded in docs/performance.md.
 * Each section is a module of bench/sections/ (settings.ts holds the knobs below); this file runs them in order.
 *
 * Env knobs: BENCH_ITERATIONS (default 300), BENCH_SUMMARY_MAX (1000; 10000 for the long run),
 * BENCH_SKIP_BUNDLES=1, BENCH_INIT_RUNS (3), BENCH_SKIP_HTTP=1, BENCH_HTTP_SECONDS (5), BENCH_BURST_IDLE_SECONDS (65),
 * BENCH_HTTP_CONNECTIONS (1,10,50), BENCH_JVM_WARMUP_SECONDS (15: DynamoDB Local's JIT warm-up before section 1),
 * BENCH_SKIP_INGESTION=1, BENCH_INGEST_DEVICES (8), BENCH_INGEST_BATCHES (6 batches of 500 per device).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../scripts/lib/route-table.js';
import type { Stack } from '../scripts/lib/stack.js';
import { createBenchTable, startBenchDb, stopOnSignals } from './lib/bench-db.js';
import { round } from './lib/stats.js';
import { SKIP_BUNDLES, SKIP_HTTP, SKIP_INGESTION, loadAtStart, log, recordedSettings } from './sections/settings.js';

const benchStarted = performance.now();
const bench = await startBenchDb(log);

// Everything this run starts is stopped at the end, on an error, and on Ctrl-C / SIGTERM.
const running: { offline?: Stack } = {};
const stopAll = async () => {
  await running.offline?.stop();
  await bench.dynamo.stop();
};
stopOnSignals(bench.dynamo, stopAll, 'serverless offline and DynamoDB Local', log);

try {
  await main();
} finally {
  await stopAll();
}

async function main(): Promise<void> {
  await createBenchTable(bench);
  const { generate } = await import('../scripts/generate.js');
  await generate();
  // The sections load the handlers and services: only now, with the environment set and the validators generated.
  const { benchFixtures } = await import('./sections/fixtures.js');
  const { measureMiddleware } = await import('./sections/middleware.js');
  const { measureDbFloor } = await import('./sections/db-floor.js');
  const { measureCalls } = await import('./sections/calls.js');
  const { measureScale } = await import('./sections/scale.js');
  const { measureHttp } = await import('./sections/http.js');
  const { measureSensorIngestion } = await import('./sections/ingestion.js');
  const { measureBundleSizes } = await import('./sections/bundles.js');

  const fixtures = await benchFixtures();
  const middlewareOverhead = await measureMiddleware(fixtures);
  const dbFloor = await measureDbFloor(fixtures);
  const { calls, summaryScaling } = await measureCalls(fixtures);
  const scaleRuns = await measureScale(fixtures);
  const http = SKIP_HTTP ? undefined : await measureHttp(fixtures, bench, running);
  const sensorIngestion = SKIP_INGESTION ? undefined : await measureSensorIngestion(fixtures, bench);
  // bundles last: child processes, no DynamoDB needed
  const bundles = SKIP_BUNDLES ? undefined : await measureBundleSizes(bench.benchEnv);

  const results = {
    generatedAt: new Date().toISOString(),
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      loadAverageAtSectionStart: loadAtStart,
      loadAverageAtEnd: round(loadavg()[0]!, 2),
    },
    settings: recordedSettings(),
    middlewareOverhead,
    dbFloor,
    dynamoCallsPerRead: calls,
    summaryScaling,
    scaleIngestion: scaleRuns,
    bundles,
    httpLatency: http?.httpLatency,
    burst: http?.burst,
    sensorIngestion,
    totalSeconds: round((performance.now() - benchStarted) / 1000, 1),
  };
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  log(`\nwrote bench/results/latest.json (${results.totalSeconds} s)`);
}
