import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SampleRecord } from '../domain/compliance/samples.js';
import type { WithdrawalWindow } from '../domain/compliance/withdrawals.js';
import { db, queryAll, tableName } from './client.js';
import type { Write } from './commit.js';
import { isNew } from './conditions.js';
import { pick } from './items.js';
import { queryPage } from './pagination.js';
import { cycleKey, farmPartition, SAMPLE_SK_PREFIX, sampleKey, samplesOfFlockPrefix, WITHDRAWAL_SK_PREFIX } from './keys.js';
import { WITHDRAWAL_REV } from './movements.js';
import { Conflict } from '../errors.js';

/**
 * Compliance (docs/data-model.md, "Compliance"): the withdrawal windows the ledger keeps beside each
 * medication (`FARM#<id>` / `WITHDRAWAL#<last day>#<movementId>`) and the farm's Salmonella samples
 * (`FARM#<id>` / `SAMPLE#<flockId>#<date>#<id>`). Nothing here has a TTL.
 */

function windowFromItem(i: Record<string, unknown>): WithdrawalWindow {
  const date = String(i.date);
  return {
    movementId: String(i.movementId),
    farmId: String(i.farmId),
    flockId: String(i.flockId),
    cycleId: String(i.cycleId),
    product: (i.product as string | null) ?? null,
    date,
    treatmentDays: Number(i.treatmentDays ?? 1),
    treatmentEnd: String(i.treatmentEnd ?? date),
    withdrawalDays: Number(i.withdrawalDays),
    // windows copied before meat and eggs had their own periods: one period for both
    eggWithdrawalDays: Number(i.eggWithdrawalDays ?? i.withdrawalDays),
    meatEndDate: i.meatEndDate === undefined ? String(i.endDate) : ((i.meatEndDate as string | null) ?? null),
    eggEndDate: i.eggEndDate === undefined ? String(i.endDate) : ((i.eggEndDate as string | null) ?? null),
    endDate: String(i.endDate),
  };
}

/** A farm's withdrawal windows whose last restricted day is `from` or later (all of them without `from`), by last day. */
export async function withdrawalWindows(farmId: string, opts: { from?: string; cycleId?: string } = {}): Promise<WithdrawalWindow[]> {
  const values: Record<string, unknown> = {
    ':pk': farmPartition(farmId),
    ':from': `${WITHDRAWAL_SK_PREFIX}${opts.from ?? ''}`,
    ':to': `${WITHDRAWAL_SK_PREFIX}~`,
  };
  if (opts.cycleId) values[':cycle'] = opts.cycleId;
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ...(opts.cycleId ? { FilterExpression: 'cycleId = :cycle' } : {}),
    ExpressionAttributeValues: values,
    ConsistentRead: true,
  });
  return items.map(windowFromItem);
}

/**
 * One page of a farm's partition between two sort keys (a list of windows or samples), `flockId` as a
 * filter (a filtered page may hold fewer than `limit` items while `nextCursor` is set). The cursor is bound
 * to the farm, the list (`prefix`, `list`) and the flock, not to `lower`: one below `lower` (a window list
 * whose today moved on since) reads from `lower`, which is where it would go on anyway.
 */
async function farmPage(
  farmId: string,
  range: { prefix: string; lower: string; upper: string; list: string },
  opts: { flockId?: string; limit: number; cursor?: string },
): Promise<{ items: Record<string, unknown>[]; nextCursor: string | null }> {
  const pk = farmPartition(farmId);
  return queryPage(
    {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ...(opts.flockId ? { FilterExpression: 'flockId = :flock' } : {}),
      ExpressionAttributeValues: { ':pk': pk, ':from': range.lower, ':to': range.upper, ...(opts.flockId ? { ':flock': opts.flockId } : {}) },
      ConsistentRead: true,
    },
    opts,
    { list: [pk, range.list, range.prefix, range.upper, opts.flockId ?? null], resume: (key) => ((key.SK as string) < range.lower ? undefined : key) },
  );
}

/** A page of a farm's withdrawal windows (of one flock), by last restricted day, those ending on `from` or later only when given. */
export async function withdrawalWindowsPage(
  farmId: string,
  opts: { from?: string; flockId?: string; limit: number; cursor?: string },
): Promise<{ items: WithdrawalWindow[]; nextCursor: string | null }> {
  const range = {
    prefix: WITHDRAWAL_SK_PREFIX,
    lower: `${WITHDRAWAL_SK_PREFIX}${opts.from ?? ''}`,
    upper: `${WITHDRAWAL_SK_PREFIX}~`,
    list: opts.from === undefined ? 'withdrawals' : 'withdrawals from today',
  };
  const page = await farmPage(farmId, range, opts);
  return { items: page.items.map(windowFromItem), nextCursor: page.nextCursor };
}

/**
 * What a sale is checked against: the cycle's withdrawal revision, read FIRST, then the cycle's windows
 * ending on the sale date or later. The sale's transaction conditions on that revision, so a medication
 * committed after this read (which bumps it) cancels the sale instead of slipping past the check.
 */
export async function withdrawalGuardOf(
  ref: { farmId: string; flockId: string; cycleId: string },
  date: string,
): Promise<{ withdrawalRev: number; windows: WithdrawalWindow[] }> {
  const res = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: cycleKey(ref.flockId, ref.cycleId),
      ConsistentRead: true,
      ProjectionExpression: '#r',
      ExpressionAttributeNames: { '#r': WITHDRAWAL_REV },
    }),
  );
  const withdrawalRev = Number(res.Item?.[WITHDRAWAL_REV] ?? 0);
  return { withdrawalRev, windows: await withdrawalWindows(ref.farmId, { from: date, cycleId: ref.cycleId }) };
}

// ---------------------------------------------------------------------------------------------------
// Salmonella samples

const SAMPLE_FIELDS = [
  'id',
  'farmId',
  'flockId',
  'cycleId',
  'date',
  'kind',
  'laboratory',
  'result',
  'notes',
  'createdAt',
  'createdBy',
  'version',
] as const satisfies readonly (keyof SampleRecord)[];
const sampleFromItem = (i: Record<string, unknown>) => pick<SampleRecord>(i, SAMPLE_FIELDS, null);

/** A new sample (never over another). */
export function sampleCreate(s: SampleRecord): Write {
  return {
    put: { ...sampleKey(s.farmId, s.flockId, s.date, s.id), entity: 'SalmonellaSample', ...s },
    when: isNew(),
    failed: () => new Conflict(`Sample ${s.id} already exists`),
  };
}

/** A page of a farm's samples (or one flock's), by flock then date. */
export async function samplesPage(
  farmId: string,
  opts: { flockId?: string; limit: number; cursor?: string },
): Promise<{ items: SampleRecord[]; nextCursor: string | null }> {
  const prefix = opts.flockId ? samplesOfFlockPrefix(opts.flockId) : SAMPLE_SK_PREFIX;
  // the flock is in the sort key: its samples are one range, no filter needed
  const page = await farmPage(farmId, { prefix, lower: prefix, upper: `${prefix}~`, list: 'samples' }, { limit: opts.limit, cursor: opts.cursor });
  return { items: page.items.map(sampleFromItem), nextCursor: page.nextCursor };
}

/** A farm's samples (or one flock's), by flock then date. */
export async function listSamples(farmId: string, flockId?: string): Promise<SampleRecord[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
    ExpressionAttributeValues: { ':pk': farmPartition(farmId), ':p': flockId ? samplesOfFlockPrefix(flockId) : SAMPLE_SK_PREFIX },
    ConsistentRead: true,
  });
  return items.map(sampleFromItem);
}
