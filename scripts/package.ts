/**
 * `npm run package:prod` → `tsx scripts/package.ts --stage prod`: generate (validators, OpenAPI), then
 * `serverless package` fully OFFLINE — no AWS credentials, no network. serverless-plugin-split-stacks
 * asks CloudFormation for the deployed stack's resources while packaging; a local stub
 * (lib/cloudformation-stub.ts) answers "does not exist", as AWS does before the first deploy.
 *
 * `npm run deploy:prod` → `… --deploy`: `serverless deploy` with YOUR AWS credentials and the real
 * CloudFormation (the plugin must see the deployed stack then). No stub, no fake credentials.
 *
 * Prints the time taken and the resources per stack (root + nested); exits non-zero on failure or
 * when a stack exceeds CloudFormation's limits. Other arguments (e.g. --region) go to serverless.
 *   --no-generate   skip the generation step (the test harness has already run it)
 *   --out <dir>     after packaging, hard-link everything in .serverless/ into <dir> (a snapshot the
 *                   next package run cannot clean away; the template test reads it)
 *
 * Guards (each hit in practice, see docs/deployment.md):
 *  - one package/deploy at a time per checkout (a lock under node_modules/.cache/): two runs share
 *    .serverless/ and serverless-esbuild's .esbuild/ and break each other;
 *  - serverless-esbuild's `npm ci` of the `external` modules runs with npm_config_offline (npm cache
 *    only), so packaging needs no registry;
 *  - serverless does not exit after an error inside serverless-esbuild (esbuild's service process
 *    keeps it alive): once its error report is printed, the process group is stopped;
 *  - an overall time limit for packaging (PACKAGE_TIMEOUT_SECONDS, default 1200).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, readdirSync, closeSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT } from './lib/route-table.js';
import { startCloudFormationStub, stubEnv, type CloudFormationStub } from './lib/cloudformation-stub.js';

/** CloudFormation quotas per template. */
export const LIMITS = { resources: 500, parameters: 200, outputs: 200 } as const;

export interface Template {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; DependsOn?: string | string[]; [k: string]: unknown }>;
  Parameters?: Record<string, unknown>;
  Outputs?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface PackagedStack {
  /** `root`, or the nested stack's logical id in the root (e.g. `AuthNestedStack`). */
  name: string;
  file: string;
  template: Template;
}

/** The root template and every nested stack it declares, read from `.serverless/`. */
export function readPackagedStacks(dir = join(ROOT, '.serverless')): PackagedStack[] {
  const rootFile = 'cloudformation-template-update-stack.json';
  const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Template;
  const root = read(rootFile);
  const stacks: PackagedStack[] = [{ name: 'root', file: rootFile, template: root }];
  for (const [id, r] of Object.entries(root.Resources)) {
    if (r.Type !== 'AWS::CloudFormation::Stack') continue;
    const url = (r.Properties?.TemplateURL as { 'Fn::Join'?: [string, unknown[]] } | undefined)?.['Fn::Join']?.[1];
    const file = Array.isArray(url) ? url.at(-1) : undefined;
    if (typeof file !== 'string') throw new Error(`nested stack ${id}: cannot read its template file name from TemplateURL`);
    if (!existsSync(join(dir, file))) throw new Error(`nested stack ${id}: ${file} is missing from ${dir}`);
    stacks.push({ name: id, file, template: read(file) });
  }
  return stacks;
}

const count = (o: object | undefined) => Object.keys(o ?? {}).length;

export function stackSummary(stacks: PackagedStack[]): string[] {
  const lines: string[] = [];
  const total = stacks.reduce((n, s) => n + count(s.template.Resources), 0);
  const fns = (s: PackagedStack) => Object.values(s.template.Resources).filter((r) => r.Type === 'AWS::Lambda::Function').length;
  lines.push(`stacks: ${stacks.length} (root + ${stacks.length - 1} nested), ${total} resources in all (limit ${LIMITS.resources} per stack)`);
  for (const s of stacks) {
    lines.push(
      `  ${s.name.padEnd(28)} ${String(count(s.template.Resources)).padStart(4)} resources  ${String(fns(s)).padStart(3)} functions  ` +
        `${String(count(s.template.Parameters)).padStart(3)} parameters  ${String(count(s.template.Outputs)).padStart(3)} outputs`,
    );
  }
  return lines;
}

export function limitViolations(stacks: PackagedStack[]): string[] {
  const out: string[] = [];
  for (const s of stacks) {
    if (count(s.template.Resources) > LIMITS.resources) out.push(`${s.name}: ${count(s.template.Resources)} resources > ${LIMITS.resources}`);
    if (count(s.template.Parameters) > LIMITS.parameters) out.push(`${s.name}: ${count(s.template.Parameters)} parameters > ${LIMITS.parameters}`);
    if (count(s.template.Outputs) > LIMITS.outputs) out.push(`${s.name}: ${count(s.template.Outputs)} outputs > ${LIMITS.outputs}`);
  }
  return out;
}

/** osls prints this header above every error report (then may never exit, see above). */
const ERROR_REPORT = /^Environment: .*\bosls\b/m;

function run(args: string[], env: NodeJS.ProcessEnv, timeoutSeconds: number | undefined): Promise<number> {
  // process.execPath: the Node 22 that runs this script (the `node` devDependency), not the system one.
  // Own process group, so that stopping it also stops esbuild and npm underneath.
  const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'serverless', 'bin', 'serverless.js'), ...args], {
    cwd: ROOT,
    env,
    stdio: ['inherit', 'pipe', 'pipe'],
    detached: true,
  });
  let exited = false;
  const stopGroup = (signal: NodeJS.Signals) => {
    if (exited || child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  };
  const stop = (why: string) => {
    if (exited) return;
    if (why) console.error(why);
    stopGroup('SIGTERM');
    setTimeout(() => stopGroup('SIGKILL'), 3000).unref();
  };
  let tail = '';
  let errorSeen = false;
  const relay = (out: NodeJS.WriteStream) => (chunk: Buffer) => {
    out.write(chunk);
    tail = (tail + chunk.toString()).slice(-2000);
    if (!errorSeen && ERROR_REPORT.test(tail)) {
      errorSeen = true;
      // The report is printed in one go; give serverless a moment to exit on its own.
      setTimeout(() => stop('serverless reported an error and did not exit: stopping it'), 5000).unref();
    }
  };
  child.stdout.on('data', relay(process.stdout));
  child.stderr.on('data', relay(process.stderr));
  const onSignal = () => stop('');
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const timer = timeoutSeconds
    ? setTimeout(() => stop(`serverless did not finish within ${timeoutSeconds} s (PACKAGE_TIMEOUT_SECONDS): stopping it`), timeoutSeconds * 1000)
    : undefined;
  return new Promise((resolve) => {
    child.on('error', (err) => {
      console.error(`cannot start serverless: ${err.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      exited = true;
      clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      // Whatever the outcome, nothing it started may outlive it (esbuild's service, npm).
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* group already empty */
      }
      resolve(errorSeen ? code || 1 : (code ?? (signal ? 1 : 0)));
    });
  });
}

const LOCK = join(ROOT, 'node_modules', '.cache', 'flockwise-package.lock');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One package/deploy per checkout at a time; waits for a running one, takes over a dead one's lock. */
async function acquireLock(maxWaitSeconds = 1800): Promise<() => void> {
  mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
  const deadline = Date.now() + maxWaitSeconds * 1000;
  let told = false;
  for (;;) {
    try {
      const fd = openSync(LOCK, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(LOCK, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = 0;
    try {
      holder = Number(readFileSync(LOCK, 'utf8').trim() || 0);
    } catch {
      continue; // released meanwhile
    }
    // No pid yet: its owner is between creating and writing it; only a dead owner's lock is taken over.
    if (holder && !alive(holder)) {
      rmSync(LOCK, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another package/deploy (pid ${holder}) still holds ${LOCK}`);
    if (!told && holder) {
      console.log(`waiting for another package/deploy of this checkout (pid ${holder}) to finish…`);
      told = true;
    }
    await sleep(500);
  }
}

/** Hard-links (or copies) every file of .serverless/ into `out`, replacing what was there. */
function snapshot(out: string): void {
  const from = join(ROOT, '.serverless');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const f of readdirSync(from)) {
    try {
      linkSync(join(from, f), join(out, f));
    } catch {
      copyFileSync(join(from, f), join(out, f));
    }
  }
}

export interface PackageOptions {
  stage: string;
  deploy: boolean;
  generate: boolean;
  /** Snapshot directory for the packaged files (see --out). */
  out?: string;
  /** Passed through to serverless (e.g. --region eu-central-1). */
  extra: string[];
}

export function parseArgs(argv: string[]): PackageOptions {
  const opts: PackageOptions = { stage: 'prod', deploy: false, generate: true, extra: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--stage') opts.stage = argv[++i] ?? '';
    else if (a.startsWith('--stage=')) opts.stage = a.slice('--stage='.length);
    else if (a === '--deploy') opts.deploy = true;
    else if (a === '--no-generate') opts.generate = false;
    else if (a === '--out') opts.out = resolve(argv[++i] ?? '');
    else opts.extra.push(a);
  }
  if (!/^[a-z][a-z0-9-]*$/.test(opts.stage)) throw new Error(`invalid --stage "${opts.stage}"`);
  if (opts.out !== undefined && (opts.out === ROOT || opts.out.startsWith(join(ROOT, '.serverless')))) throw new Error('--out must be a directory of its own');
  return opts;
}

export async function main(argv: string[]): Promise<number> {
  const opts = parseArgs(argv);
  const started = performance.now();
  if (opts.generate) {
    const { generate } = await import('./generate.js');
    await generate();
  }
  const command = opts.deploy ? 'deploy' : 'package';
  const release = await acquireLock();
  let stub: CloudFormationStub | undefined;
  let code: number;
  try {
    let env = process.env;
    if (!opts.deploy) {
      stub = await startCloudFormationStub();
      // npm_config_offline: serverless-esbuild installs the `external` modules with `npm ci`; take them
      // from the npm cache (filled by the project's own npm ci/install), never from the registry.
      env = { ...stubEnv(process.env, stub.endpoint), npm_config_offline: 'true', npm_config_update_notifier: 'false' };
    }
    console.log(`serverless ${command} --stage ${opts.stage}${opts.deploy ? '' : ` (offline: fake credentials, CloudFormation stub on ${stub!.endpoint})`}`);
    const timeout = opts.deploy ? undefined : Number(process.env.PACKAGE_TIMEOUT_SECONDS || 1200);
    code = await run([command, '--stage', opts.stage, ...opts.extra], env, timeout);
    if (code === 0 && opts.out) snapshot(opts.out);
  } finally {
    await stub?.close();
    release();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (stub) {
    const calls = stub.calls.map((c) => `${c.service} ${c.action}${c.stackName ? ` ${c.stackName}` : ''}`);
    console.log(`CloudFormation stub answered ${calls.length} call(s)${calls.length ? `: ${[...new Set(calls)].join(', ')}` : ''}`);
    const unexpected = stub.calls.filter((c) => c.service !== 'cloudformation' || c.action !== 'ListStackResources');
    if (unexpected.length)
      console.warn(`warning: packaging called other AWS APIs than ListStackResources: ${unexpected.map((c) => `${c.service} ${c.action}`).join(', ')}`);
  }
  if (code !== 0) {
    console.error(`serverless ${command} failed (exit ${code}) after ${seconds} s`);
    return code;
  }
  const stacks = readPackagedStacks(opts.out);
  console.log(`\n${command === 'deploy' ? 'deployed' : 'packaged'} stage ${opts.stage} in ${seconds} s${opts.generate ? ' (generation included)' : ''}`);
  for (const line of stackSummary(stacks)) console.log(line);
  const violations = limitViolations(stacks);
  if (violations.length) {
    console.error(`CloudFormation limits exceeded:\n  ${violations.join('\n  ')}`);
    return 1;
  }
  return 0;
}

if (process.argv[1] === import.meta.filename) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`package failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
