import { ulid } from 'ulidx';
import { commit } from '../../db/commit.js';
import { defaultRulesMarker, firstDefaultRules, laterDefaultRules } from '../../db/rules.js';
import type { RuleRecord } from '../../domain/rules/records.js';
import { systemCaller } from '../../domain/caller.js';
import { commandContext, type CommandContext } from '../../domain/command.js';
import { DEFAULT_KEYS, defaultRules, FIRST_DEFAULT_KEYS, type RuleDraft } from '../../domain/rules/defaults.js';
import { currentAnalyticsConfig } from '../analytics/config.js';
import { Conflict } from '../../errors.js';

/** Who writes the default rules (their `createdBy`). */
const defaultRulesCaller = systemCaller('default-rules', [], 'all');

const fromDraft = (farmId: string, d: RuleDraft, now: string): RuleRecord => ({
  id: ulid(),
  farmId,
  name: d.name,
  scope: { farmId },
  input: d.input,
  window: d.window,
  aggregation: d.aggregation,
  condition: ('logic' in d.condition ? d.condition.logic : d.condition) as Record<string, unknown>,
  severity: d.severity,
  actions: d.actions,
  cooldownMinutes: d.cooldownMinutes,
  enabled: d.enabled,
  defaultKey: d.defaultKey,
  createdBy: defaultRulesCaller.id,
  createdAt: now,
  updatedAt: now,
  version: 1,
});

/**
 * Writes the default rule set of a farm (from the thresholds of the analytics configuration in force)
 * once: at the farm's creation, at the seed for the default farm, or on the next run of the alarm job
 * for farms older than rules. A default introduced later (the generator drill) is added once to the farms
 * that have the earlier set, on the next run of the alarm job. Never twice: the marker keeps the keys
 * written, so a manager who deletes a default keeps it deleted.
 */
export async function ensureDefaultRules(ctx: CommandContext, farmId: string): Promise<boolean> {
  const marker = await defaultRulesMarker(farmId);
  const had = marker ? new Set(marker.legacy ? FIRST_DEFAULT_KEYS : marker.keys) : new Set<string>();
  const missing = DEFAULT_KEYS.filter((k) => !had.has(k));
  if (missing.length === 0) return false;
  const { config } = await currentAnalyticsConfig();
  const now = ctx.now.toISOString();
  const drafts = defaultRules(config).filter((d) => missing.includes(d.defaultKey));
  const rules = drafts.map((d) => fromDraft(farmId, d, now));
  const writes = marker ? laterDefaultRules(farmId, rules, { ...marker, keys: [...had] }, now) : firstDefaultRules(farmId, rules, now);
  try {
    await commit(commandContext(defaultRulesCaller, { requestId: ctx.requestId, now: ctx.now }), { writes });
    return true;
  } catch (err) {
    // written meanwhile by a concurrent run (or a rule id taken): nothing more to write
    if (err instanceof Conflict) return false;
    throw err;
  }
}
