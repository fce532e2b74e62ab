/**
 * OWASP API4:2023 (unrestricted resource consumption) for schedules: what one schedule costs a farm's
 * agenda and the worker's dashboard follows the window read, not how long ago the schedule started; a
 * timing cannot start decades back; a farm keeps at most MAX_SCHEDULES_PER_FARM schedules, also under
 * concurrent creates. Work is counted (the dates the occurrence expansion looks at, as `dbCalls` counts
 * DynamoDB calls), never timed.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.js';
import { scheduleCounterKey, scheduleKey } from '../../shared/db/keys.js';
import { expansionCounter } from '../../shared/domain/schedules/occurrences.js';
import { MAX_SCHEDULES_PER_FARM } from '../../shared/domain/schedules/decisions.js';
import { call } from '../support/api.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { otherFarm } from '../support/farms.js';
import { account, type Account } from './support/accounts.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A farm with its manager and worker. */
async function farm(name: string): Promise<{ farmId: string; manager: Account; worker: Account }> {
  const farmId = await otherFarm(name);
  const [manager, worker] = await Promise.all([account({ role: 'manager', farmIds: [farmId] }), account({ role: 'worker', farmIds: [farmId] })]);
  return { farmId, manager, worker };
}

const create = (token: string, body: Json) => call('POST', '/api/v1/schedules', { token, body: { kind: 'inspection', title: 'Rounds', ...body } });
const counterOf = async (farmId: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: scheduleCounterKey(farmId), ConsistentRead: true }))).Item?.count as number | undefined;

describe('a timing starts at most 3 years back', () => {
  it('a timing from 1000-01-01 (or a day before the horizon) is 400 naming timing.from, on create and on update; the horizon itself is accepted', async () => {
    const f = await farm('Horizon farm');
    const horizon = day(-1096);
    for (const timing of [
      { rrule: 'FREQ=DAILY', from: '1000-01-01' },
      { every: 1, unit: 'day', from: '1000-01-01' },
      { rrule: 'FREQ=WEEKLY;BYDAY=MO', from: day(-1097) },
    ]) {
      const res = await create(f.manager.token, { farmId: f.farmId, timing });
      expect(res.status, `${JSON.stringify(timing)} → ${res.raw}`).toBe(400);
      expect(res.body.details).toEqual([{ field: 'body.timing.from', message: `must be on or after ${horizon} (at most 1096 days, 3 years, before today)` }]);
    }
    const ok = await create(f.manager.token, { farmId: f.farmId, timing: { rrule: 'FREQ=DAILY', from: horizon } });
    expect(ok.status, ok.raw).toBe(201);
    const moved = await call('PATCH', `/api/v1/schedules/${ok.body.data.id}`, {
      token: f.manager.token,
      body: { timing: { every: 1, unit: 'day', from: '1000-01-01' } },
    });
    expect(moved.status, moved.raw).toBe(400);
    expect(moved.body.details[0].field).toBe('body.timing.from');
    // a COUNT that runs past 10 years is refused too (its last date is worked out when it is written)
    const long = await create(f.manager.token, { farmId: f.farmId, timing: { rrule: 'FREQ=MONTHLY;COUNT=200', from: day(0) } });
    expect(long.status, long.raw).toBe(400);
    expect(long.body.details[0].field).toBe('body.timing.rrule');
  });
});

describe('what a schedule costs an agenda follows the window, not its age', () => {
  let f: Awaited<ReturnType<typeof farm>>;
  let ids: string[];
  const TIMINGS: Json[] = [
    { rrule: 'FREQ=DAILY', from: day(-1096) },
    { rrule: 'FREQ=WEEKLY;BYDAY=MO,TH', from: day(-1096) },
    { rrule: 'FREQ=MONTHLY;BYMONTHDAY=1,-1', from: day(-1096) },
    { rrule: 'FREQ=DAILY;COUNT=1000', from: day(-990) },
    { rrule: 'FREQ=DAILY;BYDAY=FR;BYMONTHDAY=13', from: day(-1096) },
    { every: 1, unit: 'day', from: day(-1096) },
    { once: day(0) },
  ];

  beforeAll(async () => {
    f = await farm('Agenda cost farm');
    ids = [];
    for (const timing of TIMINGS) {
      const res = await create(f.manager.token, { farmId: f.farmId, timing });
      expect(res.status, `${JSON.stringify(timing)} → ${res.raw}`).toBe(201);
      ids.push(res.body.data.id);
    }
    // and the same daily rule stored from 1000-01-01, as a schedule written before the horizon existed
    const legacy = await create(f.manager.token, { farmId: f.farmId, timing: { rrule: 'FREQ=DAILY', from: day(-1) } });
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: scheduleKey(legacy.body.data.id),
        UpdateExpression: 'SET timing = :t',
        ExpressionAttributeValues: { ':t': { rrule: 'FREQ=DAILY', from: '1000-01-01' } },
      }),
    );
    ids.push(legacy.body.data.id);
  });

  /** The dates expanded while answering the request. */
  async function expandedBy(path: string, query: Record<string, string>, token: string) {
    expansionCounter.dates = 0;
    const res = await call('GET', path, { token, query });
    expect(res.status, res.raw.slice(0, 300)).toBe(200);
    return { dates: expansionCounter.dates, data: res.body.data as Json };
  }

  it('today’s agenda (and its overdue look-back of 92 days) expands about 93 dates per schedule, however old', async () => {
    const { dates, data } = await expandedBy('/api/v1/schedules/agenda', { farmId: f.farmId }, f.worker.token);
    // each schedule: the day itself, the 92 days before it, and a period on either side
    expect(dates).toBeLessThanOrEqual(ids.length * (1 + 92 + 31));
    const today = data.occurrences.filter((o: Json) => o.date === day(0)).map((o: Json) => o.scheduleId);
    expect(today).toEqual(expect.arrayContaining([ids[0], ids[3], ids[5], ids[6], ids[7]]));
    // the legacy rule from 1000-01-01 is still a daily rule today (its expansion did not stop on the way)
    expect(data.overdue.filter((o: Json) => o.scheduleId === ids[7])).toHaveLength(92);
  });

  it('the worker’s dashboard costs the same, and a 92-day window about 92 dates more per schedule', async () => {
    const dashboard = await expandedBy('/api/v1/dashboard', {}, f.worker.token);
    expect(dashboard.data.agenda.date).toBe(day(0));
    expect(dashboard.dates).toBeLessThanOrEqual(ids.length * (1 + 92 + 31));
    const quarter = await expandedBy('/api/v1/schedules/agenda', { farmId: f.farmId, from: day(0), to: day(91) }, f.worker.token);
    expect(quarter.dates).toBeLessThanOrEqual(ids.length * (92 + 92 + 31));
    expect(quarter.data.occurrences.filter((o: Json) => o.scheduleId === ids[0])).toHaveLength(92);
  });

  it('an agenda of a far-off window costs the same: the expansion jumps to the window', async () => {
    const far = await expandedBy('/api/v1/schedules/agenda', { farmId: f.farmId, from: '2099-01-01', to: '2099-01-31' }, f.worker.token);
    expect(far.dates).toBeLessThanOrEqual(ids.length * (31 + 92 + 31));
    const mine = (id: string) => far.data.occurrences.filter((o: Json) => o.scheduleId === id).map((o: Json) => o.date);
    expect(mine(ids[0]!)).toHaveLength(31);
    expect(mine(ids[3]!), 'COUNT=1000 ended years before').toEqual([]);
    const fridayThe13th = ['2099-01-13'].filter((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 5);
    expect(mine(ids[4]!), 'Friday the 13th').toEqual(fridayThe13th);
  });
});

describe(`a farm keeps at most ${MAX_SCHEDULES_PER_FARM} schedules`, () => {
  const setCount = (farmId: string, count: number) =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: scheduleCounterKey(farmId),
        UpdateExpression: 'SET #c = :c',
        ExpressionAttributeNames: { '#c': 'count' },
        ExpressionAttributeValues: { ':c': count },
      }),
    );

  it('concurrent creates at the cap: exactly the room left is created, the others are 409 naming the cap; a delete makes room', async () => {
    const f = await farm('Capped farm');
    const first = await create(f.manager.token, { farmId: f.farmId, timing: { once: day(1) } });
    expect(first.status, first.raw).toBe(201);
    expect(await counterOf(f.farmId)).toBe(1);
    await setCount(f.farmId, MAX_SCHEDULES_PER_FARM - 2);
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create(f.manager.token, { farmId: f.farmId, title: `Race ${i}`, timing: { once: day(1) } })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 409, 409, 409, 409]);
    for (const r of racing.filter((x) => x.status === 409))
      expect(r.body.error).toMatch(new RegExp(`^Farm ${f.farmId} has ${MAX_SCHEDULES_PER_FARM} schedules and keeps at most ${MAX_SCHEDULES_PER_FARM}`));
    expect(await counterOf(f.farmId)).toBe(MAX_SCHEDULES_PER_FARM);
    const listed = await call('GET', '/api/v1/schedules', { token: f.manager.token, query: { farmId: f.farmId, limit: '100' } });
    expect(listed.body.data).toHaveLength(3);

    // a programme of several schedules does not fit either
    const c = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-1) });
    const programme = await call('POST', '/api/v1/schedules/programmes/broiler-typical/apply', {
      token: f.manager.token,
      body: { flockId: c.flock.id, cycleId: c.cycle.id },
    });
    expect(programme.status, programme.raw).toBe(409);

    expect((await call('DELETE', `/api/v1/schedules/${first.body.data.id}`, { token: f.manager.token })).status).toBe(204);
    expect(await counterOf(f.farmId)).toBe(MAX_SCHEDULES_PER_FARM - 1);
    expect((await create(f.manager.token, { farmId: f.farmId, timing: { once: day(1) } })).status).toBe(201);
    expect((await create(f.manager.token, { farmId: f.farmId, timing: { once: day(1) } })).status).toBe(409);
  });

  it('a farm whose schedules predate the counter has them counted on its next create', async () => {
    const f = await farm('Counted farm');
    for (let i = 0; i < 3; i++) expect((await create(f.manager.token, { farmId: f.farmId, timing: { once: day(1) } })).status).toBe(201);
    await db().send(new DeleteCommand({ TableName: tableName(), Key: scheduleCounterKey(f.farmId) }));
    const listed = await call('GET', '/api/v1/schedules', { token: f.manager.token, query: { farmId: f.farmId } });
    await call('DELETE', `/api/v1/schedules/${listed.body.data[0].id}`, { token: f.manager.token });
    expect(await counterOf(f.farmId)).toBeUndefined();
    expect((await create(f.manager.token, { farmId: f.farmId, timing: { once: day(1) } })).status).toBe(201);
    expect(await counterOf(f.farmId)).toBe(3);
  });
});
