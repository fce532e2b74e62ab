/** What the ingestion bench takes and reports. */
import type { CpuUse } from './cpu.js';
import type { WriteUnits } from './write-units.js';

export interface IngestionBenchOptions {
  /** In-process API client of the tests (tests/support/api.ts). */
  api: {
    call: (
      method: string,
      path: string,
      opts?: { token?: string; body?: unknown; query?: Record<string, string>; headers?: Record<string, string> },
    ) => Promise<{ status: number; body: any; raw: string }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  /** An admin's bearer token. */
  token: string;
  farmId: string;
  tableName: string;
  /** The environment offline gets (the bench's). */
  env: Record<string, string>;
  /** DynamoDB Local's JVM, for its CPU use. */
  dynamoPid?: number;
  /** Concurrent devices (default 8) and batches of 500 per device (default 6) for the throughput runs. */
  devices?: number;
  batchesPerDevice?: number;
  /** Frames per device through the rule's function in process (default 100) and through offline (default 40). */
  ruleFramesPerDevice?: number;
  ruleOfflineFramesPerDevice?: number;
  skipHttp?: boolean;
  log: (s: string) => void;
}

export interface ThroughputRow {
  run: string;
  devices: number;
  batches: number;
  readings: number;
  accepted: number;
  seconds: number;
  readingsPerSecond: number;
  /** Mean time of one batch (one frame for the rule), from sending to the answer. */
  meanMs: number;
  /** What `calls` counts per: a batch of 500, or a frame (the rule: one frame per invocation). */
  per: 'batch' | 'frame';
  /** DynamoDB calls per batch or frame, by command; null over HTTP (the calls are made in offline's process). */
  calls: Record<string, number> | null;
  failedCalls: Record<string, number> | null;
  /** % of the wall time a call of each command was in flight. */
  inFlightPct: Record<string, number> | null;
  /** CPU of the process running the service's code (this one in process; offline over HTTP) and of DynamoDB Local. */
  cpu: CpuUse;
  wcu: WriteUnits | null;
}

export interface ReadCostRow {
  device: string;
  metrics: number;
  hoursInWeek: number;
  buckets: number;
  calls: Record<string, number>;
  queryCalls: number;
  bytesRead: number;
  /** Eventually consistent Query: 0.5 RCU per 4 KB read (all items of one Query added up). */
  queryRcu: number;
}

export interface IngestionReport {
  throughput: ThroughputRow[];
  /** DynamoDB calls of one POST /api/v1/iot/ingest batch through the route's whole stack. */
  routeCallsPerBatch: Record<string, number>;
  readCost: ReadCostRow[];
  notes: string[];
}
