import { allDevicesOfFarm } from '../../db/devices.js';
import { rollupsBetween } from '../../db/sensor-readings.js';
import type { DeviceRecord } from '../../domain/iot/records.js';
import { HOUSE_DAY_METRICS, houseDaysOf, hourSpanOf, type HouseDay } from '../../domain/iot/house-days.js';
import type { SensorMetric } from '../../../schemas/vocabulary.js';

/**
 * The climate of a flock's house per farm-local day, for the analytics of its cycle (the expected water)
 * and the alarms judged on its days (the hottest hour, NH₃, humidity). Read from the hourly rollups of the
 * house's climate sensors: one Query per climate sensor over the whole cycle (per MB read: a 6-week cycle
 * of hours is one or two), never one per day; a house without a climate sensor costs nothing more.
 */

/** How a read finds a house's devices: from a farm list the caller already holds, else one Query (GSI1, the house's prefix). */
export type DevicesOfHouse = (farmId: string, houseId: string) => Promise<DeviceRecord[]>;

export const queryDevicesOfHouse: DevicesOfHouse = (farmId, houseId) => allDevicesOfFarm(farmId, { houseId });

/** The house's days from `from` to `to` (farm-local dates, both included) that have a climate reading. */
export async function houseClimateDays(devices: readonly DeviceRecord[], from: string, to: string, timeZone: string): Promise<HouseDay[]> {
  const metrics: readonly SensorMetric[] = HOUSE_DAY_METRICS;
  const sensors = devices.filter((d) => d.metrics.some((m) => metrics.includes(m)));
  if (sensors.length === 0 || to < from) return [];
  const span = hourSpanOf(from, to);
  const rollups = await Promise.all(sensors.map((d) => rollupsBetween(d.id, 'hour', span.first, span.last, { metrics: HOUSE_DAY_METRICS })));
  return houseDaysOf(rollups, timeZone).filter((d) => d.date >= from && d.date <= to);
}
