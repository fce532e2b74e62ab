import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import type { Versioned, Write } from './commit.js';
import { isNew } from './conditions.js';
import { proposalKey, recommendationKey, recommendationsOfFarm, recommendationsOfFlock } from './keys.js';
import { pick } from './items.js';
import { queryPage } from './pagination.js';
import { Conflict } from '../errors.js';
import type { RecommendationRecord } from '../domain/recommendations/records.js';

/**
 * Optimization recommendations: `REC#<id>`/`META`, listed newest first per farm (GSI1 `RECS#<farmId>`)
 * and per flock (GSI2 `RECS#<flockId>`). System proposals also hold a `PROPOSAL#<rule>` item in their
 * cycle's partition, so one rule proposes once per cycle however often analytics run. The record is the
 * domain's (shared/domain/recommendations/records.ts).
 */
const FIELDS: readonly (keyof RecommendationRecord)[] = [
  'id',
  'farmId',
  'flockId',
  'cycleId',
  'category',
  'priority',
  'description',
  'expectedBenefit',
  'status',
  'source',
  'rule',
  'evidence',
  'decidedAt',
  'decidedBy',
  'decisionNote',
  'createdAt',
  'createdBy',
  'updatedAt',
  'version',
];

const fromItem = (item: Record<string, unknown>): RecommendationRecord => pick<RecommendationRecord>(item, FIELDS, null);

const item = (r: RecommendationRecord) => {
  const sort = `${r.createdAt}#${r.id}`;
  return {
    ...recommendationKey(r.id),
    ...recommendationsOfFarm(r.farmId),
    GSI1SK: sort,
    ...recommendationsOfFlock(r.flockId),
    GSI2SK: sort,
    type: 'Recommendation',
    ...r,
  };
};

/** A new recommendation (a create). */
export const recommendationCreate = (r: RecommendationRecord): Write => ({
  put: item(r),
  when: isNew(),
  failed: () => new Conflict('Recommendation id collision; retry'),
});

/** The guard of a system proposal: its rule proposes once per cycle (a second proposal is ProposedBefore). */
export class ProposedBefore extends Conflict {}
export const proposalGuard = (r: RecommendationRecord & { cycleId: string; rule: string }): Write => ({
  put: { ...proposalKey(r.cycleId, r.rule), type: 'Proposal', recommendationId: r.id },
  when: isNew(),
  failed: () => new ProposedBefore(`${r.rule} already proposed for cycle ${r.cycleId}`),
});

export async function getRecommendation(id: string): Promise<RecommendationRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: recommendationKey(id), ConsistentRead: true }));
  return res.Item ? fromItem(res.Item) : undefined;
}

/** Rules that already proposed for a cycle (one Query of the cycle partition's PROPOSAL# items). */
export async function proposedRules(cycleId: string): Promise<Set<string>> {
  const { PK } = proposalKey(cycleId, '');
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': PK, ':p': 'PROPOSAL#' },
      ConsistentRead: true,
    }),
  );
  return new Set((res.Items ?? []).map((i) => String(i.SK).slice('PROPOSAL#'.length)));
}

/** A decision on the recommendation read at `version` (a concurrent decision is a Conflict). */
export const decisionWrite = (next: RecommendationRecord, version: Versioned): Write => ({
  put: item(next),
  version,
  failed: () => new Conflict(`Recommendation ${next.id} was changed concurrently; read it again`),
});

export interface RecommendationFilter {
  status?: string;
  category?: string;
  source?: string;
}

/** A page of one farm's (or one flock's) recommendations, newest first; status/category/source filter the page. */
export async function listRecommendations(
  by: { farmId: string } | { flockId: string },
  filter: RecommendationFilter,
  opts: { limit: number; cursor?: string },
) {
  const [index, partition] = 'flockId' in by ? (['GSI2', recommendationsOfFlock(by.flockId)] as const) : (['GSI1', recommendationsOfFarm(by.farmId)] as const);
  const [pkName, pk] = Object.entries(partition)[0]!;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':pk': pk };
  const filters = (Object.entries(filter) as Array<[string, string | undefined]>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      names[`#${k}`] = k;
      values[`:${k}`] = v;
      return `#${k} = :${k}`;
    });
  const page = await queryPage(
    {
      IndexName: index,
      KeyConditionExpression: `${pkName} = :pk`,
      ...(filters.length ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
    },
    opts,
  );
  return { items: page.items.map(fromItem), nextCursor: page.nextCursor };
}
