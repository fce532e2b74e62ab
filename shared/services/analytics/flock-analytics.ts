import { canAccessFarm } from '../../domain/farm-access.js';
import { plainFigure } from '../../domain/analytics/figures.js';
import { type WeightFallbacks, cycleSummaryKpis, noKpis, type CycleSummaryKpis } from '../../domain/flock-analytics.js';
import { parseCompareSelection, type CompareRef } from '../../domain/flock-compare-selection.js';
import { KPI_CATALOGUE, KPIS_FROM_DAYS, bestPerKpi, changesBetween, kpiDefinition, rankBy, type RankableKpi } from '../../domain/flock-kpi-ranking.js';
import type { CycleLayerFigures } from '../../domain/analytics/layer-figures.js';
import { layerFiguresOf } from './layer-figures.js';
import type { CycleRecord } from '../../domain/flocks/records.js';
import type { FlockRecord } from '../../domain/flocks/records.js';
import { readFarmAndCycles, readFarmFlocks, readFlockHistory, readFlocksAndCycles, readLatestCycles, type FarmFlock } from '../../db/flock-analytics.js';
import { NotFound, ValidationFailed } from '../../errors.js';
import { completeAll } from './config.js';
import type { Caller } from '../../domain/caller.js';
import { farmOfRequest } from '../farms.js';
import type { CompareFlocksQuery, FlockRankingQuery } from '../../../schemas/flock-analytics.js';
import { ageDays, isoDate } from '../../platform/calendar.js';
import { ageOrigin } from '../../domain/age.js';

/**
 * Flock analytics: a flock's KPI history across its cycles, flocks and cycles side by side,
 * a farm's flocks ranked by one KPI. Every figure comes from the cycle records' running counters
 * (shared/domain/flock-analytics.ts), so each answer costs a few DynamoDB calls whatever the number of
 * movements, and compare/ranking cost the same for 2 broiler flocks as for 10 (see shared/db/flock-analytics.ts).
 * The layer figures that count days (hen-day, egg mass, feed per kg egg, per egg, per dozen) are the
 * Analytics V2 cycle KPIs' (./layer-figures.ts): one Query of each laying cycle's daily rollups more.
 * Farm scoping: a flock or cycle of a farm the caller may not see is NotFound, worded as a missing one.
 */

/** History reads at most this many cycles of a flock (the newest). */
export const MAX_HISTORY_CYCLES = 100;
/** Ranking considers at most this many flocks of a farm. */
export const MAX_RANKED_FLOCKS = 1000;

type FlockHead = Pick<FlockRecord, 'id' | 'farmId' | 'houseId' | 'name' | 'birdType' | 'breed' | 'hatchDate' | 'status' | 'activeCycleId'>;

const flockDto = (f: FlockHead) => ({
  id: f.id,
  name: f.name,
  farmId: f.farmId,
  houseId: f.houseId,
  birdType: f.birdType,
  breed: f.breed,
  hatchDate: f.hatchDate,
  status: f.status,
  activeCycleId: f.activeCycleId,
});

const cycleDto = (c: CycleRecord, now: Date) => ({
  id: c.id,
  name: c.name,
  status: c.status,
  startDate: c.startDate,
  endDate: c.endDate,
  ageDays: ageDays(ageOrigin(c).date, c.startDate, c.endDate, now),
});

const kpisOf = (c: CycleRecord, f: FlockHead, fallbacks: WeightFallbacks, now: Date, layer: ReadonlyMap<string, CycleLayerFigures>) =>
  cycleSummaryKpis(c, f, fallbacks, now, layer.get(c.id) ?? null);

const notFound = (labels: string[]) => new NotFound(labels.join('; '));
const flockLabel = (id: string) => `Flock ${id} not found`;
const cycleLabel = (flockId: string, cycleId: string) => `Cycle ${cycleId} of flock ${flockId} not found`;

// ---------------------------------------------------------------------------------------------------
// GET /api/v1/flock-analytics/{flockId}

export async function flockHistory(user: Caller, flockId: string, now = new Date()) {
  const { flock, cycles, complete, storedConfig } = await readFlockHistory(flockId, MAX_HISTORY_CYCLES);
  if (!flock || !canAccessFarm(user, flock.farmId)) throw notFound([flockLabel(flockId)]);
  const { fallbacks } = completeAll(storedConfig);
  const ordered = [...cycles].sort((a, b) => a.startDate.localeCompare(b.startDate) || a.id.localeCompare(b.id));
  const layer = await layerFiguresOf(ordered, fallbacks.eggWeightGrams, now);
  const withKpis = ordered.map((c) => ({ cycle: c, kpis: kpisOf(c, flock, fallbacks, now, layer) }));
  const best = bestPerKpi(withKpis.map((e) => ({ key: e.cycle.id, kpis: e.kpis })));
  return {
    asOf: isoDate(now),
    flock: flockDto(flock),
    complete,
    cycles: withKpis.map((e, i) => ({
      cycle: cycleDto(e.cycle, now),
      kpis: e.kpis,
      changes: i === 0 ? null : changesBetween(withKpis[i - 1]!.kpis, e.kpis),
    })),
    best: Object.fromEntries(Object.entries(best).map(([kpi, b]) => [kpi, b && { cycleId: b.key, figure: b.figure }])),
  };
}

// ---------------------------------------------------------------------------------------------------
// GET /api/v1/flock-analytics/compare

type Selected = 'active_cycle' | 'latest_cycle' | 'named' | 'none';

interface CompareItem {
  ref: CompareRef;
  flock: FlockRecord;
  cycle: CycleRecord | undefined;
  selectedBy: Selected;
}

export async function compareFlocks(user: Caller, query: CompareFlocksQuery, now = new Date()) {
  const { refs, problems } = parseCompareSelection(query);
  if (problems.length) throw new ValidationFailed(problems, `Cannot compare: ${problems.map((p) => p.message).join('; ')}`);

  // 1. the flocks, the named cycles and the analytics configuration: one BatchGetItem
  const flockIds = [...new Set(refs.map((r) => r.flockId))];
  const named = refs.flatMap((r) => (r.kind === 'cycle' ? [{ flockId: r.flockId, cycleId: r.cycleId }] : []));
  const first = await readFlocksAndCycles(flockIds, named, true);
  const { fallbacks } = completeAll(first.storedConfig);
  const visible = (id: string) => {
    const f = first.flocks.get(id);
    return f && canAccessFarm(user, f.farmId) ? f : undefined;
  };
  const missing: string[] = [];
  for (const r of refs) {
    if (!visible(r.flockId)) missing.push(flockLabel(r.flockId));
    else if (r.kind === 'cycle' && !first.cycles.has(`${r.flockId}:${r.cycleId}`)) missing.push(cycleLabel(r.flockId, r.cycleId));
  }
  if (missing.length) throw notFound([...new Set(missing)]);

  // 2. the active cycles of the flocks named by id: one BatchGetItem; 3. a flock without one: its latest cycle
  const flockRefs = refs.filter((r) => r.kind === 'flock');
  const active = flockRefs.flatMap((r) => {
    const id = visible(r.flockId)!.activeCycleId;
    return id && !first.cycles.has(`${r.flockId}:${id}`) ? [{ flockId: r.flockId, cycleId: id }] : [];
  });
  const second = active.length ? (await readFlocksAndCycles([], active)).cycles : new Map<string, CycleRecord>();
  const cycleByKey = new Map([...first.cycles, ...second]);
  const withoutActive = flockRefs
    .filter((r) => !visible(r.flockId)!.activeCycleId || !cycleByKey.has(`${r.flockId}:${visible(r.flockId)!.activeCycleId}`))
    .map((r) => r.flockId);
  const latest = withoutActive.length ? await readLatestCycles(withoutActive) : new Map<string, CycleRecord | undefined>();

  const items: CompareItem[] = refs.map((ref) => {
    const flock = visible(ref.flockId)!;
    if (ref.kind === 'cycle') return { ref, flock, cycle: cycleByKey.get(`${ref.flockId}:${ref.cycleId}`), selectedBy: 'named' };
    const act = flock.activeCycleId ? cycleByKey.get(`${flock.id}:${flock.activeCycleId}`) : undefined;
    if (act) return { ref, flock, cycle: act, selectedBy: 'active_cycle' };
    const last = latest.get(flock.id);
    return { ref, flock, cycle: last, selectedBy: last ? 'latest_cycle' : 'none' };
  });

  // a flock named by id must not stand for a cycle that is also named
  const dup = items.find((it, i) => it.cycle && items.some((o, j) => j !== i && o.cycle?.id === it.cycle!.id && it.ref.kind === 'flock'));
  if (dup) {
    const message = `flock ${dup.flock.id} stands for its cycle ${dup.cycle!.id}, which is also named: compare each cycle once`;
    throw new ValidationFailed([{ field: 'flockIds', message }], `Cannot compare: ${message}`);
  }

  const layer = await layerFiguresOf(
    items.flatMap((it) => (it.cycle ? [it.cycle] : [])),
    fallbacks.eggWeightGrams,
    now,
  );
  const rows = items.map((it) => ({
    key: it.ref.kind === 'flock' ? it.flock.id : `${it.flock.id}:${it.cycle!.id}`,
    selectedBy: it.selectedBy,
    flock: flockDto(it.flock),
    cycle: it.cycle ? cycleDto(it.cycle, now) : null,
    kpis: it.cycle ? kpisOf(it.cycle, it.flock, fallbacks, now, layer) : noKpis(`flock ${it.flock.id} has no cycle yet`),
  }));
  const best = bestPerKpi(rows.map((r, index) => ({ key: index, kpis: r.kpis })));
  return {
    asOf: isoDate(now),
    items: rows,
    best: Object.fromEntries(
      Object.entries(best).map(([kpi, b]) => [
        kpi,
        b && { item: b.key, key: rows[b.key]!.key, flockId: rows[b.key]!.flock.id, cycleId: rows[b.key]!.cycle?.id ?? null, figure: b.figure },
      ]),
    ),
  };
}

// ---------------------------------------------------------------------------------------------------
// GET /api/v1/flock-analytics/ranking

export async function rankFlocks(user: Caller, query: FlockRankingQuery, now = new Date()) {
  const farmId = farmOfRequest(user, query.farmId);
  const kpi = (query.kpi ?? 'fcr') as RankableKpi;
  const status = query.status ?? 'active';
  const limit = query.limit ?? 25;

  // 1. the farm's flocks (one Query); 2. the farm, the analytics configuration and their active cycles (one BatchGetItem)
  const { flocks, complete } = await readFarmFlocks(farmId, status, MAX_RANKED_FLOCKS);
  const activeRefs = flocks.flatMap((f) => (f.activeCycleId ? [{ flockId: f.id, cycleId: f.activeCycleId }] : []));
  const read = await readFarmAndCycles(farmId, activeRefs);
  if (!read.farm) throw new NotFound(`Farm ${farmId} not found`);
  const { fallbacks } = completeAll(read.storedConfig);
  // 3. status=all: a flock without an active cycle stands for its latest cycle (one Query each, in parallel)
  const activeOf = (f: FarmFlock) => (f.activeCycleId ? read.cycles.get(`${f.id}:${f.activeCycleId}`) : undefined);
  const latest = status === 'all' ? await readLatestCycles(flocks.filter((f) => !activeOf(f)).map((f) => f.id)) : new Map<string, CycleRecord | undefined>();

  const def = kpiDefinition(kpi);
  const chosen = flocks.map((f) => activeOf(f) ?? latest.get(f.id));
  // 4. a KPI counted over the laying period's days: each laying cycle's daily rollups (one Query each), the farm's time zone read above
  const layer = KPIS_FROM_DAYS.has(kpi)
    ? await layerFiguresOf(
        chosen.filter((c): c is CycleRecord => c !== undefined),
        fallbacks.eggWeightGrams,
        now,
        new Map([[farmId, read.timeZone]]),
      )
    : new Map<string, CycleLayerFigures>();
  const entries = flocks.map((f, i) => {
    const cycle = chosen[i];
    const reason = status === 'all' ? 'no cycle yet' : 'no active cycle';
    const kpis: CycleSummaryKpis = cycle ? kpisOf(cycle, f, fallbacks, now, layer) : noKpis(reason);
    return {
      item: { flock: f, cycle, selectedBy: (cycle ? (activeOf(f) ? 'active_cycle' : 'latest_cycle') : 'none') as Selected },
      name: f.name,
      id: f.id,
      figure: kpis[kpi],
    };
  });
  const ranked = rankBy(kpi, entries);
  return {
    farmId,
    kpi: { name: def.name, unit: def.unit, better: def.better, description: def.description },
    status,
    asOf: isoDate(now),
    total: ranked.length,
    ranked: ranked.filter((r) => r.rank !== null).length,
    complete,
    flocks: ranked.slice(0, limit).map((r) => ({
      rank: r.rank,
      flock: flockDto(r.item.flock),
      cycle: r.item.cycle ? cycleDto(r.item.cycle, now) : null,
      selectedBy: r.item.selectedBy,
      figure: plainFigure(r.figure),
    })),
  };
}

// ---------------------------------------------------------------------------------------------------
// GET /api/v1/flock-analytics/kpis

export const kpiCatalogue = () =>
  KPI_CATALOGUE.map((k) => ({ name: k.name, unit: k.unit, better: k.better, birdTypes: [...k.birdTypes], description: k.description }));
