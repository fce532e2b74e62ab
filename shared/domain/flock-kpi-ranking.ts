/**
 * The rankable KPIs of flock analytics (./flock-analytics.ts) and what their direction decides: the change
 * of each KPI from one cycle to the next, the best cycle per KPI, and a ranking of flocks or cycles.
 */
import { plainFigure } from './analytics/figures.js';
import type { Figure } from './analytics/inputs.js';
import { INDEX } from './analytics/kpis/context.js';
import { RANKABLE_KPIS, type RankableKpi } from '../../schemas/vocabulary.js';
import type { CycleSummaryKpis, KpiName } from './flock-analytics.js';
import { round, type BirdType } from './weights.js';

// ---------------------------------------------------------------------------------------------------
// The catalogue of rankable KPIs

export type Better = 'higher' | 'lower';

export interface KpiDefinition {
  name: KpiName;
  unit: string;
  better: Better;
  /** Bird types the KPI exists for (others answer null with a reason). */
  birdTypes: readonly BirdType[];
  description: string;
}

const ALL: readonly BirdType[] = ['broiler', 'layer', 'breeder'];
const LAYING: readonly BirdType[] = ['layer', 'breeder'];

export const KPI_CATALOGUE = [
  {
    name: 'fcr',
    unit: 'kg/kg',
    better: 'lower',
    birdTypes: ['broiler'],
    description: 'Feed conversion ratio: feed consumed kg ÷ (birds alive × latest weight kg)',
  },
  { name: 'livabilityPct', unit: '%', better: 'higher', birdTypes: ALL, description: 'Livability: (birds alive + sold + transferred out) ÷ housed × 100' },
  {
    name: 'mortalityPct',
    unit: '%',
    better: 'lower',
    birdTypes: ALL,
    description: 'Cumulative mortality: deaths ÷ housed × 100 (culls, sales and transfers kept apart)',
  },
  {
    name: 'epef',
    unit: INDEX,
    better: 'higher',
    birdTypes: ['broiler'],
    description: 'European Production Efficiency Factor: livability % × weight kg × 100 ÷ (age days × FCR)',
  },
  {
    name: 'adg',
    unit: 'g/day',
    better: 'higher',
    birdTypes: ALL,
    description: 'Average daily gain since placement: (latest weight − breed-standard placement weight) ÷ days from the start date',
  },
  { name: 'avgWeight', unit: 'g', better: 'higher', birdTypes: ALL, description: 'Average body weight of the latest weighing' },
  { name: 'henHousedEggs', unit: 'eggs/hen', better: 'higher', birdTypes: LAYING, description: 'Hen-housed eggs: eggs collected ÷ hens housed' },
  {
    name: 'feedPerEgg',
    unit: 'g/egg',
    better: 'lower',
    birdTypes: LAYING,
    description: 'Feed per egg: feed consumed in the laying period g ÷ eggs collected',
  },
  {
    name: 'feedPerDozenEggs',
    unit: 'kg/dozen',
    better: 'lower',
    birdTypes: LAYING,
    description: 'Feed per dozen eggs: feed consumed in the laying period kg × 12 ÷ eggs collected',
  },
  {
    name: 'henDayPct',
    unit: '%',
    better: 'higher',
    birdTypes: LAYING,
    description:
      'Hen-day production: eggs ÷ Σ hens present over the laying period’s days (from the first day with eggs; a day not over counts once its eggs are recorded) × 100',
  },
  {
    name: 'eggMassGrams',
    unit: 'g/hen/day',
    better: 'higher',
    birdTypes: LAYING,
    description: 'Egg mass: hen-day fraction × mean egg weight g, per hen and day',
  },
  {
    name: 'feedPerKgEgg',
    unit: 'kg/kg',
    better: 'lower',
    birdTypes: LAYING,
    description: 'Feed per kg of egg: feed consumed in the laying period kg ÷ (eggs × mean egg weight kg)',
  },
] as const satisfies readonly KpiDefinition[];

/** The KPIs counted over the laying period's days: a cycle's daily rollups give them (./analytics/layer-figures.ts), the running counters cannot. */
export const KPIS_FROM_DAYS: ReadonlySet<KpiName> = new Set<KpiName>(['henDayPct', 'eggMassGrams', 'feedPerKgEgg', 'feedPerEgg', 'feedPerDozenEggs']);

export { RANKABLE_KPIS, type RankableKpi };
/** The catalogue defines exactly the rankable KPIs of the interface: a KPI missing or extra on either side does not compile. */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _catalogueCoversRankable: Exactly<(typeof KPI_CATALOGUE)[number]['name'], RankableKpi> = true;

const DIRECTION: Partial<Record<KpiName, Better>> = Object.fromEntries(KPI_CATALOGUE.map((k) => [k.name, k.better]));

export const kpiDefinition = (name: RankableKpi): KpiDefinition => KPI_CATALOGUE.find((k) => k.name === name)!;

/** Is `a` better than `b` for this direction (strictly)? */
const beats = (better: Better, a: number, b: number) => (better === 'higher' ? a > b : a < b);

// ---------------------------------------------------------------------------------------------------
// History: change from one cycle to the next, best cycle per KPI

export interface KpiChange {
  previous: number | null;
  /** This cycle's value − the previous cycle's (rounded values), null when either is missing. */
  delta: number | null;
  /** The KPI's unit, which `previous` and `delta` are in (for a % KPI the delta is in percentage points). */
  unit: string;
  /** Whether the change is for the better (catalogue direction); null without a direction or a delta; false when unchanged. */
  improved: boolean | null;
}

/** The change of every KPI from `prev` to `cur`. */
export function changesBetween(prev: CycleSummaryKpis, cur: CycleSummaryKpis): Record<KpiName, KpiChange> {
  const out = {} as Record<KpiName, KpiChange>;
  for (const name of Object.keys(cur) as KpiName[]) {
    const a = prev[name].value;
    const b = cur[name].value;
    const delta = a === null || b === null ? null : round(b - a, 3) + 0;
    const better = DIRECTION[name];
    out[name] = { previous: a, delta, unit: cur[name].unit, improved: delta === null || !better ? null : delta === 0 ? false : beats(better, b!, a!) };
  }
  return out;
}

export interface Best<K> {
  key: K;
  /** The best entry's Figure (its value is never null). */
  figure: Figure;
}

/** Per catalogue KPI, the entry with the best value (the first of equals), or null when none has one. */
export function bestPerKpi<K>(entries: ReadonlyArray<{ key: K; kpis: CycleSummaryKpis }>): Record<RankableKpi, Best<K> | null> {
  const out = {} as Record<RankableKpi, Best<K> | null>;
  for (const def of KPI_CATALOGUE) {
    let best: Best<K> | null = null;
    for (const e of entries) {
      const f = e.kpis[def.name];
      if (f.value !== null && (best === null || beats(def.better, f.value, best.figure.value!))) best = { key: e.key, figure: plainFigure(f) };
    }
    out[def.name] = best;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Ranking

export interface RankEntry<T> {
  item: T;
  name: string;
  id: string;
  figure: Figure;
}

export interface Ranked<T> extends RankEntry<T> {
  /** 1 = best; equal values share a rank (1, 2, 2, 4); null for entries without a value. */
  rank: number | null;
}

/** Best first per the KPI's direction (ties by name, then id); entries without a value last, by name. */
export function rankBy<T>(kpi: RankableKpi, entries: ReadonlyArray<RankEntry<T>>): Ranked<T>[] {
  const { better } = kpiDefinition(kpi);
  const byName = (a: RankEntry<T>, b: RankEntry<T>) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  const valued = entries.filter((e) => e.figure.value !== null);
  valued.sort((a, b) => (a.figure.value! === b.figure.value! ? byName(a, b) : beats(better, a.figure.value!, b.figure.value!) ? -1 : 1));
  const ranked: Ranked<T>[] = valued.map((e, i) => ({ ...e, rank: i + 1 }));
  for (let i = 1; i < ranked.length; i++) if (ranked[i]!.figure.value === ranked[i - 1]!.figure.value) ranked[i]!.rank = ranked[i - 1]!.rank;
  const rest = entries
    .filter((e) => e.figure.value === null)
    .sort(byName)
    .map((e) => ({ ...e, rank: null }));
  return [...ranked, ...rest];
}
