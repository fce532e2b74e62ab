/**
 * e2e abuse cases (sign-in, sign-up, movement locks), over real HTTP through serverless-offline, as two clients: every request
 * is sent from a loopback address of its own (127.0.0.2 the attacker, 127.0.0.3 the owner; Linux routes
 * all of 127.0.0.0/8 to the loopback), so the service sees two source IPs exactly as API Gateway would
 * report them.
 * - Movement locks: a worker can no longer lift a manager's lock, nor then change the movement.
 * - Sign-up: a registered and a new address get the same answer, headers included.
 * - Sign-in (last: it attacks the admin's e-mail): the attacker's failures delay the attacker only; the
 *   owner signs in (docs/security.md).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOffline, type Offline } from '../support/offline.js';

const ATTACKER = '127.0.0.2';
const OWNER = '127.0.0.3';
const PASSWORD = 'correct-horse-battery';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read any field
  text: string;
}

let api: Offline;

/** One HTTP request from `from` (the socket's local address): what the service sees as the client's source IP. */
function send(from: string, method: string, path: string, opts: { body?: unknown; token?: string } = {}): Promise<Answer> {
  const url = new URL(path, api.baseUrl);
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        localAddress: from,
        timeout: 15_000,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 500) return reject(new Error(`${method} ${path} → ${status} ${text}\n--- offline output ---\n${api.output().slice(-3000)}`));
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status, headers: res.headers as Record<string, string>, body, text });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

const login = (from: string, email: string, password: string) => send(from, 'POST', '/api/v1/auth/login', { body: { email, password } });

beforeAll(async () => {
  api = await startOffline();
});
afterAll(async () => {
  await api?.stop();
});

describe('abuse cases through serverless-offline, two clients on 127.0.0.2 and 127.0.0.3', () => {
  it('movement locks: a worker can no longer lift a manager’s lock, so the locked movement stays as it is', async () => {
    const admin = (await login(OWNER, api.admin.email, api.admin.password)).body.token as string;
    const as = (token: string) => (method: string, path: string, body?: unknown) =>
      send(OWNER, method, path, { token, ...(body === undefined ? {} : { body }) });
    const farm = (await as(admin)('POST', '/api/v1/config/farms', { name: 'Abuse farm' })).body.data;
    const tokens: Record<string, string> = {};
    for (const role of ['manager', 'worker']) {
      const email = `${role}-abuse@e2e.local`;
      const created = await as(admin)('POST', '/api/v1/admin/users', { email, password: PASSWORD, name: role, role, farmIds: [farm.id] });
      expect(created.status, created.text).toBe(201);
      tokens[role] = (await login(OWNER, email, PASSWORD)).body.token;
    }
    const manager = as(tokens.manager!);
    const worker = as(tokens.worker!);
    const flock = (await manager('POST', '/api/v1/flocks', { name: 'Abuse flock', birdType: 'broiler', farmId: farm.id, hatchDate: '2026-11-01' })).body.data;
    const cycle = (await manager('POST', `/api/v1/flocks/${flock.id}/cycles`, { startDate: '2026-11-01' })).body.data;
    const movement = (
      await worker('POST', `/api/v1/flocks/${flock.id}/cycles/${cycle.id}/movements`, { type: 'bird_inflow', date: '2026-11-01', quantity: 10 })
    ).body.data;
    const url = `/api/v1/flocks/${flock.id}/cycles/${cycle.id}/movements/${movement.id}`;
    expect((await manager('PUT', `${url}/lock`, { reason: 'reviewed' })).status).toBe(200);

    const unlock = await worker('PUT', `${url}/unlock`, { reason: 'mine to change' });
    expect(unlock.status, unlock.text).toBe(403);
    expect(unlock.body.error).toBe(`Movement ${movement.id} was locked by the role manager: unlocking it needs manage_flocks or the role manager or above`);
    expect((await worker('PATCH', url, { quantity: 11 })).status).toBe(409);
    expect((await worker('DELETE', url)).status).toBe(409);
    const after = await manager('GET', url);
    expect(after.body.data).toMatchObject({ quantity: 10, lock: { type: 'manual', reason: 'reviewed', byRole: 'manager' } });
  });

  it('sign-up: a registered and a new address of the same length get the same status, headers and body shape', async () => {
    const registered = api.admin.email;
    const fresh = `${'n'.repeat(registered.indexOf('@'))}${registered.slice(registered.indexOf('@'))}`;
    const answers = [];
    for (const email of [fresh, registered])
      answers.push(await send(OWNER, 'POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD, name: 'Someone' } }));
    const [a, b] = answers as [Answer, Answer];
    expect(a.status, a.text).toBe(202);
    expect(b.status, b.text).toBe(a.status);
    // what differs is per request (id, date, quota left), never per address
    const PER_REQUEST = ['x-request-id', 'date', 'ratelimit'];
    const fixed = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([k]) => !PER_REQUEST.includes(k)));
    expect(Object.keys(b.headers).sort()).toEqual(Object.keys(a.headers).sort());
    expect(fixed(b.headers)).toEqual(fixed(a.headers));
    expect(b.text.length).toBe(a.text.length);
    expect(b.body).toEqual({ ...a.body, data: { email: registered, verificationToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) } });
  });

  it('sign-in: the attacker’s failures on the admin’s e-mail delay the attacker only; the admin signs in from another address', async () => {
    const { email, password } = api.admin;
    for (let i = 0; i < 5; i++) expect((await login(ATTACKER, email, `wrong-password-${i}`)).status, `failure ${i + 1}`).toBe(401);
    // the attacker is held back, even with the right password, and its further attempts change nothing for the owner
    for (let i = 0; i < 5; i++) {
      const held = await login(ATTACKER, email, i === 0 ? password : `wrong-again-${i}`);
      expect(held.status, held.text).toBe(403);
      expect(held.body.error).toMatch(/^Too many failed sign-in attempts for this e-mail from your address; try again in \d+ second\(s\)$/);
      expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(held.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    const owner = await login(OWNER, email, password);
    expect(owner.status, owner.text).toBe(200);
    expect(owner.body.user).toMatchObject({ email, role: 'admin' });
    // an unknown e-mail is held back the same way
    const ghost = 'nobody-here@e2e.local';
    for (let i = 0; i < 5; i++) expect((await login(ATTACKER, ghost, `wrong-password-${i}`)).status).toBe(401);
    const ghostHeld = await login(ATTACKER, ghost, password);
    expect(ghostHeld.status).toBe(403);
    expect(ghostHeld.body.error).toMatch(/^Too many failed sign-in attempts for this e-mail from your address; try again in \d+ second\(s\)$/);
  });
});
