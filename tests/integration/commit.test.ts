import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulidx';
import { commit } from '../../shared/db/commit.js';
import { atLeast, isNew } from '../../shared/db/conditions.js';
import { db, dbCalls, resetDbCalls, tableName } from '../../shared/db/client.js';
import { listAudit } from '../../shared/db/audit.js';
import { commandContext } from '../../shared/domain/command.js';
import { systemCaller } from '../../shared/domain/caller.js';
import { Conflict, PreconditionFailed } from '../../shared/errors.js';

const ctx = (parts: Parameters<typeof commandContext>[1] = {}) => commandContext(systemCaller('commit-test', [], 'all'), { requestId: ulid(), ...parts });
const key = (id: string) => ({ PK: `TEST#${id}`, SK: 'META' });
const read = async (id: string) => (await db().send(new GetCommand({ TableName: tableName(), Key: key(id), ConsistentRead: true }))).Item;

describe('commit: the one write of a use case', () => {
  it('a create is conditioned on absence; a second create of the same id is a Conflict and writes nothing', async () => {
    const id = ulid();
    await commit(ctx(), { writes: [{ put: { ...key(id), name: 'a', version: 1 }, when: isNew() }] });
    await expect(commit(ctx(), { writes: [{ put: { ...key(id), name: 'b', version: 1 }, when: isNew() }] })).rejects.toThrow(
      'A record with this id already exists',
    );
    expect((await read(id))?.name).toBe('a');
  });

  it('a lone write is one plain call; with an audit entry it is one transaction', async () => {
    const id = ulid();
    resetDbCalls();
    await commit(ctx(), { writes: [{ put: { ...key(id), version: 1 }, when: isNew() }] });
    expect(dbCalls).toEqual({ PutItem: 1 });
    resetDbCalls();
    const c = ctx();
    await commit(c, {
      writes: [{ update: key(id), set: { name: 'x' }, version: { read: 1, what: `Test ${id}` } }],
      audit: [{ action: 'test.update', targetType: 'test', targetId: id, changes: { name: { from: null, to: 'x' } } }],
    });
    expect(dbCalls).toEqual({ TransactWriteItems: 1 });
    const item = await read(id);
    expect(item).toMatchObject({ name: 'x', version: 2, updatedAt: c.now.toISOString() });
    const audit = await listAudit({ limit: 5, targetId: id });
    expect(audit.items).toMatchObject([{ action: 'test.update', actorId: 'system:commit-test', requestId: c.requestId }]);
  });

  it('a stale version is a Conflict naming the record; a stale If-Match is PreconditionFailed before any call', async () => {
    const id = ulid();
    await commit(ctx(), { writes: [{ put: { ...key(id), version: 1 }, when: isNew() }] });
    await expect(commit(ctx(), { writes: [{ update: key(id), set: { n: 1 }, version: { read: 4, what: `Test ${id}` } }] })).rejects.toThrow(
      `Test ${id} was changed by another request (expected version 4)`,
    );
    resetDbCalls();
    const stale = ctx({ precondition: { version: 7, source: 'If-Match "7"' } });
    await expect(commit(stale, { writes: [{ update: key(id), set: { n: 1 }, version: { read: 1, what: 'Test', subject: true } }] })).rejects.toBeInstanceOf(
      PreconditionFailed,
    );
    await expect(commit(ctx(), { writes: [{ update: key(id), set: { n: 1 }, version: { read: 1, stated: 2, what: 'Test' } }] })).rejects.toThrow(
      'Test is at version 1, not 2',
    );
    expect(dbCalls).toEqual({});
    expect((await read(id))?.version).toBe(1);
  });

  it('a failed balance names itself and cancels every other write of the plan', async () => {
    const [stock, other] = [ulid(), ulid()];
    await commit(ctx(), { writes: [{ update: key(stock), add: { kg: 50 } }] });
    const refused = new Conflict('Only 50 kg in stock');
    await expect(
      commit(ctx(), {
        writes: [
          { put: { ...key(other), version: 1 }, when: isNew() },
          { update: key(stock), add: { kg: -80 }, when: atLeast('kg', 80), failed: () => refused },
        ],
      }),
    ).rejects.toBe(refused);
    expect(await read(other)).toBeUndefined();
    expect((await read(stock))?.kg).toBe(50);
  });

  it('adds strings to a set and takes them out; a set left empty is gone', async () => {
    const id = ulid();
    await commit(ctx(), { writes: [{ update: key(id), set: { type: 'Flag' }, addToSet: { ids: ['a', 'b'] } }] });
    expect((await read(id))?.ids).toEqual(new Set(['a', 'b']));
    await commit(ctx(), { writes: [{ update: key(id), deleteFromSet: { ids: ['a'] } }] });
    expect((await read(id))?.ids).toEqual(new Set(['b']));
    await commit(ctx(), { writes: [{ update: key(id), deleteFromSet: { ids: ['b'] } }] });
    expect(await read(id)).toEqual({ ...key(id), type: 'Flag' });
  });

  it('refuses a plan beyond one transaction before writing', async () => {
    const writes = Array.from({ length: 101 }, () => ({ put: { ...key(ulid()), version: 1 }, when: isNew() }));
    resetDbCalls();
    await expect(commit(ctx(), { writes })).rejects.toThrow('more than 100 records');
    expect(dbCalls).toEqual({});
  });
});
