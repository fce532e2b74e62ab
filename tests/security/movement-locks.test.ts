/**
 * OWASP API5:2023 (broken function-level authorization) inside one route: who may lock a movement, lift a
 * lock, and change a locked movement, role × action. The route guard (`create_movement`) lets a worker in;
 * the lock itself decides the rest (`unlockRefusal` in shared/domain/ledger.ts): a manual lock is lifted
 * with manage_flocks or at the locker's own level or above (viewer < worker < veterinarian < manager <
 * admin), automatic locks by nobody, and a locked movement is neither corrected nor deleted by anyone.
 * The expectations are written out as tables, not derived from the rule they check.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { otherFarm } from '../support/farms.js';
import { db, tableName } from '../../shared/db/client.js';
import { movementKey } from '../../shared/db/keys.js';
import { ROLES, type Role } from '../../shared/domain/capabilities.js';
import { account } from './support/accounts.js';

type Locker = Exclude<Role, 'viewer'>;
const LOCKERS: Locker[] = ['admin', 'manager', 'veterinarian', 'worker'];
const MISSING = { error: 'Missing capability: create_movement' };

/** Lock: every role with create_movement; the viewer has none. */
const LOCK: Record<Role, number> = { admin: 200, manager: 200, veterinarian: 200, worker: 200, viewer: 403 };
/** Unlock a manual lock: row = who locked it, column = who unlocks it (the diagonal is one's own lock). */
const UNLOCK: Record<Locker, Record<Role, number>> = {
  admin: { admin: 200, manager: 200, veterinarian: 403, worker: 403, viewer: 403 },
  manager: { admin: 200, manager: 200, veterinarian: 403, worker: 403, viewer: 403 },
  veterinarian: { admin: 200, manager: 200, veterinarian: 200, worker: 403, viewer: 403 },
  worker: { admin: 200, manager: 200, veterinarian: 200, worker: 200, viewer: 403 },
};
/** Correct or delete a locked movement (manual or automatic lock): nobody, until it is unlocked. */
const CHANGE_LOCKED: Record<Role, number> = { admin: 409, manager: 409, veterinarian: 409, worker: 409, viewer: 403 };

const tokens = {} as Record<Role, string>;
let base: string;

beforeAll(async () => {
  const farmId = await otherFarm('Locks farm');
  for (const role of ROLES) tokens[role] = (await account({ role, farmIds: role === 'admin' ? [] : [farmId] })).token;
  const post = async (path: string, body: unknown) => {
    const res = await call('POST', path, { token: tokens.manager, body });
    expect(res.status, res.raw).toBe(201);
    return res.body.data;
  };
  const flock = await post('/api/v1/flocks', { name: 'Locks flock', birdType: 'broiler', farmId, hatchDate: '2026-11-01' });
  const cycle = await post(`/api/v1/flocks/${flock.id}/cycles`, { startDate: '2026-11-01' });
  base = `/api/v1/flocks/${flock.id}/cycles/${cycle.id}`;
});

/** A fresh unlocked movement of the farm, recorded by the manager. */
async function movement(): Promise<{ id: string; cycleId: string; url: string }> {
  const res = await call('POST', `${base}/movements`, { token: tokens.manager, body: { type: 'bird_inflow', date: '2026-11-01', quantity: 10 } });
  expect(res.status, res.raw).toBe(201);
  return { id: res.body.data.id, cycleId: res.body.data.cycleId, url: `${base}/movements/${res.body.data.id}` };
}
/** The movement as if recorded 73 h ago: past the auto-lock period (72 h). */
async function aged(m: { id: string; cycleId: string; url: string }) {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: movementKey(m.cycleId, m.id),
      UpdateExpression: 'SET createdAt = :t',
      ExpressionAttributeValues: { ':t': new Date(Date.now() - 73 * 3600_000).toISOString() },
    }),
  );
  return m;
}
const put = (role: Role, url: string, action: 'lock' | 'unlock') =>
  call('PUT', `${url}/${action}`, { token: tokens[role], body: { reason: `${action} by ${role}` } });
const read = async (url: string) => (await call('GET', url, { token: tokens.manager })).body.data;

describe('movement locks, role × action', () => {
  it('lock: every role holding create_movement, and the lock records the locker’s role', async () => {
    for (const role of ROLES) {
      const m = await movement();
      const res = await put(role, m.url, 'lock');
      expect(res.status, `${role} locks → ${res.raw}`).toBe(LOCK[role]);
      if (res.status === 200) expect(res.body.data.lock).toMatchObject({ type: 'manual', reason: `lock by ${role}`, byRole: role });
      else expect(res.body).toEqual(MISSING);
    }
  });

  it('unlock a manual lock: manage_flocks, or the locker’s own level or above; a refusal changes nothing', async () => {
    const got: Record<string, Record<string, number>> = {};
    for (const locker of LOCKERS) {
      got[locker] = {};
      for (const unlocker of ROLES) {
        const m = await movement();
        expect((await put(locker, m.url, 'lock')).status).toBe(200);
        const before = await read(m.url);
        const res = await put(unlocker, m.url, 'unlock');
        got[locker][unlocker] = res.status;
        const label = `${unlocker} unlocks the lock of ${locker} → ${res.raw}`;
        if (res.status === 200) {
          expect(res.body.data.lock, label).toBeNull();
          continue;
        }
        if (unlocker === 'viewer') expect(res.body, label).toEqual(MISSING);
        else
          expect(res.body, label).toEqual({
            error: `Movement ${m.id} was locked by the role ${locker}: unlocking it needs manage_flocks or the role ${locker} or above`,
          });
        expect(await read(m.url), label).toEqual(before);
      }
    }
    expect(got).toEqual(UNLOCK);
  });

  it('a manual lock stored without the locker’s role needs manage_flocks', async () => {
    const m = await movement();
    expect((await put('worker', m.url, 'lock')).status).toBe(200);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: movementKey(m.cycleId, m.id),
        UpdateExpression: 'REMOVE #lock.byRole',
        ExpressionAttributeNames: { '#lock': 'lock' },
      }),
    );
    for (const role of ['worker', 'veterinarian'] as const) {
      const res = await put(role, m.url, 'unlock');
      expect(res.status, res.raw).toBe(403);
      expect(res.body).toEqual({ error: `Movement ${m.id} is locked for review: unlocking it needs manage_flocks` });
    }
    expect((await put('manager', m.url, 'unlock')).status).toBe(200);
  });

  it('a locked movement is neither corrected nor deleted by any role, manual lock (of the worker’s own) or automatic', async () => {
    const manual = await movement();
    expect((await put('worker', manual.url, 'lock')).status).toBe(200);
    const old = await aged(await movement());
    for (const m of [manual, old]) {
      const before = await read(m.url);
      for (const role of ROLES) {
        const patch = await call('PATCH', m.url, { token: tokens[role], body: { quantity: 11 } });
        const del = await call('DELETE', m.url, { token: tokens[role] });
        for (const [action, res] of [
          ['PATCH', patch],
          ['DELETE', del],
        ] as const) {
          expect(res.status, `${role} ${action} ${before.lock.type} → ${res.raw}`).toBe(CHANGE_LOCKED[role]);
          expect(res.body.error).toMatch(
            role === 'viewer' ? /^Missing capability: create_movement$/ : new RegExp(`^Movement ${m.id} is locked \\(${before.lock.type}: `),
          );
        }
      }
      expect(await read(m.url)).toEqual(before);
    }
  });

  it('automatic locks (older than the auto-lock period, the cycle closed) are lifted by nobody', async () => {
    const old = await aged(await movement());
    const inClosed = await movement();
    expect((await call('POST', `${base}/close`, { token: tokens.manager, body: { endDate: '2026-11-21' } })).status).toBe(200);
    for (const m of [old, inClosed]) {
      const before = await read(m.url);
      expect(before.lock.type).toBe('automatic');
      for (const role of ROLES) {
        const res = await put(role, m.url, 'unlock');
        expect(res.status, `${role} unlocks ${before.lock.reason} → ${res.raw}`).toBe(role === 'viewer' ? 403 : 409);
        if (role !== 'viewer') expect(res.body.error).toMatch(/automatic locks cannot be unlocked$/);
      }
      expect(await read(m.url)).toEqual(before);
    }
  });
});
