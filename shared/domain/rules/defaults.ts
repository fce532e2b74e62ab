/**
 * The rule set every new farm starts with, built from the thresholds of its analytics configuration, so a
 * farm that changed a threshold before its rules were created gets rules that agree with it.
 *
 * - Daily rules judge one calendar day's figure (`last` over P1D) and have a cooldown of 1440 min: a daily
 *   figure changes once a day, so a lasting breach raises at most one alarm a day, and a live run that
 *   re-evaluates the same day never repeats it.
 * - Hourly rules average a sensor input over an hour (humidity over 3 h: a short peak while litter is
 *   turned or fans cycle is not a problem) and have a cooldown of 180 min: a breach lasting all day
 *   reminds every 3 hours instead of every hour, often enough to act, rarely enough to be read.
 * - Farm-level rules (the generator drill) judge the farm once a day, with the daily cooldown: an overdue
 *   drill reminds once a day on the same anomaly until a drill is recorded.
 * - Every default raises an anomaly (the farm's queue to acknowledge); none opens an incident by itself,
 *   which stays an operator's decision. Each carries a stable `defaultKey`.
 */
import type { AnalyticsSections } from '../../../schemas/analytics-config.js';
import type { RuleAction, RuleAggregation, RuleSeverity } from '../../../schemas/vocabulary.js';
import { TEMPERATURE_TOLERANCE_C } from '../iot/climate.js';
import type { RuleCondition } from './conditions.js';

export interface RuleDraft {
  name: string;
  /** A calculation id or a sensor metric (./calculations.ts, inputOf). */
  input: string;
  window: string;
  aggregation: RuleAggregation;
  condition: RuleCondition;
  severity: RuleSeverity;
  actions: RuleAction[];
  cooldownMinutes: number;
  enabled: boolean;
  /** Stable id of the default, e.g. 'default:nh3'. */
  defaultKey: string;
}

/** A day: the cooldown of a daily rule (see the module doc). */
export const DAILY_COOLDOWN_MINUTES = 1440;
/** Three hours: the cooldown of an hourly rule (see the module doc). */
export const HOURLY_COOLDOWN_MINUTES = 180;
/** Days of feed below which the feed order is due (a delivery usually takes a day or two to arrive). */
export const FEED_LEFT_MIN_DAYS = 3;

const daily = (d: Omit<RuleDraft, 'window' | 'aggregation' | 'cooldownMinutes' | 'enabled' | 'actions'> & Partial<RuleDraft>): RuleDraft => ({
  window: 'P1D',
  aggregation: 'last',
  actions: ['raise_anomaly'],
  cooldownMinutes: DAILY_COOLDOWN_MINUTES,
  enabled: true,
  ...d,
});

const hourly = (d: Omit<RuleDraft, 'aggregation' | 'cooldownMinutes' | 'enabled' | 'actions'> & Partial<RuleDraft>): RuleDraft => ({
  aggregation: 'avg',
  actions: ['raise_anomaly'],
  cooldownMinutes: HOURLY_COOLDOWN_MINUTES,
  enabled: true,
  ...d,
});

/** The keys of the first default set: a farm whose marker predates the key list has these (../../services/rules/defaults.ts). */
export const FIRST_DEFAULT_KEYS: readonly string[] = [
  'default:daily-mortality',
  'default:cumulative-mortality',
  'default:water-drop',
  'default:water-feed-ratio',
  'default:feed-left',
  'default:nh3',
  'default:co2',
  'default:humidity',
  'default:temperature',
];
/** Every default's key, in order (checked against defaultRules by the unit tests). */
export const DEFAULT_KEYS: readonly string[] = [...FIRST_DEFAULT_KEYS.slice(0, 5), 'default:generator-drill', ...FIRST_DEFAULT_KEYS.slice(5)];

/** The default rules from the configuration's thresholds and consumption sections. */
export function defaultRules(config: AnalyticsSections): RuleDraft[] {
  const t = config.thresholds;
  const lowDays = t.waterLowIntakeDays;
  return [
    daily({
      defaultKey: 'default:daily-mortality',
      name: 'High daily mortality',
      input: 'dailyMortalityPct',
      condition: { op: '>', value: t.dailyMortalityPct },
      severity: 'warning',
    }),
    daily({
      // the 1 % + 0.06 % × age figure of Council Directive 2007/43/EC, Annex V, applied every day as an early warning
      defaultKey: 'default:cumulative-mortality',
      name: 'Cumulative mortality above the age limit',
      input: 'cumulativeMortalityPct',
      condition: {
        logic: { '>': [{ var: 'value' }, { '+': [t.cumulativeMortalityBasePct, { '*': [t.cumulativeMortalityPerAgeDayPct, { var: 'ageDays' }] }] }] },
      },
      severity: 'warning',
    }),
    daily({
      // every one of `waterLowIntakeDays` consecutive days more than the tolerance below its baseline: the
      // lowest of the window above the tolerance, with a figure on every day of it (one low day is noise)
      defaultKey: 'default:water-drop',
      name: `Water intake low for ${lowDays} ${lowDays === 1 ? 'day' : 'consecutive days'}`,
      input: 'waterDropPct',
      window: `P${lowDays}D`,
      aggregation: 'min',
      condition: { logic: { and: [{ '>': [{ var: 'value' }, config.consumption.lowIntakeTolerancePct] }, { '>=': [{ var: 'count' }, lowDays] }] } },
      severity: 'warning',
    }),
    daily({
      defaultKey: 'default:water-feed-ratio',
      name: 'Water:feed ratio out of the normal range',
      input: 'waterFeedRatio',
      condition: { op: 'outside', range: [t.waterFeedRatioMin, t.waterFeedRatioMax] },
      severity: 'warning',
    }),
    daily({
      defaultKey: 'default:feed-left',
      name: 'Feed running out',
      input: 'daysOfFeedLeft',
      condition: { op: '<', value: FEED_LEFT_MIN_DAYS },
      severity: 'warning',
    }),
    daily({
      // weekly generator test under load (Mississippi State University Extension, IS1952); the due date is
      // the readiness report's (../continuity/readiness.ts, drillStatus)
      defaultKey: 'default:generator-drill',
      name: 'Generator drill overdue',
      input: 'generatorDrillOverdueDays',
      condition: { op: '>', value: 0 },
      severity: 'warning',
    }),
    hourly({
      defaultKey: 'default:nh3',
      name: 'Ammonia above the limit',
      input: 'ammonia',
      window: 'PT1H',
      condition: { op: '>', value: t.ammoniaMaxPpm },
      severity: 'warning',
    }),
    hourly({
      defaultKey: 'default:co2',
      name: 'CO₂ above the limit',
      input: 'co2',
      window: 'PT1H',
      condition: { op: '>', value: t.co2MaxPpm },
      severity: 'warning',
    }),
    hourly({
      defaultKey: 'default:humidity',
      name: 'Humidity out of range',
      input: 'humidity',
      window: 'PT3H',
      condition: { op: 'outside', range: [t.humidityMinPct, t.humidityMaxPct] },
      severity: 'info',
    }),
    hourly({
      defaultKey: 'default:temperature',
      name: 'Temperature off the age curve',
      input: 'temperatureDeviation',
      window: 'PT1H',
      condition: { op: 'outside', range: [-TEMPERATURE_TOLERANCE_C, TEMPERATURE_TOLERANCE_C] },
      severity: 'warning',
    }),
  ];
}
