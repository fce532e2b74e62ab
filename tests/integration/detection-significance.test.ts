/**
 * The detectors' practical thresholds through the real middleware and DynamoDB Local: a laying flock of
 * 27,700 hens recording 1–3 deaths a day, then 7 in a day, opens no anomaly (each write runs the
 * detectors on its day); a flock losing 0.2 % in a day opens one; the analytics configuration's
 * `thresholds.significance` is shown and changed by GET/PUT, and a lower layer threshold makes the same
 * 7 deaths a detection. The configuration is one document per table: this file owns its table.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { day, flockWithCycle } from '../support/cycles.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BASE = [2, 1, 3, 2, 2, 1, 2, 3, 2, 1, 2, 2, 3, 2, 2, 1];

/** 27,700 Hy-Line Brown hens of 30 weeks placed 17 days ago, 1–3 deaths a day, then `lastDeaths` today. */
async function layingFlock(farmId: string, token: string, lastDeaths: number) {
  const f = await flockWithCycle({ token, farmId, birdType: 'layer', breed: 'Hy-Line Brown', startDate: day(-17), hatchDate: day(-210) });
  await f.move({ type: 'bird_inflow', date: day(-17), quantity: 27_700 });
  for (let n = 16; n >= 1; n--) await f.move({ type: 'bird_mortality', date: day(-n), quantity: BASE[16 - n]! });
  await f.move({ type: 'bird_mortality', date: day(0), quantity: lastDeaths });
  return f;
}

describe('the detectors’ practical thresholds', { timeout: 180_000 }, () => {
  it('7 dead hens of 27,700 open nothing, 0.2 % opens; a lower layer threshold in the configuration makes the 7 a detection', async () => {
    const farmId = await otherFarm('Layer farm');
    const manager = await userWith({ role: 'manager', farmIds: [farmId] });
    const anomalies = async (flockId: string) => {
      const res = await call('GET', '/api/v1/anomalies', { token: manager.token, query: { farmId, flockId, source: 'detector' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.data as Json[]).filter((a) => a.metric === 'dailyMortalityPct');
    };
    const detections = async (f: { flock: Json; cycle: Json }) => {
      const res = await call('GET', `/api/v2/analytics/anomalies/${f.flock.id}/${f.cycle.id}`, { token: manager.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.data.detections as Json[]).filter((d) => d.metric === 'dailyMortalityPct' && d.bucket === day(0));
    };

    const quiet = await layingFlock(farmId, manager.token, 7);
    expect(await anomalies(quiet.flock.id)).toEqual([]);
    expect(await detections(quiet)).toEqual([]);

    const dying = await layingFlock(farmId, manager.token, 55);
    const opened = await anomalies(dying.flock.id);
    expect(opened.length).toBeGreaterThan(0);
    expect(opened[0]).toMatchObject({ source: 'detector', evidence: expect.objectContaining({ practicalThreshold: 0.05, practicalUnit: '%' }) });

    // GET shows the thresholds per bird type; PUT of the thresholds section changes one field of one bird type
    const admin = await adminLogin();
    const before = await call('GET', '/api/v1/config/analytics', { token: manager.token });
    expect(before.body.data.thresholds.significance).toEqual({
      criticalFactor: 2,
      broiler: { dailyMortalityPct: 0.1, waterChangePct: 10, feedChangePct: 10, bodyWeightChangePct: 5 },
      layer: { dailyMortalityPct: 0.05, waterChangePct: 10, feedChangePct: 10, bodyWeightChangePct: 5 },
      breeder: { dailyMortalityPct: 0.05, waterChangePct: 10, feedChangePct: 10, bodyWeightChangePct: 5 },
    });
    const put = await call('PUT', '/api/v1/config/analytics/thresholds', { token: admin, body: { significance: { layer: { dailyMortalityPct: 0.02 } } } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data.thresholds.significance.layer).toEqual({ dailyMortalityPct: 0.02, waterChangePct: 10, feedChangePct: 10, bodyWeightChangePct: 5 });
    expect(put.body.data.thresholds.significance.broiler.dailyMortalityPct).toBe(0.1);
    expect((await detections(quiet)).length).toBeGreaterThan(0);
    // an unknown field of a bird type is refused, naming it
    const bad = await call('PUT', '/api/v1/config/analytics/thresholds', { token: admin, body: { significance: { layer: { mortality: 1 } } } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.details)).toContain('body.significance.layer');
  });
});
