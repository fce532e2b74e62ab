/**
 * Eggs recorded before lots existed, through the real middleware and DynamoDB Local: they had no lots, so
 * they could not be sold. The migration (`npm run migrate:egg-lots`) rebuilds each cycle's lots from its
 * egg history: after it the lots hold exactly the cycle's egg stock, the older eggs sell oldest first, a
 * second run (or two at once) writes nothing more. A restore of a v2 file (no `egg_lot` records) does the
 * same for the restored cycle.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { db, tableName } from '../../shared/db/client.js';
import { eggLotsOnHand } from '../../shared/db/movements.js';
import { localExportPath } from '../../shared/aws/export-store.js';
import { commandContext } from '../../shared/domain/command.js';
import { systemCaller } from '../../shared/domain/caller.js';
import { backfillAllEggLots } from '../../shared/services/movements/egg-lot-backfill.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function layerFarm(name: string) {
  const farmId = await otherFarm(name);
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  const token = manager.token;
  const c = await flockWithCycle({ token, farmId, birdType: 'layer', startDate: day(-20) });
  await c.move({ type: 'bird_inflow', date: day(-20), quantity: 5000 });
  const post = (body: Json) => call('POST', `${c.base}/movements`, { token, body });
  const stock = async () => (await call('GET', '/api/v1/inventory/stock', { token, query: { farmId } })).body.data.eggs as Json;
  const movements = async (type: string) => (await call('GET', `${c.base}/movements`, { token, query: { type } })).body.data as Json[];
  return { farmId, token, cycleId: c.cycle.id as string, flockId: c.flock.id as string, move: c.move, post, stock, movements };
}

/** The cycle as it was stored before lots existed: no lot items, no `fromLots` on its sales and losses. */
async function asBeforeLots(cycleId: string) {
  const items = (
    await db().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `CYCLE#${cycleId}` } }))
  ).Items!;
  for (const i of items) {
    const key = { PK: i.PK, SK: i.SK };
    if (String(i.SK).startsWith('EGGLOT#')) await db().send(new DeleteCommand({ TableName: tableName(), Key: key }));
    else if (i.fields?.fromLots)
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'REMOVE #f.#l',
          ExpressionAttributeNames: { '#f': 'fields', '#l': 'fromLots' },
        }),
      );
  }
}

const inLots = async (cycleId: string) => (await eggLotsOnHand(cycleId)).reduce((a, l) => a + l.count, 0);
const migrate = (farmId: string) => backfillAllEggLots(commandContext(systemCaller('migrate-egg-lots', [], 'all')), [farmId], () => {});

describe('egg lots for eggs recorded before lots existed', () => {
  it('the migration gives older eggs their lots: the lots hold the egg stock, the eggs sell oldest first, a second run changes nothing', async () => {
    const f = await layerFarm('Eggs before lots');
    await f.move({ type: 'egg_collection', date: day(-6), totalEggs: 1000, grades: { L: 400 } });
    await f.move({ type: 'egg_collection', date: day(-5), totalEggs: 800 });
    await f.move({ type: 'egg_sale', date: day(-4), quantity: 300 });
    await f.move({ type: 'egg_loss', date: day(-3), quantity: 100 });
    await asBeforeLots(f.cycleId);
    // recorded since: a collection that has its lot
    await f.move({ type: 'egg_collection', date: day(-1), totalEggs: 500 });
    expect((await f.stock()).count).toBe(1900);
    expect(await inLots(f.cycleId)).toBe(500);
    const before = await f.post({ type: 'egg_sale', date: day(0), quantity: 600 });
    expect(before.status).toBe(409); // the older eggs cannot be sold: no lot holds them

    const run = await migrate(f.farmId);
    expect(run).toEqual({ cycles: 1, changed: 1, failed: 0 });
    expect(await inLots(f.cycleId)).toBe((await f.stock()).count);
    expect(await eggLotsOnHand(f.cycleId)).toEqual([
      { laidOn: day(-6), count: 600, ungraded: 200, graded: { L: 400 } },
      { laidOn: day(-5), count: 800, ungraded: 800, graded: {} },
      { laidOn: day(-1), count: 500, ungraded: 500, graded: {} },
    ]);
    // the older sale and loss now name the lots they drew (oldest first at their date)
    expect((await f.movements('egg_sale'))[0]!.fromLots).toEqual([{ laidOn: day(-6), quantity: 300 }]);
    expect((await f.movements('egg_loss'))[0]!.fromLots).toEqual([{ laidOn: day(-6), quantity: 100 }]);
    // a second run, and two at once, write nothing more
    expect(await migrate(f.farmId)).toEqual({ cycles: 1, changed: 0, failed: 0 });
    expect(await Promise.all([migrate(f.farmId), migrate(f.farmId)])).toEqual([
      { cycles: 1, changed: 0, failed: 0 },
      { cycles: 1, changed: 0, failed: 0 },
    ]);
    // every egg of the stock sells, the oldest first, and no more
    const sale = await f.post({ type: 'egg_sale', date: day(0), quantity: 1500 });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(sale.body.data.fromLots).toEqual([
      { laidOn: day(-6), quantity: 200 },
      { laidOn: day(-5), quantity: 800 },
      { laidOn: day(-1), quantity: 500 },
    ]);
    expect((await f.post({ type: 'egg_sale', date: day(0), quantity: 400, grade: 'L' })).status).toBe(201);
    expect(await f.stock()).toEqual({ count: 0, byGrade: {}, ungraded: 0, shortfalls: [] });
    expect(await inLots(f.cycleId)).toBe(0);
    // an older sale, now with its lots, gives them back when it is deleted
    const older = (await f.movements('egg_loss'))[0]!;
    const removed = await call('DELETE', `/api/v1/flocks/${f.flockId}/cycles/${f.cycleId}/movements/${older.id}`, {
      token: f.token,
      headers: { 'If-Match': `"${older.version}"` },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    expect(await eggLotsOnHand(f.cycleId)).toEqual([{ laidOn: day(-6), count: 100, ungraded: 100, graded: {} }]);
  });

  it('two migrations at once never double a lot', async () => {
    const f = await layerFarm('Eggs before lots, twice');
    await f.move({ type: 'egg_collection', date: day(-3), totalEggs: 700 });
    await f.move({ type: 'egg_collection', date: day(-2), totalEggs: 300 });
    await f.move({ type: 'egg_sale', date: day(-1), quantity: 200 });
    await asBeforeLots(f.cycleId);
    const runs = await Promise.all([migrate(f.farmId), migrate(f.farmId)]);
    // the cycle was written once: the other run found it in step, or lost the race on a lot it read (and wrote nothing)
    expect(runs[0]!.changed + runs[1]!.changed).toBe(1);
    await migrate(f.farmId); // a run that failed on the race is finished by running again
    expect(await inLots(f.cycleId)).toBe(800);
    expect((await f.stock()).count).toBe(800);
  });

  it('npm run migrate:egg-lots runs the migration for the farms named and reports each cycle it changed', async () => {
    const f = await layerFarm('Eggs before lots, by command');
    await f.move({ type: 'egg_collection', date: day(-2), totalEggs: 400 });
    await asBeforeLots(f.cycleId);
    const run = async () =>
      (await promisify(execFile)('npx', ['tsx', 'scripts/migrate-egg-lots.ts', '--farm', f.farmId], { env: process.env })).stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    expect(await run()).toEqual([
      { farmId: f.farmId, flockId: f.flockId, cycleId: f.cycleId, lots: 1, movements: 0, onHand: 400, shortfall: 0 },
      { done: true, cycles: 1, changed: 1, failed: 0 },
    ]);
    expect(await run()).toEqual([{ done: true, cycles: 1, changed: 0, failed: 0 }]);
    expect(await inLots(f.cycleId)).toBe(400);
  });

  it('a v2 file (no egg lots) restores a layer cycle that sells its eggs: the lots equal the stock', async () => {
    const f = await layerFarm('Eggs in a v2 file');
    await f.move({ type: 'egg_collection', date: day(-4), totalEggs: 900, grades: { M: 300 } });
    await f.move({ type: 'egg_collection', date: day(-3), totalEggs: 600 });
    await f.move({ type: 'egg_sale', date: day(-2), quantity: 700 });
    const exported = await call('POST', '/api/v1/continuity/exports', { token: f.token, body: { farmId: f.farmId } });
    expect(exported.status, JSON.stringify(exported.body)).toBe(202);
    // the file as v2 wrote it: no egg lots, sales without the lots they drew
    const path = localExportPath(`exports/${f.farmId}/${exported.body.data.id}.jsonl`);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0]!);
    header.data.formatVersion = 2;
    const records = lines
      .slice(1, -1)
      .map((l) => JSON.parse(l))
      .filter((l) => l.type !== 'egg_lot')
      .map((l) => {
        if (l.type === 'movement') delete l.data.fields.fromLots;
        return JSON.stringify(l);
      });
    const body = [JSON.stringify(header), ...records].map((l) => `${l}\n`).join('');
    const counts: Record<string, number> = {};
    for (const l of records) counts[JSON.parse(l).type] = (counts[JSON.parse(l).type] ?? 0) + 1;
    const trailer = { type: 'trailer', v: 1, data: { records: records.length, counts, sha256: createHash('sha256').update(body).digest('hex') } };
    writeFileSync(path, `${body}${JSON.stringify(trailer)}\n`);

    const started = await call('POST', '/api/v1/continuity/restores', {
      token: f.token,
      body: { exportId: exported.body.data.id, farmName: 'From a v2 file' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const r = (await call('GET', `/api/v1/continuity/restores/${started.body.data.id}`, { token: f.token })).body.data as Json;
    expect(r, JSON.stringify(r)).toMatchObject({ status: 'completed', error: null, checks: { mismatches: [] } });
    const flock = ((await call('GET', '/api/v1/flocks', { token: f.token, query: { farmId: r.farmId } })).body.data as Json[])[0]!;
    const base = `/api/v1/flocks/${flock.id}/cycles/${flock.activeCycleId}`;
    const stock = (await call('GET', '/api/v1/inventory/stock', { token: f.token, query: { farmId: r.farmId } })).body.data.eggs as Json;
    expect(stock).toEqual({ count: 800, byGrade: { M: 300 }, ungraded: 500, shortfalls: [] });
    expect(await eggLotsOnHand(flock.activeCycleId)).toEqual([
      { laidOn: day(-4), count: 300, ungraded: 0, graded: { M: 300 } },
      { laidOn: day(-3), count: 500, ungraded: 500, graded: {} },
    ]);
    const sale = await call('POST', `${base}/movements`, { token: f.token, body: { type: 'egg_sale', date: day(0), quantity: 500 } });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(sale.body.data.fromLots).toEqual([{ laidOn: day(-3), quantity: 500 }]);
    const graded = await call('POST', `${base}/movements`, { token: f.token, body: { type: 'egg_sale', date: day(0), quantity: 300, grade: 'M' } });
    expect(graded.status, JSON.stringify(graded.body)).toBe(201);
    expect((await call('POST', `${base}/movements`, { token: f.token, body: { type: 'egg_sale', date: day(0), quantity: 1 } })).status).toBe(409);
  });
});
