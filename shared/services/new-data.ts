import { invokeAsync } from '../aws/lambda.js';
import type { NewDataEventBody } from '../../schemas/rules.js';
import { log } from '../platform/log.js';

/**
 * What new farm data sets off, for the write use cases (daily records, movements, weighings, sensor
 * frames): the alarms judge it in their own function (`rulesOnNewData`, started asynchronously), so a
 * write neither waits for the rules and detectors nor carries them in its bundle, and never fails
 * because of them. When the invocation cannot be queued, the write stands and the alarm job (every 15
 * minutes) judges the completed days and hours.
 */
async function announce(event: NewDataEventBody): Promise<void> {
  try {
    await invokeAsync('rulesOnNewData', event);
  } catch (err) {
    log.warn('alarms on new data not started', { event, error: err instanceof Error ? err.message : String(err) });
  }
}

/** A flock's day got new data: its daily rules and the detectors judge that day. */
export const alarmsOnFlockData = (flock: { farmId: string; flockId: string }, day: string) => announce({ kind: 'flock', ...flock, day });

/** A device of the house crossed into a new hour: the house's sensor rules judge the hours completed. */
export const alarmsOnSensorHour = (house: { farmId: string; houseId: string }) => announce({ kind: 'house', ...house });
