/**
 * Sharing: transfers between farms through the real middleware and DynamoDB Local — 500 birds between two
 * farms (both cycle summaries add up), feed and eggs (both farms' stock), equipment (the register's
 * holder), the refusal of a farm under a movement restriction naming the incident (at request and at
 * completion), 10 concurrent completions (one wins), an insufficient balance (409 naming it, nothing
 * written), the lifecycle's illegal moves, Idempotency-Key replays, farm scoping and capabilities. A request
 * learns nothing of the receiving farm (its flock is only proposed, its cycle chosen by the approver), and
 * movements between farms come only from a completed transfer (never recorded, corrected or deleted directly).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulidx';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { farmSide, type Side } from '../support/farm-sides.js';
import { db, tableName } from '../../shared/db/client.js';
import { equipmentKey, restrictionFlagKey, restrictionKey } from '../../shared/db/keys.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BASE = '/api/v1/sharing/transfers';

async function twoFarms() {
  const [a, b] = await Promise.all([farmSide('Sender farm'), farmSide('Receiver farm')]);
  return { a, b };
}

const end = (s: Side) => ({ farmId: s.farmId, flockId: s.flockId });
const request = (token: string, body: Json, headers: Record<string, string> = {}) => call('POST', BASE, { token, body, headers });
const act = (token: string, id: string, action: string, opts: { body?: Json; headers?: Record<string, string> } = {}) =>
  call('POST', `${BASE}/${id}/${action}`, { token, body: opts.body ?? {}, headers: opts.headers ?? {} });

async function requested(from: Side, to: Side, body: Json) {
  const res = await request(from.token, { from: end(from), to: end(to), ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Json;
}

describe('transfers between farms', () => {
  it('500 birds: requested by the sender, approved by the receiver, completed; both cycle summaries add up', async () => {
    const { a, b } = await twoFarms();
    await a.move({ type: 'bird_inflow', date: day(-20), quantity: 2000 });
    await b.move({ type: 'bird_inflow', date: day(-20), quantity: 300 });
    const t = await requested(a, b, { kind: 'birds', quantity: 500, notes: 'Thinning house 2' });
    expect(t).toMatchObject({
      status: 'requested',
      kind: 'birds',
      quantity: 500,
      from: { farmId: a.farmId, flockId: a.flockId, cycleId: a.cycleId },
      to: { farmId: b.farmId, flockId: b.flockId, cycleId: null }, // the flock proposed; the cycle is the approver's choice
    });

    expect((await act(a.token, t.id, 'complete')).status).toBe(409); // not approved yet
    const byReceiver = await act(b.token, t.id, 'approve', { headers: { 'If-Match': '"1"' }, body: { note: 'Room in house 1' } });
    expect(byReceiver.status, JSON.stringify(byReceiver.body)).toBe(200);
    expect(byReceiver.body.data).toMatchObject({
      status: 'approved',
      approved: { by: b.manager.id, note: 'Room in house 1' },
      to: { flockId: b.flockId, cycleId: b.cycleId },
      version: 2,
    });
    const done = await act(a.token, t.id, 'complete', { headers: { 'If-Match': '"2"' } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'completed', completedDate: day(0), version: 3 });

    expect((await a.summary()).birds).toMatchObject({ placed: 2000, transferredOut: 500, alive: 1500 });
    expect((await b.summary()).birds).toMatchObject({ placed: 300, transferredIn: 500, alive: 800 });
    // the ledger holds both sides, pointing at each other and at the transfer
    const out = (await call('GET', `/api/v1/flocks/${a.flockId}/cycles/${a.cycleId}/movements`, { token: a.token, query: { type: 'bird_transfer_out' } })).body
      .data as Json[];
    expect(out).toEqual([
      expect.objectContaining({ id: done.body.data.from.movementId, quantity: 500, transferId: t.id, counterpartMovementId: done.body.data.to.movementId }),
    ]);
    const into = (await call('GET', `/api/v1/flocks/${b.flockId}/cycles/${b.cycleId}/movements`, { token: b.token, query: { type: 'bird_transfer_in' } })).body
      .data as Json[];
    expect(into.map((m) => [m.id, m.quantity, m.transferId])).toEqual([[done.body.data.to.movementId, 500, t.id]]);
    // seen from both farms, listed as outgoing for the sender and incoming for the receiver
    expect((await call('GET', `${BASE}/${t.id}`, { token: b.token })).body.data.status).toBe('completed');
    const outgoing = await call('GET', BASE, { token: a.token, query: { direction: 'outgoing' } });
    expect(outgoing.body.data.map((x: Json) => x.id)).toEqual([t.id]);
    expect((await call('GET', BASE, { token: a.token, query: { direction: 'incoming' } })).body.data).toEqual([]);
    expect((await call('GET', BASE, { token: b.token, query: { status: 'completed' } })).body.data.map((x: Json) => x.id)).toEqual([t.id]);
    // illegal moves name the status
    const again = await act(b.token, t.id, 'cancel');
    expect(again.status).toBe(403); // the receiver cannot cancel
    const cancel = await act(a.token, t.id, 'cancel');
    expect(cancel.status).toBe(409);
    expect(cancel.body.error).toBe('A transfer that is completed cannot be cancelled (allowed from requested or approved)');
  });

  it('feed and eggs move between the two farms’ stocks', async () => {
    const { a, b } = await twoFarms();
    await a.move({ type: 'feed_delivery', date: day(-10), feedType: 'layer-mash', quantityKg: 2000 });
    await a.move({ type: 'egg_collection', date: day(-2), totalEggs: 3000 });
    await b.move({ type: 'feed_delivery', date: day(-10), feedType: 'layer-mash', quantityKg: 100 });
    const feed = await requested(a, b, { kind: 'feed', feedType: 'layer-mash', quantity: 750.5 });
    const eggs = await requested(a, b, { kind: 'eggs', quantity: 1200 });
    for (const t of [feed, eggs]) {
      expect((await act(b.token, t.id, 'approve')).status).toBe(200);
      const done = await act(b.token, t.id, 'complete'); // either side completes
      expect(done.status, JSON.stringify(done.body)).toBe(200);
    }
    expect((await a.stock()).feed.byType).toEqual([{ feedType: 'layer-mash', kg: 1249.5, shortfalls: [] }]);
    expect((await b.stock()).feed.byType).toEqual([{ feedType: 'layer-mash', kg: 850.5, shortfalls: [] }]);
    expect((await a.stock()).eggs).toEqual({ count: 1800, byGrade: {}, ungraded: 1800, shortfalls: [] });
    expect((await b.stock()).eggs).toEqual({ count: 1200, byGrade: {}, ungraded: 1200, shortfalls: [] });
    // the eggs keep their laying day: the receiving cycle sells them from a lot of day(-2), and no more
    const sold = await b.post({ type: 'egg_sale', date: day(0), quantity: 1000 });
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    expect(sold.body.data.fromLots).toEqual([{ laidOn: day(-2), quantity: 1000 }]);
    expect((await b.post({ type: 'egg_sale', date: day(0), quantity: 201 })).status).toBe(409);
    // the movement types are in the catalogue the input forms read
    const forms = (await call('GET', '/api/v1/inventory/input-schema', { token: a.token })).body.data as Json;
    expect(forms.feed_transfer_out).toMatchObject({ requiredFields: ['date', 'feedType', 'quantityKg', 'counterpartFarmId'] });
    expect(Object.keys(forms)).toEqual(expect.arrayContaining(['feed_transfer_in', 'egg_transfer_out', 'egg_transfer_in']));
  });

  it('eggs laid inside a withdrawal period never leave by a transfer: completion is refused naming them, nothing moves', async () => {
    const { a, b } = await twoFarms();
    await a.move({ type: 'egg_collection', date: day(-3), totalEggs: 500 });
    await a.move({ type: 'medication', date: day(-4), product: 'Tylosin', dose: '0.5 g/l', withdrawalDays: 0, eggWithdrawalDays: 2 });
    const t = await requested(a, b, { kind: 'eggs', quantity: 400 });
    expect((await act(b.token, t.id, 'approve')).status).toBe(200);
    const done = await act(a.token, t.id, 'complete');
    expect(done.status).toBe(409);
    expect(done.body.error).toContain(`laid on ${day(-3)} were laid inside a withdrawal period: Tylosin (egg withdrawal ends ${day(-2)}`);
    expect(done.body.error).toContain('cannot be sent to another farm');
    expect((await a.stock()).eggs.count).toBe(500);
    expect((await b.stock()).eggs.count).toBe(0);
  });

  it('equipment: a new piece is registered held by the receiver; sent back, the holder moves again', async () => {
    const { a, b } = await twoFarms();
    const t = await requested(a, b, {
      kind: 'equipment',
      items: [{ name: 'Egg grader', serial: 'EG-1140' }],
      from: { farmId: a.farmId },
      to: { farmId: b.farmId },
    });
    const equipmentId = t.items[0].equipmentId as string;
    expect(t.items).toEqual([{ equipmentId, name: 'Egg grader', serial: 'EG-1140' }]);
    await act(b.token, t.id, 'approve');
    expect((await act(a.token, t.id, 'complete')).status).toBe(200);
    const holder = async () => (await db().send(new GetCommand({ TableName: tableName(), Key: equipmentKey(equipmentId) }))).Item?.holderFarmId;
    expect(await holder()).toBe(b.farmId);
    // the register, as each farm reads it: held by B, owned by A and lent out
    const register = async (s: Side, side: 'held' | 'owned') => {
      const res = await call('GET', '/api/v1/sharing/equipment', { token: s.token, query: { farmId: s.farmId, side } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as Json[];
    };
    const piece = { id: equipmentId, name: 'Egg grader', serial: 'EG-1140', ownerFarmId: a.farmId, holderFarmId: b.farmId, lentOut: true };
    expect(await register(b, 'held')).toEqual([expect.objectContaining(piece)]);
    expect(await register(a, 'owned')).toEqual([expect.objectContaining(piece)]);
    expect(await register(a, 'held')).toEqual([]);
    expect(await register(b, 'owned')).toEqual([]);
    // another farm's register is not B's to read
    expect((await call('GET', '/api/v1/sharing/equipment', { token: b.token, query: { farmId: a.farmId } })).status).toBe(404);
    // A no longer holds it: it cannot send it again
    const notHeld = await request(a.token, { kind: 'equipment', items: [{ equipmentId }], from: { farmId: a.farmId }, to: { farmId: b.farmId } });
    expect(notHeld.status).toBe(400);
    const back = await requested(b, a, { kind: 'equipment', items: [{ equipmentId }], from: { farmId: b.farmId }, to: { farmId: a.farmId } });
    expect(back.items).toEqual([{ equipmentId, name: 'Egg grader', serial: 'EG-1140' }]);
    await act(a.token, back.id, 'approve');
    expect((await act(b.token, back.id, 'complete')).status).toBe(200);
    expect(await holder()).toBe(a.farmId);
    expect(await register(a, 'held')).toEqual([expect.objectContaining({ id: equipmentId, holderFarmId: a.farmId, lentOut: false })]);
    expect(await register(b, 'held')).toEqual([]);
  });

  it('a farm under a movement restriction cannot send: refused at request and at completion, naming the incident', async () => {
    const { a, b } = await twoFarms();
    await a.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    const t = await requested(a, b, { kind: 'birds', quantity: 100 });
    await act(b.token, t.id, 'approve');
    const incident = await call('POST', '/api/v1/operations/incidents', {
      token: a.token,
      body: { farmId: a.farmId, title: 'Suspected avian influenza', category: 'disease_suspicion', severity: 'critical' },
    });
    expect(incident.status).toBe(201);
    const incidentId = incident.body.data.id;
    const refused = await request(a.token, { kind: 'birds', quantity: 10, from: end(a), to: end(b) });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain(incidentId);
    const completing = await act(b.token, t.id, 'complete');
    expect(completing.status).toBe(409);
    expect(completing.body.error).toContain(incidentId);
    expect((await a.summary()).birds).toMatchObject({ transferredOut: 0, alive: 1000 });
    expect((await call('GET', `${BASE}/${t.id}`, { token: a.token })).body.data).toMatchObject({ status: 'approved', version: 2 });
    // closed: the restriction is lifted and the transfer completes
    for (const step of ['resolve', 'close'])
      expect((await call('POST', `/api/v1/operations/incidents/${incidentId}/${step}`, { token: a.token, body: {} })).status).toBe(200);
    expect((await act(b.token, t.id, 'complete')).status).toBe(200);
    expect((await a.summary()).birds).toMatchObject({ transferredOut: 100, alive: 900 });
  });

  it('a restriction written before the flag existed (no RESTRICTIONS item) still refuses, naming the incident', async () => {
    const { a, b } = await twoFarms();
    await a.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    const t = await requested(a, b, { kind: 'birds', quantity: 100 });
    await act(b.token, t.id, 'approve');
    // as an incident of the first release left it: the per-incident item, no flag
    const legacy = 'LEGACYINCIDENT0000000000001';
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...restrictionKey(a.farmId, legacy), type: 'MovementRestriction', incidentId: legacy, since: day(-2) },
      }),
    );
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: restrictionFlagKey(a.farmId) }))).Item).toBeUndefined();
    const refused = await request(a.token, { kind: 'birds', quantity: 10, from: end(a), to: end(b) });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain(legacy);
    const completing = await act(b.token, t.id, 'complete');
    expect(completing.status).toBe(409);
    expect(completing.body.error).toContain(legacy);
    expect((await a.summary()).birds).toMatchObject({ transferredOut: 0, alive: 1000 });
  });

  it('10 concurrent completions complete it once; both summaries add up', async () => {
    const { a, b } = await twoFarms();
    await a.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    const t = await requested(a, b, { kind: 'birds', quantity: 400 });
    await act(b.token, t.id, 'approve');
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => act(i % 2 ? a.token : b.token, t.id, 'complete')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error).toMatch(/completed/);
    expect((await a.summary()).birds).toMatchObject({ transferredOut: 400, alive: 600 });
    expect((await b.summary()).birds).toMatchObject({ transferredIn: 400, alive: 400 });
    const final = (await call('GET', `${BASE}/${t.id}`, { token: a.token })).body.data;
    expect(final).toMatchObject({ status: 'completed', version: 3 });
  });

  it('concurrent approvals by two managers of the receiving farm approve it once', async () => {
    const { a, b } = await twoFarms();
    const second = await userWith({ role: 'manager', farmIds: [b.farmId] });
    await a.move({ type: 'bird_inflow', date: day(-20), quantity: 100 });
    const t = await requested(a, b, { kind: 'birds', quantity: 10 });
    const results = await Promise.all([act(b.token, t.id, 'approve'), act(second.token, t.id, 'approve')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await call('GET', `${BASE}/${t.id}`, { token: a.token })).body.data.version).toBe(2);
  });

  it('a sender without the birds or the feed: 409 naming the balance, nothing written', async () => {
    const { a, b } = await twoFarms();
    await a.move({ type: 'bird_inflow', date: day(-20), quantity: 100 });
    await a.move({ type: 'feed_delivery', date: day(-10), feedType: 'grower', quantityKg: 50 });
    const birds = await requested(a, b, { kind: 'birds', quantity: 150 });
    const feed = await requested(a, b, { kind: 'feed', feedType: 'grower', quantity: 60 });
    for (const t of [birds, feed]) await act(b.token, t.id, 'approve');
    const noBirds = await act(a.token, birds.id, 'complete');
    expect(noBirds.status).toBe(409);
    expect(noBirds.body.error).toBe(`Only 100 bird(s) alive in cycle ${a.cycleId}; this movement needs 150 bird(s) alive. Balances never go negative`);
    const noFeed = await act(a.token, feed.id, 'complete');
    expect(noFeed.status).toBe(409);
    expect(noFeed.body.error).toBe(`Only 50 kg of feed "grower" in stock on farm ${a.farmId}; this movement needs 60 kg. Balances never go negative`);
    expect((await a.summary()).birds).toMatchObject({ transferredOut: 0, alive: 100 });
    expect((await b.summary()).birds).toMatchObject({ transferredIn: 0, alive: 0 });
    expect((await b.stock()).feed.byType).toEqual([]);
    expect((await call('GET', `/api/v1/flocks/${b.flockId}/cycles/${b.cycleId}/movements`, { token: b.token })).body.data).toEqual([]);
    for (const t of [birds, feed])
      expect((await call('GET', `${BASE}/${t.id}`, { token: a.token })).body.data).toMatchObject({ status: 'approved', version: 2 });
  });

  it('an Idempotency-Key replays a request and a completion', async () => {
    const { a, b } = await twoFarms();
    await a.move({ type: 'bird_inflow', date: day(-20), quantity: 100 });
    const body = { kind: 'birds', quantity: 20, from: end(a), to: end(b) };
    const first = await request(a.token, body, { 'Idempotency-Key': 'transfer-1' });
    const retry = await request(a.token, body, { 'Idempotency-Key': 'transfer-1' });
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.headers['Idempotent-Replayed']).toBe('true');
    expect(retry.body.data).toEqual(first.body.data);
    expect((await request(a.token, { ...body, quantity: 21 }, { 'Idempotency-Key': 'transfer-1' })).status).toBe(422);
    const id = first.body.data.id;
    await act(b.token, id, 'approve');
    const done = await act(a.token, id, 'complete', { headers: { 'Idempotency-Key': 'complete-1' } });
    const redo = await act(a.token, id, 'complete', { headers: { 'Idempotency-Key': 'complete-1' } });
    expect([done.status, redo.status]).toEqual([200, 200]);
    expect(redo.headers['Idempotent-Replayed']).toBe('true');
    expect(redo.body.data).toEqual(done.body.data);
    expect((await a.summary()).birds).toMatchObject({ transferredOut: 20, alive: 80 });
    const listed = (await call('GET', BASE, { token: a.token, query: { direction: 'outgoing' } })).body.data as Json[];
    expect(listed).toHaveLength(1);
  });

  it('a farm’s list holds what it sends and what it receives by default, newest first, paged without a gap or a repeat', async () => {
    const { a, b } = await twoFarms();
    await a.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    await b.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    const made: Json[] = [];
    for (const [from, to] of [
      [a, b],
      [b, a],
      [a, b],
      [b, a],
      [a, b],
    ] as const)
      made.push(await requested(from, to, { kind: 'birds', quantity: 10 }));
    const newestFirst = made.map((t) => t.id).reverse();
    const list = async (query: Record<string, string>) => {
      const res = await call('GET', BASE, { token: a.token, query });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { data: Json[]; page: { nextCursor: string | null } };
    };
    expect((await list({})).data.map((t) => t.id)).toEqual(newestFirst);
    expect((await list({ direction: 'both' })).data.map((t) => t.id)).toEqual(newestFirst);
    expect((await list({ direction: 'outgoing' })).data.map((t) => t.from.farmId)).toEqual([a.farmId, a.farmId, a.farmId]);
    expect((await list({ direction: 'incoming' })).data.map((t) => t.to.farmId)).toEqual([a.farmId, a.farmId]);
    for (const limit of ['1', '2', '3']) {
      const seen: string[] = [];
      let cursor: string | null | undefined;
      do {
        const page = await list({ limit, ...(cursor ? { cursor } : {}) });
        seen.push(...page.data.map((t) => t.id));
        cursor = page.page.nextCursor;
      } while (cursor);
      expect(seen, `limit ${limit}`).toEqual(newestFirst);
    }
    await act(b.token, made[1]!.id, 'cancel');
    await act(a.token, made[2]!.id, 'cancel');
    expect((await list({ status: 'cancelled' })).data.map((t) => t.id)).toEqual([made[2]!.id, made[1]!.id]);
    const forged = await call('GET', BASE, { token: a.token, query: { cursor: Buffer.from(JSON.stringify({ before: 'x' })).toString('base64url') } });
    expect(forged.status).toBe(400);
  });

  it('scoping, capabilities and sides: another farm’s user 404, a worker 403, only the receiving farm approves', async () => {
    const { a, b } = await twoFarms();
    await a.move({ type: 'bird_inflow', date: day(-20), quantity: 100 });
    const t = await requested(a, b, { kind: 'birds', quantity: 10 });
    const stranger = await userWith({ role: 'manager', farmIds: [await otherFarm('Stranger farm')] });
    expect((await call('GET', `${BASE}/${t.id}`, { token: stranger.token })).status).toBe(404);
    expect((await act(stranger.token, t.id, 'approve')).status).toBe(404);
    expect((await call('GET', BASE, { token: stranger.token, query: { farmId: a.farmId } })).status).toBe(404);
    // a sender not of the caller's farms
    expect((await request(stranger.token, { kind: 'birds', quantity: 1, from: end(a), to: end(b) })).status).toBe(404);
    const worker = await userWith({ role: 'worker', farmIds: [b.farmId] });
    expect((await call('GET', `${BASE}/${t.id}`, { token: worker.token })).status).toBe(200);
    expect((await act(worker.token, t.id, 'approve')).status).toBe(403);
    const bySender = await act(a.token, t.id, 'approve');
    expect(bySender.status).toBe(403);
    expect(bySender.body.error).toBe(`Only a user of the receiving farm (${b.farmId}) may approve transfer ${t.id}`);
    expect((await act(a.token, t.id, 'reject')).status).toBe(403);
    // the receiver rejects; then nothing moves it again
    const rejected = await act(b.token, t.id, 'reject', { body: { note: 'No room' } });
    expect(rejected.body.data).toMatchObject({ status: 'rejected', rejected: { note: 'No room' } });
    expect((await act(b.token, t.id, 'approve')).status).toBe(409);
    // validation: the kind's fields
    const bad = await request(a.token, { kind: 'feed', quantity: 5, from: end(a), to: { farmId: a.farmId, flockId: a.flockId } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: Json) => d.field).sort()).toEqual(['body.feedType', 'body.to.farmId']);
  });

  it('a request learns nothing of the receiving farm: a flock there is only proposed, the approver chooses flock and cycle', async () => {
    const { a, b } = await twoFarms();
    await a.move({ type: 'bird_inflow', date: day(-20), quantity: 100 });
    const birds = (to: Json) => request(a.token, { kind: 'birds', quantity: 10, from: end(a), to });
    // the receiving farm's real flock, a made-up flock, no flock, a made-up farm: the same answer, and no cycle of B's
    const madeUpFlock = ulid();
    const madeUpFarm = ulid();
    const answers = [
      [await birds({ farmId: b.farmId, flockId: b.flockId }), b.farmId, b.flockId],
      [await birds({ farmId: b.farmId, flockId: madeUpFlock }), b.farmId, madeUpFlock],
      [await birds({ farmId: b.farmId }), b.farmId, null],
      [await birds({ farmId: madeUpFarm, flockId: madeUpFlock }), madeUpFarm, madeUpFlock],
    ] as const;
    const rest = (data: Json) => {
      const { id: _id, createdAt: _c, updatedAt: _u, to: _to, ...others } = data;
      return others;
    };
    for (const [res, farmId, flockId] of answers) {
      expect(res.status, res.raw).toBe(201);
      expect(res.body.data.to).toEqual({ farmId, flockId, cycleId: null, movementId: null });
      expect(rest(res.body.data)).toEqual(rest(answers[0][0].body.data));
      expect(res.raw).not.toContain(b.cycleId);
    }
    // naming the receiving cycle is not for the sender: 400 alike for B's real cycle and a made-up one
    const realCycle = await birds({ farmId: b.farmId, flockId: b.flockId, cycleId: b.cycleId });
    const madeUpCycle = await birds({ farmId: b.farmId, flockId: b.flockId, cycleId: ulid() });
    for (const res of [realCycle, madeUpCycle]) {
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ field: 'body.to.cycleId', message: 'is not allowed' }]);
    }
    // the sending flock is the sender's own: another farm's flock is a missing one (404, same answer)
    const foreign = await request(a.token, { kind: 'birds', quantity: 10, from: { farmId: a.farmId, flockId: b.flockId }, to: { farmId: b.farmId } });
    const missing = await request(a.token, { kind: 'birds', quantity: 10, from: { farmId: a.farmId, flockId: madeUpFlock }, to: { farmId: b.farmId } });
    expect([foreign.status, missing.status]).toEqual([404, 404]);
    expect(foreign.body).toEqual({ error: `Flock ${b.flockId} not found` });
    expect(missing.body).toEqual({ error: `Flock ${madeUpFlock} not found` });

    // approval: the receiving farm picks its flock (the proposal when it is one of its own) and cycle
    const proposedMadeUp = answers[1][0].body.data.id;
    const noFlock = await act(b.token, proposedMadeUp, 'approve');
    expect(noFlock.status).toBe(400);
    expect(noFlock.body.details).toEqual([
      {
        field: 'body.flockId',
        message: `is required: the flock of farm ${b.farmId} whose cycle receives the birds (the flock proposed, ${madeUpFlock}, is not one of this farm)`,
      },
    ]);
    const senders = await act(b.token, proposedMadeUp, 'approve', { body: { flockId: a.flockId } });
    expect(senders.status).toBe(404);
    expect(senders.body).toEqual({ error: `Flock ${a.flockId} not found` });
    const wrongCycle = await act(b.token, proposedMadeUp, 'approve', { body: { flockId: b.flockId, cycleId: a.cycleId } });
    expect(wrongCycle.body).toEqual({ error: `Cycle ${a.cycleId} of flock ${b.flockId} not found` });
    expect((await call('GET', `${BASE}/${proposedMadeUp}`, { token: a.token })).body.data).toMatchObject({
      status: 'requested',
      version: 1,
      to: { cycleId: null },
    });
    const approved = await act(b.token, proposedMadeUp, 'approve', { body: { flockId: b.flockId } });
    expect(approved.status, approved.raw).toBe(200);
    expect(approved.body.data.to).toEqual({ farmId: b.farmId, flockId: b.flockId, cycleId: b.cycleId, movementId: null });
    expect((await act(a.token, proposedMadeUp, 'complete')).status).toBe(200);
    expect((await b.summary()).birds).toMatchObject({ transferredIn: 10, alive: 10 });
    // equipment goes to the farm: no flock or cycle to choose
    const tools = await requested(a, b, { kind: 'equipment', items: [{ name: 'Crate' }], from: { farmId: a.farmId }, to: { farmId: b.farmId } });
    const withFlock = await act(b.token, tools.id, 'approve', { body: { flockId: b.flockId } });
    expect(withFlock.status).toBe(400);
    expect(withFlock.body.details).toEqual([{ field: 'body.flockId', message: 'is only for birds, feed and eggs (equipment goes to the farm)' }]);
  }, 60_000);

  it('movements between farms come only from a completed transfer: never recorded, corrected or deleted directly', async () => {
    const { a, b } = await twoFarms();
    await a.move({ type: 'bird_inflow', date: day(-20), quantity: 100 });
    await a.move({ type: 'feed_delivery', date: day(-10), feedType: 'grower', quantityKg: 500 });
    const worker = await userWith({ role: 'worker', farmIds: [a.farmId] });
    const movements = (s: Side) => `/api/v1/flocks/${s.flockId}/cycles/${s.cycleId}/movements`;
    // a worker cannot conjure stock "from" another farm: the types a transfer writes are not recorded directly
    for (const body of [
      { type: 'feed_transfer_in', date: day(-1), feedType: 'grower', quantityKg: 1000, counterpartFarmId: 'not-a-farm' },
      { type: 'feed_transfer_out', date: day(-1), feedType: 'grower', quantityKg: 10, counterpartFarmId: b.farmId },
      { type: 'egg_transfer_in', date: day(-1), quantity: 1000, counterpartFarmId: b.farmId },
      { type: 'egg_transfer_out', date: day(-1), quantity: 1, counterpartFarmId: b.farmId },
    ]) {
      const res = await call('POST', movements(a), { token: worker.token, body });
      expect(res.status, `${body.type} ${res.raw}`).toBe(400);
      const onType = (res.body.details as Json[]).find((d) => d.field === 'body.type');
      expect(onType?.message).toMatch(/^must be one of: bird_inflow, /);
      expect(onType?.message).not.toContain(body.type);
    }
    expect((await a.stock()).feed.byType).toEqual([{ feedType: 'grower', kg: 500, shortfalls: [] }]);
    expect((await a.stock()).eggs).toEqual({ count: 0, byGrade: {}, ungraded: 0, shortfalls: [] });
    // a user of both farms cannot move birds between them directly either: another farm's flock is a missing one
    const both = await userWith({ role: 'manager', farmIds: [a.farmId, b.farmId] });
    for (const counterpartFlockId of [b.flockId, ulid()]) {
      const res = await call('POST', movements(a), {
        token: both.token,
        body: { type: 'bird_transfer_out', date: day(-1), quantity: 30, counterpartFlockId },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: `Flock ${counterpartFlockId} not found` });
    }
    expect((await a.summary()).birds).toMatchObject({ transferredOut: 0, alive: 100 });
    expect((await b.summary()).birds).toMatchObject({ transferredIn: 0, alive: 0 });
    // within one farm: both sides in one write, balances checked, as a transfer
    const second = await flockWithCycle({ token: a.token, farmId: a.farmId, birdType: 'layer', startDate: day(-20) });
    const within = await call('POST', movements(a), {
      token: worker.token,
      body: { type: 'bird_transfer_out', date: day(-1), quantity: 30, counterpartFlockId: second.flock.id },
    });
    expect(within.status, within.raw).toBe(201);
    expect((await call('GET', second.base, { token: a.token })).body.data.birds).toMatchObject({ transferredIn: 30, alive: 30 });
    const tooMany = await call('POST', movements(a), {
      token: worker.token,
      body: { type: 'bird_transfer_out', date: day(-1), quantity: 71, counterpartFlockId: second.flock.id },
    });
    expect(tooMany.status).toBe(409);
    expect((await a.summary()).birds).toMatchObject({ transferredOut: 30, alive: 70 });

    // a completed transfer's movements change only with it, even unlocked, even by a user of both farms
    const feed = await requested(a, b, { kind: 'feed', feedType: 'grower', quantity: 200 });
    const birds = await requested(a, b, { kind: 'birds', quantity: 20 });
    for (const t of [feed, birds]) {
      expect((await act(b.token, t.id, 'approve')).status).toBe(200);
      expect((await act(a.token, t.id, 'complete')).status).toBe(200);
    }
    const feedIn = (await call('GET', movements(b), { token: b.token, query: { type: 'feed_transfer_in' } })).body.data[0] as Json;
    const birdsOut = (await call('GET', movements(a), { token: a.token, query: { type: 'bird_transfer_out' } })).body.data.find(
      (m: Json) => m.transferId === birds.id,
    ) as Json;
    for (const [s, m] of [
      [b, feedIn],
      [a, birdsOut],
    ] as const) {
      const url = `${movements(s)}/${m.id}`;
      expect((await call('PUT', `${url}/unlock`, { token: both.token, body: { reason: 'correction' } })).status).toBe(200);
      const patched = await call('PATCH', url, { token: both.token, body: { [m.type === 'feed_transfer_in' ? 'quantityKg' : 'quantity']: 1 } });
      expect(patched.status).toBe(409);
      const deleted = await call('DELETE', url, { token: both.token });
      expect(deleted.status).toBe(409);
      if (m.type === 'feed_transfer_in') {
        expect(patched.body.error).toBe(
          `Movement ${m.id} was written by transfer ${feed.id} between farms; it changes only with that transfer (send a transfer back to reverse it)`,
        );
        expect(deleted.body.error).toBe(patched.body.error);
      } else
        expect(deleted.body.error).toBe(
          `Movement ${m.id} was written by transfer ${birds.id} between farms; it changes only with that transfer (send a transfer back to reverse it)`,
        );
    }
    expect((await a.stock()).feed.byType).toEqual([{ feedType: 'grower', kg: 300, shortfalls: [] }]);
    expect((await b.stock()).feed.byType).toEqual([{ feedType: 'grower', kg: 200, shortfalls: [] }]);
    expect((await a.summary()).birds).toMatchObject({ transferredOut: 50, alive: 50 });
    expect((await b.summary()).birds).toMatchObject({ transferredIn: 20, alive: 20 });
  }, 60_000);
});
