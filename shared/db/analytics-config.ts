import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, transact, type TransactItem } from './client.js';
import { ANALYTICS_CONFIG_HISTORY_PARTITION, analyticsConfigKey, analyticsConfigVersionKey } from './keys.js';
import { queryPage } from './pagination.js';
import { Conflict, type AppError } from '../errors.js';
import type { AnalyticsSections } from '../../schemas/analytics-config.js';

/**
 * The analytics configuration: the version in force (`CONFIG`/`ANALYTICS`) and, written in the same
 * transaction, an immutable copy of every version (`CONFIG#ANALYTICS`/`V#<version>`) for the history.
 * No item at all means "the defaults" (version 0).
 */
export interface AnalyticsConfigVersion {
  config: AnalyticsSections;
  version: number;
  changedSections: string[];
  updatedAt: string;
  updatedBy: string | null;
  requestId: string | null;
}

const fromItem = (item: Record<string, unknown>): AnalyticsConfigVersion => ({
  config: item.config as AnalyticsSections,
  version: item.version as number,
  changedSections: (item.changedSections as string[] | undefined) ?? [],
  updatedAt: item.updatedAt as string,
  updatedBy: (item.updatedBy as string | null | undefined) ?? null,
  requestId: (item.requestId as string | null | undefined) ?? null,
});

export async function getStoredAnalyticsConfig(): Promise<AnalyticsConfigVersion | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: analyticsConfigKey(), ConsistentRead: true }));
  return res.Item ? fromItem(res.Item) : undefined;
}

/** Writes version `next.version`, on the condition that the stored one is still `next.version − 1` (0: none stored). */
export async function saveAnalyticsConfig(next: AnalyticsConfigVersion, extra: TransactItem[], onConflict: () => AppError): Promise<void> {
  const T = tableName();
  const previous = next.version - 1;
  await transact(
    [
      {
        Put: {
          TableName: T,
          Item: { ...analyticsConfigKey(), type: 'AnalyticsConfig', ...next },
          ...(previous === 0
            ? { ConditionExpression: 'attribute_not_exists(PK)' }
            : { ConditionExpression: 'version = :previous', ExpressionAttributeValues: { ':previous': previous } }),
        },
      },
      {
        Put: {
          TableName: T,
          Item: { ...analyticsConfigVersionKey(next.version), type: 'AnalyticsConfigVersion', ...next },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      ...extra,
    ],
    (index) => (index <= 1 ? onConflict() : new Conflict('analytics configuration changed concurrently')),
  );
}

/** Versions, newest first. */
export async function listAnalyticsConfigVersions(opts: { limit: number; cursor?: string }) {
  const page = await queryPage(
    { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': ANALYTICS_CONFIG_HISTORY_PARTITION }, ScanIndexForward: false },
    opts,
  );
  return { items: page.items.map(fromItem), nextCursor: page.nextCursor };
}
