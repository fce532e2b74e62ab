/**
 * The API as a user starts it: `npm start` itself, in an environment stripped to PATH and HOME (plus
 * free ports and an in-memory database, as a user may choose), then over HTTP:
 * - every socket the started processes listen on is on the loopback (DynamoDB Local included);
 * - a farm export → download → restore completes (the export store is this machine's folder, not S3);
 * - a second stack started from the same checkout (as `npm test` starts one) builds and serves beside it
 *   while the first keeps answering every request;
 * - a burst of concurrent reads runs on the warm handlers: no thread per concurrent call.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/route-table.js';
import { startOffline, userShell, type Offline } from '../support/offline.js';
import { isLoopback, listeningSockets, processTree, threadCount } from '../support/processes.js';

const ADMIN = { email: 'admin@flockwise.local', password: 'flockwise-admin-1' }; // the README's

/** A base port with PORT…PORT+3 free (offline's HTTP, websocket, Lambda and ALB ports). */
async function freeBase(): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    let ok = true;
    for (let p = base; p < base + 4 && ok; p++) ok = await free(p);
    if (ok) return base;
  }
}

interface Json {
  [k: string]: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read any field
}

describe('npm start as a user starts it (PATH and HOME only)', () => {
  let child: ChildProcess;
  let out = '';
  let base: string;
  let ports: { api: number; dynamo: number; mqtt: number };
  let token: string;

  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json; text: string }> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let parsed: Json = {};
    try {
      parsed = JSON.parse(text) as Json;
    } catch {
      /* not JSON (a download) */
    }
    return { status: res.status, body: parsed, text };
  };

  async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await read();
      if (done(v)) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 500)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  beforeAll(async () => {
    const api = await freeBase();
    ports = { api, dynamo: await freeBase(), mqtt: await freeBase() };
    child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...userShell(), PORT: String(ports.api), DYNAMODB_PORT: String(ports.dynamo), MQTT_PORT: String(ports.mqtt), DYNAMODB_IN_MEMORY: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout!.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-200_000)));
    child.stderr!.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-200_000)));
    const deadline = Date.now() + 150_000;
    while (!/Flockwise API ready on (http:\/\/\S+) in/.test(out)) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${out.slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`npm start was not ready within 150 s:\n${out.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    base = /Flockwise API ready on (http:\/\/\S+) in/.exec(out)![1]!;
    const login = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    token = ((await login.json()) as Json).token;
  }, 180_000);

  afterAll(async () => {
    if (!child?.pid) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const exited = child.exitCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  });

  it('listens on the loopback only: the API, its Lambda port, DynamoDB Local and the MQTT broker', () => {
    const sockets = listeningSockets(processTree(child.pid!));
    const summary = sockets.map((s) => `${s.address}:${s.port}`).join(', ');
    for (const port of [ports.api, ports.api + 2, ports.dynamo, ports.mqtt])
      expect(
        sockets.some((s) => s.port === port),
        `${port} in ${summary}`,
      ).toBe(true);
    expect(
      sockets.filter((s) => !isLoopback(s.address)),
      summary,
    ).toEqual([]);
  });

  it('exports a farm, downloads the file and restores it into a new farm', async () => {
    const farms = await call('GET', '/api/v1/config/farms');
    expect(farms.status, farms.text).toBe(200);
    const farmId = farms.body.data[0].id as string;
    const flock = await call('POST', '/api/v1/flocks', {
      name: 'Barn 1',
      birdType: 'broiler',
      breed: 'Ross 308',
      hatchDate: new Date().toISOString().slice(0, 10),
      farmId,
    });
    expect(flock.status, flock.text).toBe(201);

    const started = await call('POST', '/api/v1/continuity/exports', { farmId });
    expect(started.status, started.text).toBe(202);
    const done = await until(
      () => call('GET', `/api/v1/continuity/exports/${started.body.data.id}`).then((r) => r.body.data as Json),
      (e) => e.status !== 'pending' && e.status !== 'running',
      'the export',
    );
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', error: null, counts: { farm: 1, flock: 1 } });

    const file = await call('GET', `/api/v1/continuity/exports/${done.id}/download`);
    expect(file.status).toBe(200);
    // the file's own check (docs/export-format.md): the sha256 of every byte before the trailer line
    const trailerAt = file.text.lastIndexOf('\n', file.text.length - 2) + 1;
    expect(JSON.parse(file.text.slice(trailerAt))).toMatchObject({ type: 'trailer', data: { sha256: done.sha256 } });
    expect(createHash('sha256').update(file.text.slice(0, trailerAt)).digest('hex')).toBe(done.sha256);

    const restore = await call('POST', '/api/v1/continuity/restores', { exportId: done.id, farmName: 'Restored as started' });
    expect(restore.status, restore.text).toBe(202);
    const restored = await until(
      () => call('GET', `/api/v1/continuity/restores/${restore.body.data.id}`).then((r) => r.body.data as Json),
      (r) => r.status === 'completed' || r.status === 'failed',
      'the restore',
    );
    expect(restored, JSON.stringify(restored)).toMatchObject({ status: 'completed', error: null, checks: { mismatches: [] } });
    const flocks = await call('GET', `/api/v1/flocks?farmId=${restored.farmId}`);
    expect(flocks.status, flocks.text).toBe(200);
    expect(flocks.body.data.map((f: Json) => f.name)).toEqual(['Barn 1']);
  });

  it('keeps answering while a test run starts and stops a stack from the same checkout', async () => {
    const answers: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const [health, read] = await Promise.all([
          fetch(`${base}/health`, { signal: AbortSignal.timeout(15_000) }).then(
            (r) => r.status,
            () => 0,
          ),
          call('GET', '/api/v1/flocks').then(
            (r) => r.status,
            () => 0,
          ),
        ]);
        answers.push(health, read);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    let other: Offline | undefined;
    try {
      other = await startOffline();
      expect((await fetch(`${other.baseUrl}/health`)).status).toBe(200);
    } finally {
      await other?.stop();
      polling = false;
      await poller;
    }
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.filter((s) => s !== 200)).toEqual([]);
    expect((await call('GET', '/api/v1/flocks')).status).toBe(200);
  }, 180_000);

  it('serves a burst of 48 concurrent reads on its warm handlers, without a thread per call', async () => {
    const offlinePid = processTree(child.pid!).find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('offline');
      } catch {
        return false;
      }
    });
    expect(offlinePid).toBeDefined();
    const before = threadCount(offlinePid!);
    const statuses = await Promise.all(Array.from({ length: 48 }, () => call('GET', '/api/v1/flocks').then((r) => r.status)));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(threadCount(offlinePid!)).toBeLessThanOrEqual(before + 4);
  });
});
