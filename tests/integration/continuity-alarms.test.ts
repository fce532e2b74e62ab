/**
 * Readiness alarms through the rules (real middleware, DynamoDB Local, the alarm job run in process as
 * tests/integration/rules.test.ts does): a farm whose last generator drill was 10 days ago and whose feed
 * lasts 2 days gets, from the alarm job, the default rules it lacked and two anomalies naming them
 * (deduplicated when the job runs again); a drill recorded clears the drill condition (no new firing).
 * A farm whose default rules predate the drill rule gains it once, and keeps it deleted once deleted.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { house, otherFarm } from '../support/farms.js';
import { db, tableName } from '../../shared/db/client.js';
import { defaultRulesMarkerKey } from '../../shared/db/keys.js';
import { runAlarmJob } from '../../shared/services/rules/jobs.js';
import { alarmJob } from '../support/anomalies.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DRILL = 'generatorDrillOverdueDays';

describe('readiness alarms', () => {
  it('an overdue generator drill and 2 days of feed raise two anomalies in the alarm job; a drill recorded clears the drill', async () => {
    // written straight to the table: a farm older than its default rules (the job writes them)
    const farmId = await otherFarm('Readiness farm');
    const houseId = await house(farmId, 'House 1');
    const manager = await userWith({ role: 'manager', farmIds: [farmId] });
    const fx = await flockWithCycle({ token: manager.token, farmId, houseId, startDate: day(-10) });
    await fx.move({ type: 'bird_inflow', date: day(-10), quantity: 1000, averageWeightGrams: 42 });
    await fx.move({ type: 'feed_delivery', date: day(-10), quantityKg: 1200, feedType: 'grower' });
    for (let d = -10; d <= -1; d++) {
      const res = await call('POST', `${fx.base}/daily-records`, {
        token: manager.token,
        body: { date: day(d), deaths: 1, feedKg: 100, waterLiters: 190, temperatureMinC: 19, temperatureMaxC: 22, humidityPct: 60 },
      });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    }
    const drill = (date: string, key: string) =>
      call('POST', '/api/v1/continuity/drills', {
        token: manager.token,
        body: { farmId, kind: 'generator', date, durationMinutes: 45, result: 'passed' },
        headers: { 'Idempotency-Key': key },
      });
    expect((await drill(day(-10), 'drill-old')).status).toBe(201);
    const anomalies = async () =>
      (await call('GET', '/api/v1/anomalies', { token: manager.token, query: { farmId, source: 'rule', limit: '100' } })).body.data as Json[];
    expect(await anomalies()).toEqual([]);

    // the readiness report and the rule share the due date: last drill + 7 days = day −3
    const readiness = (await call('GET', `/api/v1/continuity/farms/${farmId}/readiness`, { token: manager.token })).body.data as Json;
    expect(readiness.drills.find((d: Json) => d.kind === 'generator')).toMatchObject({ overdue: true, dueDate: day(-3), daysOverdue: 3 });
    expect(readiness.feed).toMatchObject({ daysLeft: 2, low: true });

    const job = await runAlarmJob(alarmJob('test-readiness'));
    expect(job.rules.errors).toEqual([]);
    expect(job.defaultRulesWritten).toBeGreaterThanOrEqual(1);
    const rules = (await call('GET', '/api/v1/rules', { token: manager.token, query: { farmId, limit: '100' } })).body.data as Json[];
    const drillRule = rules.find((r) => r.defaultKey === 'default:generator-drill')!;
    expect(drillRule).toMatchObject({ input: DRILL, basis: 'day', scope: { farmId }, condition: { op: '>', value: 0 } });
    expect(rules.find((r) => r.defaultKey === 'default:feed-left')).toMatchObject({ input: 'daysOfFeedLeft', condition: { op: '<', value: 3 } });

    // (the flat water against the birds' growing need may raise a water anomaly too: not this test's concern)
    const readinessAnomalies = async () => (await anomalies()).filter((a) => a.metric === DRILL || a.metric === 'daysOfFeedLeft');
    const raised = await readinessAnomalies();
    expect(raised.map((a) => a.metric).sort()).toEqual(['daysOfFeedLeft', DRILL]);
    const feed = raised.find((a) => a.metric === 'daysOfFeedLeft')!;
    expect(feed).toMatchObject({ flockId: fx.flock.id, observed: 2, expected: 3, status: 'open', occurrences: 1 });
    expect(feed.title).toMatch(/^Feed running out: 2 days/);
    const overdue = raised.find((a) => a.metric === DRILL)!;
    // judged at the end of yesterday: due day −3, so 2 days past
    expect(overdue).toMatchObject({ ruleId: drillRule.id, flockId: null, houseId: null, observed: 2, expected: 0, unit: 'days', occurrences: 1 });
    expect(overdue.title).toBe('Generator drill overdue: 2 days (farm Readiness farm)');
    expect(overdue.hypotheses[0].check).toMatch(/generator under load/);
    expect(overdue.dedupKey).toBe(`rule:${drillRule.id}:farm:${farmId}`);

    // the job again: nothing new to judge, nothing raised twice
    const again = await runAlarmJob(alarmJob('test-readiness-2'));
    expect(again.rules.firings).toBe(0);
    expect((await readinessAnomalies()).map((a) => [a.id, a.occurrences])).toEqual(raised.map((a) => [a.id, 1]));

    // a drill today: judged at the end of today the drill is not due, so no new firing
    expect((await drill(day(0), 'drill-today')).status).toBe(201);
    await runAlarmJob(alarmJob('test-readiness-3', new Date(Date.parse(`${day(1)}T00:30:00.000Z`))));
    const status = (await call('GET', `/api/v1/rules/${drillRule.id}`, { token: manager.token })).body.data.status as Json[];
    expect(status).toEqual([expect.objectContaining({ target: `farm:${farmId}`, state: 'ok', lastFiredAt: `${day(0)}T00:00:00.000Z` })]);
    const after = (await anomalies()).filter((a) => a.metric === DRILL);
    expect(after.map((a) => [a.id, a.occurrences])).toEqual([[overdue.id, 1]]);
  });

  it('a farm-level input cannot be scoped to a house', async () => {
    const farmId = await otherFarm('Scoped farm');
    const houseId = await house(farmId);
    const manager = await userWith({ role: 'manager', farmIds: [farmId] });
    const res = await call('POST', '/api/v1/rules', {
      token: manager.token,
      body: {
        name: 'Drill',
        scope: { farmId, houseId },
        input: DRILL,
        window: 'P1D',
        aggregation: 'last',
        condition: { op: '>', value: 0 },
        severity: 'warning',
        actions: ['raise_anomaly'],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'body.scope.houseId', message: `${DRILL} is a farm-level input: scope the rule to the farm alone` }]);
  });

  it('a farm whose default rules predate the drill rule gains it once; deleted, it stays deleted', async () => {
    const farmId = await otherFarm('Older farm');
    // the marker as the first default set wrote it (no key list)
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { ...defaultRulesMarkerKey(farmId), type: 'DefaultRules', at: '2026-01-01T00:00:00.000Z' } }),
    );
    const manager = await userWith({ role: 'manager', farmIds: [farmId] });
    const list = async () => (await call('GET', '/api/v1/rules', { token: manager.token, query: { farmId, limit: '100' } })).body.data as Json[];
    await runAlarmJob(alarmJob('test-upgrade'));
    const added = await list();
    expect(added.map((r) => r.defaultKey)).toEqual(['default:generator-drill']);
    await runAlarmJob(alarmJob('test-upgrade-2'));
    expect((await list()).length).toBe(1);
    expect((await call('DELETE', `/api/v1/rules/${added[0]!.id}`, { token: manager.token })).status).toBe(204);
    await runAlarmJob(alarmJob('test-upgrade-3'));
    expect(await list()).toEqual([]);
  });
});
