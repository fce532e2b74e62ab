import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './support/sequencer.js';

/** Test configuration (kept under tests/ so the repository's top level stays as the layout fixes it). */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/env.ts'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    sequence: { sequencer: LongestFirstSequencer },
    pool: 'forks',
    maxWorkers: 2,
  },
});
