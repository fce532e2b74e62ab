import { allFarmIds } from '../../db/flocks.js';
import { allEnabledRules, enabledRulesOfFarm } from '../../db/rules.js';
import type { CommandContext } from '../../domain/command.js';
import { AlarmData } from './alarm-data.js';
import { detectOnFlock, runDetectorJob } from '../detections.js';
import { ensureDefaultRules } from './defaults.js';
import { basisOf, evaluatePass, type PassResult } from './evaluation.js';
import type { NewDataEventBody } from '../../../schemas/rules.js';

/**
 * The alarm job (every 15 minutes): writes the default rules of farms older than rules, evaluates every
 * enabled rule of every farm up to the last complete hour or day, and runs the detectors on the days
 * completed since their last run. A failing rule, target or flock is recorded and the job goes on.
 */
export async function runAlarmJob(ctx: CommandContext) {
  const farmIds = await allFarmIds();
  const seeded = await Promise.all(farmIds.map((id) => ensureDefaultRules(ctx, id).catch(() => false)));
  const data = new AlarmData(ctx.now);
  const rules = await evaluatePass(ctx, await allEnabledRules(), data);
  const detectors = await runDetectorJob(ctx, farmIds, data);
  return { farms: farmIds.length, defaultRulesWritten: seeded.filter(Boolean).length, rules, detectors };
}

/**
 * New data of a flock (a daily record, a movement, a weighing on `day`): its farm's enabled daily rules
 * that apply to the flock and the detectors, over that day, on one read of the cycle.
 */
export async function onNewFlockData(ctx: CommandContext, flock: { farmId: string; flockId: string }, day: string): Promise<PassResult> {
  // the request a flock's day is judged in is named for it, whoever started the judging
  const judging = { ...ctx, requestId: `new-data:${flock.flockId}:${day}` };
  const data = new AlarmData(ctx.now);
  const rules = (await enabledRulesOfFarm(flock.farmId)).filter((r) => basisOf(r) === 'day');
  const result = await evaluatePass(judging, rules, data, { targetId: `flock:${flock.flockId}`, day });
  await detectOnFlock(judging, data, flock, { day });
  return result;
}

/** New sensor hours of a house (a device crossed into a new hour): its farm's enabled sensor rules for the house, up to the last complete hour. */
export async function rulesOnSensorData(ctx: CommandContext, house: { farmId: string; houseId: string }): Promise<PassResult> {
  const rules = (await enabledRulesOfFarm(house.farmId)).filter((r) => basisOf(r) === 'hour');
  return evaluatePass({ ...ctx, requestId: `new-data:${house.houseId}` }, rules, new AlarmData(ctx.now), { houseId: house.houseId });
}

/** The event `rulesOnNewData` is started with (../new-data.ts): a flock's day, or a house's completed hours. */
export async function onNewData(ctx: CommandContext, event: NewDataEventBody): Promise<PassResult> {
  return event.kind === 'flock' ? onNewFlockData(ctx, event, event.day) : rulesOnSensorData(ctx, event);
}
