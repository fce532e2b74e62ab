import { eventHandler } from '../../shared/events/handler.js';
import { predictiveJobCaller, runPredictiveJob } from '../../shared/services/predictive/runs.js';

/** Every hour: forecasts of every active cycle and failure risks of every device (PREDICTIVE_JOB_ENABLED=false: `{skipped: 'disabled'}`). */
export const handler = eventHandler({ name: 'predictive-job', caller: predictiveJobCaller }, async ({ ctx }) => runPredictiveJob(ctx));
