import { completeSection, decideConfigChange, type AnalyticsConfigVersion, type DeepPartial, type SectionChanges } from '../../domain/analytics/config.js';
import type { CommandContext } from '../../domain/command.js';
import { analyticsConfigWrites, getStoredAnalyticsConfig, listAnalyticsConfigVersions } from '../../db/analytics-config.js';
import { checkVersion, commit, type Versioned } from '../../db/commit.js';
import { Conflict } from '../../errors.js';
import type { AnalyticsSections, UpdateAnalyticsConfigBody } from '../../../schemas/analytics-config.js';
import { ANALYTICS_DEFAULTS, ANALYTICS_SECTIONS } from '../../../schemas/compiled/constants/analytics-config.js';

/**
 * The analytics configuration (one for the service): read by every analytics computation, changed by
 * admins. A change names the sections it replaces; each becomes a new version with its history entry
 * and audit entry in one transaction. A PUT that changes nothing answers the current version unchanged.
 */
export interface AnalyticsConfigState {
  config: AnalyticsSections;
  version: number;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** Stored sections completed with the defaults, so fields added after a version was stored read as their default. */
export const completeAll = (stored: Partial<AnalyticsSections> | undefined): AnalyticsSections =>
  Object.fromEntries(ANALYTICS_SECTIONS.map((s) => [s, completeSection(s, stored?.[s] ?? {})])) as unknown as AnalyticsSections;

export async function currentAnalyticsConfig(): Promise<AnalyticsConfigState> {
  const stored = await getStoredAnalyticsConfig();
  if (!stored) return { config: structuredClone(ANALYTICS_DEFAULTS), version: 0, updatedAt: null, updatedBy: null };
  return { config: completeAll(stored.config), version: stored.version, updatedAt: stored.updatedAt, updatedBy: stored.updatedBy };
}

export function toAnalyticsConfigDto(s: AnalyticsConfigState) {
  return { ...s.config, version: s.version, updatedAt: s.updatedAt, updatedBy: s.updatedBy };
}

export function toAnalyticsConfigVersionDto(v: AnalyticsConfigVersion) {
  return {
    version: v.version,
    changedSections: v.changedSections,
    updatedAt: v.updatedAt,
    updatedBy: v.updatedBy,
    requestId: v.requestId,
    config: completeAll(v.config),
  };
}

/** Replaces the named sections (omitted fields → defaults) at the version read. */
export async function updateAnalyticsConfig(ctx: CommandContext, body: UpdateAnalyticsConfigBody): Promise<AnalyticsConfigState> {
  const { version: bodyVersion, ...sections } = body;
  return replaceSections(ctx, sections as SectionChanges, bodyVersion);
}

async function replaceSections(ctx: CommandContext, sections: SectionChanges, bodyVersion: number | undefined, bodyIsSection = false) {
  const current = await currentAnalyticsConfig();
  const version: Versioned = { read: current.version, what: 'The analytics configuration', stated: bodyVersion, subject: true };
  // a stale version answers before the sections are judged and before "nothing to change" (also at version 0: nothing stored)
  checkVersion(ctx, version);
  const decision = decideConfigChange(current, sections, bodyIsSection, { caller: ctx.caller, requestId: ctx.requestId, now: ctx.now });
  if (!decision) return current;
  const { next } = decision;
  const changed = () =>
    new Conflict(`The analytics configuration was changed concurrently (it is no longer at version ${version.read}); read it again and retry`);
  await commit(ctx, { writes: analyticsConfigWrites(next, version, changed), audit: decision.audit, changes: decision.changes });
  return { config: next.config, version: next.version, updatedAt: next.updatedAt, updatedBy: next.updatedBy };
}

/** `PUT …/analytics/thresholds`: the thresholds section only. */
export async function updateAnalyticsThresholds(
  ctx: CommandContext,
  body: DeepPartial<AnalyticsSections['thresholds']> & { version?: number },
): Promise<AnalyticsConfigState> {
  const { version: bodyVersion, ...thresholds } = body;
  return replaceSections(ctx, { thresholds }, bodyVersion, true);
}

export async function analyticsConfigHistory(query: { limit?: number; cursor?: string }) {
  const limit = query.limit ?? 25;
  return { ...(await listAnalyticsConfigVersions({ limit, cursor: query.cursor })), limit };
}
