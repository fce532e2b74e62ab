/**
 * What new farm data sets off, for the write use cases (daily records, movements, weighings, sensor
 * frames): the alarms judge it after the write, never failing it. The rule engine is loaded on first use,
 * so the write routes do not carry it in their bundle or pay for it at cold start.
 */

/** A flock's day got new data: its daily rules and the detectors judge that day. */
export async function alarmsOnFlockData(flock: { farmId: string; flockId: string }, day: string): Promise<void> {
  const { onNewFlockData } = await import('./rule-evaluation.js');
  await onNewFlockData(flock, day);
}

/** A device of the house crossed into a new hour: the house's sensor rules judge the hours completed. */
export async function alarmsOnSensorHour(house: { farmId: string; houseId: string }, requestId: string): Promise<void> {
  const { rulesOnSensorData } = await import('./rule-evaluation.js');
  await rulesOnSensorData(house, requestId);
}
