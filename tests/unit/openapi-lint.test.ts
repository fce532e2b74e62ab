/**
 * The OpenAPI document passes both linters without a finding: Redocly (`recommended`, redocly.yaml) and
 * Spectral (`spectral:oas` plus a description on every operation and parameter, .spectral.yaml). The
 * document is the one the test setup generates (schemas/compiled/openapi.json); both CLIs run in parallel
 * with JSON output, at the same time (about 6 s).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/route-table.js';

const run = promisify(execFile);
const DOCUMENT = 'schemas/compiled/openapi.json';
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

/** stdout of a CLI that exits non-zero when it finds something (the findings are still on stdout). */
async function stdoutOf(cmd: string, args: string[]): Promise<string> {
  try {
    return (await run(cmd, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' } })).stdout;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    if (stdout?.trim()) return stdout;
    throw new Error(`${cmd} ${args.join(' ')} failed: ${stderr ?? String(err)}`);
  }
}

const findings = (list: string[]) => (list.length === 0 ? '' : `\n${list.join('\n')}`);

// Both linters start at once (each takes a few seconds); each test waits for its own.
const redocly = stdoutOf(bin('redocly'), ['lint', DOCUMENT, '--config', 'redocly.yaml', '--format=json']);
const spectral = stdoutOf(bin('spectral'), ['lint', DOCUMENT, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet']);
// a rejection is reported by the test that awaits it
redocly.catch(() => {});
spectral.catch(() => {});

describe('OpenAPI lint', () => {
  it('Redocly recommended: no error, no warning', async () => {
    const out = JSON.parse(await redocly) as {
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = out.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
    expect(problems, `Redocly findings:${findings(problems)}`).toEqual([]);
  }, 60_000);

  it('Spectral (spectral:oas + descriptions of operations and parameters): no error, no warning', async () => {
    const out = JSON.parse(await spectral) as {
      code: string;
      severity: number;
      message: string;
      path: string[];
    }[];
    const severity = ['error', 'warning', 'info', 'hint'];
    const problems = out.map((p) => `${severity[p.severity]} ${p.code} ${p.path.join('.')}: ${p.message}`);
    expect(problems, `Spectral findings:${findings(problems)}`).toEqual([]);
  }, 60_000);
});
