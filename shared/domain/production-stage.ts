/**
 * Production stages and the daily-record form of each, as data: which fields a day of that stage requires,
 * which it takes besides, and each field's unit and meaning. The submit use case, `checkDailyRecord`,
 * `POST /api/v2/analytics/validate-daily-data` and `GET …/daily-records/form` all read `STAGE_RULES`, so
 * a rule is stated once. The stage of a day is the same production phase the weights use (`phaseOf` in
 * ./weights.ts: one set of boundaries, with their sources).
 */
import { PHASES, phaseOf, type BirdType, type Phase } from './weights.js';
import type { DailyRecordBody } from '../../schemas/daily-records.js';

export const STAGES = PHASES;
export type Stage = Phase;

export function stageOf(birdType: BirdType, ageDays: number): Stage {
  return phaseOf(birdType, ageDays);
}

/** A field of the daily form (every field of the body but `date`). */
export type DailyFieldName = Exclude<keyof DailyRecordBody, 'date'>;

export interface DailyField {
  name: DailyFieldName;
  /** Unit of the value; null for text. */
  unit: string | null;
  description: string;
}

/** Every field of the daily form: its unit and what it means (the one description clients are shown). */
export const DAILY_FIELDS: { readonly [K in DailyFieldName]: Omit<DailyField, 'name'> } = {
  deaths: {
    unit: 'birds',
    description:
      'Birds found dead that day: a total, or an object of counts per cause (disease, heat, cold, predator, injury, smothering, dehydration, culled_sick, unknown)',
  },
  culls: { unit: 'birds', description: 'Birds culled (removed and killed) that day' },
  cullReason: { unit: null, description: 'Why birds were culled' },
  feedKg: { unit: 'kg', description: 'Feed consumed by the flock that day, drawn from the farm’s feed stock (a feed delivery must be recorded first)' },
  feedType: { unit: null, description: 'The feed consumed; required when the farm stocks more than one feed type' },
  waterLiters: { unit: 'L', description: 'Drinking water consumed by the flock that day' },
  eggsCollected: { unit: 'eggs', description: 'Eggs collected that day' },
  eggsCracked: { unit: 'eggs', description: 'Of the eggs collected, how many were cracked' },
  eggsDirty: { unit: 'eggs', description: 'Of the eggs collected, how many were dirty' },
  eggsFloor: { unit: 'eggs', description: 'Of the eggs collected, how many were floor eggs (laid outside the nests)' },
  eggsDoubleYolk: { unit: 'eggs', description: 'Of the eggs collected, how many had a double yolk' },
  eggGrades: { unit: 'eggs', description: 'Of the eggs collected, how many per grade or size (S, M, L, XL…); the rest are ungraded' },
  averageEggWeightGrams: { unit: 'g', description: 'Average egg weight that day' },
  temperatureMinC: { unit: '°C', description: 'Lowest house temperature of the day' },
  temperatureMaxC: { unit: '°C', description: 'Highest house temperature of the day' },
  humidityPct: { unit: '%', description: 'Relative humidity in the house' },
  lightHours: { unit: 'h', description: 'Photoperiod: hours of light in the 24 hours of the day (0–24)' },
  longestDarkHours: {
    unit: 'h',
    description: 'The longest uninterrupted dark period of the day, dimming excluded (at most 24 − lightHours); absent, one dark period of 24 − lightHours',
  },
  notes: { unit: null, description: 'Free-text remarks on the day' },
};

export interface StageRule {
  /** Fields a day of this stage must state (0 is a value; missing, null or empty is not). */
  required: readonly DailyFieldName[];
  /** Fields the form of this stage also takes. */
  optional: readonly DailyFieldName[];
}

/** Every daily record needs mortality, feed and water; brooding adds the house climate; laying and molting add eggs. */
const COMMON = ['deaths', 'feedKg', 'waterLiters'] as const;
const ALWAYS_OPTIONAL = ['culls', 'cullReason', 'feedType', 'lightHours', 'longestDarkHours', 'notes'] as const;
const EGGS = ['eggsCracked', 'eggsDirty', 'eggsFloor', 'eggsDoubleYolk', 'eggGrades', 'averageEggWeightGrams'] as const;
const CLIMATE = ['temperatureMinC', 'temperatureMaxC', 'humidityPct'] as const;

function rule(required: readonly DailyFieldName[]): StageRule {
  const laying = required.includes('eggsCollected');
  const optional = [...ALWAYS_OPTIONAL, ...(laying ? EGGS : []), ...CLIMATE].filter((f) => !required.includes(f));
  return { required, optional };
}

/** The daily form of each stage (docs/decisions.md, "Farm core"). */
export const STAGE_RULES: { readonly [S in Stage]: StageRule } = {
  brooding: rule([...COMMON, 'temperatureMinC', 'temperatureMaxC', 'humidityPct']),
  growing: rule([...COMMON, 'temperatureMinC', 'temperatureMaxC']),
  finishing: rule([...COMMON, 'temperatureMaxC']),
  rearing: rule([...COMMON]),
  laying: rule([...COMMON, 'eggsCollected']),
  molting: rule([...COMMON, 'eggsCollected']),
};

/** The mandatory fields per stage (a view of STAGE_RULES). */
export const MANDATORY_FIELDS: { readonly [S in Stage]: readonly DailyFieldName[] } = Object.fromEntries(STAGES.map((s) => [s, STAGE_RULES[s].required])) as {
  readonly [S in Stage]: readonly DailyFieldName[];
};

/** The form of a stage: its required and optional fields, each with unit and meaning. */
export function formOf(stage: Stage): { requiredFields: DailyField[]; optionalFields: DailyField[] } {
  const describe = (name: DailyFieldName): DailyField => ({ name, ...DAILY_FIELDS[name] });
  return { requiredFields: STAGE_RULES[stage].required.map(describe), optionalFields: STAGE_RULES[stage].optional.map(describe) };
}

export interface DailyCheck {
  stage: Stage;
  requiredFields: readonly DailyFieldName[];
  missingFields: DailyFieldName[];
  warnings: string[];
}

const isDailyField = (key: string): key is DailyFieldName => Object.hasOwn(DAILY_FIELDS, key);
const given = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * What a daily record lacks for its stage, plus plausibility warnings (never errors): a min above the
 * max temperature, a water:feed ratio or humidity out of range, and a form field the stage does not take
 * (eggs of a broiler: written as given, but probably a mistake).
 */
export function checkDailyRecord(record: Record<string, unknown>, stage: Stage): DailyCheck {
  const { required, optional } = STAGE_RULES[stage];
  const missingFields = required.filter((f) => !given(record[f]));
  const warnings: string[] = [];
  const min = record.temperatureMinC;
  const max = record.temperatureMaxC;
  if (typeof min === 'number' && typeof max === 'number' && min > max) warnings.push('temperatureMinC is above temperatureMaxC');
  const feed = record.feedKg;
  const water = record.waterLiters;
  if (typeof feed === 'number' && typeof water === 'number' && feed > 0) {
    const ratio = water / feed;
    // Water:feed 1.6–2.0 is normal (docs/domain.md).
    if (ratio < 1.6 || ratio > 2.0) warnings.push(`water:feed ratio ${ratio.toFixed(2)} is outside the normal 1.6–2.0`);
  }
  if (typeof record.humidityPct === 'number' && (record.humidityPct < 30 || record.humidityPct > 85))
    warnings.push(`humidity ${record.humidityPct} % is outside 30–85 %`);
  const outside = Object.keys(record).filter((k) => isDailyField(k) && given(record[k]) && !required.includes(k) && !optional.includes(k));
  if (outside.length) warnings.push(`${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} not part of the ${stage} form`);
  return { stage, requiredFields: required, missingFields, warnings };
}
