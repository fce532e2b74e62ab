/**
 * `npm run bench:continuity`: a farm
 * of BENCH_CONTINUITY_FLOCKS (20) flocks, each with a cycle of BENCH_CONTINUITY_MOVEMENTS (5,000)
 * movements, exported and restored through the real use cases (the worker's code) against an in-memory
 * DynamoDB Local; prints the export and restore times, items/s and the process's peak memory (RSS and
 * heap, sampled every 50 ms). Figures are recorded in docs/performance.md, "Continuity".
 * Seeding: flocks and cycles through the services, one movement each through the ledger, then clones of
 * that movement (new ids) written straight to the table: the export reads items, whatever wrote them.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulidx';
import { freePort, localClient, startLocalDynamo } from '../scripts/lib/local-dynamodb.js';
import { ensureTable } from '../scripts/lib/table.js';
import { serviceEnv } from './lib/bench-db.js';

const FLOCKS = Number(process.env.BENCH_CONTINUITY_FLOCKS ?? 20);
const MOVEMENTS = Number(process.env.BENCH_CONTINUITY_MOVEMENTS ?? 5000);
const log = (s: string) => console.log(s);

const dynamo = await startLocalDynamo({ port: await freePort(), inMemory: true });
// Seeding writes movements, which start the alarms with an asynchronous Lambda Invoke: a stand-in that
// accepts every invocation (202) and runs nothing, so the figures are the export's and restore's only.
const lambdaStandIn = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.statusCode = 202;
    res.end();
  });
}).listen(0, '127.0.0.1');
await once(lambdaStandIn, 'listening');
const tableName = `bench-${randomBytes(4).toString('hex')}`;
Object.assign(process.env, {
  ...serviceEnv(dynamo.endpoint, tableName),
  EXPORT_DIR: `${process.env.TMPDIR ?? '/tmp'}/flockwise-bench-exports`,
  LAMBDA_ENDPOINT: `http://127.0.0.1:${(lambdaStandIn.address() as AddressInfo).port}`, // the bench calls the worker's code itself
});

try {
  const client = localClient(dynamo.endpoint);
  await ensureTable(client, tableName);
  client.destroy();
  const { db } = await import('../shared/db/client.js');
  const { systemCaller } = await import('../shared/domain/caller.js');
  const { commandContext } = await import('../shared/domain/command.js');
  const { ALL_CAPABILITIES } = await import('../shared/domain/capabilities.js');
  const { ensureDefaultFarm } = await import('../shared/db/farms.js');
  const { createFlockFor } = await import('../shared/services/flocks/flocks.js');
  const { startCycle } = await import('../shared/services/flocks/cycles.js');
  const { recordMovement } = await import('../shared/services/movements/record-movement.js');
  const { exportCreate, getExport, getRestore, partitionItems, restoreCreate } = await import('../shared/db/continuity.js');
  const { commit } = await import('../shared/db/commit.js');
  const { runExport } = await import('../shared/services/continuity/exports.js');
  const { runRestore } = await import('../shared/services/continuity/restores.js');
  const { decideExportRequest, decideRestoreRequest } = await import('../shared/domain/continuity/jobs.js');

  const admin = systemCaller('bench', ALL_CAPABILITIES, 'all');
  const { id: farmId } = await ensureDefaultFarm('Bench farm');
  const start = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const seeded = performance.now();
  for (let f = 0; f < FLOCKS; f++) {
    const flock = (
      await createFlockFor(commandContext(admin, { requestId: 'bench' }), { name: `Bench flock ${f}`, birdType: 'broiler', farmId, hatchDate: start })
    ).data as { id: string };
    const cycle = (await startCycle(commandContext(admin, { requestId: 'bench' }), flock.id, { startDate: start })).data as { id: string };
    await recordMovement(commandContext(admin), flock.id, cycle.id, { type: 'bird_inflow', date: start, quantity: 100_000 } as never);
    let template: Record<string, unknown> | undefined;
    for await (const item of partitionItems(`CYCLE#${cycle.id}`)) if (String(item.SK).startsWith('MOV#')) template = item;
    const clones: Record<string, unknown>[] = [];
    for (let m = 1; m < MOVEMENTS; m++) {
      const id = ulid();
      const date = new Date(Date.parse(start) + (m % 28) * 86_400_000).toISOString().slice(0, 10);
      clones.push({ ...template, SK: `MOV#${id}`, id, date, GSI1SK: `${date}#${id}`, GSI2SK: `${date}#${id}` });
    }
    for (let i = 0; i < clones.length; i += 25)
      await db().send(new BatchWriteCommand({ RequestItems: { [tableName]: clones.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }
  log(`seeded ${FLOCKS} flocks × ${MOVEMENTS} movements in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

  // peak memory, sampled
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 50);
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;

  const now = new Date();
  const farm = { id: farmId, name: 'Bench farm' };
  const { job } = decideExportRequest(admin, farm, { storage: 'local', now, notFound: () => new Error(`no farm ${farmId}`) });
  const exportId = job.id;
  const ctx = commandContext(admin);
  await commit(ctx, { writes: [exportCreate(job)] });
  sample();
  const rssBefore = process.memoryUsage().rss;
  let t = performance.now();
  await runExport(ctx, exportId);
  const exportMs = performance.now() - t;
  const e = (await getExport(exportId))!;
  if (e.status !== 'completed') throw new Error(`export ${e.status}: ${e.error}`);
  const exportPeak = { rss: peakRss, heap: peakHeap };
  log(
    `export: ${e.records} records, ${mb(e.bytes ?? 0)} in ${(exportMs / 1000).toFixed(1)} s = ${Math.round((e.records ?? 0) / (exportMs / 1000))} items/s; ` +
      `peak RSS ${mb(exportPeak.rss)} (before ${mb(rssBefore)}), peak heap ${mb(exportPeak.heap)}`,
  );

  const { job: restore } = decideRestoreRequest({ ...admin, allFarms: true }, e, 'Bench farm (restored)', { maxFarms: Number.POSITIVE_INFINITY, now });
  const restoreId = restore.id;
  await commit(ctx, { writes: [restoreCreate(restore)] });
  peakRss = 0;
  peakHeap = 0;
  t = performance.now();
  await runRestore(ctx, restoreId);
  const restoreMs = performance.now() - t;
  clearInterval(timer);
  sample();
  const r = (await getRestore(restoreId))!;
  if (r.status !== 'completed') throw new Error(`restore ${r.status}: ${r.error}`);
  log(
    `restore: ${r.records} records in ${(restoreMs / 1000).toFixed(1)} s = ${Math.round((r.records ?? 0) / (restoreMs / 1000))} items/s; ` +
      `${r.checks?.compared} figures compared, 0 mismatches; peak RSS ${mb(peakRss)}, peak heap ${mb(peakHeap)}`,
  );
} finally {
  lambdaStandIn.close();
  await dynamo.stop();
}
