import { eventHandler } from '../../shared/events/handler.js';
import { flagOverdueVaccinations, schedulesJobCaller } from '../../shared/services/schedules/overdue.js';

/** Daily: vaccination occurrences past their farm-local date, neither done nor skipped, raise an anomaly each (deduplicated per occurrence). */
export const handler = eventHandler({ name: 'schedules', caller: schedulesJobCaller }, async ({ ctx }) => flagOverdueVaccinations(ctx));
