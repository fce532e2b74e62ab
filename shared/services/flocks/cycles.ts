import { unchanged } from '../../domain/decision.js';
import { decideCycleClose, decideCycleStart, decideCycleUpdate, flockBusy } from '../../domain/flocks/cycles.js';
import type { CommandContext } from '../../domain/command.js';
import { headlineKpis, type WeightFallbacks } from '../../domain/flock-analytics.js';
import { checkVersion, commit, type Versioned } from '../../db/commit.js';
import { cycleWrites, getCycle, listCycles } from '../../db/cycles.js';
import type { CycleRecord } from '../../domain/flocks/records.js';
import type { Caller } from '../../domain/caller.js';
import { scopedFlock } from './flocks.js';
import { scopedCycleHead } from './cycle-scope.js';
import { completeAll, currentAnalyticsConfig } from '../analytics/config.js';
import { idempotentCommand } from '../idempotency.js';
import { ANALYTICS_DEFAULTS } from '../../../schemas/compiled/constants/analytics-config.js';
import type { CloseCycleBody, CreateCycleBody, UpdateCycleBody } from '../../../schemas/cycles.js';
import { ageDays } from '../../platform/calendar.js';
import { ageOrigin } from '../../domain/age.js';

/** Production cycles of a flock: one active at a time; closing locks its movements. */

/**
 * What a cycle's KPIs need besides its record: the flock's breed and the analytics configuration's
 * fallbacks (completed with the defaults), so FCR and EPEF take the weight the analytics take.
 */
export interface CycleKpiBasis {
  breed: string | null;
  fallbacks: WeightFallbacks;
}

export function toCycleDto(c: CycleRecord, basis: CycleKpiBasis, now = new Date()) {
  return {
    id: c.id,
    flockId: c.flockId,
    farmId: c.farmId,
    name: c.name,
    birdType: c.birdType,
    status: c.status,
    startDate: c.startDate,
    placedOn: c.placedOn ?? null,
    endDate: c.endDate,
    closedAt: c.closedAt,
    ageDays: ageDays(ageOrigin(c).date, c.startDate, c.endDate, now),
    ageFrom: ageOrigin(c).from,
    targetAgeDays: c.targetAgeDays,
    targetWeightGrams: c.targetWeightGrams,
    lightingProgramme: c.lightingProgramme ?? null,
    notes: c.notes,
    birds: {
      placed: c.placed,
      transferredIn: c.transferredIn,
      deaths: c.deaths,
      culls: c.culls,
      sold: c.sold,
      transferredOut: c.transferredOut,
      alive: c.alive,
    },
    feed: { deliveredKg: c.feedDeliveredKg, consumedKg: c.feedConsumedKg },
    eggs: { collected: c.eggsCollected, cracked: c.eggsCracked, dirty: c.eggsDirty, sold: c.eggsSold, lost: c.eggsLost },
    waterLiters: c.waterLiters,
    medications: c.medications,
    vaccinations: c.vaccinations,
    movementCount: c.movementCount,
    latestWeight: c.latestWeight,
    kpis: headlineKpis(c, basis, now),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    version: c.version,
  };
}

export { scopedCycle, scopedCycleHead } from './cycle-scope.js';

/** The cycle with what its KPIs need: the flock's breed and the configuration's weight fallbacks (one read). */
export async function scopedCycleWithBasis(user: Caller, flockId: string, cycleId: string): Promise<{ cycle: CycleRecord; basis: CycleKpiBasis }> {
  const { flock, cycle, storedConfig } = await scopedCycleHead(user, flockId, cycleId);
  return { cycle, basis: { breed: flock.breed, fallbacks: completeAll(storedConfig?.config).fallbacks } };
}

export async function startCycle(ctx: CommandContext, flockId: string, body: CreateCycleBody) {
  return idempotentCommand(ctx, `cycle:${flockId}`, body, async (ctx) => {
    const flock = await scopedFlock(ctx.caller, flockId);
    const { cycle, audit, changes } = decideCycleStart(flock, body, ctx.now);
    // a new cycle has no bird and no weighing yet: its KPIs do not depend on the weight fallbacks
    const response = {
      created: true,
      message: 'Cycle started',
      data: toCycleDto(cycle, { breed: flock.breed, fallbacks: ANALYTICS_DEFAULTS.fallbacks }, ctx.now),
    };
    await commit(ctx, { writes: cycleWrites.start(cycle, flock.version, flockBusy(flock)), audit, changes, response });
    return response;
  });
}

export async function listCyclesFor(user: Caller, flockId: string, query: { limit?: number; cursor?: string }) {
  const flock = await scopedFlock(user, flockId);
  const limit = query.limit ?? 25;
  // the configuration (one GetItem) in parallel with the page of cycles
  const [page, { config }] = await Promise.all([listCycles(flockId, { limit, cursor: query.cursor }), currentAnalyticsConfig()]);
  return { ...page, limit, basis: { breed: flock.breed, fallbacks: config.fallbacks } satisfies CycleKpiBasis };
}

export async function updateCycleFor(
  ctx: CommandContext,
  flockId: string,
  cycleId: string,
  body: UpdateCycleBody,
): Promise<{ cycle: CycleRecord; basis: CycleKpiBasis }> {
  const { cycle: current, basis } = await scopedCycleWithBasis(ctx.caller, flockId, cycleId);
  const version: Versioned = { read: current.version, what: `Cycle ${cycleId}`, stated: body.version, subject: true };
  // a stale version answers before "nothing to change"
  checkVersion(ctx, version);
  const { change, audit, changes } = decideCycleUpdate(current, body, ctx.now);
  if (unchanged(change)) return { cycle: current, basis };
  await commit(ctx, { writes: [cycleWrites.update(current, change.fields, version)], audit, changes });
  return { cycle: change.next, basis };
}

export async function closeCycleFor(
  ctx: CommandContext,
  flockId: string,
  cycleId: string,
  body: CloseCycleBody,
): Promise<{ cycle: CycleRecord; basis: CycleKpiBasis }> {
  const { cycle, basis } = await scopedCycleWithBasis(ctx.caller, flockId, cycleId);
  const { endDate, closedAt, audit, changes } = decideCycleClose(cycle, body, ctx.now);
  await commit(ctx, { writes: cycleWrites.close(cycle, endDate, closedAt), audit, changes });
  // read again after the commit: the close is not conditioned on the version read (movements may have moved
  // the counters since), so the answer is the cycle as stored, with its version
  return { cycle: (await getCycle(flockId, cycleId))!, basis };
}
