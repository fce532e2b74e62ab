/**
 * Depletion and back-filled work, through the real middleware and DynamoDB Local:
 * - a rearing flock whose pullets were all transferred to the laying flock leaves the dashboard's flock
 *   cards and is listed apart as emptied (with the day it emptied) until its cycle is closed;
 * - an occurrence completed late with the day it was done (`doneOn`) counts on time, its vaccination
 *   movement is dated that day, the audit marks it back-filled; a `doneOn` in the future or before the
 *   cycle is refused;
 * - a transfer between farms requested with its own (past) date writes both movements on that date, the
 *   completion's audit marks it back-dated; a future date is refused.
 */
import { describe, expect, it } from 'vitest';
import { call as inProcessCall } from '../support/api.js';
import { checkedCall } from '../support/contract.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { otherFarm } from '../support/farms.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every JSON response is checked against the closed schema of its operation. */
const call = checkedCall(inProcessCall);

const auditOf = async (targetId: string, action: string) => {
  const admin = await adminLogin();
  const entries = (await call('GET', '/api/v1/admin/audit', { token: admin, query: { targetId } })).body.data as Json[];
  return entries.find((e) => e.action === action);
};

describe('depletion and back-filled work', { timeout: 90_000 }, () => {
  it('pullets all transferred to the laying flock: the rearing flock leaves the cards, listed as emptied until its cycle is closed', async () => {
    const farmId = await otherFarm('Depletion farm');
    const manager = await userWith({ role: 'manager', farmIds: [farmId] });
    const worker = await userWith({ role: 'worker', farmIds: [farmId] });
    const pullets = await flockWithCycle({ token: manager.token, farmId, birdType: 'layer', startDate: day(-120) });
    const hens = await flockWithCycle({ token: manager.token, farmId, birdType: 'layer', startDate: day(-2) });
    await pullets.move({ type: 'bird_inflow', date: day(-120), quantity: 1000 });
    await pullets.move({ type: 'bird_mortality', date: day(-60), quantity: 10, cause: 'disease' });
    await pullets.move({ type: 'bird_transfer_out', date: day(-1), quantity: 990, counterpartFlockId: hens.flock.id });

    const dash = async (token = manager.token) => {
      const res = await call('GET', '/api/v1/dashboard', { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as Json;
    };
    const d = await dash();
    expect(d.flocks.map((c: Json) => c.flockId)).toEqual([hens.flock.id]);
    expect(d.totals).toMatchObject({ activeFlocks: 1, birdsAlive: 990 });
    expect(d.emptiedFlocks).toEqual([
      expect.objectContaining({ flockId: pullets.flock.id, cycleId: pullets.cycle.id, startDate: day(-120), emptiedOn: day(-1) }),
    ]);
    const w = await dash(worker.token);
    expect(w.flocks.map((c: Json) => c.flockId)).toEqual([hens.flock.id]);
    expect(w.tasks.map((t: Json) => t.flockId)).not.toContain(pullets.flock.id);

    // closed: neither a card nor an emptied flock
    const closed = await call('POST', `${pullets.base}/close`, { token: manager.token, body: { endDate: day(0) } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const after = await dash();
    expect(after.flocks.map((c: Json) => c.flockId)).toEqual([hens.flock.id]);
    expect(after.emptiedFlocks).toEqual([]);
  });

  it('an occurrence due 551 days ago completed today with doneOn = its date counts on time; its movement is dated doneOn; a future doneOn is 400', async () => {
    const farmId = await otherFarm('Back-fill farm');
    const manager = await userWith({ role: 'manager', farmIds: [farmId] });
    const worker = await userWith({ role: 'worker', farmIds: [farmId] });
    const c = await flockWithCycle({ token: manager.token, farmId, birdType: 'layer', startDate: day(-600) });
    await c.move({ type: 'bird_inflow', date: day(-600), quantity: 500 });
    const schedule = (
      await call('POST', '/api/v1/schedules', {
        token: manager.token,
        body: {
          farmId,
          kind: 'vaccination',
          title: 'ND booster',
          details: { vaccine: 'Newcastle disease, live (LaSota)', method: 'water', dose: '1 dose per bird' },
          flockId: c.flock.id,
          cycleId: c.cycle.id,
          timing: { once: day(-551) },
        },
      })
    ).body.data as Json;
    const url = `/api/v1/schedules/${schedule.id}/occurrences/${day(-551)}/complete`;
    const future = await call('POST', url, { token: worker.token, body: { doneOn: day(2) } });
    expect(future.status, JSON.stringify(future.body)).toBe(400);
    expect(JSON.stringify(future.body.details)).toContain('doneOn');
    const beforeCycle = await call('POST', url, { token: worker.token, body: { doneOn: day(-700) } });
    expect(beforeCycle.status, JSON.stringify(beforeCycle.body)).toBe(400);

    const done = await call('POST', url, { token: worker.token, body: { doneOn: day(-551) } });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.data).toMatchObject({ status: 'done', outcome: { doneOn: day(-551) }, movement: { type: 'vaccination', date: day(-551) } });
    const report = (await call('GET', `/api/v1/compliance/cycles/${c.flock.id}/${c.cycle.id}/report`, { token: manager.token })).body.data as Json;
    const rule = (report.rules as Json[]).find((r) => r.rule === 'vaccination_adherence')!;
    expect(rule.summary).toContain('1 on time, 0 late');
    expect(await auditOf(schedule.id, 'schedule.complete')).toMatchObject({ changes: { date: day(-551), doneOn: day(-551), backFilled: true } });
  });

  it('a transfer requested with its date 10 days ago and completed today writes both movements on that date; a future date is 400', async () => {
    const side = async (name: string) => {
      const farmId = await otherFarm(name);
      const manager = await userWith({ role: 'manager', farmIds: [farmId] });
      const c = await flockWithCycle({ token: manager.token, farmId, birdType: 'layer', startDate: day(-30) });
      return { farmId, token: manager.token, c };
    };
    const [a, b] = await Promise.all([side('Sending farm'), side('Receiving farm')]);
    await a.c.move({ type: 'bird_inflow', date: day(-30), quantity: 800 });
    const body = { kind: 'birds', quantity: 300, from: { farmId: a.farmId, flockId: a.c.flock.id }, to: { farmId: b.farmId, flockId: b.c.flock.id } };
    const future = await call('POST', '/api/v1/sharing/transfers', { token: a.token, body: { ...body, date: day(3) } });
    expect(future.status, JSON.stringify(future.body)).toBe(400);

    const t = await call('POST', '/api/v1/sharing/transfers', { token: a.token, body: { ...body, date: day(-10) } });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    expect(t.body.data).toMatchObject({ date: day(-10) });
    const id = t.body.data.id as string;
    expect((await call('POST', `/api/v1/sharing/transfers/${id}/approve`, { token: b.token, body: {} })).status).toBe(200);
    const done = await call('POST', `/api/v1/sharing/transfers/${id}/complete`, { token: a.token, body: {} });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'completed', completedDate: day(-10), date: day(-10) });
    const movements = async (s: typeof a, type: string) =>
      (await call('GET', `${s.c.base}/movements`, { token: s.token, query: { type } })).body.data as Json[];
    expect((await movements(a, 'bird_transfer_out')).map((m) => m.date)).toEqual([day(-10)]);
    expect((await movements(b, 'bird_transfer_in')).map((m) => m.date)).toEqual([day(-10)]);
    expect(await auditOf(id, 'transfer.complete')).toMatchObject({ changes: { date: day(-10), backDated: true } });
  });
});
