/**
 * Sensor ingestion throughput and cost (bench section 6), against the bench's DynamoDB Local table:
 *   a. the use case in process: `ingestReadings` (shared/services/sensor-ingestion.ts), batches of 500
 *      frames, several devices at once, each device's frames one a minute back in time from now;
 *   b. the same over HTTP: POST /api/v1/iot/ingest through serverless-offline (X-Device-Key);
 *   c. the IoT Core rule's function (functions/iot/telemetry-rule.ts), one frame per invocation as the
 *      rule sends them: in process, and through offline's Lambda invoke endpoint;
 *   d. DynamoDB write units per reading, estimated from the items written (below), and calls per batch;
 *   e. the read cost of a week of hourly readings of one device (GET …/readings?resolution=hour).
 * Plus, to see where the time goes: the raw write alone (`putRawReadings`, the product's packs of a batch
 * and UTC hour, with no use case: DynamoDB Local's ceiling for that part), the previous layout (one raw
 * item per reading) for comparison, the time each DynamoDB command was in flight, transaction retries,
 * and the CPU used by this process and by DynamoDB Local's JVM.
 *
 * Write units: DynamoDB Local's ConsumedCapacity cannot be trusted, so every write the service sends is
 * captured on its client and priced as DynamoDB prices it: ⌈item size / 1 KB⌉ per item written (the
 * size by DynamoDB's rules: attribute names + values, numbers ≈ 1 byte per 2 significant digits + 1, maps
 * and lists 3 bytes + 1 per element), ×2 inside TransactWriteItems, plus each global secondary index the
 * item is in (both indexes project ALL: an update rewrites the GSI1 entry, and moving GSI2SK, as a
 * device's last-seen write does, is a delete and a put there). A raw pack (a `READINGS#…` item holding a
 * `readings` list, ≤ 200 readings) is one item: ⌈pack size / 1 KB⌉. An UpdateItem is priced at the size of the
 * item after the run (items here only grow, so an upper bound). Only writes of calls that succeeded are
 * counted; cancelled transactions (conflicts, lost races) are reported apart.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Context } from 'aws-lambda';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Stack } from '../../scripts/lib/stack.js';
import { startBenchStack } from './http-latency.js';
import { round, unionLength } from './stats.js';

const BATCH = 500;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const KB = 1024;

// ---- item sizes and write units ---------------------------------------------------------------------------

/** Bytes of a number as DynamoDB stores it: about 1 byte per 2 significant digits, plus 1. */
function numberSize(n: number): number {
  const digits = String(Math.abs(n)).replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

/** Bytes of a value (document-client form: strings, numbers, sets, maps, lists). */
export function valueSize(v: unknown): number {
  if (typeof v === 'string') return Buffer.byteLength(v, 'utf8');
  if (typeof v === 'number') return numberSize(v);
  if (typeof v === 'boolean' || v === null) return 1;
  if (v instanceof Uint8Array) return v.byteLength;
  if (v instanceof Set) return [...v].reduce((n: number, x) => n + valueSize(x), 0);
  if (Array.isArray(v)) return 3 + v.reduce((n: number, x) => n + valueSize(x) + 1, 0);
  if (typeof v === 'object' && v) return 3 + Object.entries(v).reduce((n, [k, x]) => n + Buffer.byteLength(k) + valueSize(x) + 1, 0);
  return 0;
}

/** Bytes of an item: each attribute's name and value. */
export function itemSize(item: Record<string, unknown>): number {
  return Object.entries(item).reduce((n, [k, v]) => (v === undefined ? n : n + Buffer.byteLength(k) + valueSize(v)), 0);
}

const units = (bytes: number) => Math.max(1, Math.ceil(bytes / KB));

type WriteKind =
  | 'raw pack (batch × UTC hour)'
  | 'raw reading (previous layout)'
  | 'claims + rollups'
  | 'cycle day figures'
  | 'device last seen'
  | 'breach'
  | 'other';

/** What an item is, from its key (for a put, from the whole item). */
function kindOf(item: Record<string, unknown>): WriteKind {
  const pk = String(item.PK ?? '');
  const sk = String(item.SK ?? '');
  // the previous layout's item holds one reading's `metrics`; the product's pack a `readings` list
  if (pk.startsWith('READINGS#')) return 'metrics' in item ? 'raw reading (previous layout)' : 'raw pack (batch × UTC hour)';
  if (pk.startsWith('DEVICE#')) return sk === 'META' ? 'device last seen' : 'claims + rollups';
  if (pk.startsWith('BREACHES#')) return 'breach';
  if (pk.startsWith('CYCLE#')) return 'cycle day figures';
  return 'other';
}

interface WriteRecord {
  kind: WriteKind;
  op: 'put' | 'update' | 'delete' | 'check';
  transactional: boolean;
  key: string;
  /** Known for puts (the whole item is in the request); updates are sized after the run. */
  bytes?: number;
  item?: Record<string, unknown>;
}

interface MeteredCall {
  command: string;
  start: number;
  end: number;
  error?: string;
  writes: WriteRecord[];
}

const keyString = (k: Record<string, unknown>) => `${String(k.PK)}|${String(k.SK)}`;

function writesOf(command: string, input: Record<string, unknown>): WriteRecord[] {
  const out: WriteRecord[] = [];
  const put = (item: Record<string, unknown>, transactional: boolean) =>
    out.push({ kind: kindOf(item), op: 'put', transactional, key: keyString(item), bytes: itemSize(item), item });
  const keyed = (op: 'update' | 'delete' | 'check', key: Record<string, unknown>, transactional: boolean) =>
    out.push({ kind: kindOf(key), op, transactional, key: keyString(key) });
  if (command === 'PutItem') put(input.Item as Record<string, unknown>, false);
  else if (command === 'UpdateItem') keyed('update', input.Key as Record<string, unknown>, false);
  else if (command === 'DeleteItem') keyed('delete', input.Key as Record<string, unknown>, false);
  else if (command === 'BatchWriteItem') {
    for (const requests of Object.values(
      input.RequestItems as Record<string, Array<Record<string, { Item?: Record<string, unknown>; Key?: Record<string, unknown> }>>>,
    )) {
      for (const r of requests) {
        if (r.PutRequest?.Item) put(r.PutRequest.Item, false);
        else if (r.DeleteRequest?.Key) keyed('delete', r.DeleteRequest.Key, false);
      }
    }
  } else if (command === 'TransactWriteItems') {
    for (const t of input.TransactItems as Array<Record<string, { Item?: Record<string, unknown>; Key?: Record<string, unknown> }>>) {
      if (t.Put?.Item) put(t.Put.Item, true);
      else if (t.Update?.Key) keyed('update', t.Update.Key, true);
      else if (t.Delete?.Key) keyed('delete', t.Delete.Key, true);
      else if (t.ConditionCheck?.Key) keyed('check', t.ConditionCheck.Key, true);
    }
  }
  return out;
}

/** Every call of the service's DynamoDB client while `on`: command, interval, error, the writes it asked for. */
export class Meter {
  on = false;
  calls: MeteredCall[] = [];

  constructor(client: DynamoDBDocumentClient) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (!this.on) return next(args);
        const command = String(context.commandName ?? 'unknown').replace(/Command$/, '');
        const call: MeteredCall = { command, start: performance.now(), end: 0, writes: writesOf(command, args.input as Record<string, unknown>) };
        try {
          return await next(args);
        } catch (err) {
          call.error = (err as Error).name ?? 'Error';
          throw err;
        } finally {
          call.end = performance.now();
          this.calls.push(call);
        }
      },
      { step: 'initialize', name: 'benchIngestionMeter', override: true },
    );
  }

  reset(): void {
    this.calls = [];
  }

  /** Calls per command (all, failed included). */
  counts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const c of this.calls) out[c.command] = (out[c.command] ?? 0) + 1;
    return out;
  }

  /** Failed calls per command and error (a cancelled transaction is a TransactionCanceledException). */
  failures(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const c of this.calls) if (c.error) out[`${c.command}:${c.error}`] = (out[`${c.command}:${c.error}`] ?? 0) + 1;
    return out;
  }

  /** Per command, the share of the wall time at least one such call was in flight. */
  inFlight(wallMs: number): Record<string, number> {
    const by = new Map<string, Array<readonly [number, number]>>();
    for (const c of this.calls) by.set(c.command, [...(by.get(c.command) ?? []), [c.start, c.end] as const]);
    const out: Record<string, number> = {};
    for (const [cmd, intervals] of by) out[cmd] = round((100 * unionLength(intervals)) / wallMs, 0);
    out['any call'] = round((100 * unionLength(this.calls.map((c) => [c.start, c.end] as const))) / wallMs, 0);
    return out;
  }
}

export interface WriteUnits {
  /** Items written per kind (successful calls), and their write units. */
  byKind: Record<string, { items: number; wcu: number; maxItemBytes: number }>;
  total: number;
  perReading: number;
}

/**
 * Prices the successful writes of the metered calls. `fetchItems` reads the items updated (their size
 * after the run), outside the meter.
 */
async function writeUnits(meter: Meter, readings: number, fetchItems: (keys: string[]) => Promise<Map<string, Record<string, unknown>>>): Promise<WriteUnits> {
  const writes = meter.calls.filter((c) => !c.error).flatMap((c) => c.writes);
  const updated = [...new Set(writes.filter((w) => w.bytes === undefined).map((w) => w.key))];
  const stored = await fetchItems(updated);
  const byKind: WriteUnits['byKind'] = {};
  let total = 0;
  for (const w of writes) {
    const item = w.item ?? stored.get(w.key);
    const bytes = w.bytes ?? (item ? itemSize(item) : 0);
    let wcu = units(bytes) * (w.transactional ? 2 : 1);
    // Global secondary indexes (both project ALL): GSI1 rewritten, GSI2 moved (delete + put) when its key changes.
    if (item && w.op !== 'check') {
      if (item.GSI1PK !== undefined) wcu += units(bytes);
      if (item.GSI2PK !== undefined) wcu += (w.kind === 'device last seen' ? 2 : 1) * units(bytes);
    }
    const row = byKind[w.kind] ?? { items: 0, wcu: 0, maxItemBytes: 0 };
    byKind[w.kind] = row;
    row.items++;
    row.wcu += wcu;
    row.maxItemBytes = Math.max(row.maxItemBytes, bytes);
    total += wcu;
  }
  return { byKind, total, perReading: round(total / Math.max(1, readings), 3) };
}

// ---- CPU ----------------------------------------------------------------------------------------------------

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU seconds a process has used so far (Linux /proc), or null elsewhere. */
function processCpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
  } catch {
    return null;
  }
}

/** The process that ran the service's code (this one in process, serverless-offline over HTTP) and DynamoDB Local's JVM. */
export interface CpuUse {
  /** Cores used on average over the run. */
  appCores: number | null;
  dynamoCores: number | null;
  /** CPU time per reading (per frame for the rule), µs. */
  appUsPerReading: number | null;
  dynamoUsPerReading: number | null;
}

function cpuWindow(appPid: number | undefined, dynamoPid: number | undefined): { stop(wallMs: number, readings: number): CpuUse } {
  const own = appPid === undefined;
  const node0 = process.cpuUsage();
  const app0 = own ? null : processCpuSeconds(appPid);
  const jvm0 = processCpuSeconds(dynamoPid);
  return {
    stop(wallMs, readings) {
      const ownCpu = process.cpuUsage(node0);
      const app1 = own ? null : processCpuSeconds(appPid);
      const jvm1 = processCpuSeconds(dynamoPid);
      const appSeconds = own ? (ownCpu.user + ownCpu.system) / 1e6 : app0 !== null && app1 !== null ? app1 - app0 : null;
      const jvmSeconds = jvm0 !== null && jvm1 !== null ? jvm1 - jvm0 : null;
      const cores = (sec: number | null) => (sec === null ? null : round((sec * 1000) / wallMs, 2));
      const perReading = (sec: number | null) => (sec === null ? null : Math.round((sec * 1e6) / readings));
      return {
        appCores: cores(appSeconds),
        dynamoCores: cores(jvmSeconds),
        appUsPerReading: perReading(appSeconds),
        dynamoUsPerReading: perReading(jvmSeconds),
      };
    },
  };
}

/** The pid of this process's child whose command line contains `needle` (serverless-offline), if any. */
function childPid(needle: string): number | undefined {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid !== process.pid) continue;
        if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) return Number(entry);
      } catch {
        /* gone meanwhile */
      }
    }
  } catch {
    /* no /proc */
  }
  return undefined;
}

// ---- frames ---------------------------------------------------------------------------------------------------

type Metrics = Record<string, number>;

/** A device's frames, one every `stepMs` (a minute) back in time from `newestMs`: frames [from, from + count) counting back. */
function framesBack(
  newestMs: number,
  from: number,
  count: number,
  metricsOf: (i: number) => Metrics,
  stepMs = MINUTE_MS,
): Array<{ ts: string; metrics: Metrics }> {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return { ts: new Date(newestMs - i * stepMs).toISOString(), metrics: metricsOf(i) };
  });
}

/** Plausible house climate, inside every threshold for a broiler flock of about 3 weeks (no breaches: the steady state). */
const climate = (i: number): Metrics => ({
  temperatureC: round(24.5 + Math.sin(i / 90), 1),
  humidityPct: round(60 + 5 * Math.cos(i / 70), 1),
});

/** A multi-sensor controller: nine metrics per frame, a silo among them (so it also feeds the house's daily feed figure). */
const multi = (i: number): Metrics => ({
  ...climate(i),
  nh3Ppm: round(8 + Math.sin(i / 50), 1),
  co2Ppm: Math.round(1800 + 200 * Math.sin(i / 40)),
  coPpm: round(2 + Math.sin(i / 30), 1),
  staticPressurePa: round(-20 + 3 * Math.sin(i / 20), 1),
  lux: Math.round(40 + 10 * Math.cos(i / 60)),
  siloKg: round(9000 - i * 0.5, 1),
});

// ---- the section ---------------------------------------------------------------------------------------------

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

export async function measureIngestion(o: IngestionBenchOptions): Promise<IngestionReport> {
  const { api, token, farmId, log } = o;
  const DEVICES = o.devices ?? 8;
  const BATCHES = o.batchesPerDevice ?? 6;
  const RULE_FRAMES = o.ruleFramesPerDevice ?? 100;
  const RULE_OFFLINE_FRAMES = o.ruleOfflineFramesPerDevice ?? 40;
  if (BATCHES * BATCH * MINUTE_MS > 29 * DAY_MS) throw new Error('the frames of one device must stay within the raw retention (30 days)');

  const { db, tableName } = await import('../../shared/db/client.js');
  const { getDevice } = await import('../../shared/db/devices.js');
  const { ingestReadings } = await import('../../shared/services/sensor-ingestion.js');
  const { handler: telemetryRule } = await import('../../functions/iot/telemetry-rule.js');
  const { putRawReadings } = await import('../../shared/db/sensor-readings.js');
  const { settings } = await import('../../shared/config/env.js');
  const { BatchGetCommand, BatchWriteCommand } = await import('@aws-sdk/lib-dynamodb');
  const meter = new Meter(db());
  const T = tableName();

  const expectOk = <R extends { status: number; raw: string }>(res: R, status: number, what: string): R => {
    if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.raw}`);
    return res;
  };
  const houseId = expectOk(
    await api.call('POST', `/api/v1/config/farms/${farmId}/houses`, { token, body: { name: 'Bench sensor house', usableAreaM2: 1500, capacity: 25_000 } }),
    201,
    'create house',
  ).body.data.id as string;
  // A broiler flock in its cycle in the house, as in production: ingestion reads it (the temperature's age
  // curve, the cycle's sensor figures). Hatched 21 days ago: 24 °C ± 2, which the bench's climate keeps to.
  const hatchDate = new Date(Date.now() - 21 * DAY_MS).toISOString().slice(0, 10);
  const flockId = expectOk(
    await api.call('POST', '/api/v1/flocks', { token, body: { name: 'Bench sensor flock', birdType: 'broiler', hatchDate, farmId, houseId } }),
    201,
    'create flock',
  ).body.data.id as string;
  expectOk(await api.call('POST', `/api/v1/flocks/${flockId}/cycles`, { token, body: { startDate: hatchDate } }), 201, 'create cycle');
  let deviceCount = 0;
  async function newDevice(kind: 'climate' | 'multi'): Promise<{ id: string; key: string }> {
    const res = expectOk(
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
  const print = (rows: ThroughputRow[]) =>
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

  // ---- a. in process ------------------------------------------------------------------------------------------
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
  expectOk(
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

  // ---- c. the rule's function in process -----------------------------------------------------------------------
  log(`\n   c. IoT rule function (functions/iot/telemetry-rule.ts handler), one frame per invocation, ${DEVICES} devices × ${RULE_FRAMES} frames`);
  const ruleDevices = await newDevices(DEVICES);
  const ctx = { getRemainingTimeInMillis: () => 10_000, functionName: 'bench-iotTelemetryRule', awsRequestId: '' } as unknown as Context;
  const ruleInProcess = async (d: { id: string }, frames: Array<{ ts: string; metrics: Metrics }>) => {
    let accepted = 0;
    for (const f of frames) {
      const out = await telemetryRule({ farmId, deviceId: d.id, receivedAt: Date.now(), ts: f.ts, metrics: f.metrics }, { ...ctx, awsRequestId: '' });
      if (out.status !== 'done') throw new Error(`rule dropped a frame: ${out.reason}`);
      accepted += (out.result as { accepted: number }).accepted;
    }
    return accepted;
  };
  // The handler logs one JSON line per event (as in Lambda); kept off the terminal here.
  const consoleLog = console.log;
  console.log = () => {};
  let rule: ThroughputRow;
  try {
    await run('warm-up', await newDevices(1), 1, 20, ruleInProcess, { metered: false, record: false });
    rule = await run(`rule function in process, ${DEVICES} devices`, ruleDevices, 1, RULE_FRAMES, ruleInProcess, { metered: true, per: 'frame' });
  } finally {
    console.log = consoleLog;
  }
  rule.run = `${rule.run} (frames/s)`;
  print([rule]);
  log(`   per frame: DynamoDB calls ${fmtCounts(rule.calls!)}; failed calls: ${fmtCounts(rule.failedCalls!) || 'none'}`);
  log(`      in flight (% of wall time): ${fmtCounts(rule.inFlightPct!, '%')}`);

  // ---- d. write units --------------------------------------------------------------------------------------------
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

  // ---- b. over HTTP through serverless-offline ------------------------------------------------------------------
  let offline: Stack | undefined;
  if (!o.skipHttp) {
    log(`\n   b. POST /api/v1/iot/ingest through serverless-offline (${DEVICES} connections, one device each, batches of ${BATCH})`);
    log('      starting serverless offline (in-process handlers, this table, ingest limit raised)…');
    const started = performance.now();
    offline = await startBenchStack(o.env);
    const offlinePid = childPid('offline');
    log(`      offline answering after ${round((performance.now() - started) / 1000, 1)} s`);
    try {
      const base = offline.baseUrl;
      const overHttp = async (d: { key: string }, frames: Array<{ ts: string; metrics: Metrics }>) => {
        const res = await fetch(`${base}/api/v1/iot/ingest`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Device-Key': d.key },
          body: JSON.stringify({ readings: frames }),
        });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`POST /api/v1/iot/ingest: ${res.status} ${text.slice(0, 500)}`);
        return (JSON.parse(text) as { data: { accepted: number } }).data.accepted;
      };
      await run('warm-up', await newDevices(DEVICES), 2, BATCH, overHttp, { metered: false, record: false });
      const h1 = await run('HTTP via offline, 1 connection', await newDevices(1), BATCHES, BATCH, overHttp, { metered: false, appPid: offlinePid });
      const hN = await run(`HTTP via offline, ${DEVICES} connections`, await newDevices(DEVICES), BATCHES, BATCH, overHttp, {
        metered: false,
        appPid: offlinePid,
      });

      log(`      the rule function through offline's Lambda invoke endpoint (RequestResponse), ${DEVICES} devices × ${RULE_OFFLINE_FRAMES} frames`);
      const fnUrl = `${offline.lambdaUrl}/2015-03-31/functions/flockwise-${offline.stage}-iotTelemetryRule/invocations`;
      const ruleOverLambdaApi = async (d: { id: string }, frames: Array<{ ts: string; metrics: Metrics }>) => {
        let accepted = 0;
        for (const f of frames) {
          const res = await fetch(fnUrl, {
            method: 'POST',
            body: JSON.stringify({ farmId, deviceId: d.id, receivedAt: Date.now(), ts: f.ts, metrics: f.metrics }),
          });
          const text = await res.text();
          if (res.status !== 200) throw new Error(`invoke iotTelemetryRule: ${res.status} ${text.slice(0, 500)}`);
          const out = JSON.parse(text) as { status: string; result?: { accepted: number }; reason?: string };
          if (out.status !== 'done') throw new Error(`rule dropped a frame: ${out.reason ?? text.slice(0, 300)}`);
          accepted += out.result!.accepted;
        }
        return accepted;
      };
      await run('warm-up', await newDevices(1), 1, 10, ruleOverLambdaApi, { metered: false, record: false });
      const hRule = await run(
        `rule function via offline Lambda API, ${DEVICES} devices`,
        await newDevices(DEVICES),
        1,
        RULE_OFFLINE_FRAMES,
        ruleOverLambdaApi,
        {
          metered: false,
          per: 'frame',
          appPid: offlinePid,
        },
      );
      hRule.run = `${hRule.run} (frames/s)`;
      log('      over HTTP (DynamoDB calls are made in offline’s process: those of the whole route above):');
      print([h1, hN, hRule]);
    } finally {
      await offline.stop();
    }
  }

  // ---- e. read cost of a week of hourly readings ------------------------------------------------------------------
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
    const res = expectOk(await api.call('GET', `/api/v1/iot/devices/${d.id}/readings`, { token, query }), 200, 'readings');
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
  return { throughput, routeCallsPerBatch: routeCalls, readCost, notes };
}

function fmtCounts(counts: Record<string, number>, unit = ''): string {
  return Object.entries(counts)
    .map(([k, v]) => `${k} ${unit ? `${v}${unit}` : `×${v}`}`)
    .join(', ');
}
