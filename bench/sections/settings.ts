/** The bench's knobs (environment variables, listed in bench/run.ts) and the helpers every section uses. */
import { cpus, loadavg } from 'node:os';
import { round } from '../lib/stats.js';

export const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
export const WARMUP = Math.max(20, Math.round(ITERATIONS / 5));
export const SUMMARY_MAX = Number(process.env.BENCH_SUMMARY_MAX ?? 1000);
export const INIT_RUNS = Number(process.env.BENCH_INIT_RUNS ?? 3);
export const JVM_WARMUP_SECONDS = Number(process.env.BENCH_JVM_WARMUP_SECONDS ?? 15);
export const SKIP_HTTP = process.env.BENCH_SKIP_HTTP === '1';
export const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 5);
export const BURST_IDLE_SECONDS = Number(process.env.BENCH_BURST_IDLE_SECONDS ?? 65);
export const BURST_CONCURRENCY = 48;
export const HTTP_CONNECTIONS = (process.env.BENCH_HTTP_CONNECTIONS ?? '1,10,50')
  .split(',')
  .map((x) => Number(x.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
export const SKIP_INGESTION = process.env.BENCH_SKIP_INGESTION === '1';
export const SKIP_BUNDLES = process.env.BENCH_SKIP_BUNDLES === '1';
export const INGEST_DEVICES = Number(process.env.BENCH_INGEST_DEVICES ?? 8);
export const INGEST_BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 6);

export const log = (s: string) => console.log(s);

/** The machine's 1-minute load average when each section starts (the figures are only as quiet as the machine). */
export const loadAtStart: Record<string, number> = {};
export const section = (name: string) => {
  loadAtStart[name] = round(loadavg()[0]!, 2);
  log(`   (load average ${loadAtStart[name]} on ${cpus().length} CPUs)`);
};

/** The settings as recorded in bench/results/latest.json. */
export const recordedSettings = () => ({
  iterations: ITERATIONS,
  warmup: WARMUP,
  jvmWarmupSeconds: JVM_WARMUP_SECONDS,
  summaryMax: SUMMARY_MAX,
  initRuns: INIT_RUNS,
  skipHttp: SKIP_HTTP,
  httpSeconds: HTTP_SECONDS,
  httpConnections: HTTP_CONNECTIONS,
  skipIngestion: SKIP_INGESTION,
  ingestDevices: INGEST_DEVICES,
  ingestBatchesPerDevice: INGEST_BATCHES,
});
