import { ulid } from 'ulidx';
import { defaultRulesWritten, putDefaultRulesOnce, type RuleRecord } from '../db/rules.js';
import { defaultRules, type RuleDraft } from '../domain/rules/defaults.js';
import { currentAnalyticsConfig } from './analytics-config.js';

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
  createdBy: 'system:default-rules',
  createdAt: now,
  updatedAt: now,
  version: 1,
});

/**
 * Writes the default rule set of a farm (from the thresholds of the analytics configuration in force)
 * once: at the farm's creation, at the seed for the default farm, or on the next run of the alarm job
 * for farms older than rules. Never twice: a manager who deletes a default keeps it deleted.
 */
export async function ensureDefaultRules(farmId: string): Promise<boolean> {
  if (await defaultRulesWritten(farmId)) return false;
  const [{ config }, now] = [await currentAnalyticsConfig(), new Date().toISOString()];
  return putDefaultRulesOnce(
    farmId,
    defaultRules(config).map((d) => fromDraft(farmId, d, now)),
    now,
  );
}
