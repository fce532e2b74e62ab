/** Part b: POST /api/v1/iot/ingest and the IoT rule's function through serverless-offline (the local stack of `npm start`). */
import type { Stack } from '../../../scripts/lib/stack.js';
import { startBenchStack } from '../http-latency.js';
import { round } from '../stats.js';
import { childPid } from './cpu.js';
import { BATCH, type Metrics } from './frames.js';
import { print } from './report.js';
import type { Rig } from './rig.js';
import type { IngestionBenchOptions } from './types.js';

export async function overHttpRuns(rig: Rig, o: IngestionBenchOptions): Promise<void> {
  const { farmId, log, DEVICES, BATCHES, RULE_OFFLINE_FRAMES, newDevices, run } = rig;
  let offline: Stack | undefined;
  if (!o.skipHttp) {
    log(`\n   b. POST /api/v1/iot/ingest through serverless-offline (${DEVICES} connections, one device each, batches of ${BATCH})`);
    log('      starting serverless offline (in-process handlers, this table, ingest limit raised)…');
    const started = performance.now();
    offline = await startBenchStack(o.env);
    const offlinePid = childPid('offline');
    log(`      offline answering after ${round((performance.now() - started) / 1000, 1)} s`);
    try {
      const base = offline.baseUrl;
      const overHttp = async (d: { key: string }, frames: Array<{ ts: string; metrics: Metrics }>) => {
        const res = await fetch(`${base}/api/v1/iot/ingest`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Device-Key': d.key },
          body: JSON.stringify({ readings: frames }),
        });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`POST /api/v1/iot/ingest: ${res.status} ${text.slice(0, 500)}`);
        return (JSON.parse(text) as { data: { accepted: number } }).data.accepted;
      };
      await run('warm-up', await newDevices(DEVICES), 2, BATCH, overHttp, { metered: false, record: false });
      const h1 = await run('HTTP via offline, 1 connection', await newDevices(1), BATCHES, BATCH, overHttp, { metered: false, appPid: offlinePid });
      const hN = await run(`HTTP via offline, ${DEVICES} connections`, await newDevices(DEVICES), BATCHES, BATCH, overHttp, {
        metered: false,
        appPid: offlinePid,
      });

      log(`      the rule function through offline's Lambda invoke endpoint (RequestResponse), ${DEVICES} devices × ${RULE_OFFLINE_FRAMES} frames`);
      const fnUrl = `${offline.lambdaUrl}/2015-03-31/functions/flockwise-${offline.stage}-iotTelemetryRule/invocations`;
      const ruleOverLambdaApi = async (d: { id: string }, frames: Array<{ ts: string; metrics: Metrics }>) => {
        let accepted = 0;
        for (const f of frames) {
          const res = await fetch(fnUrl, {
            method: 'POST',
            body: JSON.stringify({ farmId, deviceId: d.id, receivedAt: Date.now(), ts: f.ts, metrics: f.metrics }),
          });
          const text = await res.text();
          if (res.status !== 200) throw new Error(`invoke iotTelemetryRule: ${res.status} ${text.slice(0, 500)}`);
          const out = JSON.parse(text) as { status: string; result?: { accepted: number }; reason?: string };
          if (out.status !== 'done') throw new Error(`rule dropped a frame: ${out.reason ?? text.slice(0, 300)}`);
          accepted += out.result!.accepted;
        }
        return accepted;
      };
      await run('warm-up', await newDevices(1), 1, 10, ruleOverLambdaApi, { metered: false, record: false });
      const hRule = await run(
        `rule function via offline Lambda API, ${DEVICES} devices`,
        await newDevices(DEVICES),
        1,
        RULE_OFFLINE_FRAMES,
        ruleOverLambdaApi,
        {
          metered: false,
          per: 'frame',
          appPid: offlinePid,
        },
      );
      hRule.run = `${hRule.run} (frames/s)`;
      log('      over HTTP (DynamoDB calls are made in offline’s process: those of the whole route above):');
      print([h1, hN, hRule]);
    } finally {
      await offline.stop();
    }
  }
}
