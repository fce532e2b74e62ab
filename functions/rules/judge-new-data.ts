import { eventHandler } from '../../shared/events/handler.js';
import { rulesCaller } from '../../shared/services/rules/alarm-data.js';
import { onNewData } from '../../shared/services/rules/jobs.js';
import { newDataEventBody } from '../../schemas/compiled/rules.js';

/**
 * Started by the write routes (Lambda Invoke, `InvocationType: Event`) when a flock's day gets data or a
 * house's sensors cross into a new hour: the rules and detectors judge it. A failure is retried by
 * Lambda; the alarm job catches up on what is left.
 */
export const handler = eventHandler({ name: 'alarms-new-data', caller: rulesCaller, payload: newDataEventBody }, async ({ event, ctx }) =>
  onNewData(ctx, event),
);
