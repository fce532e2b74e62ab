import { ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import { diff } from '../changes.js';
import type { AuditEvent, ResourceChange } from '../decision.js';
import type { AnalyticsSectionName, AnalyticsSections } from '../../../schemas/analytics-config.js';
import { ANALYTICS_DEFAULTS, ANALYTICS_SECTIONS, LEGAL_LIMITS, ORDERED_FIELDS } from '../../../schemas/compiled/constants/analytics-config.js';

/**
 * A change of the analytics configuration, decided without I/O: the named sections replaced (omitted
 * fields → defaults), every low ≤ high pair of a changed section holding, and the new version with the
 * sections it changed (nothing when none differs).
 */

/** A version of the configuration as stored (the one in force and each history copy: shared/db/analytics-config.ts). */
export interface AnalyticsConfigVersion {
  config: AnalyticsSections;
  version: number;
  changedSections: string[];
  updatedAt: string;
  updatedBy: string | null;
  requestId: string | null;
}

/** Any subset of an object's fields, nested objects' fields too. */
export type DeepPartial<T> = { [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** The sections a change names, each with the fields it gives. */
export type SectionChanges = Partial<{ [S in AnalyticsSectionName]: DeepPartial<AnalyticsSections[S]> }>;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `given` over `defaults`: a nested object whose default names its fields is completed field by field; anything else is replaced. */
function completed(defaults: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(defaults);
  for (const [k, v] of Object.entries(given)) {
    const d = out[k];
    out[k] = isPlainObject(d) && Object.keys(d).length > 0 && isPlainObject(v) ? completed(d, v) : v;
  }
  return out;
}

/** A section as sent (any subset of its fields, nested ones too) completed with the defaults. */
export const completeSection = <S extends AnalyticsSectionName>(name: S, given: Partial<AnalyticsSections[S]>): AnalyticsSections[S] =>
  completed(ANALYTICS_DEFAULTS[name] as unknown as Record<string, unknown>, given as Record<string, unknown>) as unknown as AnalyticsSections[S];

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

/** Every legal limit of the changed sections holds (a farm may be stricter than the law, never laxer), else Invalid naming the limit. */
function assertLegal(config: AnalyticsSections, changed: readonly AnalyticsSectionName[], bodyIsSection: boolean): void {
  const problems = LEGAL_LIMITS.flatMap(({ section, field, min, max, source }) => {
    if (!changed.includes(section)) return [];
    const value = (config[section] as unknown as Record<string, number>)[field]!;
    const name = bodyIsSection ? field : `${section}.${field}`;
    if (min !== undefined && value < min)
      return [{ field: name, message: `must be at least ${min}, the legal minimum (${source}); it may be stricter, never laxer` }];
    if (max !== undefined && value > max)
      return [{ field: name, message: `must be at most ${max}, the legal maximum (${source}); it may be stricter, never laxer` }];
    return [];
  });
  if (problems.length) throw new ValidationFailed(problems);
}

/**
 * The named sections replacing those of the configuration read (its version already compared with the
 * client's); undefined when no section differs. `bodyIsSection`: the body is one section's fields (a
 * problem names the field alone).
 */
export function decideConfigChange(
  current: { config: AnalyticsSections; version: number },
  sections: SectionChanges,
  bodyIsSection: boolean,
  by: { caller: Pick<Caller, 'id'>; requestId: string | null; now: Date },
) {
  const config = structuredClone(current.config);
  for (const name of ANALYTICS_SECTIONS) {
    const given = sections[name];
    if (given !== undefined) (config as Record<AnalyticsSectionName, unknown>)[name] = completeSection(name, given as never);
  }
  const changes = diff(current.config, config, ANALYTICS_SECTIONS);
  const changedSections = ANALYTICS_SECTIONS.filter((s) => s in changes);
  if (changedSections.length === 0) return undefined;
  assertOrdered(config, changedSections, bodyIsSection);
  assertLegal(config, changedSections, bodyIsSection);
  const next: AnalyticsConfigVersion = {
    config,
    version: current.version + 1,
    changedSections,
    updatedAt: by.now.toISOString(),
    updatedBy: by.caller.id,
    requestId: by.requestId,
  };
  const audit: AuditEvent[] = [{ action: 'analytics_config.update', targetType: 'analytics_config', targetId: 'analytics', changes }];
  // the service-wide configuration belongs to no farm's feed
  const resources: ResourceChange[] = [{ type: 'analytics_config', id: 'analytics', op: 'upsert', version: next.version, farmIds: [] }];
  return { next, audit, changes: resources };
}
