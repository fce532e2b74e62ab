/**
 * The service's log lines as it writes them (shared/platform/log.ts: one JSON line on stdout for info,
 * on stderr for warn and error), captured and kept out of the test output until `vi.restoreAllMocks()`.
 */
import { vi } from 'vitest';

export type LogLine = Record<string, unknown>;

export interface CapturedLogs {
  /** Every line written since the capture started, parsed, in order. */
  lines: () => LogLine[];
  /** Everything written, as text (to check what is never in a log). */
  text: () => string;
}

export function captureLogs(): CapturedLogs {
  const written: string[] = [];
  const keep = (chunk: unknown): boolean => {
    written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(keep as typeof process.stdout.write);
  vi.spyOn(process.stderr, 'write').mockImplementation(keep as typeof process.stderr.write);
  const text = () => written.join('');
  return {
    text,
    lines: () =>
      text()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as LogLine),
  };
}
