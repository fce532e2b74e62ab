import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';

const CONFIG = '/api/v1/config/analytics';

/** The file shares one table, so the tests run in order and each reads the version it starts from. */
async function current(token: string) {
  const res = await call('GET', CONFIG, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function history(token: string) {
  const res = await call('GET', `${CONFIG}/history`, { token, query: { limit: '100' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Array<Record<string, any>>;
}

describe('analytics configuration', () => {
  it('starts at the documented defaults (docs/domain.md), version 0, for any user with view_analytics', async () => {
    const viewer = await userWith({ role: 'viewer' });
    const res = await call('GET', CONFIG, { token: viewer.token });
    expect(res.status).toBe(200);
    expect(res.headers.ETag).toBe('"0"');
    const data = res.body.data;
    expect(data.version).toBe(0);
    expect(data.updatedAt).toBeNull();
    // the figures of docs/domain.md, spelled out here rather than read from the defaults object
    expect(data.thresholds).toMatchObject({
      dailyMortalityPct: 0.5,
      cumulativeMortalityBasePct: 1,
      cumulativeMortalityPerAgeDayPct: 0.06,
      ammoniaMaxPpm: 20,
      co2MaxPpm: 3000,
      waterPhMin: 6,
      waterPhMax: 8,
      broilerMaxKgPerM2: 33,
      waterFeedRatioMin: 1.6,
      waterFeedRatioMax: 2,
    });
    expect(data.ratios).toMatchObject({ correctedFcrReferenceGrams: 2500, correctedFcrPer100Grams: 0.02 });
    expect(data.consumption).toMatchObject({ broilerWaterMlPerBirdPerAgeDay: 5.7, layerWaterMlPerBirdPerDay: 210 });
    expect(Object.keys(data).sort()).toEqual([
      'consumption',
      'fallbacks',
      'pricing',
      'ratios',
      'thresholds',
      'unitConversions',
      'updatedAt',
      'updatedBy',
      'version',
    ]);
  });

  it('PUT replaces the named sections (omitted fields → defaults), keeps the others, versions and audits the change', async () => {
    const admin = await adminLogin();
    const before = await current(admin);
    const res = await call('PUT', CONFIG, {
      token: admin,
      headers: { 'If-Match': `"${before.version}"` },
      body: {
        pricing: { currency: 'XOF', feedPerKg: 310, feedPerKgByType: { starter: 350 } },
        ratios: { correctedFcrReferenceGrams: 1500, correctedFcrPer100Grams: 0.04 },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Analytics configuration updated');
    const data = res.body.data;
    expect(data.version).toBe(before.version + 1);
    expect(res.headers.ETag).toBe(`"${data.version}"`);
    expect(data.pricing).toEqual({ ...ANALYTICS_DEFAULTS.pricing, currency: 'XOF', feedPerKg: 310, feedPerKgByType: { starter: 350 } });
    expect(data.ratios.correctedFcrReferenceGrams).toBe(1500);
    expect(data.thresholds).toEqual(before.thresholds);
    expect(await current(admin)).toEqual(data);

    const versions = await history(admin);
    expect(versions[0]).toMatchObject({ version: data.version, changedSections: ['pricing', 'ratios'], updatedBy: expect.any(String) });
    expect(versions[0]!.config.pricing.currency).toBe('XOF');

    const audit = await call('GET', '/api/v1/admin/audit', { token: admin, query: { targetId: 'analytics' } });
    expect(audit.body.data[0]).toMatchObject({ action: 'analytics_config.update', changes: { pricing: { to: { currency: 'XOF' } } } });
  });

  it('a PUT that changes nothing makes no new version', async () => {
    const admin = await adminLogin();
    const before = await current(admin);
    const res = await call('PUT', CONFIG, {
      token: admin,
      body: { pricing: { currency: before.pricing.currency, feedPerKg: before.pricing.feedPerKg, feedPerKgByType: before.pricing.feedPerKgByType } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.version).toBe(before.version);
    expect((await history(admin)).length).toBe(before.version);
  });

  it('PUT …/thresholds replaces the thresholds only; a later full PUT without thresholds keeps them', async () => {
    const admin = await adminLogin();
    const before = await current(admin);
    const res = await call('PUT', `${CONFIG}/thresholds`, { token: admin, body: { dailyMortalityPct: 0.3, ammoniaMaxPpm: 15, version: before.version } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Analytics thresholds updated');
    expect(res.body.data.thresholds).toEqual({ ...ANALYTICS_DEFAULTS.thresholds, dailyMortalityPct: 0.3, ammoniaMaxPpm: 15 });
    expect(res.body.data.pricing).toEqual(before.pricing);
    const next = await call('PUT', CONFIG, { token: admin, body: { fallbacks: { eggWeightGrams: 62 } } });
    expect(next.body.data.thresholds.dailyMortalityPct).toBe(0.3);
    expect(next.body.data.fallbacks.eggWeightGrams).toBe(62);
    expect((await history(admin))[1]).toMatchObject({ changedSections: ['thresholds'] });
  });

  it('refuses bad input with 400 {error, details} and changes nothing', async () => {
    const admin = await adminLogin();
    const before = await current(admin);
    const cases: Array<[string, unknown, string]> = [
      [CONFIG, { thresholds: { waterPhMax: 15 } }, 'body.thresholds.waterPhMax'],
      [CONFIG, { pricing: { feedPerKg: -1 } }, 'body.pricing.feedPerKg'],
      [CONFIG, { pricing: { currency: 'euro' } }, 'body.pricing.currency'],
      [CONFIG, { ratios: { unknownRatio: 1 } }, 'body.ratios.unknownRatio'],
      [CONFIG, { colours: {} }, 'body.colours'],
      [CONFIG, {}, 'body'],
      [CONFIG, { fallbacks: { carryForwardWeightDays: 2.5 } }, 'body.fallbacks.carryForwardWeightDays'],
      [`${CONFIG}/thresholds`, { dailyMortalityPct: '0.5' }, 'body.dailyMortalityPct'],
      [`${CONFIG}/thresholds`, { pricing: {} }, 'body.pricing'],
    ];
    for (const [path, body, field] of cases) {
      const res = await call('PUT', path, { token: admin, body });
      expect(res.status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
      expect(
        res.body.details.map((d: { field: string }) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect(await current(admin)).toEqual(before);
  });

  it('refuses a low/high pair out of order, naming both fields (also for pairs completed with defaults)', async () => {
    const admin = await adminLogin();
    const before = await current(admin);
    const swapped = await call('PUT', `${CONFIG}/thresholds`, { token: admin, body: { waterPhMin: 8.5 } }); // default max is 8.0
    expect(swapped.status).toBe(400);
    expect(swapped.body.details[0]).toEqual({ field: 'body.waterPhMin', message: 'must not exceed thresholds.waterPhMax (8.5 > 8)' });
    const full = await call('PUT', CONFIG, { token: admin, body: { thresholds: { humidityMinPct: 80, humidityMaxPct: 60 } } });
    expect(full.status).toBe(400);
    expect(full.body.details[0].field).toBe('body.thresholds.humidityMinPct');
    expect(await current(admin)).toEqual(before);
  });

  it('optimistic concurrency: a stale If-Match is 412, a stale version 409, and of concurrent writers at one version exactly one wins', async () => {
    const admin = await adminLogin();
    const before = await current(admin);
    const stale = await call('PUT', CONFIG, {
      token: admin,
      headers: { 'If-Match': `"${before.version - 1}"` },
      body: { unitConversions: { eggsPerTray: 20 } },
    });
    expect(stale.status).toBe(412);
    const staleBody = await call('PUT', CONFIG, { token: admin, body: { unitConversions: { eggsPerTray: 20 }, version: before.version + 5 } });
    expect(staleBody.status).toBe(409);
    expect(staleBody.body.error).toMatch(/version/);

    const racers = await Promise.all(
      [12, 15, 18, 24, 36, 40].map((eggsPerTray) => call('PUT', CONFIG, { token: admin, body: { unitConversions: { eggsPerTray }, version: before.version } })),
    );
    const statuses = racers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    const after = await current(admin);
    expect(after.version).toBe(before.version + 1);
    const winner = racers.find((r) => r.status === 200)!;
    expect(after.unitConversions.eggsPerTray).toBe(winner.body.data.unitConversions.eggsPerTray);
    expect((await history(admin)).length).toBe(after.version);
  });

  it('only admins change it (update_analytics_config); reads need view_analytics', async () => {
    const manager = await userWith({ role: 'manager' });
    const put = await call('PUT', CONFIG, { token: manager.token, body: { ratios: { uniformityGoalPct: 70 } } });
    expect(put.status).toBe(403);
    const putThresholds = await call('PUT', `${CONFIG}/thresholds`, { token: manager.token, body: { dailyMortalityPct: 1 } });
    expect(putThresholds.status).toBe(403);
    const noCaps = await userWith({ role: 'viewer', capabilities: [] });
    expect((await call('GET', CONFIG, { token: noCaps.token })).status).toBe(403);
    expect((await call('GET', `${CONFIG}/history`, { token: noCaps.token })).status).toBe(403);
    expect((await call('GET', CONFIG, {})).status).toBe(401);
  });
});
