import { eventHandler } from '../../shared/events/handler.js';
import { checkDeviceHealth, deviceHealthCaller } from '../../shared/services/iot/device-health.js';

/** Every 5 minutes: records the devices that went stale or offline (the dashboard and incidents read the transitions). */
export const handler = eventHandler({ name: 'device-health', caller: deviceHealthCaller }, async ({ ctx }) => checkDeviceHealth(ctx));
