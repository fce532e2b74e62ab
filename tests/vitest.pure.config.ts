import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Pure unit tests only (no database, no build): `npx vitest run --config tests/vitest.pure.config.ts tests/unit/<file>`. */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: { include: ['tests/unit/**/*.test.ts'], pool: 'forks', maxWorkers: 1 },
});
