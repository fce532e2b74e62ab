/** Part c: the IoT rule's function (functions/iot/telemetry-rule.ts) in process, one frame per invocation as the rule sends them. */
import type { Context } from 'aws-lambda';
import type { Metrics } from './frames.js';
import { fmtCounts, print } from './report.js';
import type { Rig } from './rig.js';
import type { ThroughputRow } from './types.js';

export async function ruleInProcessRun(rig: Rig): Promise<ThroughputRow> {
  const { farmId, log, DEVICES, RULE_FRAMES, telemetryRule, newDevices, run } = rig;
  log(`\n   c. IoT rule function (functions/iot/telemetry-rule.ts handler), one frame per invocation, ${DEVICES} devices × ${RULE_FRAMES} frames`);
  const ruleDevices = await newDevices(DEVICES);
  const ctx = { getRemainingTimeInMillis: () => 10_000, functionName: 'bench-iotTelemetryRule', awsRequestId: '' } as unknown as Context;
  const ruleInProcess = async (d: { id: string }, frames: Array<{ ts: string; metrics: Metrics }>) => {
    let accepted = 0;
    for (const f of frames) {
      const out = await telemetryRule({ farmId, deviceId: d.id, receivedAt: Date.now(), ts: f.ts, metrics: f.metrics }, { ...ctx, awsRequestId: '' });
      if (out.status !== 'done') throw new Error(`rule dropped a frame: ${out.reason}`);
      accepted += (out.result as { accepted: number }).accepted;
    }
    return accepted;
  };
  // The handler logs one JSON line per event (as in Lambda); kept off the terminal here.
  const consoleLog = console.log;
  console.log = () => {};
  let rule: ThroughputRow;
  try {
    await run('warm-up', await newDevices(1), 1, 20, ruleInProcess, { metered: false, record: false });
    rule = await run(`rule function in process, ${DEVICES} devices`, ruleDevices, 1, RULE_FRAMES, ruleInProcess, { metered: true, per: 'frame' });
  } finally {
    console.log = consoleLog;
  }
  rule.run = `${rule.run} (frames/s)`;
  print([rule]);
  log(`   per frame: DynamoDB calls ${fmtCounts(rule.calls!)}; failed calls: ${fmtCounts(rule.failedCalls!) || 'none'}`);
  log(`      in flight (% of wall time): ${fmtCounts(rule.inFlightPct!, '%')}`);
  return rule;
}
