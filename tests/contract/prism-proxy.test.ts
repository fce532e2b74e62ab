/**
 * The client flow of ./flow.ts again, this time through Stoplight Prism as a validating proxy in front of
 * serverless-offline (`prism proxy <the served /openapi.json> <offline> --errors`): Prism checks every
 * request the client sends and every response the API gives against the published document, and with
 * `--errors` turns a violation into a 500 `…/prism/errors#VIOLATIONS` answer. So a flow that completes
 * with the API's own statuses, and a Prism log without a validator line, mean no violation either way.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/route-table.js';
import { startOffline, type Offline } from '../support/offline.js';
import { runFlow } from './flow.js';

const HERE = join(ROOT, 'tests', 'contract');
const DOCUMENT = join(HERE, 'generated', 'openapi.json');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('Prism as a validating proxy', () => {
  let api: Offline;
  let prism: ChildProcess | undefined;
  let log = '';
  let proxyUrl = '';

  beforeAll(async () => {
    api = await startOffline();
    await mkdir(join(HERE, 'generated'), { recursive: true });
    await writeFile(DOCUMENT, await (await fetch(`${api.baseUrl}/openapi.json`)).text());
    const port = await freePort();
    proxyUrl = `http://127.0.0.1:${port}`;
    prism = spawn(join(ROOT, 'node_modules', '.bin', 'prism'), ['proxy', DOCUMENT, api.baseUrl, '--errors', '--host', '127.0.0.1', '--port', String(port)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      log += chunk.toString();
    };
    prism.stdout!.on('data', keep);
    prism.stderr!.on('data', keep);
    const deadline = Date.now() + 60_000;
    while (!log.includes('Prism is listening')) {
      if (prism.exitCode !== null || Date.now() > deadline) throw new Error(`Prism did not start:\n${log.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);

  afterAll(async () => {
    prism?.kill('SIGTERM');
    await api?.stop();
  });

  it('reports no violation of the document for the whole client flow', async () => {
    const report = await runFlow(proxyUrl, api.admin);
    const forwarded = log.split('\n').filter((l) => l.includes('Forwarding')).length;
    const violations = log.split('\n').filter((l) => /VALIDATOR|Violation/i.test(l));
    expect(violations).toEqual([]);
    expect(Object.values(report.statuses).every((s) => s >= 200 && s < 300)).toBe(true);
    // every step of the flow went through the proxy (and was validated there)
    expect(forwarded).toBeGreaterThanOrEqual(Object.keys(report.statuses).length);
  }, 180_000);

  it('would report one: a response the document does not allow becomes a VIOLATIONS answer', async () => {
    const login = await fetch(`${proxyUrl}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: api.admin.email, password: api.admin.password, unexpected: true }),
    });
    const body = (await login.json()) as { type?: string };
    expect(login.status).toBeGreaterThanOrEqual(400);
    expect(body.type ?? '').toMatch(/prism\/errors#(VIOLATIONS|UNPROCESSABLE_ENTITY)/);
  });
});
