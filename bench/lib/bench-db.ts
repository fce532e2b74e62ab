/**
 * The database of a bench run: its own in-memory DynamoDB Local on a free port and a table of its own,
 * with the environment every handler reads set in this process (every RATE_LIMIT_*_MAX raised, so the
 * limiter counts but never refuses). Set BEFORE any handler (or anything importing one) is loaded.
 */
import { randomBytes } from 'node:crypto';
import { freePort, localClient, startLocalDynamo, type LocalDynamo } from '../../scripts/lib/local-dynamodb.js';
import { ensureTable } from '../../scripts/lib/table.js';

export interface BenchDb {
  dynamo: LocalDynamo;
  tableName: string;
  /** What the handlers read (also handed to the local stack and to the bundles' init runs). */
  benchEnv: Record<string, string>;
}

/** What the service needs to run against a bench's table: stage `bench`, the table, the endpoint, a token secret, no request logs. */
export const serviceEnv = (endpoint: string, tableName: string) => ({
  STAGE: 'bench',
  TABLE_NAME: tableName,
  DYNAMODB_ENDPOINT: endpoint,
  JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
  LOG_REQUESTS: 'false',
  AWS_REGION: 'eu-west-1',
});

export async function startBenchDb(log: (s: string) => void, what = 'flockwise bench'): Promise<BenchDb> {
  log(`${what}: starting DynamoDB Local (in memory)…`);
  const dynamo = await startLocalDynamo({ port: await freePort(), inMemory: true });
  const tableName = `bench-${randomBytes(4).toString('hex')}`;
  const benchEnv = {
    ...serviceEnv(dynamo.endpoint, tableName),
    RATE_LIMIT_GENERAL_MAX: '1000000000',
    RATE_LIMIT_AUTH_MAX: '1000000000',
    RATE_LIMIT_READ_MAX: '1000000000',
    RATE_LIMIT_DATE_MAX: '1000000000',
    RATE_LIMIT_INGEST_MAX: '1000000000',
  };
  Object.assign(process.env, benchEnv);
  return { dynamo, tableName, benchEnv };
}

export async function createBenchTable({ dynamo, tableName }: BenchDb): Promise<void> {
  const admin = localClient(dynamo.endpoint);
  await ensureTable(admin, tableName);
  admin.destroy();
}

/**
 * Everything a run starts is stopped at its end (the caller's `finally`), on an error, and on Ctrl-C /
 * SIGTERM; DynamoDB Local's JVM is killed if the process exits without that.
 */
export function stopOnSignals(dynamo: LocalDynamo, stopAll: () => Promise<void>, what: string, log: (s: string) => void): void {
  process.once('exit', () => {
    if (dynamo.process.exitCode === null) dynamo.process.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`\n${signal}: stopping ${what}…`);
      void stopAll().finally(() => process.exit(130));
    });
  }
}
