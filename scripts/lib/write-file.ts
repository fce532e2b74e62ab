import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes generated output so a concurrent reader (a test run, `npm start`, packaging) never sees a
 * missing or half-written file: unchanged files are left alone, changed ones are replaced atomically.
 */
export function writeGenerated(path: string, content: string): void {
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}
