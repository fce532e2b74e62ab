import { diff } from '../../domain/accounts.js';
import type { CommandContext } from '../../domain/command.js';
import { analyticsConfigWrites, getStoredAnalyticsConfig, listAnalyticsConfigVersions, type AnalyticsConfigVersion } from '../../db/analytics-config.js';
import { checkVersion, commit, type Versioned } from '../../db/commit.js';
import { Conflict, ValidationFailed } from '../../errors.js';
import {
  ANALYTICS_DEFAULTS,
  ANALYTICS_SECTIONS,
  completeSection,
  ORDERED_FIELDS,
  type AnalyticsSectionName,
  type AnalyticsSections,
  type UpdateAnalyticsConfigBody,
} from '../../../schemas/analytics-config.js';

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

/** Every low ≤ high pair of the changed sections holds (with defaults filled in), else Invalid naming both fields. */
function assertOrdered(config: AnalyticsSections, changed: readonly AnalyticsSectionName[], bodyIsSection: boolean): void {
  const broken = ORDERED_FIELDS.filter(({ section, low, high }) => {
    if (!changed.includes(section)) return false;
    const values = config[section] as unknown as Record<string, number>;
    return values[low]! > values[high]!;
  });
  if (broken.length === 0) return;
  throw new ValidationFailed(
    broken.map(({ section, low, high }) => {
      const values = config[section] as unknown as Record<string, number>;
      return {
        field: bodyIsSection ? low : `${section}.${low}`,
        message: `must not exceed ${section}.${high} (${values[low]} > ${values[high]})`,
      };
    }),
  );
}

type SectionChanges = Partial<{ [S in AnalyticsSectionName]: Partial<AnalyticsSections[S]> }>;

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
  const config = structuredClone(current.config);
  for (const name of ANALYTICS_SECTIONS) {
    const given = sections[name];
    if (given !== undefined) (config as Record<AnalyticsSectionName, unknown>)[name] = completeSection(name, given as never);
  }
  const changes = diff(current.config, config, ANALYTICS_SECTIONS);
  const changedSections = ANALYTICS_SECTIONS.filter((s) => s in changes);
  if (changedSections.length === 0) return current;
  assertOrdered(config, changedSections, bodyIsSection);
  const now = ctx.now.toISOString();
  const next: AnalyticsConfigVersion = {
    config,
    version: version.read + 1,
    changedSections,
    updatedAt: now,
    updatedBy: ctx.caller.id,
    requestId: ctx.requestId,
  };
  const changed = () =>
    new Conflict(`The analytics configuration was changed concurrently (it is no longer at version ${version.read}); read it again and retry`);
  await commit(ctx, {
    writes: analyticsConfigWrites(next, version, changed),
    audit: [{ action: 'analytics_config.update', targetType: 'analytics_config', targetId: 'analytics', changes }],
    changes: [{ type: 'analytics_config', id: 'analytics', op: 'upsert', version: next.version }],
  });
  return { config, version: next.version, updatedAt: now, updatedBy: ctx.caller.id };
}

/** `PUT …/analytics/thresholds`: the thresholds section only. */
export async function updateAnalyticsThresholds(
  ctx: CommandContext,
  body: Partial<AnalyticsSections['thresholds']> & { version?: number },
): Promise<AnalyticsConfigState> {
  const { version: bodyVersion, ...thresholds } = body;
  return replaceSections(ctx, { thresholds }, bodyVersion, true);
}

export async function analyticsConfigHistory(query: { limit?: number; cursor?: string }) {
  const limit = query.limit ?? 25;
  return { ...(await listAnalyticsConfigVersions({ limit, cursor: query.cursor })), limit };
}
