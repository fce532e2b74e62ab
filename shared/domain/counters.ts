/**
 * Counter sets are named once, as `const` key lists (`CYCLE_COUNTERS` in ./cycle-summary.ts,
 * `DAY_COUNTERS` and `DAY_COUNTER_MAPS` in ./analytics/inputs.ts); their record types and zero values
 * are derived from the lists.
 */

/** The flow of birds, counted alike on the cycle record and on each day's rollup. */
export const BIRD_FLOW_COUNTERS = ['placed', 'transferredIn', 'deaths', 'culls', 'sold', 'transferredOut'] as const;

/** One entry per key of a key list, each with `valueFor(key)` (`recordOf(CYCLE_COUNTERS, () => 0)`: the zero counters). */
export function recordOf<K extends string, V>(keys: readonly K[], valueFor: (key: K) => V): Record<K, V> {
  return Object.fromEntries(keys.map((k) => [k, valueFor(k)])) as Record<K, V>;
}
