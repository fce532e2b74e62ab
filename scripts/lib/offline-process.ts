/**
 * serverless-offline as a child process, for the one launcher of the local stack (scripts/lib/stack.ts):
 * Node 22 of this process, every handler in offline's own process (`--useInProcess`: one warm module
 * per handler, however many requests run at once; a rebuild is picked up through the build generation,
 * scripts/lib/build-generation-hook.mjs), its own process group so stopping reaches everything offline
 * forks, a watchdog that kills that group if the parent dies without stopping it, and a last-resort kill
 * when the parent exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './route-table.js';

/** Preloaded into offline: when its parent is gone, kill offline's own process group. */
const ORPHAN_WATCHDOG =
  'data:text/javascript,const parent = process.ppid; setInterval(() => { if (process.ppid !== parent) { try { process.kill(-process.pid, "SIGKILL"); } catch { process.exit(1); } } }, 500).unref();';

const GENERATION_HOOK = pathToFileURL(join(ROOT, 'scripts', 'lib', 'build-generation-hook.mjs')).href;

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* the group is gone */
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the whole process group, SIGKILL after 3 s. Idempotent. */
async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || !running.has(child)) return;
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r()));
  killGroup(child, 'SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 3000).unref())]);
  // The leader may be gone while other members of its group are not: sweep the group either way.
  const deadline = Date.now() + 3000;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pid)) killGroup(child, 'SIGKILL');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 2000).unref())]);
  running.delete(child);
}

/** The address a client on this machine calls for a listening host (every interface: the loopback). */
export const urlHost = (host: string): string => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);

export interface OfflineProcess {
  baseUrl: string;
  /** offline's process (the leader of its process group). */
  pid: number | undefined;
  /** The last ~100–200 KB of offline's stdout and stderr. */
  output(): string;
  /** Why the process ended, when it did before being stopped. */
  exitReason(): string | undefined;
  stop(): Promise<void>;
}

export function spawnOffline(opts: {
  stage: string;
  ports: { http: number; lambda: number; websocket: number; alb: number };
  /** The handlers' environment; FLOCKWISE_BUILD_DIR names the build folder offline serves. */
  env: NodeJS.ProcessEnv;
  host: string;
  /** Offline's output as it comes (`npm start` relays it to the terminal). */
  onOutput?: (text: string, stream: 'stdout' | 'stderr') => void;
  /** Offline ended on its own (not through stop()). */
  onExit?: (code: number | null) => void;
}): OfflineProcess {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Last resort if the parent exits without stopping it (crash, timeout): never leave offline behind.
    process.once('exit', () => {
      for (const child of running) killGroup(child, 'SIGKILL');
    });
  }
  const args = [
    join(ROOT, 'node_modules', '.bin', 'serverless'),
    'offline',
    'start',
    '--stage',
    opts.stage,
    '--useInProcess',
    '--host',
    opts.host,
    '--httpPort',
    String(opts.ports.http),
    '--lambdaPort',
    String(opts.ports.lambda),
    '--websocketPort',
    String(opts.ports.websocket),
    '--albPort',
    String(opts.ports.alb),
  ];
  const child = spawn(process.execPath, ['--import', ORPHAN_WATCHDOG, '--import', GENERATION_HOOK, ...args], {
    cwd: ROOT,
    // the service invokes its own functions (the alarms on new data) through offline's Lambda port
    env: { ...opts.env, LAMBDA_ENDPOINT: `http://${urlHost(opts.host)}:${opts.ports.lambda}` },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  let out = '';
  const keep = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    const text = chunk.toString();
    opts.onOutput?.(text, stream);
    out += text;
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout!.on('data', keep('stdout'));
  child.stderr!.on('data', keep('stderr'));
  let exit: string | undefined;
  child.once('exit', (code, signal) => {
    exit = `exited with ${signal ?? code}`;
    if (running.has(child)) opts.onExit?.(code);
  });
  return {
    baseUrl: `http://${urlHost(opts.host)}:${opts.ports.http}`,
    pid: child.pid,
    output: () => out,
    exitReason: () => exit,
    stop: () => stopGroup(child),
  };
}
