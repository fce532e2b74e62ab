import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, queryAll, tableName } from './client.js';
import { dayFromItem } from './analytics.js';
import { cycleFromItem } from './cycles.js';
import type { CycleRecord } from '../domain/flocks/records.js';
import { activeFlocksOfFarm, type FlockSummary } from './inventory.js';
import {
  analyticsConfigKey,
  cycleKey,
  cyclePartition,
  dailyRecordKey,
  dayRollupKey,
  DAY_SK_PREFIX,
  farmKey,
  farmPartition,
  gsi1,
  WITHDRAWAL_SK_PREFIX,
} from './keys.js';
import type { DayTotals } from '../domain/analytics/inputs.js';
import type { AnalyticsSections } from '../../schemas/analytics-config.js';

/**
 * The dashboard's reads. A farm's day costs one Query (its active flocks) and one BatchGetItem of the farm,
 * the analytics configuration, each active cycle, its rollups of today and yesterday and today's daily
 * form (chunks of 100 keys: one call up to 24 active flocks). Running withdrawals are one range Query.
 */
export interface FarmDay {
  farmExists: boolean;
  /** The farm's time zone (UTC when unknown). */
  timeZone: string;
  storedConfig: Partial<AnalyticsSections> | undefined;
  flocks: Array<{ flock: FlockSummary; cycle: CycleRecord | null; today: DayTotals | null; yesterday: DayTotals | null; dailyRecordToday: boolean }>;
}

export async function readFarmDay(farmId: string, today: string, yesterday: string): Promise<FarmDay> {
  const flocks = await activeFlocksOfFarm(farmId);
  const withCycle = flocks.filter((f) => f.activeCycleId);
  const keys = [
    farmKey(farmId),
    analyticsConfigKey(),
    ...withCycle.flatMap((f) => [
      cycleKey(f.id, f.activeCycleId!),
      dayRollupKey(f.activeCycleId!, today),
      dayRollupKey(f.activeCycleId!, yesterday),
      dailyRecordKey(f.activeCycleId!, today),
    ]),
  ];
  const items = await batchGet(keys, { consistent: true });
  const byKey = new Map(items.map((i) => [`${i.PK}|${i.SK}`, i]));
  const at = (k: { PK: string; SK: string }) => byKey.get(`${k.PK}|${k.SK}`);
  const farm = at(farmKey(farmId));
  return {
    farmExists: farm !== undefined,
    timeZone: typeof farm?.timezone === 'string' ? farm.timezone : 'UTC',
    storedConfig: at(analyticsConfigKey())?.config as Partial<AnalyticsSections> | undefined,
    flocks: flocks.map((flock) => {
      const id = flock.activeCycleId;
      if (!id) return { flock, cycle: null, today: null, yesterday: null, dailyRecordToday: false };
      const day = (date: string) => {
        const item = at(dayRollupKey(id, date));
        return item ? dayFromItem(item) : null;
      };
      return {
        flock,
        cycle: cycleFromItem(at(cycleKey(flock.id, id))) ?? null,
        today: day(today),
        yesterday: day(yesterday),
        dailyRecordToday: at(dailyRecordKey(id, today)) !== undefined,
      };
    }),
  };
}

/**
 * The last day birds left a cycle (a death, cull, sale or transfer out on its day's rollup): the day an emptied
 * flock's house became empty. One Query of the cycle's day rollups, newest first, the first page only (a
 * cycle's rollups fit in it); null when none is found there.
 */
export async function lastBirdsOutOn(cycleId: string): Promise<string | null> {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :day)',
      FilterExpression: 'deaths > :zero OR culls > :zero OR sold > :zero OR transferredOut > :zero',
      ProjectionExpression: 'SK',
      ExpressionAttributeValues: { ':pk': cyclePartition(cycleId), ':day': DAY_SK_PREFIX, ':zero': 0 },
      ScanIndexForward: false,
      ConsistentRead: true,
    }),
  );
  const sk = res.Items?.[0]?.SK;
  return typeof sk === 'string' ? sk.slice(DAY_SK_PREFIX.length) : null;
}

export interface Withdrawal {
  movementId: string;
  flockId: string;
  cycleId: string;
  product: string | null;
  date: string;
  endDate: string;
  withdrawalDays: number;
}

/** Medications whose withdrawal period runs today or later (kept by the ledger under WITHDRAWAL#<end date>#<id>). */
export async function runningWithdrawals(farmId: string, today: string): Promise<Withdrawal[]> {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': farmPartition(farmId), ':from': `${WITHDRAWAL_SK_PREFIX}${today}`, ':to': `${WITHDRAWAL_SK_PREFIX}~` },
      ConsistentRead: true,
    }),
  );
  return (res.Items ?? []).map((i) => ({
    movementId: String(i.movementId),
    flockId: String(i.flockId),
    cycleId: String(i.cycleId),
    product: (i.product as string | null) ?? null,
    date: String(i.date),
    endDate: String(i.endDate),
    withdrawalDays: Number(i.withdrawalDays),
  }));
}

/** Users by role and state (admin dashboard): the USERS index with only those attributes projected. */
export async function userCounts(): Promise<{ total: number; byRole: Record<string, number>; locked: number; unverified: number }> {
  const users = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ProjectionExpression: '#role, locked, verified',
    ExpressionAttributeNames: { '#role': 'role' },
    ExpressionAttributeValues: { ':pk': gsi1.users.GSI1PK },
  });
  const byRole: Record<string, number> = {};
  for (const u of users) byRole[String(u.role)] = (byRole[String(u.role)] ?? 0) + 1;
  return { total: users.length, byRole, locked: users.filter((u) => u.locked === true).length, unverified: users.filter((u) => u.verified === false).length };
}
