/**
 * Ranked cause hypotheses (pure): when an alarm fires, which cause the figures around it point to, the
 * evidence for and against each, and the check that settles it.
 * The patterns, margins and their sources: docs/detections.md ("Causes").
 */
import { ANALYTICS_DEFAULTS } from '../../../schemas/compiled/constants/analytics-config.js';
import { fmt } from '../analytics/figures.js';

export interface Hypothesis {
  cause: string;
  /** 0..1. */
  score: number;
  supporting: string[];
  contradicting: string[];
  /** What to check, naming the house. */
  check: string;
}

/** The reading a temperature deviation was measured on, so that its sentence can name it. */
export interface TemperatureReading {
  valueC: number;
  /** When, on the farm's clock (`14:00`: the hour that started then). */
  at: string;
  /** The middle of the age curve's range and the range itself, °C. */
  targetC: number;
  minC: number;
  maxC: number;
  ageDays: number;
}

export interface Signals {
  /** What fired: a calculation id (waterDropPct, dailyMortalityPct…), a detection metric, or a sensor metric. */
  metric: string;
  houseName?: string | null;
  /** Today's water per bird vs the previous 3 days, % (negative = drop). */
  waterChangePct?: number | null;
  /** Same for feed. */
  feedChangePct?: number | null;
  mortalityPct?: number | null;
  mortalityBaselinePct?: number | null;
  /** House temperature − target for the age, °C (for a day: its hottest hour). */
  temperatureDeviationC?: number | null;
  /** The reading that deviation was measured on, when known (a day's hottest hour): the evidence names it. */
  temperature?: TemperatureReading | null;
  nh3Ppm?: number | null;
  humidityPct?: number | null;
  co2Ppm?: number | null;
  staticPressureChangePct?: number | null;
  /** Silo weight not falling while birds eat. */
  siloFlat?: boolean | null;
  sensorFlatline?: boolean | null;
  sensorSilent?: boolean | null;
  thresholds?: { ammoniaMaxPpm: number; humidityMaxPct: number; dailyMortalityPct: number };
}

/** Every cause, in the order that breaks ties: the mechanical, cheap-to-check causes first. */
export const CAUSES = [
  'Sensor fault',
  'Drinker line or nipple fault',
  'Empty silo or bridged feed line',
  'Heater fault',
  'Dirty fans, shutters or slipping belts',
  'Ventilation or wet litter',
  'Heat stress',
  'Disease',
] as const;
export type Cause = (typeof CAUSES)[number];

const WATER_DROP = -10;
const NORMAL_BAND = 5;
const FEED_DROP = -10;
const WATER_UP = 15;
const TEMP_MARGIN_C = 2;
const PRESSURE_UP = 15;
/** What is left of a bird cause's score when the sensor behind the alarm is faulty. */
const SENSOR_FAULT_FACTOR = 0.3;

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
const signed = (x: number): string => `${x > 0 ? '+' : ''}${fmt(x, 1)}`;

/** What a metric's sensor is called in a check. */
function sensorName(metric: string): string {
  if (/water/i.test(metric)) return 'water meter';
  if (/^(feed|silo)/i.test(metric)) return 'silo load cells';
  const names: Record<string, string> = {
    temperatureC: 'temperature sensor',
    humidityPct: 'humidity sensor',
    nh3Ppm: 'ammonia sensor',
    co2Ppm: 'CO₂ sensor',
    coPpm: 'CO sensor',
    staticPressurePa: 'static pressure sensor',
    lux: 'light sensor',
    birdWeightGrams: 'bird scale',
  };
  return names[metric] ?? `sensor reporting ${metric}`;
}

/** "36.0 °C at 14:00 in House 2, 15.0 °C above the 21.0 °C target for age 30 days (19.0–23.0 °C)": a reading against the age curve. */
function readingSentence(r: TemperatureReading, houseName: string | null | undefined, deviation: number): string {
  const c = (x: number) => x.toFixed(1);
  const where = houseName?.trim() ? ` in ${houseName.trim()}` : '';
  const side = deviation >= 0 ? 'above' : 'below';
  return `${c(r.valueC)} °C at ${r.at}${where}, ${c(Math.abs(deviation))} °C ${side} the ${c(r.targetC)} °C target for age ${r.ageDays} days (${c(r.minC)}–${c(r.maxC)} °C)`;
}

/** "house 2" for 'House 2', the name as given otherwise, "the house" without one. */
function houseOf(name: string | null | undefined): string {
  const n = name?.trim();
  if (!n) return 'the house';
  return /^house\b/i.test(n) ? `house${n.slice(5)}` : n;
}

interface Draft {
  cause: Cause;
  score: number;
  supporting: string[];
  contradicting: string[];
  check: string;
}

/** The facts the causes are scored on, each with its sentence. */
function factsOf(s: Signals) {
  const t = { ...ANALYTICS_DEFAULTS.thresholds, ...(s.thresholds ?? {}) };
  const w = s.waterChangePct ?? null;
  const f = s.feedChangePct ?? null;
  const m = s.mortalityPct ?? null;
  const mb = s.mortalityBaselinePct ?? null;
  const d = s.temperatureDeviationC ?? null;
  const reading = s.temperature && d !== null ? readingSentence(s.temperature, s.houseName, d) : null;
  const nh3 = s.nh3Ppm ?? null;
  const hum = s.humidityPct ?? null;
  const co2 = s.co2Ppm ?? null;
  const sp = s.staticPressureChangePct ?? null;
  // rounded so that 0.3 ÷ 0.1 is 3, not 2.9999999999999996
  const mortRatio = m !== null && mb !== null && mb > 0 ? Math.round((m / mb) * 1000) / 1000 : null;
  const mortUp = m !== null && (m > t.dailyMortalityPct || (mortRatio !== null && mortRatio >= 2 && m >= t.dailyMortalityPct / 2));
  return {
    t,
    w,
    f,
    d,
    sp,
    mortRatio,
    waterDrop: w !== null && w <= WATER_DROP,
    waterUp: w !== null && w >= WATER_UP,
    waterNormal: w !== null && Math.abs(w) < NORMAL_BAND,
    feedDrop: f !== null && f <= FEED_DROP,
    feedNormal: f !== null && Math.abs(f) < NORMAL_BAND,
    // feed down, water down less than half as much (and not up, as in the heat): the birds drink but do not eat
    feedOutpacesWater: f !== null && f <= FEED_DROP && w !== null && w < WATER_UP && w > f / 2,
    mortUp,
    mortNormal: m !== null && !mortUp,
    tempHigh: d !== null && d >= TEMP_MARGIN_C,
    tempLow: d !== null && d <= -TEMP_MARGIN_C,
    tempNormal: d !== null && Math.abs(d) < TEMP_MARGIN_C,
    nh3High: nh3 !== null && nh3 > t.ammoniaMaxPpm,
    nh3Normal: nh3 !== null && nh3 <= t.ammoniaMaxPpm,
    humHigh: hum !== null && hum > t.humidityMaxPct,
    humNormal: hum !== null && hum <= t.humidityMaxPct,
    co2High: co2 !== null && co2 > t.co2MaxPpm,
    pressureUp: sp !== null && sp >= PRESSURE_UP,
    siloFlat: s.siloFlat === true,
    flatline: s.sensorFlatline === true,
    silent: s.sensorSilent === true,
    say: {
      waterDrop: `water intake down ${fmt(-(w ?? 0), 1)} % on the previous 3 days`,
      waterUp: `water intake up ${fmt(w ?? 0, 1)} % on the previous 3 days`,
      waterNormal: `water intake is normal (${signed(w ?? 0)} % on the previous 3 days)`,
      feedDrop: `feed intake down ${fmt(-(f ?? 0), 1)} % on the previous 3 days`,
      feedNormal: `feed intake is normal (${signed(f ?? 0)} % on the previous 3 days)`,
      feedOutpacesWater: `feed intake down ${fmt(-(f ?? 0), 1)} % ${(w ?? 0) < 0 ? `but water only ${fmt(-(w ?? 0), 1)} %` : 'while water holds'}: the birds drink and do not get feed`,
      mortUp:
        mortRatio !== null && mortRatio >= 2
          ? `mortality ${fmt(m ?? 0, 2)} %, ${fmt(mortRatio, 1)} times the ${fmt(mb ?? 0, 2)} % before`
          : `mortality ${fmt(m ?? 0, 2)} %, above the ${fmt(t.dailyMortalityPct, 2)} % alarm level`,
      mortNormal: `mortality is normal (${fmt(m ?? 0, 2)} %)`,
      tempHigh: reading ? `hottest hour ${reading}` : `house temperature ${fmt(d ?? 0, 1)} °C above the target for the age`,
      tempLow: reading ? `even the hottest hour ${reading}` : `house temperature ${fmt(-(d ?? 0), 1)} °C below the target for the age`,
      tempNormal: reading ? `house temperature on the age curve (hottest hour ${reading})` : `house temperature on the age curve (${signed(d ?? 0)} °C)`,
      nh3High: `ammonia ${fmt(nh3 ?? 0, 1)} ppm, above ${fmt(t.ammoniaMaxPpm, 1)} ppm`,
      nh3Normal: `ammonia is normal (${fmt(nh3 ?? 0, 1)} ppm)`,
      humHigh: `humidity ${fmt(hum ?? 0, 1)} %, above ${fmt(t.humidityMaxPct, 1)} %`,
      humNormal: `humidity is normal (${fmt(hum ?? 0, 1)} %)`,
      co2High: `CO₂ ${fmt(co2 ?? 0, 0)} ppm, above ${fmt(t.co2MaxPpm, 0)} ppm`,
      pressureUp: `static pressure up ${fmt(sp ?? 0, 1)} % at the same setpoint`,
      siloFlat: 'the silo weight is not falling while the birds eat',
      flatline: `the ${sensorName(s.metric)} has reported the same value for hours`,
      silent: `the ${sensorName(s.metric)} has stopped reporting`,
    },
  };
}

type Facts = ReturnType<typeof factsOf>;
type FactName = keyof Facts['say'];

/** A cause's evidence, weight by weight: `add` when the fact holds (positive weight: for, negative: against). */
function scorer(x: Facts) {
  let score = 0;
  const supporting: string[] = [];
  const contradicting: string[] = [];
  return {
    add(fact: FactName, weight: number, holds: boolean = x[fact] as boolean): void {
      if (!holds) return;
      score += weight;
      (weight >= 0 ? supporting : contradicting).push(x.say[fact]);
    },
    bonus(weight: number): void {
      score += weight;
    },
    done: (cause: Cause, check: string): Draft => ({ cause, score: clamp01(score), supporting, contradicting, check }),
  };
}

function sensorFault(x: Facts, house: string, metric: string): Draft | null {
  if (!x.flatline && !x.silent) return null;
  const c = scorer(x);
  c.bonus(0.85);
  c.add('flatline', 0.05);
  c.add('silent', 0.05);
  // deaths are counted by hand: a sensor cannot fake them
  c.add('mortUp', -0.2);
  return c.done(
    'Sensor fault',
    `Check the ${sensorName(metric)} in ${house}: power, cable or battery and calibration, and compare it with a hand-held reading before acting on it.`,
  );
}

function drinkerFault(x: Facts, house: string): Draft | null {
  if (!x.waterDrop) return null;
  const c = scorer(x);
  c.add('waterDrop', 0.5 + 0.2 * clamp01((-(x.w ?? 0) - 10) / 20));
  c.add('feedNormal', 0.3);
  c.add('mortNormal', 0.1);
  c.add('feedDrop', -0.3);
  c.add('mortUp', -0.2);
  return c.done(
    'Drinker line or nipple fault',
    `Check the line pressure and the nipples in ${house}: flush the lines, check the regulators and filters, and trigger nipples at the far end of each line, before blaming disease.`,
  );
}

function disease(x: Facts, house: string): Draft | null {
  if (!x.waterDrop && !x.feedDrop && !x.mortUp) return null;
  const c = scorer(x);
  c.add('waterDrop', 0.3);
  c.add('feedDrop', 0.25);
  c.add('mortUp', x.mortRatio !== null && x.mortRatio >= 3 ? 0.4 : 0.3);
  if (x.waterDrop && x.feedDrop && x.mortUp) c.bonus(0.1);
  c.add('feedNormal', -0.1);
  c.add('mortNormal', -0.05);
  c.add('waterNormal', -0.05);
  // deaths in a house on the age curve: the climate does not explain them
  c.add('tempNormal', 0.05, x.tempNormal && x.mortUp);
  // heat explains the deaths and the birds off their feed as well (and disease never ranks above it: rankHypotheses)
  c.add('tempHigh', -0.15);
  return c.done(
    'Disease',
    `Walk ${house} now: look for dull, huddled or gasping birds and wet droppings, send fresh dead birds for a post-mortem, and call the vet.`,
  );
}

function heatStress(x: Facts, house: string): Draft | null {
  if (!x.tempHigh) return null;
  const c = scorer(x);
  c.add('tempHigh', 0.45 + 0.15 * clamp01(((x.d ?? 0) - 2) / 4));
  c.add('mortUp', 0.3);
  // hot birds drink more and eat less; humid air hampers panting
  c.add('waterUp', 0.15);
  c.add('feedDrop', 0.1);
  c.add('humHigh', 0.1);
  c.add('waterDrop', -0.1);
  return c.done(
    'Heat stress',
    `Check the temperature in ${house} against the target for the age, and the ventilation and cooling (fans, inlets, pads); make sure the water is cool and flowing.`,
  );
}

function ventilation(x: Facts, house: string): Draft | null {
  if (!x.nh3High && !x.humHigh && !x.co2High) return null;
  const c = scorer(x);
  c.add('nh3High', 0.4);
  c.add('humHigh', 0.3);
  if (x.nh3High && x.humHigh) c.bonus(0.2);
  c.add('co2High', 0.2);
  c.add('nh3Normal', -0.1, x.nh3Normal && x.humHigh);
  c.add('humNormal', -0.05, x.humNormal && x.nh3High);
  return c.done(
    'Ventilation or wet litter',
    `Check the minimum ventilation in ${house} and the litter under the drinker lines: caked, wet litter means leaking nipples or too little air exchange.`,
  );
}

function feedSupply(x: Facts, house: string): Draft | null {
  if (!x.siloFlat && !x.feedDrop) return null;
  const c = scorer(x);
  c.add('siloFlat', 0.6);
  c.add('feedDrop', 0.25);
  // thirsty but not eating: the feed does not reach them
  c.add('waterNormal', 0.15, x.waterNormal && x.feedDrop);
  // birds without feed drink less too, but far less than they eat less (the water:feed ratio jumps)
  c.add('feedOutpacesWater', 0.45);
  c.add('waterDrop', -0.2, x.waterDrop && !x.feedOutpacesWater);
  // an empty feeder does not kill within a day or two: deaths point at the birds
  c.add('mortUp', -0.15);
  return c.done(
    'Empty silo or bridged feed line',
    `Check the silo and the feed line in ${house}: tap the silo for bridged feed, check that the auger runs and stops as it should, and that the pans at the end of the line are full.`,
  );
}

function heaterFault(x: Facts, house: string): Draft | null {
  if (!x.tempLow) return null;
  const c = scorer(x);
  c.add('tempLow', 0.5 + 0.3 * clamp01((-(x.d ?? 0) - 2) / 4));
  c.add('mortUp', 0.1);
  return c.done(
    'Heater fault',
    `Check the heaters in ${house}: are they running while the temperature stays below the setpoint (fuel or gas supply, igniter, thermostat probe)?`,
  );
}

function fans(x: Facts, house: string): Draft | null {
  if (!x.pressureUp) return null;
  const c = scorer(x);
  c.add('pressureUp', 0.5 + 0.3 * clamp01(((x.sp ?? 0) - 15) / 30));
  // less air moved: gases build up and the house warms
  c.add('nh3High', 0.1);
  c.add('co2High', 0.1);
  c.add('tempHigh', 0.1);
  return c.done(
    'Dirty fans, shutters or slipping belts',
    `Check the fans in ${house} at the same setpoint: clean the blades and shutters, and tighten or replace slipping belts.`,
  );
}

/**
 * The ranked causes of an alarm (score descending, ties in CAUSES order), each with the evidence for and
 * against and the check to make, naming the house. Only causes with a score above 0. When the sensor
 * behind the alarm is flat-lining or silent, every other cause keeps 0.3 of its score and says why.
 */
export function rankHypotheses(s: Signals): Hypothesis[] {
  const x = factsOf(s);
  const house = houseOf(s.houseName);
  const drafts = [
    sensorFault(x, house, s.metric),
    drinkerFault(x, house),
    disease(x, house),
    heatStress(x, house),
    ventilation(x, house),
    feedSupply(x, house),
    heaterFault(x, house),
    fans(x, house),
  ].filter((d): d is Draft => d !== null);
  const deviceFault = x.flatline || x.silent;
  // a house far above the age curve (its hottest hour at or over the top of the range) is heat stress
  // before disease: hot birds die, eat and drink less like sick ones, and cooling them is the first check
  const heat = drafts.find((d) => d.cause === 'Heat stress');
  const out = drafts.map((d): Hypothesis => {
    const demoted = deviceFault && d.cause !== 'Sensor fault';
    const own = heat && d.cause === 'Disease' ? Math.min(d.score, heat.score) : d.score;
    const score = Math.round((demoted ? own * SENSOR_FAULT_FACTOR : own) * 100) / 100;
    const contradicting = demoted ? [...d.contradicting, x.say[x.flatline ? 'flatline' : 'silent']] : d.contradicting;
    return { cause: d.cause, score, supporting: d.supporting, contradicting, check: d.check };
  });
  return out.filter((h) => h.score > 0).sort((a, b) => b.score - a.score || CAUSES.indexOf(a.cause as Cause) - CAUSES.indexOf(b.cause as Cause));
}
