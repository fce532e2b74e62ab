/**
 * Section 1b: the DynamoDB floor of the cycle summary route, its calls alone (the data GetItem, the user
 * load's BatchGetItem, the limiter's UpdateItem) sent raw on the service's client, chained as the stack
 * chains them, so the ratios of section 1 can be read against what DynamoDB Local itself takes.
 */
import { BatchGetCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client.js';
import { cycleKey, rateLimitKey, revokedTokenKey, userKey } from '../../shared/db/keys.js';
import { round, summarize } from '../lib/stats.js';
import type { Fixtures } from './fixtures.js';
import { ITERATIONS, WARMUP, log } from './settings.js';

export async function measureDbFloor({ adminId, claims, main }: Fixtures) {
  log(`\n   The DynamoDB calls of the summary route alone (same keys and client, no HTTP, no middleware CPU; ${ITERATIONS} each, alternating):`);
  const T = tableName();
  const rawGet = () => db().send(new GetCommand({ TableName: T, Key: cycleKey(main.flockId, main.cycleId), ConsistentRead: true }));
  const rawUserLoad = () =>
    db().send(new BatchGetCommand({ RequestItems: { [T]: { Keys: [userKey(adminId), revokedTokenKey(claims.jti)], ConsistentRead: true } } }));
  const rawLimiter = () => {
    const now = Math.floor(Date.now() / 1000);
    return db().send(
      new UpdateCommand({
        TableName: T,
        Key: rateLimitKey('general', 'ip:10.9.9.9', now - (now % 900)),
        UpdateExpression: 'ADD hits :one SET expiresAt = if_not_exists(expiresAt, :exp)',
        ExpressionAttributeValues: { ':one': 1, ':exp': now + 960 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
  };
  const chains: Array<[string, () => Promise<unknown>]> = [
    ['GetItem (the data read: what the bare handler waits for)', rawGet],
    [
      'UpdateItem → BatchGetItem → GetItem (the stack before: limiter awaited first)',
      async () => {
        await rawLimiter();
        await rawUserLoad();
        await rawGet();
      },
    ],
    [
      'UpdateItem ‖ BatchGetItem → GetItem (the stack now)',
      async () => {
        await Promise.all([rawLimiter(), rawUserLoad()]);
        await rawGet();
      },
    ],
    [
      'BatchGetItem → GetItem (no limiter write at all)',
      async () => {
        await rawUserLoad();
        await rawGet();
      },
    ],
  ];
  const chainSamples = chains.map(() => [] as number[]);
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    for (const [k, [, run]] of chains.entries()) {
      const t = performance.now();
      await run();
      if (i >= WARMUP) chainSamples[k]!.push(performance.now() - t);
    }
  }
  const floorBase = summarize(chainSamples[0]!);
  const dbFloor = chains.map(([chain], k) => {
    const sm = summarize(chainSamples[k]!);
    return { chain, ...sm, ratioToGetItem: round(sm.meanUs / floorBase.meanUs) };
  });
  console.table(dbFloor.map((r) => ({ chain: r.chain, 'mean µs': r.meanUs, 'p50 µs': r.p50Us, 'p95 µs': r.p95Us, '÷ GetItem': r.ratioToGetItem })));
  return dbFloor;
}
