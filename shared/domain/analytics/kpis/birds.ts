/**
 * Bird counts of a day and the running totals the daily series carries from day to day; mortality and
 * livability.
 *
 * - Birds. alive = placed + transferred in − deaths − culls − sold − transferred out, never below zero.
 *   `aliveStart` is the previous day's closing count, `present` adds the day's placements and transfers
 *   in (birds placed on a day are at risk that day; otherwise the placement day would divide by zero),
 *   `aliveEnd` is the closing count. Housed = placed + transferred in (birds transferred in count as
 *   placed). Daily mortality and every per-bird daily figure (feed and water per bird, expected water,
 *   hen-day) divide by `present`.
 * - Mortality % (cumulative) = deaths ÷ housed × 100 (culls, sales and transfers kept apart).
 *   Livability % = (alive + sold + transferred out) ÷ housed × 100 (birds shipped alive count).
 */
import { figure, missing } from '../figures.js';
import type { DayTotals, Figure } from '../inputs.js';
import { D_PCT, PCT } from './context.js';
import type { DayBirds } from './types.js';

export interface Running {
  alive: number;
  housed: number;
  deaths: number;
  sold: number;
  transferredOut: number;
  feedKg: number;
  eggs: number;
}

export const START: Running = { alive: 0, housed: 0, deaths: 0, sold: 0, transferredOut: 0, feedKg: 0, eggs: 0 };

export function birdsOfDay(day: DayTotals, run: Running): DayBirds {
  const present = run.alive + day.placed + day.transferredIn;
  const aliveEnd = Math.max(0, present - day.deaths - day.culls - day.sold - day.transferredOut);
  return {
    aliveStart: run.alive,
    placed: day.placed,
    transferredIn: day.transferredIn,
    present,
    deaths: day.deaths,
    culls: day.culls,
    sold: day.sold,
    transferredOut: day.transferredOut,
    aliveEnd,
    housed: run.housed + day.placed + day.transferredIn,
  };
}

export function advance(run: Running, day: DayTotals, birds: DayBirds): Running {
  return {
    alive: birds.aliveEnd,
    housed: birds.housed,
    deaths: run.deaths + day.deaths,
    sold: run.sold + day.sold,
    transferredOut: run.transferredOut + day.transferredOut,
    feedKg: run.feedKg + day.feedConsumedKg,
    eggs: run.eggs + day.eggsCollected,
  };
}

/** Cumulative mortality %: deaths to date ÷ housed × 100. */
export function mortalityPct(deaths: number, housed: number): Figure {
  return housed > 0 ? figure((deaths / housed) * 100, PCT, D_PCT) : missing(PCT, 'no birds placed yet');
}

/** Livability %: (alive + sold + transferred out) ÷ housed × 100. */
export function livabilityPct(alive: number, sold: number, transferredOut: number, housed: number): Figure {
  return housed > 0 ? figure(((alive + sold + transferredOut) / housed) * 100, PCT, D_PCT) : missing(PCT, 'no birds placed yet');
}
