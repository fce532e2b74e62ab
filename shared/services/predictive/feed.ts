import { allDevicesOfFarm } from '../../db/devices.js';
import type { DeviceRecord } from '../../domain/iot/records.js';
import { rollupsBetween } from '../../db/sensor-readings.js';
import { addDays } from '../../platform/calendar.js';
import { feedKgOfDay } from '../../domain/iot/house-figures.js';
import { farmStockRunOut, runOutOf, TRAILING_DAYS, type FeedSupply } from '../../domain/predictive/feed.js';
import { PREDICTIVE_MODEL_VERSION, round3 } from '../../domain/predictive/model.js';
import type { FarmFeedForecast, FlockForecast, RunError } from '../../domain/predictive/records.js';

/** Feed for the forecasts (./runs.ts): the farm's silos and stock, what feeds each flock, the farm's run-out. */

export interface Silo {
  device: DeviceRecord;
  kg: number | null;
  dailyKg: number | null;
}

/** A silo sensor's latest kg and its mean daily outflow over the trailing days' rollups. */
export function siloOf(device: DeviceRecord, days: ReadonlyArray<{ stats: Parameters<typeof feedKgOfDay>[0] }>): Silo {
  const outflow = days.map((d) => feedKgOfDay(d.stats)).filter((kg): kg is number => kg !== null);
  return { device, kg: device.latest.siloKg?.value ?? null, dailyKg: outflow.length ? round3(outflow.reduce((a, b) => a + b, 0) / TRAILING_DAYS) : null };
}

/** The farm's silo sensors (devices reporting `siloKg`): each one's latest kg and mean daily outflow (continuity readiness). */
export async function silosOfFarm(
  farmId: string,
  asOf: string,
): Promise<Array<{ deviceId: string; houseId: string | null; kg: number | null; dailyKg: number | null }>> {
  const devices = (await allDevicesOfFarm(farmId, {})).filter((d) => d.metrics.includes('siloKg'));
  return Promise.all(
    devices.map(async (device) => {
      const s = siloOf(device, await rollupsBetween(device.id, 'day', addDays(asOf, -TRAILING_DAYS), addDays(asOf, -1)));
      return { deviceId: device.id, houseId: device.houseId, kg: s.kg, dailyKg: s.dailyKg };
    }),
  );
}

/** What feeds a flock: its house's silos when it has some with a reading, else the farm's stock (none when the farm records no stock). */
export function supplyOf(
  houseId: string | null,
  silos: readonly Silo[],
  stockKgByType: Record<string, number>,
  farm: { dailyKg: number; dailyKgByType: Record<string, number> },
): FeedSupply | null {
  const own = silos.filter((s) => s.device.houseId === houseId && s.kg !== null);
  if (houseId && own.length) {
    const measured = own.filter((s) => s.dailyKg !== null);
    return {
      source: 'silo',
      stockKg: own.reduce((a, s) => a + s.kg!, 0),
      dailyKg: measured.length ? measured.reduce((a, s) => a + s.dailyKg!, 0) : null,
    };
  }
  if (Object.keys(stockKgByType).length === 0) return null;
  return { source: 'farm_stock', stockKgByType, farmDailyKg: farm.dailyKg, farmDailyKgByType: farm.dailyKgByType };
}

/** The farm's feed forecast: its stock and silos against what its active cycles need until harvest. */
export function farmFeedForecast(
  farmId: string,
  asOf: string,
  computedAt: string,
  stockKgByType: Record<string, number>,
  consumption: { dailyKg: number; dailyKgByType: Record<string, number> },
  silos: readonly Silo[],
  forecasts: readonly FlockForecast[],
  errors: readonly RunError[],
): FarmFeedForecast {
  const stock = farmStockRunOut(stockKgByType, consumption, asOf);
  const siloList = silos.map((s) => {
    const r = s.kg !== null && s.dailyKg !== null ? runOutOf(s.kg, s.dailyKg, asOf) : { daysLeft: null, date: null };
    return {
      deviceId: s.device.id,
      houseId: s.device.houseId,
      name: s.device.name,
      kg: s.kg,
      dailyKg: s.dailyKg ?? 0,
      daysLeft: r.daysLeft,
      runOutDate: r.date,
    };
  });
  const needed = round3(forecasts.reduce((a, f) => a + (f.feed.neededKg ?? 0), 0));
  const available = stock.totalKg + siloList.reduce((a, s) => a + (s.kg ?? 0), 0);
  return {
    farmId,
    asOf,
    computedAt,
    modelVersion: PREDICTIVE_MODEL_VERSION,
    window: { from: addDays(asOf, -TRAILING_DAYS), to: addDays(asOf, -1) },
    stock,
    silos: siloList,
    neededUntilHarvestKg: needed,
    shortfallKg: round3(Math.max(0, needed - available)),
    flocksEvaluated: forecasts.length,
    flocksFailed: [...new Set(errors.flatMap((e) => (e.flockId ? [e.flockId] : [])))],
  };
}
