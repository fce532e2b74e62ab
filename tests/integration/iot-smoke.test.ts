import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { ingest, iotFarm, minutesAgo, registerDevice } from '../support/iot.js';

describe('iot smoke', () => {
  it('registers, ingests, reads', async () => {
    const f = await iotFarm();
    const d = await registerDevice(f);
    const r = await ingest(d.key, [
      { ts: minutesAgo(3), metrics: { temperatureC: 24, humidityPct: 60 } },
      { ts: minutesAgo(2), metrics: { temperatureC: 25, humidityPct: 140 } },
      { ts: minutesAgo(1), metrics: { temperatureC: 26, humidityPct: 62 } },
    ]);
    console.log(JSON.stringify(r.body));
    expect(r.status).toBe(200);
    const again = await ingest(d.key, [{ ts: minutesAgo(3), metrics: { temperatureC: 24, humidityPct: 60 } }]);
    console.log(JSON.stringify(again.body));
    const rd = await call('GET', `/api/v1/iot/devices/${d.id}/readings`, { token: f.token, query: { from: minutesAgo(120), to: new Date(Date.now() + 60_000).toISOString() } });
    console.log(JSON.stringify(rd.body));
    const raw = await call('GET', `/api/v1/iot/devices/${d.id}/readings`, { token: f.token, query: { resolution: 'raw', from: minutesAgo(120), to: new Date(Date.now() + 60_000).toISOString() } });
    console.log(JSON.stringify(raw.body));
    const c = await call('GET', `/api/v1/iot/houses/${f.houseId}/conditions`, { token: f.token });
    console.log(JSON.stringify(c.body));
    const g = await call('GET', `/api/v1/iot/devices/${d.id}`, { token: f.token });
    console.log(JSON.stringify(g.body));
  });
});
