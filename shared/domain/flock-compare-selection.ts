/**
 * What a flock comparison names (GET /api/v1/flock-analytics/compare): the flocks and cycles of the query,
 * checked one by one, each problem named with its field.
 */
import { COMPARE_MAX, COMPARE_MIN } from '../../schemas/vocabulary.js';

// ---------------------------------------------------------------------------------------------------
// Comparison: what the caller named

export { COMPARE_MAX, COMPARE_MIN };
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export type CompareRef = { kind: 'flock'; flockId: string } | { kind: 'cycle'; flockId: string; cycleId: string };

export interface Problem {
  field: string;
  message: string;
}

const split = (s: string | undefined) => (s === undefined ? [] : s.split(',').map((x) => x.trim()));

/**
 * The items of `flockIds=a,b` and `cycles=flockId:cycleId,…` (flocks first, in the order given), or the
 * problems: malformed ids or pairs, empty entries, an item named twice, fewer than 2 or more than 10.
 */
export function parseCompareSelection(query: { flockIds?: string; cycles?: string }): { refs: CompareRef[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const refs: CompareRef[] = [];
  const seen = new Set<string>();
  split(query.flockIds).forEach((id, i) => {
    if (!ULID.test(id)) problems.push({ field: 'flockIds', message: id ? `item ${i + 1} "${id}" is not a flock id (a ULID)` : `item ${i + 1} is empty` });
    else if (seen.has(id)) problems.push({ field: 'flockIds', message: `flock ${id} is named twice` });
    else {
      seen.add(id);
      refs.push({ kind: 'flock', flockId: id });
    }
  });
  split(query.cycles).forEach((pair, i) => {
    const [flockId, cycleId, ...more] = pair.split(':').map((x) => x.trim());
    if (!pair) problems.push({ field: 'cycles', message: `item ${i + 1} is empty` });
    else if (more.length || !flockId || !cycleId || !ULID.test(flockId) || !ULID.test(cycleId))
      problems.push({ field: 'cycles', message: `item ${i + 1} "${pair}" is not flockId:cycleId (two ULIDs)` });
    else if (seen.has(`${flockId}:${cycleId}`)) problems.push({ field: 'cycles', message: `cycle ${cycleId} of flock ${flockId} is named twice` });
    else {
      seen.add(`${flockId}:${cycleId}`);
      refs.push({ kind: 'cycle', flockId, cycleId });
    }
  });
  const count = split(query.flockIds).length + split(query.cycles).length;
  if (query.flockIds === undefined && query.cycles === undefined) {
    problems.push({ field: 'flockIds', message: `name ${COMPARE_MIN} to ${COMPARE_MAX} flocks (flockIds=a,b) and/or cycles (cycles=flockId:cycleId,…)` });
  } else if (count < COMPARE_MIN || count > COMPARE_MAX) {
    problems.push({
      field: query.flockIds !== undefined ? 'flockIds' : 'cycles',
      message: `compare takes ${COMPARE_MIN} to ${COMPARE_MAX} items (flocks and cycles together); got ${count}`,
    });
  }
  return { refs, problems };
}
