import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import type { Versioned, Write } from './commit.js';
import { isNew } from './conditions.js';
import { ANALYTICS_CONFIG_HISTORY_PARTITION, analyticsConfigKey, analyticsConfigVersionKey } from './keys.js';
import { queryPage } from './pagination.js';
import type { AnalyticsConfigVersion } from '../domain/analytics/config.js';
import type { AppError } from '../errors.js';
import type { AnalyticsSections } from '../../schemas/analytics-config.js';

/**
 * The analytics configuration: the version in force (`CONFIG`/`ANALYTICS`) and, written in the same
 * transaction, an immutable copy of every version (`CONFIG#ANALYTICS`/`V#<version>`) for the history.
 * No item at all means "the defaults" (version 0).
 */
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

/**
 * The writes of a new configuration version `next.version`: the version in force, on the condition that
 * the stored one is still the version read (`version`; none stored yet: a new item), and its history copy
 * (new); either condition failing is `failed`.
 */
export function analyticsConfigWrites(next: AnalyticsConfigVersion, version: Versioned, failed: () => AppError): Write[] {
  const first = version.read === 0;
  return [
    { put: { ...analyticsConfigKey(), type: 'AnalyticsConfig', ...next }, ...(first ? { when: isNew() } : { version }), failed },
    { put: { ...analyticsConfigVersionKey(next.version), type: 'AnalyticsConfigVersion', ...next }, when: isNew(), failed },
  ];
}

/** Versions, newest first. */
export async function listAnalyticsConfigVersions(opts: { limit: number; cursor?: string }) {
  const page = await queryPage(
    { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': ANALYTICS_CONFIG_HISTORY_PARTITION }, ScanIndexForward: false },
    opts,
  );
  return { items: page.items.map(fromItem), nextCursor: page.nextCursor };
}
