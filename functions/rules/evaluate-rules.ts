import { eventHandler } from '../../shared/events/handler.js';
import { rulesCaller } from '../../shared/services/rules/alarm-data.js';
import { runAlarmJob } from '../../shared/services/rules/jobs.js';

/** Every 15 minutes: every enabled rule of every farm up to the last complete hour or day, and the detectors on newly completed days. */
export const handler = eventHandler({ name: 'alarms', caller: rulesCaller }, async ({ ctx }) => runAlarmJob(ctx));
