import { expectedVersion, type Precondition } from '../domain/concurrency.js';
import { auditPut } from '../db/audit.js';
import { getStoredAnalyticsConfig, listAnalyticsConfigVersions, saveAnalyticsConfig, type AnalyticsConfigVersion } from '../db/analytics-config.js';
import { Conflict, ValidationFailed } from '../errors.js';
import type { Caller } from '../domain/caller.js';
import {
  ANALYTICS_DEFAULTS,
  ANALYTICS_SECTIONS,
  completeSection,
  ORDERED_FIELDS,
  type AnalyticsSectionName,
  type AnalyticsSections,
  type UpdateAnalyticsConfigBody,
} from '../../schemas/analytics-config.js';

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

/** Replaces the named sections (omitted fields → defaults) at the expected version. */
export async function updateAnalyticsConfig(
  user: Caller,
  body: UpdateAnalyticsConfigBody,
  precondition: Precondition | undefined,
  requestId: string,
): Promise<AnalyticsConfigState> {
  const { version: bodyVersion, ...sections } = body;
  return replaceSections(user, sections as SectionChanges, precondition, bodyVersion, requestId);
}

async function replaceSections(
  user: Caller,
  sections: SectionChanges,
  precondition: Precondition | undefined,
  bodyVersion: number | undefined,
  requestId: string,
  bodyIsSection = false,
) {
  const current = await currentAnalyticsConfig();
  const version = expectedVersion(current.version, { precondition, stated: bodyVersion }, 'The analytics configuration');
  const config = structuredClone(current.config);
  const changedSections: AnalyticsSectionName[] = [];
  for (const name of ANALYTICS_SECTIONS) {
    const given = sections[name];
    if (given === undefined) continue;
    const next = completeSection(name, given as never);
    if (JSON.stringify(next) === JSON.stringify(config[name])) continue;
    (config as Record<AnalyticsSectionName, unknown>)[name] = next;
    changedSections.push(name);
  }
  if (changedSections.length === 0) return current;
  assertOrdered(config, changedSections, bodyIsSection);
  const now = new Date().toISOString();
  const next: AnalyticsConfigVersion = { config, version: version + 1, changedSections, updatedAt: now, updatedBy: user.id, requestId };
  const changes = Object.fromEntries(changedSections.map((s) => [s, { from: current.config[s], to: config[s] }]));
  await saveAnalyticsConfig(
    next,
    [auditPut({ actorId: user.id, action: 'analytics_config.update', targetType: 'analytics_config', targetId: 'analytics', changes, requestId })],
    () => new Conflict(`The analytics configuration was changed concurrently (it is no longer at version ${version}); read it again and retry`),
  );
  return { config, version: next.version, updatedAt: now, updatedBy: user.id };
}

/** `PUT …/analytics/thresholds`: the thresholds section only. */
export async function updateAnalyticsThresholds(
  user: Caller,
  body: Partial<AnalyticsSections['thresholds']> & { version?: number },
  precondition: Precondition | undefined,
  requestId: string,
): Promise<AnalyticsConfigState> {
  const { version: bodyVersion, ...thresholds } = body;
  return replaceSections(user, { thresholds }, precondition, bodyVersion, requestId, true);
}

export async function analyticsConfigHistory(query: { limit?: number; cursor?: string }) {
  const limit = query.limit ?? 25;
  return { ...(await listAnalyticsConfigVersions({ limit, cursor: query.cursor })), limit };
}
