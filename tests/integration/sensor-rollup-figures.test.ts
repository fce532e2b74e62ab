/**
 * What the rollups of a house's sensors answer through the real middleware and DynamoDB Local: a water
 * meter's hourly and daily buckets say the litres used (the counter's increase), and a sensor rule's max
 * judges the highest reading of its window, not the hour's mean.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { ingest, iotFarm, registerDevice, type IotFarm } from '../support/iot.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

async function readings(f: IotFarm, deviceId: string, query: Record<string, string>): Promise<Json> {
  const res = await call('GET', `/api/v1/iot/devices/${deviceId}/readings`, { token: f.token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe('sensor rollup figures', () => {
  it('a water meter’s hourly and daily buckets answer the litres used, not a sum of running totals', async () => {
    const f = await iotFarm();
    const meter = await registerDevice(f, { kind: 'water_meter', name: 'Meter', reportingIntervalSeconds: 600 });
    const h0 = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 4 * HOUR_MS;
    const at = (hour: number, minute: number) => new Date(h0 + hour * HOUR_MS + minute * 60_000).toISOString();
    const frames = [
      { ts: at(0, 10), metrics: { waterLitersTotal: 626_000 } },
      { ts: at(0, 40), metrics: { waterLitersTotal: 626_030 } },
      { ts: at(1, 10), metrics: { waterLitersTotal: 626_050 } },
      { ts: at(1, 50), metrics: { waterLitersTotal: 626_100 } },
      // hour 2: the meter is silent
      { ts: at(3, 10), metrics: { waterLitersTotal: 626_300 } },
      { ts: at(3, 20), metrics: { waterLitersTotal: 626_320 } },
    ];
    expect((await ingest(meter.key, frames)).body.data).toEqual({ accepted: 6, duplicates: 0, rejected: [] });

    const hourly = await readings(f, meter.id, { from: at(0, 0), to: at(4, 0) });
    const used = (buckets: Json[]) => buckets.map((b) => b.metrics.waterLitersTotal.used);
    // hour 0: from its first reading (nothing before); hour 1: from hour 0's last; hour 3: from its first (hour 2 had no reading)
    expect(used(hourly.buckets)).toEqual([30, 70, 20]);
    expect(hourly.buckets[1].metrics.waterLitersTotal).toMatchObject({ count: 2, first: 626_050, last: 626_100, used: 70 });
    // a period starting at hour 1 still counts hour 1 from hour 0's last reading
    expect(used((await readings(f, meter.id, { from: at(1, 0), to: at(4, 0), metric: 'waterLitersTotal' })).buckets)).toEqual([70, 20]);

    // days: the same rule; the hours may straddle midnight, the litres of the days add up either way
    const daily = await readings(f, meter.id, { resolution: 'day', from: new Date(h0 - DAY_MS).toISOString(), to: at(4, 0) });
    expect(used(daily.buckets).reduce((a: number, b: number) => a + b, 0)).toBe(626_320 - 626_000);
  });

  it('a sensor rule with max over 1 h fires on the highest reading while the hour’s mean stays below the threshold', async () => {
    const f = await iotFarm();
    const climate = await registerDevice(f, { kind: 'climate', metrics: ['temperatureC'] });
    const hourStart = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 2 * HOUR_MS;
    const temperatures = [30.2, 30.7, 31.2, 30.7];
    const frames = temperatures.map((temperatureC, i) => ({ ts: new Date(hourStart + i * 600_000).toISOString(), metrics: { temperatureC } }));
    expect((await ingest(climate.key, frames)).body.data.accepted).toBe(4);
    const backtest = async (aggregation: string) => {
      const rule = await call('POST', '/api/v1/rules', {
        token: f.token,
        body: {
          scope: { farmId: f.farmId },
          name: `Temperature ${aggregation} above 31 °C`,
          input: 'temperatureC',
          window: 'PT1H',
          aggregation,
          condition: { op: '>', value: 31 },
          severity: 'warning',
          actions: ['raise_anomaly'],
        },
      });
      expect(rule.status, JSON.stringify(rule.body)).toBe(201);
      const res = await call('POST', `/api/v1/rules/${rule.body.data.id}/test`, {
        token: f.token,
        body: { houseId: f.houseId, from: new Date(hourStart).toISOString(), to: new Date(hourStart + HOUR_MS).toISOString() },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    const max = await backtest('max');
    expect(max.firings.map((e: Json) => e.value)).toEqual([31.2]);
    const avg = await backtest('avg');
    expect(avg.firings).toEqual([]);
    expect(avg.evaluations.map((e: Json) => [e.outcome, e.value])).toEqual([['ok', 30.7]]);
  });
});
