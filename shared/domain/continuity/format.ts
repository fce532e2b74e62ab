import { createHash, type Hash } from 'node:crypto';

/**
 * The farm export format (docs/export-format.md), pure: JSON Lines, one record a line
 * `{"type": <record type>, "v": <schema version>, "data": {…}}`, a header first and a trailer last. A
 * record's `data` is the stored item as it is in the table (its keys included), so a restore needs no
 * per-type code beyond the id remapping below; `v` moves when a type's stored shape changes.
 */
export const EXPORT_FORMAT = 'flockwise-farm-export';
/**
 * The version written: 2 adds the deliveries booked on the farm without a cycle (`farm_movement`,
 * `farm_delivery`); 3 adds the cycles' egg lots (`egg_lot`).
 */
export const EXPORT_FORMAT_VERSION = 3;
/** The versions a restore reads: a v1 file is a v2 file without farm movements, a v2 file a v3 file without egg lots. */
export const READABLE_FORMAT_VERSIONS: readonly number[] = [1, 2, 3];
/** The schema version of every record type today. */
export const RECORD_VERSION = 1;

/** Record types, by the partition prefix and sort-key prefix of the stored item (first match wins). */
const RULES: ReadonlyArray<readonly [pk: string, sk: string, type: string]> = [
  ['FARM#', 'META', 'farm'],
  ['FARM#', 'HOUSENAME#', 'house_name'],
  ['FARM#', 'HOUSE#', 'house'],
  ['FARM#', 'STOCK#FEED#', 'feed_stock'],
  ['FARM#', 'STOCK#EGGS', 'egg_stock'],
  ['FARM#', 'STOCK#MEDICINE#', 'medicine_stock'],
  ['FARM#', 'SAMPLE#', 'sample'],
  ['FARM#', 'WITHDRAWAL#', 'withdrawal'],
  ['FARM#', 'INCIDENTDEDUP#', 'incident_dedup'],
  ['FARM#', 'ANOMALYDEDUP#', 'anomaly_dedup'],
  ['FARM#', 'RESTRICTIONS', 'restriction_flag'],
  ['FARM#', 'RESTRICTION#', 'restriction'],
  ['FARM#', 'RULES#DEFAULTS', 'default_rules_mark'],
  ['FARM#', 'DRILL#', 'drill'],
  ['FARM#', 'PRICING', 'farm_pricing'],
  ['FARM#', 'MOV#', 'farm_movement'],
  ['FARM#', 'DELIVERY#', 'farm_delivery'],
  ['FLOCK#', 'META', 'flock'],
  ['FLOCK#', 'CYCLE#', 'cycle'],
  ['FLOCK#', 'DETECTORS#', 'detector_state'],
  ['CYCLE#', 'MOV#', 'movement'],
  ['CYCLE#', 'DAY#', 'day_rollup'],
  ['CYCLE#', 'EGGLOT#', 'egg_lot'],
  ['CYCLE#', 'DAILY#', 'daily_record'],
  ['CYCLE#', 'WEIGHT#', 'weight'],
  ['CYCLE#', 'DELIVERY#', 'delivery'],
  ['CYCLE#', 'WATERQ#', 'water_reading'],
  ['CYCLE#', 'PROPOSAL#', 'proposal'],
  ['DEVICE#', 'META', 'device'],
  ['DEVICE#', 'SEEN#', 'device_claims'],
  ['DEVICE#', 'HOUR#', 'device_hour'],
  ['DEVICE#', 'DAY#', 'device_day'],
  ['BREACHES#', '', 'breach'],
  ['INCIDENT#', 'META', 'incident'],
  ['INCIDENT#', 'EVENT#', 'incident_event'],
  ['RULE#', 'META', 'rule'],
  ['RULE#', 'STATE#', 'rule_state'],
  ['ANOMALY#', 'META', 'anomaly'],
  ['SCHEDULE#', 'META', 'schedule'],
  ['SCHEDULE#', 'OCC#', 'occurrence'],
  ['PORDER#', 'META', 'purchase_order'],
  ['PORDER#', 'RECEIPT#', 'receipt'],
  ['REC#', 'META', 'recommendation'],
];
/** Sort keys matched whole (the others are prefixes). */
const EXACT_SK: ReadonlySet<string> = new Set(['META', 'STOCK#EGGS', 'RESTRICTIONS', 'RULES#DEFAULTS', 'PRICING']);
export const RECORD_TYPES: readonly string[] = [...new Set(RULES.map((r) => r[2]))];

/** The record type of a stored item of a farm, or undefined for an item the format does not carry. */
export function recordTypeOf(item: { PK?: unknown; SK?: unknown }): string | undefined {
  const pk = String(item.PK ?? '');
  const sk = String(item.SK ?? '');
  return RULES.find(([p, s]) => pk.startsWith(p) && (EXACT_SK.has(s) ? sk === s : sk.startsWith(s)))?.[2];
}

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  formatVersion: number;
  exportId: string;
  farmId: string;
  farmName: string;
  createdAt: string;
  /** The instant the verification figures (`check` records) were computed for: a restore computes its own for the same instant. */
  asOf: string;
  service: string;
}

export interface ExportTrailer {
  records: number;
  counts: Record<string, number>;
  /** sha256 (hex) of every byte before the trailer line: the header and the records, each with its newline. */
  sha256: string;
}

export type ExportLine =
  | { type: 'header'; v: number; data: ExportHeader }
  | { type: 'trailer'; v: number; data: ExportTrailer }
  | { type: string; v: number; data: Record<string, unknown> };

export const lineOf = (type: string, data: unknown): string => `${JSON.stringify({ type, v: RECORD_VERSION, data })}\n`;

/** Counts and the running checksum of an export being written (or read back). */
export class ExportDigest {
  private readonly hash: Hash = createHash('sha256');
  readonly counts: Record<string, number> = {};
  records = 0;

  /** Adds one line (header or record) to the checksum; records (not the header) to the counts. */
  add(line: string, type: string): void {
    this.hash.update(line);
    if (type === 'header') return;
    this.counts[type] = (this.counts[type] ?? 0) + 1;
    this.records += 1;
  }

  trailer(): ExportTrailer {
    return { records: this.records, counts: { ...this.counts }, sha256: this.hash.digest('hex') };
  }
}

/** Why a line is not a record of the format (undefined when it is one). `position` is 1-based. */
export function lineProblem(line: unknown, position: number, isFirst: boolean): string | undefined {
  const where = `line ${position}`;
  if (!line || typeof line !== 'object' || Array.isArray(line)) return `${where}: not a JSON object`;
  const { type, v, data } = line as Record<string, unknown>;
  const keys = Object.keys(line);
  if (keys.length !== 3 || !keys.every((k) => k === 'type' || k === 'v' || k === 'data')) return `${where}: a record has exactly type, v and data`;
  if (typeof type !== 'string') return `${where}: type is not a string`;
  if (v !== RECORD_VERSION) return `${where}: version ${String(v)} of ${type} is not supported (this service reads v${RECORD_VERSION})`;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return `${where}: data is not an object`;
  if (isFirst !== (type === 'header')) return isFirst ? `${where}: the first line must be the header` : `${where}: a second header`;
  if (type === 'header') {
    const h = data as Partial<ExportHeader>;
    if (h.format !== EXPORT_FORMAT || !READABLE_FORMAT_VERSIONS.includes(h.formatVersion as number))
      return `${where}: not a ${EXPORT_FORMAT} file of version ${READABLE_FORMAT_VERSIONS.join(' or ')}`;
    if (typeof h.farmId !== 'string' || typeof h.asOf !== 'string') return `${where}: header without farmId or asOf`;
    return undefined;
  }
  if (type === 'trailer') {
    const t = data as Partial<ExportTrailer>;
    if (typeof t.sha256 !== 'string' || typeof t.records !== 'number' || !t.counts) return `${where}: trailer without records, counts or sha256`;
    return undefined;
  }
  if (type === 'check') return undefined;
  if (!RECORD_TYPES.includes(type)) return `${where}: unknown record type ${type}`;
  const item = data as Record<string, unknown>;
  if (recordTypeOf(item) !== type) return `${where}: the item's keys are not those of a ${type}`;
  return undefined;
}

/**
 * JSON for a stored item: DynamoDB sets (the document client's `Set`) become `{"$set": [...]}` (string
 * or number members), which JSON has no other way to tell from a list; `fromJsonItem` turns them back.
 */
export function toJsonItem(value: unknown): unknown {
  if (value instanceof Set) return { $set: [...value].sort() };
  if (Array.isArray(value)) return value.map(toJsonItem);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonItem(v)]));
  return value;
}

export function fromJsonItem(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromJsonItem);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 1 && entries[0]![0] === '$set' && Array.isArray(entries[0]![1])) return new Set(entries[0]![1] as unknown[]);
    return Object.fromEntries(entries.map(([k, v]) => [k, fromJsonItem(v)]));
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------
// Id remapping

const ULID_TOKEN = /[0-9A-HJKMNP-TV-Z]{26}/g;

/** Partition prefixes whose id the farm owns, and sort-key prefixes that open with an owned id. */
const OWNED_PK = ['FARM#', 'FLOCK#', 'CYCLE#', 'DEVICE#', 'INCIDENT#', 'RULE#', 'ANOMALY#', 'SCHEDULE#', 'PORDER#', 'REC#', 'BREACHES#'];
const OWNED_SK = ['HOUSE#', 'CYCLE#', 'MOV#', 'RECEIPT#', 'EVENT#'];
const idAfter = (value: string, prefixes: readonly string[]): string | undefined => {
  const prefix = prefixes.find((p) => value.startsWith(p));
  return prefix === undefined ? undefined : value.slice(prefix.length).split('#')[0];
};

/**
 * The ids an exported item makes the farm own: the id of its partition (a farm, flock, cycle, device,
 * incident, rule, anomaly, schedule, order, recommendation) and, for the items that are entities in
 * another's partition, the id in its sort key (house, cycle, movement, receipt, timeline event, drill;
 * weighings: their last segment, a ULID or the scale's device id, itself owned; water readings: the ULID).
 * Ids an item only mentions (users, suppliers, another farm's cycles) are not the farm's and stay.
 */
export function ownedIdsOf(item: { PK?: unknown; SK?: unknown }): string[] {
  const pk = String(item.PK ?? '');
  const sk = String(item.SK ?? '');
  const ids: string[] = [];
  const fromPk = idAfter(pk, OWNED_PK);
  if (fromPk) ids.push(fromPk);
  const fromSk = idAfter(sk, OWNED_SK);
  if (fromSk) ids.push(fromSk);
  if (sk.startsWith('WEIGHT#') || sk.startsWith('WATERQ#') || sk.startsWith('DRILL#')) ids.push(sk.split('#').pop()!);
  return ids.filter((id) => id.length > 0);
}

/** A new id for an old one: a fresh ULID with the old one's time, so every list keeps its order by date. */
export type NewId = (oldId: string) => string;

/** Old id → new id, for every owned id met (each gets one new id). */
export class IdMap {
  readonly map = new Map<string, string>();
  constructor(private readonly newId: NewId) {}

  own(id: string): void {
    if (!this.map.has(id)) this.map.set(id, this.newId(id));
  }

  get size(): number {
    return this.map.size;
  }

  /** A string with every owned id in it replaced (ids inside keys such as `CYCLE#<id>`, `flock:<id>`, `<date>#<id>`). */
  string(value: string): string {
    const exact = this.map.get(value);
    if (exact !== undefined) return exact;
    if (value.length < 26) return value;
    return value.replace(ULID_TOKEN, (token) => this.map.get(token) ?? token);
  }

  /** A deep copy of a value with every owned id replaced, in keys of maps as well as in values. */
  value<T>(value: T): T {
    if (typeof value === 'string') return this.string(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.value(v)) as T;
    if (value instanceof Set) return new Set([...value].map((v) => this.value(v))) as T;
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [this.string(k), this.value(v)])) as T;
    }
    return value;
  }
}

// ---------------------------------------------------------------------------------------------------
// Verification figures

/**
 * A figure with what may differ between two farms holding the same data taken away: the farm's own
 * name and the bookkeeping of the items themselves. Numbers are rounded to 9 significant digits (the
 * sums of a restore add the same terms, but floating-point sums may differ in the last bit).
 */
const IGNORED = new Set(['asOf', 'farmName']);
export function comparable(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? Number(value.toPrecision(9)) : value;
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => !IGNORED.has(k))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, comparable(v)]),
    );
  }
  return value;
}

/** The paths where two figures differ (at most `max`), empty when they are equal. */
export function differences(expected: unknown, actual: unknown, path = '', max = 10, out: string[] = []): string[] {
  if (out.length >= max) return out;
  if (expected && actual && typeof expected === 'object' && typeof actual === 'object' && Array.isArray(expected) === Array.isArray(actual)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const k of keys) differences((expected as Record<string, unknown>)[k], (actual as Record<string, unknown>)[k], path ? `${path}.${k}` : k, max, out);
    return out;
  }
  if (JSON.stringify(expected) !== JSON.stringify(actual)) out.push(`${path || '(root)'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  return out;
}
