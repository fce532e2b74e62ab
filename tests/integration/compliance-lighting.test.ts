/**
 * The photoperiod through the real middleware and DynamoDB Local: the daily form's `lightHours` and
 * `longestDarkHours` stored with the record, and the compliance report's lighting rule: a broiler day with
 * 3 h of darkness fails, 6 h with a 4 h uninterrupted block passes; a layer flock stepping up 2 h in one
 * week warns.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { day, flockWithCycle } from '../support/cycles.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function lightingOf(f: { token: string; flock: Json; cycle: Json }): Promise<Json> {
  const res = await call('GET', `/api/v1/compliance/cycles/${f.flock.id}/${f.cycle.id}/report`, { token: f.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data.rules as Json[]).find((r) => r.rule === 'lighting')!;
}

async function record(f: { token: string; base: string }, body: Json) {
  const res = await call('POST', `${f.base}/daily-records`, { token: f.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.record as Json;
}

const growing = { deaths: 0, feedKg: 0, waterLiters: 0, temperatureMinC: 24, temperatureMaxC: 27 };

describe('the compliance report’s lighting rule', { timeout: 120_000 }, () => {
  it('fails a broiler day with 3 h of darkness and passes 6 h with a 4 h uninterrupted block', async () => {
    const short = await flockWithCycle({ birdType: 'broiler', startDate: day(-20), hatchDate: day(-20) });
    await short.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    const stored = await record(short, { date: day(-5), ...growing, lightHours: 21 });
    expect(stored.fields).toMatchObject({ lightHours: 21 });
    const failed = await lightingOf(short);
    expect(failed.status).toBe('fail');
    expect(failed.findings).toEqual([
      expect.objectContaining({ status: 'fail', date: day(-5), message: expect.stringMatching(/3 h of darkness \(at least 6 h\)/) }),
    ]);
    expect(failed.source).toMatch(/2007\/43\/EC, Annex I, point 6/);

    const ok = await flockWithCycle({ birdType: 'broiler', startDate: day(-20), hatchDate: day(-20) });
    await ok.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    await record(ok, { date: day(-5), ...growing, lightHours: 18, longestDarkHours: 4 });
    const passed = await lightingOf(ok);
    expect(passed).toMatchObject({ status: 'pass', findings: [] });
    expect(passed.summary).toMatch(/^1 day\(s\) with a photoperiod recorded/);
  });

  it('a cycle’s own lighting programme: stored, shown, edited, its steps in age order (400 else), and the report warns off it', async () => {
    const lightingProgramme = [
      { fromAgeDays: 0, lightHours: 22 },
      { fromAgeDays: 14, lightHours: 18 },
    ];
    const f = await flockWithCycle({ birdType: 'broiler', startDate: day(-20), hatchDate: day(-20), cycle: { lightingProgramme } });
    expect(f.cycle.lightingProgramme).toEqual(lightingProgramme);
    await f.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    await record(f, { date: day(-5), ...growing, lightHours: 17 });
    const rule = await lightingOf(f);
    expect(rule.status).toBe('warn');
    expect(rule.findings).toEqual([
      expect.objectContaining({ status: 'warn', date: day(-5), message: expect.stringMatching(/17 h of light at 15 days, the cycle’s programme plans 18 h/) }),
    ]);
    const bad = await call('PATCH', f.base, { token: f.token, body: { lightingProgramme: [...lightingProgramme, { fromAgeDays: 14, lightHours: 16 }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'body.lightingProgramme.2.fromAgeDays', message: 'must be after the previous step’s age' }]);
    const edited = await call('PATCH', f.base, { token: f.token, body: { lightingProgramme: [{ fromAgeDays: 0, lightHours: 17 }] } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.lightingProgramme).toEqual([{ fromAgeDays: 0, lightHours: 17 }]);
    expect((await lightingOf(f)).status).toBe('pass');
  });

  it('warns when a laying flock steps up 2 h in one week', async () => {
    const f = await flockWithCycle({ birdType: 'layer', breed: 'Hy-Line Brown', startDate: day(-160), hatchDate: day(-160) });
    await f.move({ type: 'bird_inflow', date: day(-160), quantity: 1000 });
    const laying = { deaths: 0, feedKg: 0, waterLiters: 0, eggsCollected: 0 };
    await record(f, { date: day(-14), ...laying, lightHours: 13 });
    await record(f, { date: day(-7), ...laying, lightHours: 14 });
    expect((await lightingOf(f)).status).toBe('pass');
    await record(f, { date: day(-1), ...laying, lightHours: 16 });
    const rule = await lightingOf(f);
    expect(rule.status).toBe('warn');
    expect(rule.findings).toEqual([
      expect.objectContaining({ status: 'warn', date: day(-1), message: expect.stringMatching(/stepped up by 2 h within 7 days \(to 16 h\)/) }),
    ]);
  });
});
