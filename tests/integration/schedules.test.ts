/**
 * Schedules through the real middleware and DynamoDB Local: every timing (once, every, rrule, ageDays),
 * the farm's clock (a farm at UTC+13 whose today is not UTC's), two phones completing one occurrence
 * (one 201, one 409 naming the date), a date that is no occurrence (400 naming it), a vaccination
 * completion that writes its movement in the same transaction (and a refused movement that leaves no
 * completion), a programme applied to a new broiler cycle and completed from the agenda, skips,
 * scoping and capabilities, Idempotency-Key replays, the overdue-vaccination job and the worker dashboard.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulidx';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { house } from '../support/farms.js';
import { db, tableName } from '../../shared/db/client.js';
import { farmKey, gsi1 } from '../../shared/db/keys.js';
import type { Caller } from '../../shared/domain/caller.js';
import { ALL_CAPABILITIES } from '../../shared/domain/capabilities.js';
import { commandContext } from '../../shared/domain/command.js';
import { agendaFor } from '../../shared/services/schedules/agenda.js';
import { flagOverdueVaccinations, schedulesJobCaller } from '../../shared/services/schedules/overdue.js';
import { localToday } from '../../shared/platform/calendar.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A farm in a time zone (written straight to the table, like the other farm fixtures). */
async function farmIn(timezone: string, name = 'Schedules farm'): Promise<string> {
  const id = ulid();
  const now = new Date().toISOString();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...farmKey(id), ...gsi1.farms, GSI1SK: `${name}#${id}`, type: 'Farm', id, name, timezone, createdAt: now, updatedAt: now, version: 1 },
    }),
  );
  return id;
}

async function farmWithPeople(timezone = 'UTC') {
  const farmId = await farmIn(timezone);
  const [manager, worker, viewer] = await Promise.all([
    userWith({ role: 'manager', farmIds: [farmId] }),
    userWith({ role: 'worker', farmIds: [farmId] }),
    userWith({ role: 'viewer', farmIds: [farmId] }),
  ]);
  const create = (body: Json, token = manager.token, headers: Record<string, string> = {}) =>
    call('POST', '/api/v1/schedules', { token, body: { title: 'Check drinkers', kind: 'inspection', ...body }, headers });
  const complete = (id: string, date: string, body: Json = {}, token = worker.token, headers: Record<string, string> = {}) =>
    call('POST', `/api/v1/schedules/${id}/occurrences/${date}/complete`, { token, body, headers });
  const skip = (id: string, date: string, reason: string, token = worker.token) =>
    call('POST', `/api/v1/schedules/${id}/occurrences/${date}/skip`, { token, body: { reason } });
  const agenda = async (query: Record<string, string>, token = worker.token) => {
    const res = await call('GET', '/api/v1/schedules/agenda', { token, query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Json;
  };
  return { farmId, manager, worker, viewer, create, complete, skip, agenda };
}

const VACCINE = { vaccine: 'Newcastle disease, live (LaSota)', method: 'water', dose: '1 dose per bird' };
const movementsOf = async (token: string, base: string, type = 'vaccination') =>
  (await call('GET', `${base}/movements`, { token, query: { type, limit: '100' } })).body.data as Json[];

describe('schedules', { timeout: 90_000 }, () => {
  it('create, read, list with filters, change (If-Match, version) and delete; details and timings are validated by kind', async () => {
    const f = await farmWithPeople();
    const houseId = await house(f.farmId);
    const created = await f.create({
      kind: 'feeding',
      title: 'Starter feed',
      houseId,
      details: { feedType: 'starter', amountKg: 120 },
      timing: { every: 1, unit: 'day', from: day(-3) },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const s = created.body.data;
    expect(s).toMatchObject({ farmId: f.farmId, houseId, kind: 'feeding', version: 1, programme: null, assignee: null });
    expect(created.headers.ETag).toBe('"1"');

    const bad = await f.create({ kind: 'vaccination', details: { feedType: 'starter' }, timing: { once: day(0) } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: Json) => d.field)).toEqual(
      expect.arrayContaining(['body.details.vaccine', 'body.details.method', 'body.details.dose', 'body.details.feedType', 'body.cycleId']),
    );
    const rrule = await f.create({ timing: { rrule: 'FREQ=YEARLY;BYDAY=MO', from: day(0) } });
    expect(rrule.status).toBe(400);
    expect(JSON.stringify(rrule.body.details)).toContain('FREQ=YEARLY is not supported');
    // an impossible UNTIL (month 13) is named, never a 500
    const until = await f.create({ timing: { rrule: 'FREQ=DAILY;UNTIL=20241301', from: day(0) } });
    expect(until.status).toBe(400);
    expect(JSON.stringify(until.body.details)).toContain('UNTIL must be a date YYYYMMDD');
    const age = await f.create({ timing: { ageDays: [1, 14] } });
    expect(age.status).toBe(400);
    expect(age.body.details[0].field).toBe('body.cycleId');
    const mixed = await f.create({ timing: { once: day(0), every: 2 } });
    expect(mixed.status).toBe(400);
    const otherHouse = await f.create({ houseId: 'nope', timing: { once: day(0) } });
    expect(otherHouse.status).toBe(404);
    expect(otherHouse.body).toEqual({ error: 'House nope not found' });

    await f.create({ kind: 'cleaning', title: 'Wash feeders', timing: { rrule: 'FREQ=WEEKLY;BYDAY=MO', from: day(-7) } });
    const all = await call('GET', '/api/v1/schedules', { token: f.viewer.token, query: { farmId: f.farmId } });
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(2);
    const feeding = await call('GET', '/api/v1/schedules', { token: f.viewer.token, query: { kind: 'feeding' } });
    expect(feeding.body.data.map((x: Json) => x.id)).toEqual([s.id]);

    const got = await call('GET', `/api/v1/schedules/${s.id}`, { token: f.viewer.token });
    expect(got.status).toBe(200);
    expect(got.headers.ETag).toBe('"1"');
    const stale = await call('PATCH', `/api/v1/schedules/${s.id}`, { token: f.manager.token, body: { title: 'x' }, headers: { 'If-Match': '"7"' } });
    expect(stale.status).toBe(412);
    const staleBody = await call('PATCH', `/api/v1/schedules/${s.id}`, { token: f.manager.token, body: { title: 'x', version: 3 } });
    expect(staleBody.status).toBe(409);
    const patched = await call('PATCH', `/api/v1/schedules/${s.id}`, {
      token: f.manager.token,
      body: { title: 'Starter feed, 2 kg more', details: { feedType: 'starter', amountKg: 122 } },
      headers: { 'If-Match': '"1"' },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({ version: 2, title: 'Starter feed, 2 kg more', details: { amountKg: 122 } });
    const badPatch = await call('PATCH', `/api/v1/schedules/${s.id}`, { token: f.manager.token, body: { details: { vaccine: 'ND' } } });
    expect(badPatch.status).toBe(400);

    const audit = await call('GET', '/api/v1/admin/audit', { token: await adminLogin(), query: { targetId: s.id } });
    expect(audit.body.data.map((e: Json) => e.action).sort()).toEqual(['schedule.create', 'schedule.update']);

    const delStale = await call('DELETE', `/api/v1/schedules/${s.id}`, { token: f.manager.token, headers: { 'If-Match': '"1"' } });
    expect(delStale.status).toBe(412);
    const del = await call('DELETE', `/api/v1/schedules/${s.id}`, { token: f.manager.token, headers: { 'If-Match': '"2"' } });
    expect(del.status).toBe(204);
    expect((await call('GET', `/api/v1/schedules/${s.id}`, { token: f.manager.token })).status).toBe(404);
  });

  it('the agenda computes every timing on the farm’s calendar: due, done, skipped and overdue', async () => {
    const f = await farmWithPeople();
    const { cycle, flock } = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-10) });
    const once = (await f.create({ title: 'Once', timing: { once: day(-1) } })).body.data;
    const every = (await f.create({ title: 'Every 2 days', timing: { every: 2, unit: 'day', from: day(-4), until: day(4) } })).body.data;
    const rrule = (await f.create({ title: 'Daily by rule', timing: { rrule: 'FREQ=DAILY;INTERVAL=3;COUNT=3', from: day(-3) } })).body.data;
    const age = (await f.create({ title: 'Weigh', kind: 'weighing', flockId: flock.id, cycleId: cycle.id, timing: { ageDays: [7, 10, 14] } })).body.data;

    const a = await f.agenda({ farmId: f.farmId, from: day(-4), to: day(4) });
    expect(a).toMatchObject({ farmId: f.farmId, timezone: 'UTC', today: day(0), from: day(-4), to: day(4) });
    const datesOf = (id: string) => a.occurrences.filter((o: Json) => o.scheduleId === id).map((o: Json) => o.date);
    expect(datesOf(once.id)).toEqual([day(-1)]);
    expect(datesOf(every.id)).toEqual([day(-4), day(-2), day(0), day(2), day(4)]);
    expect(datesOf(rrule.id)).toEqual([day(-3), day(0), day(3)]);
    expect(datesOf(age.id)).toEqual([day(-3), day(0), day(4)]);

    expect((await f.complete(every.id, day(-2), { notes: 'Done at 7am' })).status).toBe(201);
    const skipped = await f.skip(once.id, day(-1), 'Drinkers replaced that day');
    expect(skipped.status, JSON.stringify(skipped.body)).toBe(201);
    expect(skipped.body.data).toMatchObject({ status: 'skipped', outcome: { status: 'skipped', reason: 'Drinkers replaced that day', by: f.worker.id } });

    const b = await f.agenda({ from: day(-4), to: day(0) });
    const status = (id: string, d: string) => b.occurrences.find((o: Json) => o.scheduleId === id && o.date === d)?.status;
    expect(status(every.id, day(-4))).toBe('overdue');
    expect(status(every.id, day(-2))).toBe('done');
    expect(status(every.id, day(0))).toBe('due');
    expect(status(once.id, day(-1))).toBe('skipped');
    expect(status(rrule.id, day(-3))).toBe('overdue');
    // today's agenda lists the earlier misses apart
    const today = await f.agenda({});
    expect(today.from).toBe(day(0));
    expect(today.overdue.map((o: Json) => [o.scheduleId, o.date])).toEqual(
      expect.arrayContaining([
        [every.id, day(-4)],
        [rrule.id, day(-3)],
        [age.id, day(-3)],
      ]),
    );
    expect(today.overdue.some((o: Json) => o.scheduleId === once.id)).toBe(false);
    expect((await call('GET', '/api/v1/schedules/agenda', { token: f.worker.token, query: { from: day(0), to: day(-1) } })).status).toBe(400);
    expect((await call('GET', '/api/v1/schedules/agenda', { token: f.worker.token, query: { from: day(0), to: day(100) } })).status).toBe(400);
    // a weighing occurrence links the weighing session of its cycle on that date, and no other
    const weighed = await call('POST', `/api/v1/flocks/${flock.id}/cycles/${cycle.id}/weights`, {
      token: f.manager.token,
      body: { date: day(-3), grams: 180 },
    });
    expect(weighed.status, JSON.stringify(weighed.body)).toBe(201);
    const otherDay = await call('POST', `/api/v1/flocks/${flock.id}/cycles/${cycle.id}/weights`, {
      token: f.manager.token,
      body: { date: day(-2), grams: 190 },
    });
    const notThatDay = await f.complete(age.id, day(-3), { data: { weighingId: otherDay.body.data.id } });
    expect(notThatDay.status).toBe(404);
    expect(notThatDay.body).toEqual({ error: `Weighing ${otherDay.body.data.id} not found on ${day(-3)} in cycle ${cycle.id}` });
    const linked = await f.complete(age.id, day(-3), { data: { weighingId: weighed.body.data.id } });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    expect(linked.body.data.outcome).toMatchObject({ status: 'done', weighingId: weighed.body.data.id });
  });

  it('a farm at UTC+13: its today is not UTC’s once UTC passes 11:00, and overdue follows the farm’s clock', async () => {
    const f = await farmWithPeople('Pacific/Tongatapu');
    const s = (await f.create({ title: 'Check the fence', timing: { every: 1, unit: 'day', from: '2026-06-01' } })).body.data;
    const a = await f.agenda({});
    expect(a.timezone).toBe('Pacific/Tongatapu');
    expect(a.today).toBe(localToday(new Date(), 'Pacific/Tongatapu'));
    // deterministic edge: at 12:30 UTC on June 10 it is 01:30 on June 11 on the farm
    const caller: Caller = { id: f.manager.id, role: 'manager', capabilities: new Set(ALL_CAPABILITIES), farmIds: [f.farmId], allFarms: false };
    const at = new Date('2026-06-10T12:30:00Z');
    const edge = await agendaFor(caller, { from: '2026-06-10', to: '2026-06-11' }, at);
    expect(edge.today).toBe('2026-06-11');
    expect(edge.occurrences.map((o) => [o.date, o.status])).toEqual([
      ['2026-06-10', 'overdue'], // still "today" in UTC, already yesterday on the farm
      ['2026-06-11', 'due'],
    ]);
    const utcFarm = await agendaFor(
      { ...caller, farmIds: [f.farmId] },
      { farmId: f.farmId, from: '2026-06-10', to: '2026-06-10' },
      new Date('2026-06-10T10:30:00Z'),
    );
    expect(utcFarm.today).toBe('2026-06-10');
    expect(utcFarm.occurrences[0]!.status).toBe('due');
    // the farm's today may be completed even when UTC has not reached it yet
    const farmToday = localToday(new Date(), 'Pacific/Tongatapu');
    const done = await f.complete(s.id, farmToday);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const tomorrow = new Date(Date.parse(`${farmToday}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const early = await f.complete(s.id, tomorrow);
    expect(early.status).toBe(400);
    expect(early.body.details[0].message).toContain(`after the farm's today (${farmToday})`);
  });

  it('two phones complete the same occurrence at once: one 201, the other 409 naming the date; one completion, one movement', async () => {
    const f = await farmWithPeople();
    const c = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-10) });
    const s = (
      await f.create({ kind: 'vaccination', title: 'ND booster', details: VACCINE, flockId: c.flock.id, cycleId: c.cycle.id, timing: { once: day(-1) } })
    ).body.data;
    const phones = await Promise.all([1, 2, 3, 4, 5].map(() => f.complete(s.id, day(-1), { data: { batchNumber: 'B-17' } })));
    expect(phones.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const r of phones.filter((x) => x.status === 409)) expect(r.body.error).toContain(day(-1));
    const moves = await movementsOf(f.manager.token, c.base);
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({
      type: 'vaccination',
      date: day(-1),
      vaccine: VACCINE.vaccine,
      method: 'water',
      dose: '1 dose per bird',
      batchNumber: 'B-17',
    });
    const winner = phones.find((r) => r.status === 201)!;
    expect(winner.body.data.outcome.movementId).toBe(moves[0]!.id);
    expect(winner.body.data.movement.id).toBe(moves[0]!.id);
    const audit = await call('GET', '/api/v1/admin/audit', { token: await adminLogin(), query: { targetId: s.id } });
    expect(audit.body.data.filter((e: Json) => e.action === 'schedule.complete')).toHaveLength(1);
    // skipping a completed occurrence is the same conflict
    const skip = await f.skip(s.id, day(-1), 'changed my mind');
    expect(skip.status).toBe(409);
    expect(skip.body.error).toContain(`${day(-1)} of schedule ${s.id} is already completed`);
  });

  it('a date that is no occurrence answers 400 naming it', async () => {
    const f = await farmWithPeople();
    const s = (await f.create({ timing: { every: 2, unit: 'day', from: day(-6) } })).body.data;
    for (const res of [await f.complete(s.id, day(-3)), await f.skip(s.id, day(-3), 'no')]) {
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(`${day(-3)} is no occurrence of schedule ${s.id}`);
      expect(res.body.details[0]).toMatchObject({ field: 'params.date' });
    }
    expect((await f.complete(s.id, '2026-02-30')).status).toBe(400);
  });

  it('a vaccination completion and its movement commit together: a closed cycle refuses the movement and leaves no completion', async () => {
    const f = await farmWithPeople();
    const c = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-10) });
    const med = (
      await f.create({
        kind: 'medication',
        title: 'Coccidiostat',
        details: { product: 'Amprolium', dose: '0.25 g/l', route: 'water', withdrawalDays: 0 },
        flockId: c.flock.id,
        cycleId: c.cycle.id,
        timing: { once: day(-2) },
      })
    ).body.data;
    const vac = (await f.create({ kind: 'vaccination', title: 'IBD', details: VACCINE, flockId: c.flock.id, cycleId: c.cycle.id, timing: { once: day(-1) } }))
      .body.data;
    const medDone = await f.complete(med.id, day(-2), { notes: 'Per vet', data: { prescribedBy: 'Dr. Diallo' } });
    expect(medDone.status, JSON.stringify(medDone.body)).toBe(201);
    const meds = await movementsOf(f.manager.token, c.base, 'medication');
    expect(meds).toHaveLength(1);
    expect(meds[0]).toMatchObject({ product: 'Amprolium', dose: '0.25 g/l', route: 'water', prescribedBy: 'Dr. Diallo', notes: 'Per vet' });
    const wrongData = await f.complete(vac.id, day(-1), { data: { weighingId: 'x' } });
    expect(wrongData.status).toBe(400);

    const closed = await call('POST', `${c.base}/close`, { token: f.manager.token, body: { endDate: day(0) } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const refused = await f.complete(vac.id, day(-1));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain(`Cycle ${c.cycle.id} is closed`);
    expect(await movementsOf(f.manager.token, c.base)).toHaveLength(0);
    const a = await f.agenda({ from: day(-1), to: day(-1) });
    expect(a.occurrences.find((o: Json) => o.scheduleId === vac.id)).toMatchObject({ status: 'overdue', outcome: null });
  });

  it('the broiler programme applied to a new cycle: days 1 and 14 completed from the agenda write their movements into the ledger', async () => {
    const f = await farmWithPeople();
    const c = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-20) });
    const programmes = await call('GET', '/api/v1/schedules/programmes', { token: f.viewer.token });
    expect(programmes.status).toBe(200);
    expect(programmes.body.data.map((p: Json) => p.id)).toEqual(['broiler-typical', 'layer-rearing-typical']);
    expect(programmes.body.data[0].sources.length).toBeGreaterThan(0);

    const wrongType = await call('POST', '/api/v1/schedules/programmes/layer-rearing-typical/apply', {
      token: f.manager.token,
      body: { flockId: c.flock.id, cycleId: c.cycle.id },
    });
    expect(wrongType.status).toBe(400);
    const unknown = await call('POST', '/api/v1/schedules/programmes/nope/apply', {
      token: f.manager.token,
      body: { flockId: c.flock.id, cycleId: c.cycle.id },
    });
    expect(unknown.status).toBe(404);
    const key = { 'Idempotency-Key': `apply-${c.cycle.id}` };
    const applied = await call('POST', '/api/v1/schedules/programmes/broiler-typical/apply', {
      token: f.manager.token,
      body: { flockId: c.flock.id, cycleId: c.cycle.id },
      headers: key,
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(201);
    const again = await call('POST', '/api/v1/schedules/programmes/broiler-typical/apply', {
      token: f.manager.token,
      body: { flockId: c.flock.id, cycleId: c.cycle.id },
      headers: key,
    });
    expect(again.status).toBe(201);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.body.data.schedules.map((s: Json) => s.id)).toEqual(applied.body.data.schedules.map((s: Json) => s.id));
    const listed = await call('GET', '/api/v1/schedules', { token: f.manager.token, query: { cycleId: c.cycle.id } });
    expect(listed.body.data).toHaveLength(applied.body.data.schedules.length);
    expect(listed.body.data.every((s: Json) => s.programme?.id === 'broiler-typical')).toBe(true);

    const a = await f.agenda({ from: day(-20), to: day(0) });
    const vaccinations = a.occurrences.filter((o: Json) => o.kind === 'vaccination');
    expect(vaccinations.map((o: Json) => o.date)).toEqual([day(-19), day(-6)]);
    for (const o of vaccinations) {
      const done = await f.complete(o.scheduleId, o.date);
      expect(done.status, JSON.stringify(done.body)).toBe(201);
    }
    const ledger = await movementsOf(f.worker.token, c.base);
    expect(ledger.map((m: Json) => [m.date, m.vaccine]).sort()).toEqual([
      [day(-19), 'Newcastle disease + infectious bronchitis, live (B1 / Massachusetts)'],
      [day(-6), 'Infectious bursal disease (Gumboro), live intermediate'],
    ]);
    const after = await f.agenda({ from: day(-20), to: day(0) });
    expect(after.occurrences.filter((o: Json) => o.kind === 'vaccination').map((o: Json) => o.status)).toEqual(['done', 'done']);

    // the farm edits what it applied: a day later Gumboro booster
    const ibd = listed.body.data.find((s: Json) => s.programme.step === 'ibd');
    const edited = await call('PATCH', `/api/v1/schedules/${ibd.id}`, { token: f.manager.token, body: { timing: { ageDays: [14, 21] } } });
    expect(edited.status).toBe(200);
    expect(edited.body.data.timing).toEqual({ ageDays: [14, 21] });
  });

  it('an Idempotency-Key replays the first answer of a completion (one movement) and of a create', async () => {
    const f = await farmWithPeople();
    const c = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-10) });
    const headers = { 'Idempotency-Key': `sched-${ulid()}` };
    const body = { kind: 'vaccination', title: 'ND', details: VACCINE, flockId: c.flock.id, cycleId: c.cycle.id, timing: { once: day(-1) } };
    const first = await f.create(body, f.manager.token, headers);
    const second = await f.create(body, f.manager.token, headers);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers['Idempotent-Replayed']).toBe('true');
    expect(second.body.data.id).toBe(first.body.data.id);
    const id = first.body.data.id;
    const k = { 'Idempotency-Key': `done-${ulid()}` };
    const [r1, r2] = await Promise.all([f.complete(id, day(-1), {}, f.worker.token, k), f.complete(id, day(-1), {}, f.worker.token, k)]);
    expect([r1.status, r2.status]).toEqual([201, 201]);
    const r3 = await f.complete(id, day(-1), {}, f.worker.token, k);
    expect(r3.status).toBe(201);
    expect(r3.headers['Idempotent-Replayed']).toBe('true');
    expect(r3.body.data.outcome.movementId).toBe(r1.body.data.outcome.movementId);
    expect(await movementsOf(f.manager.token, c.base)).toHaveLength(1);
    const other = await f.complete(id, day(-1), { notes: 'different' }, f.worker.token, k);
    expect(other.status).toBe(422);
  });

  it('is scoped to the caller’s farms and guarded by capabilities: workers complete and skip, only managers write schedules', async () => {
    const f = await farmWithPeople();
    const s = (await f.create({ timing: { every: 1, unit: 'day', from: day(-5) } })).body.data;
    const stranger = await userWith({ role: 'manager', farmIds: [await farmIn('UTC', 'Elsewhere')] });
    for (const res of [
      await call('GET', `/api/v1/schedules/${s.id}`, { token: stranger.token }),
      await call('PATCH', `/api/v1/schedules/${s.id}`, { token: stranger.token, body: { title: 'mine' } }),
      await call('DELETE', `/api/v1/schedules/${s.id}`, { token: stranger.token }),
      await f.complete(s.id, day(-1), {}, stranger.token),
      await f.skip(s.id, day(-1), 'no', stranger.token),
    ])
      expect(res.status).toBe(404);
    expect((await call('GET', '/api/v1/schedules', { token: stranger.token, query: { farmId: f.farmId } })).status).toBe(404);
    expect((await call('GET', '/api/v1/schedules/agenda', { token: stranger.token, query: { farmId: f.farmId } })).status).toBe(404);

    expect((await f.create({ timing: { once: day(0) } }, f.worker.token)).status).toBe(403);
    expect((await call('PATCH', `/api/v1/schedules/${s.id}`, { token: f.worker.token, body: { title: 'x' } })).status).toBe(403);
    expect((await f.complete(s.id, day(-1), {}, f.viewer.token)).status).toBe(403);
    expect((await f.skip(s.id, day(-2), 'Power cut', f.viewer.token)).status).toBe(403);
    expect((await f.complete(s.id, day(-1))).status).toBe(201);
    expect((await f.skip(s.id, day(-2), 'Power cut')).status).toBe(201);
    const vet = await userWith({ role: 'veterinarian', farmIds: [f.farmId] });
    expect((await f.complete(s.id, day(-3), {}, vet.token)).status).toBe(201);
  });

  it('the schedules job flags overdue vaccinations as anomalies, one per occurrence; the worker dashboard shows today’s agenda', async () => {
    const f = await farmWithPeople();
    const c = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-10) });
    const s = (
      await f.create({
        kind: 'vaccination',
        title: 'IBD',
        details: VACCINE,
        flockId: c.flock.id,
        cycleId: c.cycle.id,
        timing: { every: 1, unit: 'day', from: day(-2) },
      })
    ).body.data;
    await f.complete(s.id, day(-1));
    await flagOverdueVaccinations(commandContext(schedulesJobCaller));
    await flagOverdueVaccinations(commandContext(schedulesJobCaller));
    const anomalies = await call('GET', '/api/v1/anomalies', { token: f.manager.token, query: { farmId: f.farmId, source: 'schedule' } });
    expect(anomalies.status, JSON.stringify(anomalies.body)).toBe(200);
    expect(anomalies.body.data).toHaveLength(1);
    expect(anomalies.body.data[0]).toMatchObject({
      source: 'schedule',
      metric: 'vaccination_overdue',
      cycleId: c.cycle.id,
      dedupKey: `schedule-overdue:${s.id}:${day(-2)}`,
    });

    const dash = await call('GET', '/api/v1/dashboard', { token: f.worker.token });
    expect(dash.status, JSON.stringify(dash.body)).toBe(200);
    expect(dash.body.data.role).toBe('worker');
    expect(dash.body.data.agenda.date).toBe(day(0));
    expect(dash.body.data.agenda.occurrences.map((o: Json) => [o.scheduleId, o.status])).toEqual([[s.id, 'due']]);
    expect(dash.body.data.agenda.overdue.map((o: Json) => o.date)).toEqual([day(-2)]);
  });
});
