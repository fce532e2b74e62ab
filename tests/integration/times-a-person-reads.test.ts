/**
 * An instant a person reads as when something happened is a real time, never in the future. Today's
 * daily record is judged at once (the rules on new data): the day judged ends at midnight, hours from now.
 * The anomaly it raises, the incident a rule opens, the rule's status and the dashboards then say when it
 * was seen (now, at the latest), and the day judged is a field of its own (`judgedUntil`).
 */
import { describe, expect, it } from 'vitest';
import { call as inProcessCall } from '../support/api.js';
import { checkedCall } from '../support/contract.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { day, flockWithCycle } from '../support/cycles.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every JSON response is checked against the closed schema of its operation. */
const call = checkedCall(inProcessCall);

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** The instants of a text (an incident's description). */
const instantsIn = (text: string) => text.match(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g) ?? [];

describe('times a person reads', () => {
  it('a day judged before it ends: seen now at the latest, the day judged in judgedUntil (anomaly, incident, rule status, dashboards)', async () => {
    const admin = await adminLogin();
    const farmId = (await call('POST', '/api/v1/config/farms', { token: admin, body: { name: 'Clock farm' } })).body.data.id as string;
    const manager = await userWith({ role: 'manager', farmIds: [farmId] });
    const worker = await userWith({ role: 'worker', farmIds: [farmId] });
    const fx = await flockWithCycle({ token: manager.token, farmId, startDate: day(-30), hatchDate: day(-30) });
    await fx.move({ type: 'bird_inflow', date: day(-30), quantity: 1000 });
    const rule = await call('POST', '/api/v1/rules', {
      token: manager.token,
      body: {
        scope: { farmId },
        name: 'Mortality above 1 %',
        input: 'dailyMortalityPct',
        window: 'P1D',
        aggregation: 'last',
        condition: { op: '>', value: 1 },
        severity: 'critical',
        actions: ['raise_anomaly', 'open_incident'],
        cooldownMinutes: 0,
      },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const today = day(0);
    const endOfToday = `${day(1)}T00:00:00.000Z`;
    const form = { date: today, deaths: 20, feedKg: 0, waterLiters: 190, temperatureMinC: 19, temperatureMaxC: 22, humidityPct: 60 };
    const saved = await call('POST', `${fx.base}/daily-records`, { token: manager.token, body: form });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const now = new Date().toISOString();

    const anomalies = (await call('GET', '/api/v1/anomalies', { token: manager.token, query: { farmId, flockId: fx.flock.id, source: 'rule' } })).body
      .data as Json[];
    const anomaly = anomalies.find((a) => a.ruleId === rule.body.data.id)!;
    expect(anomaly, 'the rule fired on today’s record').toBeDefined();
    expect(anomaly).toMatchObject({ judgedUntil: endOfToday, window: { to: endOfToday } });
    for (const field of ['firstSeenAt', 'lastSeenAt'] as const) {
      expect(anomaly[field], field).toMatch(ISO);
      expect(anomaly[field] <= now, `${field} ${anomaly[field]} is not after ${now}`).toBe(true);
      expect(anomaly[field] >= `${today}T00:00:00.000Z`, field).toBe(true);
    }

    const incidents = (await call('GET', '/api/v1/operations/incidents', { token: manager.token, query: { farmId } })).body.data as Json[];
    const incident = incidents.find((i) => i.links.anomalyIds.includes(anomaly.id))!;
    const firedAt = instantsIn(incident.description)[0]!;
    expect(incident.description).toContain(`fired at ${firedAt}`);
    expect(firedAt <= now, `the incident says it fired at ${firedAt}`).toBe(true);

    const status = ((await call('GET', `/api/v1/rules/${rule.body.data.id}`, { token: manager.token })).body.data.status as Json[]).find(
      (s) => s.target === `flock:${fx.flock.id}`,
    )!;
    expect(status).toMatchObject({ state: 'fired', judgedUntil: endOfToday });
    for (const field of ['lastEvaluatedAt', 'lastFiredAt'] as const) expect(status[field] <= now, `${field} ${status[field]}`).toBe(true);

    const due = ((await call('GET', '/api/v1/dashboard', { token: worker.token })).body.data.dueActions as Json[]).find((a) => a.id === anomaly.id)!;
    expect(due.since).toBe(anomaly.firstSeenAt);
    const latest = (await call('GET', '/api/v1/dashboard', { token: manager.token })).body.data.openAnomalies.latest as Json[];
    expect(latest.find((a) => a.id === anomaly.id)).toMatchObject({ firstSeenAt: anomaly.firstSeenAt, lastSeenAt: anomaly.lastSeenAt });

    // the same day judged again (the record corrected) is one more occurrence, seen later, still judged until the day's end
    const again = await call('POST', `${fx.base}/daily-records`, { token: manager.token, body: { ...form, deaths: 25 } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const repeated = (await call('GET', `/api/v1/anomalies/${anomaly.id}`, { token: manager.token })).body.data as Json;
    expect(repeated).toMatchObject({ occurrences: 2, judgedUntil: endOfToday, firstSeenAt: anomaly.firstSeenAt });
    expect(repeated.lastSeenAt >= anomaly.lastSeenAt && repeated.lastSeenAt <= new Date().toISOString()).toBe(true);
  });
});
