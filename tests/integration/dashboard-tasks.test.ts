/**
 * A task a dashboard shows is one its reader can do. For each role, a farm with something of every kind to
 * do (a cycle that started 30 days ago and one that starts in 3 days, incidents assigned to the worker,
 * health incidents and anomalies, a Salmonella sampling due, an open recommendation, a daily inspection
 * with overdue days), then every task and action item of the role's dashboard, performed over the API as
 * that role, must succeed:
 *   worker: `tasks` (daily forms, weighings), `dueActions` (incidents assigned to them: acknowledge a
 *           triggered one, note on an acknowledged one; anomaly checks: read the anomaly and its
 *           hypotheses, the check itself is done in the house), `agenda` (complete today's and overdue occurrences);
 *   manager, veterinarian, admin (the farm's view): Salmonella samplings due (record the sample), open
 *           incidents and anomalies (acknowledge, or resolve an acknowledged one), open recommendations (accept);
 *   viewer: reads only, so its dashboard lists nothing to do.
 */
import { describe, expect, it } from 'vitest';
import { call as inProcessCall } from '../support/api.js';
import { checkedCall } from '../support/contract.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { raiseAnomaly } from '../../shared/services/anomalies/raising.js';
import { jobContext } from '../support/anomalies.js';
import type { Role } from '../../shared/domain/capabilities.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every JSON response is checked against the closed schema of its operation. */
const call = checkedCall(inProcessCall);

const ok = async (what: string, res: Promise<{ status: number; body: Json }>) => {
  const r = await res;
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
};

/** A farm with something of every kind to do, and a user of `role` on it. */
async function situation(role: Exclude<Role, 'admin'> | 'admin') {
  const admin = await adminLogin();
  const farmId = (await call('POST', '/api/v1/config/farms', { token: admin, body: { name: `Tasks farm (${role})` } })).body.data.id as string;
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  const reader = role === 'admin' ? { id: '', token: admin } : role === 'manager' ? manager : await userWith({ role, farmIds: [farmId] });
  // broilers placed 30 days ago, to leave at 40 days: the Salmonella sampling before slaughter is due; no weighing, no form today
  const running = await flockWithCycle({ token: manager.token, farmId, startDate: day(-30), hatchDate: day(-30), cycle: { targetAgeDays: 40 } });
  await running.move({ type: 'bird_inflow', date: day(-30), quantity: 1000 });
  await running.move({ type: 'feed_delivery', date: day(-30), quantityKg: 20_000, feedType: 'grower' });
  // a cycle that starts in 3 days: nothing of it is due today
  await flockWithCycle({ token: manager.token, farmId, startDate: day(3), hatchDate: day(3) });
  const incident = (body: Json) =>
    call('POST', '/api/v1/operations/incidents', { token: manager.token, body: { farmId, severity: 'high', ...body } }).then((r) => r.body.data as Json);
  // a worker's incidents: one to take on, one already taken on; a health incident for the vet and the manager
  const assignee = role === 'worker' ? reader.id : manager.id;
  await incident({ title: 'Feeder line 2 stopped', category: 'equipment', assigneeId: assignee });
  const taken = await incident({ title: 'Door seal torn', category: 'equipment', assigneeId: assignee });
  await ok('acknowledge', call('POST', `/api/v1/operations/incidents/${taken.id}/acknowledge`, { token: manager.token, body: {} }));
  await incident({ title: 'Birds panting in the back', category: 'welfare' });
  const at = new Date(Date.now() - 3_600_000).toISOString();
  await raiseAnomaly(jobContext(), {
    farmId,
    houseId: null,
    flockId: running.flock.id,
    cycleId: running.cycle.id,
    source: 'rule',
    ruleId: null,
    detector: null,
    metric: 'dailyMortalityPct',
    unit: '%',
    observed: 1.4,
    expected: 0.5,
    deviation: 0.9,
    window: { from: new Date(Date.parse(at) - 86_400_000).toISOString(), to: at, duration: 'P1D' },
    startedOn: at.slice(0, 10),
    severity: 'warning',
    title: 'Mortality above 0.5 %',
    evidence: {},
    hypotheses: [{ cause: 'Heat stress', score: 0.6, supporting: [], contradicting: [], check: 'Check the house temperature at bird level' }],
    dedupKey: `tasks:${farmId}`,
    at,
  });
  await ok(
    'recommendation',
    call('POST', '/api/v1/optimization/recommendations', {
      token: admin,
      body: { flockId: running.flock.id, category: 'feed', description: 'Switch to finisher feed', expectedBenefit: 'FCR −0.05' },
    }),
  );
  const inspection = await call('POST', '/api/v1/schedules', {
    token: manager.token,
    body: { farmId, title: 'Walk the house', kind: 'inspection', timing: { every: 1, unit: 'day', from: day(-2) } },
  });
  expect(inspection.status, JSON.stringify(inspection.body)).toBe(201);
  const dashboard = async () => {
    const res = await call('GET', '/api/v1/dashboard', { token: reader.token, query: role === 'admin' ? { farmId } : {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Json;
  };
  return { farmId, token: reader.token, dashboard };
}

/** Performs every task and action item of a dashboard as its reader; answers how many it performed. */
async function walk(d: Json, token: string): Promise<number> {
  let done = 0;
  const perform = async (what: string, method: string, path: string, body?: Json) => {
    await ok(what, call(method, path, { token, ...(body ? { body } : {}) }));
    done++;
  };
  for (const t of d.tasks ?? []) {
    const base = `/api/v1/flocks/${t.flockId}/cycles/${t.cycleId}`;
    if (t.kind === 'daily_record') {
      const form = { date: t.due, deaths: 1, feedKg: 100, waterLiters: 190, temperatureMinC: 19, temperatureMaxC: 22, humidityPct: 60 };
      await perform(t.message, 'POST', `${base}/daily-records`, form);
    } else await perform(t.message, 'POST', `${base}/weights`, { date: t.due, grams: 1500 });
  }
  for (const a of d.dueActions ?? []) {
    if (a.kind === 'anomaly_check') {
      await perform(a.action, 'GET', `/api/v1/anomalies/${a.id}`);
      continue;
    }
    const status = (await call('GET', `/api/v1/operations/incidents/${a.id}`, { token })).body.data.status;
    if (status === 'triggered') await perform(a.action, 'POST', `/api/v1/operations/incidents/${a.id}/acknowledge`, { note: 'On it' });
    else await perform(a.action, 'POST', `/api/v1/operations/incidents/${a.id}/notes`, { text: 'Seal taped, new one ordered' });
  }
  for (const o of [...(d.agenda?.occurrences ?? []), ...(d.agenda?.overdue ?? [])].filter((x: Json) => x.status !== 'done' && x.status !== 'skipped')) {
    await perform(`${o.title} on ${o.date}`, 'POST', `/api/v1/schedules/${o.scheduleId}/occurrences/${o.date}/complete`, { notes: 'Walked' });
  }
  const farm = d.farm ?? d;
  for (const s of farm.salmonellaSamples ?? []) {
    await perform(`Salmonella sample of ${s.flockName}`, 'POST', '/api/v1/compliance/samples', {
      flockId: s.flockId,
      cycleId: s.cycleId,
      date: day(0),
      kind: 'boot_swabs',
    });
  }
  for (const i of farm.openIncidents?.latest ?? []) {
    await perform(i.title, 'POST', `/api/v1/operations/incidents/${i.id}/${i.status === 'triggered' ? 'acknowledge' : 'resolve'}`, {});
  }
  for (const a of farm.openAnomalies?.latest ?? []) {
    await perform(a.title, 'POST', `/api/v1/anomalies/${a.id}/${a.status === 'open' ? 'acknowledge' : 'resolve'}`, {});
  }
  for (const r of farm.openRecommendations?.latest ?? []) await perform(r.description, 'PUT', `/api/v1/optimization/recommendations/${r.id}/accept`, {});
  return done;
}

describe('every task a dashboard shows can be done by its reader', { timeout: 120_000 }, () => {
  it('worker: daily forms and weighings of started cycles, incidents assigned to them, anomaly checks, the agenda', async () => {
    const s = await situation('worker');
    const d = await s.dashboard();
    // the cycle that starts in 3 days has no form due
    expect(d.tasks.map((t: Json) => t.kind).sort()).toEqual(['daily_record', 'weighing']);
    expect(d.flocks.map((f: Json) => f.dailyRecordDue).sort()).toEqual([false, true]);
    expect(d.dueActions.map((a: Json) => a.action)).toEqual(
      expect.arrayContaining(['Acknowledge it and take it on', 'Check the house temperature at bird level']),
    );
    // 2 tasks, 2 incidents, 1 anomaly check, today's and 2 overdue inspections
    expect(await walk(d, s.token)).toBe(8);
    const after = await s.dashboard();
    expect(after.tasks).toEqual([]);
    expect(after.agenda.overdue).toEqual([]);
  });

  it('manager: daily forms missing count only cycles that started; samplings, incidents, anomalies and recommendations can be acted on', async () => {
    const s = await situation('manager');
    const d = await s.dashboard();
    expect(d.totals).toMatchObject({ activeFlocks: 2, dailyRecordsMissing: 1 });
    expect(await walk(d, s.token)).toBe(6);
  });

  it('veterinarian: samplings, health incidents and anomalies', async () => {
    const s = await situation('veterinarian');
    expect(await walk(await s.dashboard(), s.token)).toBe(3);
  });

  it('admin: the farm’s view, as the manager’s', async () => {
    const s = await situation('admin');
    const d = await s.dashboard();
    expect(d.farm.totals.dailyRecordsMissing).toBe(1);
    expect(await walk(d, s.token)).toBe(6);
  });

  it('viewer: nothing to do', async () => {
    const s = await situation('viewer');
    const d = await s.dashboard();
    expect(d.totals.dailyRecordsMissing).toBe(1);
    expect(await walk(d, s.token)).toBe(0);
  });
});
