/**
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
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { round, unionLength } from '../stats.js';

export const KB = 1024;

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

export const keyString = (k: Record<string, unknown>) => `${String(k.PK)}|${String(k.SK)}`;

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
export async function writeUnits(
  meter: Meter,
  readings: number,
  fetchItems: (keys: string[]) => Promise<Map<string, Record<string, unknown>>>,
): Promise<WriteUnits> {
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
