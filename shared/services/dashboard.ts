import { devicesNotOnline } from './iot/devices.js';
import { openAnomaliesSummary, openAnomalyChecks } from './anomalies/reading.js';
import { openIncidentsAssignedTo, openIncidentsSummary } from './incidents.js';
import { settings } from '../config/env.js';
import {
  alertsOf,
  dueActionsOf,
  emptiedFlock,
  flockCard,
  flockHeadline,
  isEmptied,
  isListed,
  tasksOf,
  totalsOf,
  type FlockToday,
} from '../domain/dashboard.js';
import type { CycleLayerFigures } from '../domain/analytics/layer-figures.js';
import { layerFiguresOf } from './analytics/layer-figures.js';
import { SERVICE } from '../presentation/service-info.js';
import { toAuditDto, listAudit } from '../db/audit.js';
import { lastBirdsOutOn, readFarmDay, runningWithdrawals, userCounts } from '../db/dashboard.js';
import { rateLimitedOn } from '../db/metrics.js';
import { farmNotFound } from '../domain/references.js';
import { farmStock } from '../db/inventory.js';
import { listRecommendations } from '../db/recommendations.js';
import type { Caller } from '../domain/caller.js';
import type { Role } from '../domain/capabilities.js';
import { completeAll } from './analytics/config.js';
import { salmonellaDueOf } from './compliance/report.js';
import { farmOfRequest } from './farms.js';
import { todaysAgenda } from './schedules/agenda.js';
import { isoDate } from '../platform/calendar.js';

/**
 * One summary per role: admin (users, system, rate-limit refusals of the last 7 days, recent audit; plus a farm's view with
 * `farmId`), manager (farm KPIs, alerts, stock, withdrawals, Salmonella samples due, open recommendations), worker (today's tasks),
 * veterinarian (health alerts, withdrawal periods, Salmonella samples due), viewer (read-only KPIs). Every figure comes from
 * rollups: a farm's day is two DynamoDB calls whatever its number of movements (shared/db/dashboard.ts); the Salmonella
 * samples add one Query of the farm's samples (and, per broiler cycle with a sale, one of its sales). The flock cards of a
 * manager's and a viewer's view add one Query per active laying cycle: its daily rollups give the layer card's figures
 * (./analytics/layer-figures.ts).
 * The flocks listed (cards, alerts, tasks) are those whose active cycle has birds or awaits them; a flock emptied
 * (its birds all sold, transferred out or dead) is listed apart on the manager's view, to close its cycle, with the
 * last day birds left it (one Query per emptied flock).
 */
const HEALTH_METRICS = new Set(['dailyMortality', 'waterPh', 'waterDrop']);
/** The incidents a veterinarian's dashboard shows. */
const VET_CATEGORIES = ['disease_suspicion', 'welfare', 'biosecurity'] as const;
/** The anomalies a veterinarian's dashboard shows: the birds' health (mortality, intake, growth), not the equipment. */
const VET_ANOMALY_METRICS = [
  'dailyMortalityPct',
  'cumulativeMortalityPct',
  'waterDropPct',
  'waterPctOfExpected',
  'feedGramsPerBird',
  'bodyWeightVsStandard',
  'uniformityPct',
  'adg',
  'henDayPct',
] as const;
const DAY = 86_400_000;

/** A farm's day; `layerCards`: the laying flocks' cards with their layer figures (one Query per laying cycle). */
async function farmView(farmId: string, now: Date, opts: { layerCards?: boolean } = {}) {
  const today = isoDate(now);
  const yesterday = isoDate(now.getTime() - DAY);
  const day = await readFarmDay(farmId, today, yesterday);
  if (!day.farmExists) throw farmNotFound(farmId);
  const all: FlockToday[] = day.flocks.map((f) => ({
    ...f,
    flock: { id: f.flock.id, name: f.flock.name, birdType: f.flock.birdType, breed: f.flock.breed },
  }));
  const flocks = all.filter(isListed);
  const config = completeAll(day.storedConfig);
  const listed = new Set(flocks.map((f) => f.flock.id));
  const active = day.flocks.flatMap((f) => (f.cycle && listed.has(f.flock.id) ? [f.cycle] : []));
  const layer = opts.layerCards
    ? await layerFiguresOf(active, config.fallbacks.eggWeightGrams, now, new Map([[farmId, day.timeZone]]))
    : new Map<string, CycleLayerFigures>();
  const cards = flocks.map((f) => flockCard(f, today, config.fallbacks, (f.cycle && layer.get(f.cycle.id)) ?? null));
  const headlines = flocks.map((f) => flockHeadline(f, today, config.fallbacks));
  const cycles = day.flocks.map((f) => ({ flock: f.flock, cycle: f.cycle }));
  return { today, farmId, flocks, emptied: all.filter(isEmptied), cycles, cards, headlines, alerts: alertsOf(flocks, config.thresholds, today) };
}

/** The emptied flocks awaiting the close of their cycle, each with the last day birds left it. */
const emptiedFlocksOf = (flocks: readonly FlockToday[]) => Promise.all(flocks.map(async (f) => emptiedFlock(f, await lastBirdsOutOn(f.cycle!.id))));

const withdrawalsOf = async (farmId: string, today: string) =>
  (await runningWithdrawals(farmId, today)).map((w) => ({ ...w, daysLeft: Math.round((Date.parse(w.endDate) - Date.parse(today)) / DAY) + 1 }));

async function openRecommendations(farmId: string) {
  const page = await listRecommendations({ farmId }, { status: 'open' }, { limit: 100 });
  return {
    count: page.items.length,
    more: page.nextCursor !== null,
    latest: page.items.slice(0, 5).map((r) => ({ id: r.id, flockId: r.flockId, category: r.category, priority: r.priority, description: r.description })),
  };
}

async function managerSummary(farmId: string, now: Date) {
  const v = await farmView(farmId, now, { layerCards: true });
  const [stock, withdrawals, salmonella, recommendations, devices, incidents, anomalies, emptiedFlocks] = await Promise.all([
    farmStock(farmId),
    withdrawalsOf(farmId, v.today),
    salmonellaDueOf(farmId, v.cycles, v.today),
    openRecommendations(farmId),
    devicesNotOnline(farmId),
    openIncidentsSummary(farmId),
    openAnomaliesSummary(farmId),
    emptiedFlocksOf(v.emptied),
  ]);
  return {
    date: v.today,
    farmId,
    totals: totalsOf(v.cards),
    flocks: v.cards,
    emptiedFlocks,
    alerts: v.alerts,
    stock,
    withdrawals,
    salmonellaSamples: salmonella,
    openRecommendations: recommendations,
    devicesNotOnline: devices,
    openIncidents: incidents,
    openAnomalies: anomalies,
  };
}

async function workerSummary(farmId: string, now: Date, userId: string) {
  const [v, checks, incidents, agenda] = await Promise.all([
    farmView(farmId, now),
    openAnomalyChecks(farmId),
    openIncidentsAssignedTo(farmId, userId),
    todaysAgenda(farmId, now),
  ]);
  return {
    date: v.today,
    farmId,
    tasks: tasksOf(v.flocks, v.today),
    dueActions: dueActionsOf(checks, incidents),
    flocks: v.cards.map((c) => ({
      flockId: c.flockId,
      name: c.name,
      cycleId: c.cycleId,
      birdsAlive: c.birdsAlive,
      today: c.today,
      dailyRecordToday: c.dailyRecordToday,
      dailyRecordDue: c.dailyRecordDue,
    })),
    agenda,
  };
}

async function veterinarianSummary(farmId: string, now: Date) {
  const v = await farmView(farmId, now);
  return {
    date: v.today,
    farmId,
    healthAlerts: v.alerts.filter((a) => HEALTH_METRICS.has(a.metric)),
    withdrawals: await withdrawalsOf(farmId, v.today),
    salmonellaSamples: await salmonellaDueOf(farmId, v.cycles, v.today),
    openIncidents: await openIncidentsSummary(farmId, VET_CATEGORIES),
    openAnomalies: await openAnomaliesSummary(farmId, { metrics: VET_ANOMALY_METRICS }),
    flocks: v.cards.map((c) => ({
      flockId: c.flockId,
      name: c.name,
      ageDays: c.ageDays,
      birdsAlive: c.birdsAlive,
      mortalityPct: c.mortalityPct,
      deathsToday: c.today.deaths,
      deathsYesterday: c.yesterday.deaths,
    })),
  };
}

/** Read-only KPIs: a broiler flock's headline, a laying flock's card as the manager sees it (FCR and EPEF mean nothing for hens). */
async function viewerSummary(farmId: string, now: Date) {
  const v = await farmView(farmId, now, { layerCards: true });
  return {
    date: v.today,
    farmId,
    totals: totalsOf(v.cards),
    flocks: v.headlines.map(({ flockId, name, birdType, ageDays, birdsAlive, mortalityPct, livabilityPct, fcr, epef, latestWeight }, n) => {
      const card = v.cards[n]!;
      if (card.kind === 'layer') return card;
      return { flockId, name, birdType, ageDays, birdsAlive, mortalityPct, livabilityPct, fcr, epef, latestWeight };
    }),
  };
}

async function adminSummary(now: Date) {
  const days = [0, 1, 2, 3, 4, 5, 6].map((back) => isoDate(now.getTime() - back * DAY));
  const [users, audit, rateLimited] = await Promise.all([userCounts(), listAudit({ limit: 10 }), rateLimitedOn(days)]);
  return {
    users,
    rateLimited: { days: rateLimited, note: 'clients that went over a limit, once per client, class and window (per container), newest day first' },
    system: { service: SERVICE.name, version: SERVICE.version, stage: settings().stage, database: 'ok' as const, uptimeSeconds: Math.round(process.uptime()) },
    recentAudit: audit.items.map(toAuditDto),
  };
}

/** The signed-in user's own summary: a view per role. */
export async function dashboardFor(user: Caller & { role: Role }, query: { farmId?: string }, now = new Date()) {
  const role = user.role;
  if (role === 'admin') {
    const admin = await adminSummary(now);
    return { role, ...admin, ...(query.farmId ? { farm: await managerSummary(farmOfRequest(user, query.farmId), now) } : {}) };
  }
  const farmId = farmOfRequest(user, query.farmId);
  const build = { manager: managerSummary, worker: workerSummary, veterinarian: veterinarianSummary, viewer: viewerSummary }[role];
  return { role, ...(await build(farmId, now, user.id)) };
}
