import { eventHandler } from '../../shared/events/handler.js';
import { continuityCaller } from '../../shared/services/continuity/jobs.js';
import { runContinuityJob } from '../../shared/services/continuity/worker.js';
import { continuityJobBody } from '../../schemas/compiled/continuity.js';

/**
 * Started by the export and restore routes (Lambda Invoke, `InvocationType: Event`): runs one job. A job
 * that is no longer pending is left alone, so Lambda's retries never run it twice; a failure is recorded
 * on the job (a restore removes what it wrote first).
 */
export const handler = eventHandler({ name: 'continuity-worker', caller: continuityCaller, payload: continuityJobBody }, async ({ event, ctx }) =>
  runContinuityJob(ctx, event),
);
