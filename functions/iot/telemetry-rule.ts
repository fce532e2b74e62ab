import { eventHandler } from '../../shared/events/handler.js';
import { ingestFromRule, telemetryCaller } from '../../shared/services/iot/ingestion.js';
import { telemetryEventBody } from '../../schemas/compiled/iot.js';

/**
 * The IoT Core topic rule `flockwise/+/devices/+/telemetry` (SQL in routes.yml): one device message with
 * the farm and device from the topic and the time IoT Core received it, through the same ingestion use
 * case as HTTP. An unknown or deleted device, or a farm that does not match, is logged and dropped.
 */
export const handler = eventHandler({ name: 'iot-telemetry', caller: telemetryCaller, payload: telemetryEventBody }, async ({ event }) =>
  ingestFromRule(event),
);
