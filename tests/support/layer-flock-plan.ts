/**
 * e2e support: the plan of a Hy-Line Brown flock's whole life, day by day, as the layer scenario posts it
 * and as its hand computations read it (no I/O). Every figure comes from the guide's tables
 * (shared/domain/analytics/standards/hy-line-brown.ts) or from a rule written here:
 *
 * - rearing, ages 1–118: a dead chick every other day; feed and water at the guide's intake of the birds
 *   present; the light cut from 20 h in the first week to 10 h at 10 weeks and held there (the guide: "reduce
 *   the day length weekly to reach 9 to 10 hours at 10 weeks");
 * - the move at 17 weeks (age 119) to a barn;
 * - laying, ages 119 to the day before depletion: a dead hen every third day; feed and water at the guide's
 *   intake; the light stepped up by 1 h a week from 10 h to 16 h (8 h of darkness in one period, the
 *   Directive's indicative third of the day) and held; eggs at the guide's hen-day from 18 weeks; one day a
 *   week the eggs are graded (sizes moving from S/M to L/XL as the hens age), with their double yolks and
 *   average weight;
 * - a treatment at 40 weeks whose eggs are held for the egg withdrawal and then destroyed;
 * - eggs sold every second week from their lots, everything on hand that may be sold;
 * - the layer feed delivered every 10 weeks, three days before it is needed, its price raised once.
 */
import { standardValue, standardWeightGrams } from '../../shared/domain/analytics/breed-standards.js';
import { HY_LINE_BROWN } from '../../shared/domain/analytics/standards/hy-line-brown.js';
import { hyLineEggGrams, hyLineEggs, hyLineFeedKg, hyLineWaterLiters } from './layer-farm.js';

/** Depletion at 90 weeks: the hens are sold on the 630th day, today. */
export const AGE_TODAY = 90 * 7;
export const MOVE_AGE = 17 * 7;
export const MED_AGE = 40 * 7;
export const EGG_WITHDRAWAL_DAYS = 7;
export const CHICKS = 3000;
export const CHICK_COST = 0.9;
export const GROWER_PRICE = 0.45;
/** The layer feed's price per kg: raised from the delivery of week 57 on. */
export const layerPrice = (deliveryAge: number) => (deliveryAge < 57 * 7 ? 0.5 : 0.54);
export const LAYING_HOUSE_M2 = 400;
export const SPENT_HEN_PRICE = 0.8;
export const SPENT_HEN_KG = 2.0;
/** Egg prices per egg: ungraded, and by size. */
export const EGG_PRICES: Record<string, number> = { ungraded: 0.11, S: 0.09, M: 0.11, L: 0.13, XL: 0.15 };
/** Salmonella samples of the laying flock: at 24 weeks, then every 14 weeks (the law's 15, a week early). */
export const SAMPLE_AGES = [168, 266, 364, 462, 560];
/** Weighings: every week in rearing, every fourth week in lay. */
export const isWeighingAge = (age: number) => age % 7 === 0 && (age <= MOVE_AGE || age % 28 === 0);
export const weighingGrams = (age: number) => Math.round(standardWeightGrams(HY_LINE_BROWN, age)!.grams * 1.01);

export const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
/** The age week of an age in days: days 1–7 are week 1. */
export const ageWeek = (age: number) => Math.floor((age - 1) / 7) + 1;

export interface Day {
  age: number;
  present: number;
  deaths: number;
  feedKg: number;
  waterLiters: number;
  lightHours: number;
  eggs: number;
  grades?: Record<string, number>;
  doubleYolk?: number;
  eggGrams?: number;
}

/** The rearing light: 20 h in week 1, cut weekly to 10 h at 10 weeks, then held. */
const REARING_LIGHT = [20, 19, 18, 16, 15, 14, 12, 11, 10];
export const rearingLight = (age: number) => REARING_LIGHT[ageWeek(age) - 1] ?? 10;
/** The laying light: 10 h at the move, 1 h more each week, held at 16 h. */
export const layingLight = (age: number) => Math.min(16, 10 + Math.floor((age - MOVE_AGE) / 7));

/** A grading day's sizes: a young flock lays small eggs, an old one large. */
export function gradesAt(age: number, eggs: number): Record<string, number> {
  const shares: Record<string, number> =
    age < 30 * 7 ? { S: 0.2, M: 0.55, L: 0.25 } : age < 50 * 7 ? { S: 0.05, M: 0.4, L: 0.45, XL: 0.1 } : { M: 0.3, L: 0.5, XL: 0.2 };
  const sizes = Object.keys(shares);
  const out: Record<string, number> = {};
  for (const size of sizes.slice(0, -1)) out[size] = Math.round(eggs * shares[size]!);
  out[sizes.at(-1)!] = eggs - sum(Object.values(out));
  return out;
}

/** The records to post: rearing ages 1–118, laying ages 119 to the day before depletion. */
export function flockPlan() {
  const rearing: Day[] = [];
  let alive = CHICKS;
  for (let age = 1; age < MOVE_AGE; age++) {
    const deaths = age % 2 === 0 ? 1 : 0;
    const base = { age, present: alive, deaths, feedKg: hyLineFeedKg(age, alive), waterLiters: hyLineWaterLiters(age, alive) };
    rearing.push({ ...base, lightHours: rearingLight(age), eggs: 0 });
    alive -= deaths;
  }
  const pullets = alive;
  const laying: Day[] = [];
  for (let age = MOVE_AGE; age < AGE_TODAY; age++) {
    const deaths = age % 3 === 0 ? 1 : 0;
    const eggs = hyLineEggs(age, alive);
    const graded = eggs > 0 && (age - MOVE_AGE) % 7 === 0;
    const base = { age, present: alive, deaths, feedKg: hyLineFeedKg(age, alive), waterLiters: hyLineWaterLiters(age, alive) };
    laying.push({
      ...base,
      lightHours: layingLight(age),
      eggs,
      ...(graded ? { grades: gradesAt(age, eggs), doubleYolk: Math.round(eggs * (age < 30 * 7 ? 0.01 : 0.003)), eggGrams: hyLineEggGrams(age) } : {}),
    });
    alive -= deaths;
  }
  return { rearing, pullets, laying, hens: alive };
}

/** Eggs laid inside the treatment's egg withdrawal (the treatment day to its last day). */
export const inWindow = (age: number) => age >= MED_AGE && age <= MED_AGE + EGG_WITHDRAWAL_DAYS;
/** The hen-day % of the guide at an age (its band midpoint). */
export const guideHenDay = (age: number) => standardValue(HY_LINE_BROWN, 'henDayPct', age)?.value ?? 0;

/** Sale days: the last day of every second laying week. */
export const isSaleAge = (age: number) => age > MOVE_AGE && (age - MOVE_AGE) % 14 === 13;

/** One sale: a size (or ungraded) and the lots it draws, by laying age. */
export interface Sale {
  age: number;
  grade: string | null;
  lots: { age: number; quantity: number }[];
  quantity: number;
  unitPrice: number;
}

/**
 * The sales, the held eggs' loss and what stays on hand, from the laying days: on each sale day (and on
 * depletion day) every egg on hand that may be sold, by size, from its lots; the eggs laid inside the
 * withdrawal are kept back, then destroyed the day after it ends.
 */
export function eggPlan(laying: readonly Day[]) {
  const onHand = new Map<number, Record<string, number>>();
  const sales: Sale[] = [];
  let held: Sale[] = [];
  const take = (age: number, keep: (laidAge: number) => boolean) => {
    const byGrade = new Map<string, Sale>();
    for (const [laid, stock] of [...onHand.entries()].sort(([a], [b]) => a - b)) {
      if (!keep(laid)) continue;
      for (const [grade, quantity] of Object.entries(stock)) {
        if (quantity <= 0) continue;
        const key = grade === 'ungraded' ? null : grade;
        const s = byGrade.get(grade) ?? { age, grade: key, lots: [], quantity: 0, unitPrice: EGG_PRICES[grade]! };
        s.lots.push({ age: laid, quantity });
        s.quantity += quantity;
        byGrade.set(grade, s);
      }
      onHand.delete(laid);
    }
    return [...byGrade.values()];
  };
  for (const d of laying) {
    if (d.eggs > 0) onHand.set(d.age, d.grades ? { ...d.grades } : { ungraded: d.eggs });
    if (d.age === MED_AGE + EGG_WITHDRAWAL_DAYS + 1) held = take(d.age, inWindow);
    if (isSaleAge(d.age)) sales.push(...take(d.age, (laid) => !inWindow(laid)));
  }
  sales.push(...take(AGE_TODAY, () => true));
  return { sales, held };
}
