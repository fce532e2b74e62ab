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
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

function run(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  // process.execPath: the Node 22 that runs this script (the `node` devDependency), not the system one.
  const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'serverless', 'bin', 'serverless.js'), ...args], { cwd: ROOT, env, stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return new Promise((resolve) => {
    child.on('error', (err) => {
      console.error(`cannot start serverless: ${err.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

export interface PackageOptions {
  stage: string;
  deploy: boolean;
  generate: boolean;
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
    else opts.extra.push(a);
  }
  if (!/^[a-z][a-z0-9-]*$/.test(opts.stage)) throw new Error(`invalid --stage "${opts.stage}"`);
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
  let stub: CloudFormationStub | undefined;
  let code: number;
  try {
    let env = process.env;
    if (!opts.deploy) {
      stub = await startCloudFormationStub();
      env = stubEnv(process.env, stub.endpoint);
    }
    console.log(`serverless ${command} --stage ${opts.stage}${opts.deploy ? '' : ` (offline: fake credentials, CloudFormation stub on ${stub!.endpoint})`}`);
    code = await run([command, '--stage', opts.stage, ...opts.extra], env);
  } finally {
    await stub?.close();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (stub) {
    const calls = stub.calls.map((c) => `${c.service} ${c.action}${c.stackName ? ` ${c.stackName}` : ''}`);
    console.log(`CloudFormation stub answered ${calls.length} call(s)${calls.length ? `: ${[...new Set(calls)].join(', ')}` : ''}`);
    const unexpected = stub.calls.filter((c) => c.service !== 'cloudformation' || c.action !== 'ListStackResources');
    if (unexpected.length) console.warn(`warning: packaging called other AWS APIs than ListStackResources: ${unexpected.map((c) => `${c.service} ${c.action}`).join(', ')}`);
  }
  if (code !== 0) {
    console.error(`serverless ${command} failed (exit ${code}) after ${seconds} s`);
    return code;
  }
  const stacks = readPackagedStacks();
  console.log(`\n${command === 'deploy' ? 'deployed' : 'packaged'} stage ${opts.stage} in ${seconds} s (generation included)`);
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
