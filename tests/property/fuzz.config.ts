/**
 * `npm run fuzz`: the long profile of the OpenAPI fuzzer. The settings of tests/vitest.config.ts (global
 * setup with DynamoDB Local, per-file env, reporters), only tests/property, and enough requests per
 * operation for FUZZ_TOTAL requests in all (default 12,000; FUZZ_RUNS=<n> sets requests per operation
 * instead, FUZZ_SEED=<n> replays a run). The figures are printed after vitest's own summary.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from '../vitest.config.js';

const summaryFile = join(tmpdir(), `flockwise-fuzz-${process.pid}.txt`);

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['tests/property/**/*.test.ts'],
    env: {
      FUZZ_PROFILE: 'long',
      FUZZ_TOTAL: process.env.FUZZ_TOTAL ?? '12000',
      FUZZ_SUMMARY_FILE: summaryFile,
    },
    reporters: ['default', ['./tests/property/fuzz-reporter.ts', { summaryFile }], './tests/support/summary-reporter.ts'],
  },
});
