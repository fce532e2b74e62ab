import type { CycleRecord } from '../../domain/flocks/records.js';
import { getFarm, getHouse } from '../../db/farms.js';
import { flockWithForecast } from '../../db/forecasts.js';
import { densityWarningsOf } from '../../domain/compliance/density-warnings.js';
import type { DensityWarning } from '../../../schemas/warnings.js';

/** The density warnings of birds entering `cycle`, for the use cases that have not read its placement yet. */
export async function densityWarnings(cycle: CycleRecord, birdsAdded: number, date: string): Promise<DensityWarning[]> {
  const { flock, forecast } = await flockWithForecast(cycle.flockId);
  if (!flock?.houseId) return [];
  const [house, farm] = await Promise.all([getHouse(cycle.farmId, flock.houseId), getFarm(cycle.farmId)]);
  return densityWarningsOf({ cycle, flock, forecast, house, farm }, birdsAdded, date);
}
