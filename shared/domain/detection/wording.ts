/** How a detection names its metric and figures to a farm manager (label, unit, decimals, what to check first). */
import { fmt } from '../analytics/figures.js';

export interface Wording {
  label: string;
  unit: string;
  /** Decimals shown. */
  digits: number;
  hint?: { up?: string; down?: string };
}

const WORDING: Record<string, Wording> = {
  waterPctOfExpected: {
    label: 'Water intake',
    unit: '% of expected',
    digits: 1,
    hint: { down: 'check the drinker lines before blaming disease', up: 'check for leaks and for heat' },
  },
  feedGramsPerBird: {
    label: 'Feed intake',
    unit: 'g per bird',
    digits: 1,
    hint: { down: 'check the feeders, the silo and the birds’ health', up: 'check for spilled feed' },
  },
  dailyMortalityPct: { label: 'Daily mortality', unit: '%', digits: 2, hint: { up: 'look for the cause, and call the vet if it continues' } },
  bodyWeightVsStandard: { label: 'Body weight', unit: 'g', digits: 0, hint: { down: 'check feed, water and health' } },
  temperatureC: { label: 'Temperature', unit: '°C', digits: 1 },
  humidityPct: { label: 'Humidity', unit: '%', digits: 1 },
  nh3Ppm: { label: 'Ammonia (NH₃)', unit: 'ppm', digits: 1 },
  co2Ppm: { label: 'CO₂', unit: 'ppm', digits: 0 },
  coPpm: { label: 'CO', unit: 'ppm', digits: 1 },
  staticPressurePa: { label: 'Static pressure', unit: 'Pa', digits: 1 },
  lux: { label: 'Light', unit: 'lx', digits: 0 },
  waterLitersTotal: { label: 'Water', unit: 'l', digits: 1 },
  siloKg: { label: 'Silo weight', unit: 'kg', digits: 0 },
  birdWeightGrams: { label: 'Bird weight', unit: 'g', digits: 0 },
};

export const wordingOf = (metric: string): Wording => WORDING[metric] ?? { label: metric, unit: '', digits: 2 };
export const show = (w: Wording, v: number): string => `${fmt(v, w.digits)}${w.unit ? ` ${w.unit}` : ''}`;
