import { readCyclesDays, readFarmTimeZones } from '../../db/analytics.js';
import { isLayingType } from '../../domain/analytics/kpis/context.js';
import { cycleLayerFiguresOn, type CycleLayerFigures } from '../../domain/analytics/layer-figures.js';
import type { CycleRecord } from '../../domain/flocks/records.js';
import { localToday } from '../../platform/calendar.js';

/**
 * The layer figures of laying cycles read outside the cycle analytics (flock analytics, the dashboard's
 * layer cards): each layer or breeder cycle's daily rollups (one Query each) and its farm's today (the
 * farm's time zone: one BatchGetItem, unless the caller read them), then the same computation as the
 * Analytics V2 cycle KPIs (shared/domain/analytics/layer-figures.ts). Other cycles read nothing.
 */
export async function layerFiguresOf(
  cycles: ReadonlyArray<Pick<CycleRecord, 'id' | 'farmId' | 'birdType' | 'startDate' | 'endDate'>>,
  eggWeightFallback: number | null,
  now: Date,
  timeZones?: ReadonlyMap<string, string>,
): Promise<Map<string, CycleLayerFigures>> {
  const laying = cycles.filter((c) => isLayingType(c.birdType));
  if (!laying.length) return new Map();
  const [days, zones] = await Promise.all([readCyclesDays(laying.map((c) => c.id)), timeZones ?? readFarmTimeZones(laying.map((c) => c.farmId))]);
  return new Map(laying.map((c) => [c.id, cycleLayerFiguresOn(c, days.get(c.id) ?? [], localToday(now, zones.get(c.farmId) ?? 'UTC'), eggWeightFallback)]));
}
