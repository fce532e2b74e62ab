/**
 * The order test files start in. Two workers run the files; the run ends when the last file ends, so the
 * longest files must start first. Vitest orders by the durations it cached on this machine, and without
 * a cache (a fresh clone, CI after `npm ci`) by file size, which puts a small file with a long run (the
 * quick fuzz profile, an e2e scenario that starts the stack and posts a flock's whole life) near the end.
 * The files known to run longest start first, in this order; the others follow in Vitest's own order.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const LONGEST_FIRST = [
  'tests/property/openapi-fuzz.test.ts',
  'tests/e2e/layer-flock.test.ts',
  'tests/e2e/as-started.test.ts',
  'tests/integration/movements.test.ts',
];

const rank = (spec: TestSpecification) => {
  const i = LONGEST_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
  return i === -1 ? LONGEST_FIRST.length : i;
};

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((spec, order) => ({ spec, order }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.order - b.order)
      .map((x) => x.spec);
  }
}
