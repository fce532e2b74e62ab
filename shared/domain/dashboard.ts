/**
 * The dashboard's figures (GET /api/v1/dashboard), pure: built from what the rollups already
 * hold (each active cycle's running counters, its daily rollups of today and yesterday, today's daily
 * form, the farm's stock and running withdrawals), never from raw movements. A laying flock's card
 * shows its cycle's layer figures (./analytics/layer-figures.ts, from the cycle's daily rollups: the
 * same values as the Analytics V2 cycle KPIs).
 */
import type { AnalyticsSections, ThresholdsConfig } from '../../schemas/analytics-config.js';
import { missing } from './analytics/figures.js';
import type { DayTotals, Figure } from './analytics/inputs.js';
import { isLayingType } from './analytics/kpis/context.js';
import type { CycleLayerFigures } from './analytics/layer-figures.js';
import type { CycleCounters } from './cycle-summary.js';
import { ageDays, daysBetween } from '../platform/calendar.js';
import { ageOrigin } from './age.js';
import { headlineKpis } from './flock-analytics.js';
import { round, type BirdType } from './weights.js';

export interface FlockToday {
  flock: { id: string; name: string; birdType: BirdType; breed: string | null };
  cycle:
    | (CycleCounters & {
        id: string;
        startDate: string;
        hatchDate: string | null;
        placedOn?: string | null;
        endDate: string | null;
        latestWeight: { date: string; grams: number } | null;
      })
    | null;
  today: DayTotals | null;
  yesterday: DayTotals | null;
  dailyRecordToday: boolean;
}

export interface Alert {
  flockId: string;
  flockName: string;
  date: string;
  metric: 'dailyMortality' | 'waterPh' | 'waterDrop' | 'noDailyRecord';
  severity: 'info' | 'warning' | 'critical';
  message: string;
}

export interface Task {
  kind: 'daily_record' | 'weighing';
  flockId: string;
  flockName: string;
  cycleId: string;
  due: string;
  message: string;
}

/** Weigh at least once a week: a cycle older than this without a weighing this recent gets a task. */
export const WEIGHING_INTERVAL_DAYS = 7;

const dayFigures = (d: DayTotals | null) => ({
  deaths: d?.deaths ?? 0,
  culls: d?.culls ?? 0,
  feedKg: d?.feedConsumedKg ?? 0,
  waterLiters: d?.waterLiters ?? 0,
  eggsCollected: d?.eggsCollected ?? 0,
});

/**
 * Whether a flock's active cycle had birds and has none left (all sold, transferred out or dead): its house is
 * empty and the cycle awaits closing. A cycle that has not received its birds yet is not emptied.
 */
export const isEmptied = (f: Pick<FlockToday, 'cycle'>): boolean => f.cycle !== null && f.cycle.alive <= 0 && f.cycle.placed + f.cycle.transferredIn > 0;

/**
 * The flocks the dashboard lists (cards, alerts, tasks): those with an active cycle that still has birds or
 * awaits them. A flock without an active cycle (closed, or none opened yet) and an emptied one are not
 * among them: an emptied one is listed apart, to be closed (`emptiedFlock`).
 */
export const isListed = (f: Pick<FlockToday, 'cycle'>): boolean => f.cycle !== null && !isEmptied(f);

/** An emptied flock as the manager's dashboard lists it: the cycle to close, and the last day birds left it (null when not found). */
export function emptiedFlock(f: FlockToday, emptiedOn: string | null) {
  const c = f.cycle!;
  return {
    flockId: f.flock.id,
    name: f.flock.name,
    birdType: f.flock.birdType,
    cycleId: c.id,
    startDate: c.startDate,
    emptiedOn,
    message: `${f.flock.name} has no birds left${emptiedOn ? ` since ${emptiedOn}` : ''}: close its cycle`,
  };
}

/** Whether today's daily form of the flock is still to fill: its cycle has started (a cycle that starts later has no record missing) and no form is saved. */
export const dailyRecordDue = (f: Pick<FlockToday, 'cycle' | 'dailyRecordToday'>, today: string): boolean =>
  f.cycle !== null && f.cycle.startDate <= today && !f.dailyRecordToday;

/** Birds alive at the start of a day from the counters at its end: undo the day's own movements. */
const aliveAtStartOf = (aliveNow: number, d: DayTotals | null) =>
  aliveNow + (d ? d.deaths + d.culls + d.sold + d.transferredOut - d.placed - d.transferredIn : 0);

/** A flock's headline: its age, birds and the cycle summary's headline KPIs (`fallbacks` decide the weight FCR and EPEF use). */
export function flockHeadline(f: FlockToday, today: string, fallbacks: AnalyticsSections['fallbacks']) {
  const c = f.cycle;
  const date = new Date(`${today}T12:00:00Z`);
  return {
    flockId: f.flock.id,
    name: f.flock.name,
    birdType: f.flock.birdType,
    cycleId: c?.id ?? null,
    ageDays: c ? ageDays(ageOrigin(c).date, c.startDate, c.endDate, date) : null,
    birdsAlive: c?.alive ?? 0,
    ...headlineKpis(c && { ...c, birdType: f.flock.birdType }, { breed: f.flock.breed, fallbacks }, date),
    latestWeight: c?.latestWeight ?? null,
  };
}

/** The layer figures a laying flock's card shows. */
export const LAYER_CARD_FIGURES = ['henDayPct', 'eggMassGrams', 'feedPerKgEgg'] as const;

/**
 * A flock's card: a broiler's (`kind: 'broiler'`, mortality, livability, FCR, EPEF) or a laying flock's
 * (`kind: 'layer'`, layers and breeders: mortality, livability, hen-day, egg mass, feed per kg egg), with
 * today's and yesterday's figures. `layer`: the cycle's layer figures (null: no active cycle).
 */
export function flockCard(f: FlockToday, today: string, fallbacks: AnalyticsSections['fallbacks'], layer: CycleLayerFigures | null = null) {
  const { fcr, epef, ...head } = flockHeadline(f, today, fallbacks);
  const day = {
    today: dayFigures(f.today),
    yesterday: dayFigures(f.yesterday),
    dailyRecordToday: f.dailyRecordToday,
    dailyRecordDue: dailyRecordDue(f, today),
  };
  if (!isLayingType(f.flock.birdType)) return { kind: 'broiler' as const, ...head, fcr, epef, ...day };
  const pick = (name: (typeof LAYER_CARD_FIGURES)[number], unit: string): Figure =>
    layer ? layer[name] : missing(unit, f.cycle ? 'the cycle’s daily rollups were not read' : 'no active cycle');
  return {
    kind: 'layer' as const,
    ...head,
    henDayPct: pick('henDayPct', '%'),
    eggMassGrams: pick('eggMassGrams', 'g/hen/day'),
    feedPerKgEgg: pick('feedPerKgEgg', 'kg/kg'),
    ...day,
  };
}

export function alertsOf(flocks: readonly FlockToday[], t: ThresholdsConfig, today: string): Alert[] {
  const out: Alert[] = [];
  for (const f of flocks) {
    if (!f.cycle) continue;
    const base = { flockId: f.flock.id, flockName: f.flock.name };
    const start = aliveAtStartOf(f.cycle.alive, f.today);
    const deaths = f.today?.deaths ?? 0;
    if (start > 0 && deaths > 0) {
      const pct = round((deaths / start) * 100, 2);
      if (pct > t.dailyMortalityPct) {
        out.push({
          ...base,
          date: today,
          metric: 'dailyMortality',
          severity: pct >= 2 * t.dailyMortalityPct ? 'critical' : 'warning',
          message: `${deaths} dead today (${pct} % of ${start}), above the ${t.dailyMortalityPct} % alarm`,
        });
      }
    }
    for (const ph of f.today?.waterPh ?? []) {
      if (ph < t.waterPhMin || ph > t.waterPhMax) {
        out.push({
          ...base,
          date: today,
          metric: 'waterPh',
          severity: Math.min(Math.abs(ph - t.waterPhMin), Math.abs(ph - t.waterPhMax)) >= 1 ? 'critical' : 'warning',
          message: `Drinking water pH ${ph} is outside ${t.waterPhMin}–${t.waterPhMax}`,
        });
        break;
      }
    }
    const [water, before] = [f.today?.waterLiters ?? 0, f.yesterday?.waterLiters ?? 0];
    if (water > 0 && before > 0 && water < before * 0.85) {
      out.push({
        ...base,
        date: today,
        metric: 'waterDrop',
        severity: 'warning',
        message: `Water ${water} l today vs ${before} l yesterday (−${round((1 - water / before) * 100, 1)} %): check the lines; two low days in a row is an early disease signal`,
      });
    }
  }
  const rank = { critical: 0, warning: 1, info: 2 };
  return out.sort((a, b) => rank[a.severity] - rank[b.severity]);
}

/** What a worker has to do today: the daily form of each cycle that has started, and a weighing when the last is a week old. */
export function tasksOf(flocks: readonly FlockToday[], today: string): Task[] {
  const out: Task[] = [];
  for (const f of flocks) {
    if (!f.cycle) continue;
    const base = { flockId: f.flock.id, flockName: f.flock.name, cycleId: f.cycle.id };
    if (dailyRecordDue(f, today)) out.push({ ...base, kind: 'daily_record', due: today, message: `Fill in today’s daily record for ${f.flock.name}` });
    const last = f.cycle.latestWeight?.date ?? f.cycle.startDate;
    const age = daysBetween(last, today);
    if (age >= WEIGHING_INTERVAL_DAYS) {
      out.push({
        ...base,
        kind: 'weighing',
        due: today,
        message: f.cycle.latestWeight
          ? `Weigh ${f.flock.name}: last weighing ${age} days ago`
          : `Weigh ${f.flock.name}: no weighing since the cycle started ${age} days ago`,
      });
    }
  }
  return out;
}

export function totalsOf(cards: ReadonlyArray<ReturnType<typeof flockCard>>) {
  const sum = (pick: (c: ReturnType<typeof flockCard>) => number) =>
    round(
      cards.reduce((a, c) => a + pick(c), 0),
      3,
    );
  return {
    activeFlocks: cards.filter((c) => c.cycleId).length,
    birdsAlive: sum((c) => c.birdsAlive),
    deathsToday: sum((c) => c.today.deaths),
    deathsYesterday: sum((c) => c.yesterday.deaths),
    feedKgToday: sum((c) => c.today.feedKg),
    waterLitersToday: sum((c) => c.today.waterLiters),
    eggsToday: sum((c) => c.today.eggsCollected),
    dailyRecordsMissing: cards.filter((c) => c.dailyRecordDue).length,
  };
}

/** Something a worker should do now: the check an open anomaly's first hypothesis calls for, or an incident assigned to them. */
export interface DueAction {
  kind: 'anomaly_check' | 'incident';
  id: string;
  title: string;
  severity: string;
  action: string;
  since: string;
}

/** A worker's due actions: incidents assigned to them first (someone counts on them), then the checks of open anomalies, most severe first. */
export function dueActionsOf(
  checks: ReadonlyArray<{ id: string; title: string; severity: string; firstSeenAt: string; check: string | null }>,
  incidents: ReadonlyArray<{ id: string; title: string; severity: string; status: string; createdAt: string }>,
): DueAction[] {
  return [
    ...incidents.map((i) => ({
      kind: 'incident' as const,
      id: i.id,
      title: i.title,
      severity: i.severity,
      action: i.status === 'triggered' ? 'Acknowledge it and take it on' : 'Work on it and note what you find and do on its timeline until it is resolved',
      since: i.createdAt,
    })),
    ...checks.map((a) => ({
      kind: 'anomaly_check' as const,
      id: a.id,
      title: a.title,
      severity: a.severity,
      action: a.check ?? 'Look into it and tell the manager what you find',
      since: a.firstSeenAt,
    })),
  ];
}
