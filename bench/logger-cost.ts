/**
 * What the structured logger (shared/platform/log.ts, on Powertools' Logger) costs a cold start: bundle
 * size and the time of a fresh `require()`, bundled as bench/lib/bundles.ts bundles a function (esbuild:
 * bundle, platform node, target node22, CJS, minified). Two pairs:
 * - a tiny handler writing one JSON line itself (`console.log(JSON.stringify(…))`, as the service did
 *   before) vs the same handler through shared/platform/log.ts;
 * - a real handler (GET /api/v1/flocks/{flockId}) as built vs with shared/platform/log.ts swapped for a
 *   `console.log(JSON.stringify(…))` stand-in of the same interface: the logger's cost inside a function
 *   that already loads the AWS SDK, jose and the rest.
 * Each bundle is required in a fresh `node -e` RUNS times, the four in turn. `npx tsx bench/logger-cost.ts [runs]`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { ROOT } from '../scripts/lib/route-table.js';
import { median, round } from './lib/stats.js';

const run = promisify(execFile);
const RUNS = Number(process.argv[2] ?? 21);
const REAL_HANDLER = 'functions/flocks/get-flock.ts';

const CHILD = `
const t0 = performance.now();
require(process.argv[1]);
process.stdout.write(JSON.stringify({ ms: performance.now() - t0 }));
`;

const OWN_LINE = `export const handler = async (event) => {
  console.log(JSON.stringify({ level: 'info', msg: 'request', requestId: event.requestId, correlationId: event.requestId }));
  return { statusCode: 200, body: 'ok' };
};`;
const WITH_LOGGER = `import { endInvocation, invocationIds, log, startInvocation } from ${JSON.stringify(join(ROOT, 'shared/platform/log.ts'))};
export const handler = async (event) => {
  startInvocation(invocationIds(event.requestId));
  log.info('request', {});
  endInvocation();
  return { statusCode: 200, body: 'ok' };
};`;
/** shared/platform/log.ts's interface, writing its line itself. */
const STAND_IN = `const line = (level) => (msg, fields = {}) => console.log(JSON.stringify({ level, msg, ...fields }));
export const log = { info: line('info'), warn: line('warn'), error: line('error') };
export const invocationIds = (requestId, sent) => ({ requestId, correlationId: sent ?? requestId });
export const startInvocation = () => {};
export const endInvocation = () => {};`;

const standInPlugin: esbuild.Plugin = {
  name: 'log-stand-in',
  setup(build) {
    build.onResolve({ filter: /platform\/log\.js$/ }, () => ({ path: 'log-stand-in', namespace: 'stand-in' }));
    build.onLoad({ filter: /.*/, namespace: 'stand-in' }, () => ({ contents: STAND_IN, loader: 'js' }));
  },
};

async function bundle(outfile: string, from: { code: string } | { entry: string }, plugins: esbuild.Plugin[] = []): Promise<void> {
  await esbuild.build({
    absWorkingDir: ROOT,
    ...('code' in from ? { stdin: { contents: from.code, resolveDir: ROOT, loader: 'ts' } } : { entryPoints: [from.entry] }),
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    minify: true,
    outfile,
    external: ['swagger-ui-dist'],
    plugins,
    logLevel: 'error',
  });
}

const outdir = mkdtempSync(join(tmpdir(), 'flockwise-logger-'));
try {
  const variants = [
    { name: 'tiny handler, own JSON line', file: join(outdir, 'tiny-own.js'), build: (f: string) => bundle(f, { code: OWN_LINE }) },
    { name: 'tiny handler, shared/platform/log.ts', file: join(outdir, 'tiny-logger.js'), build: (f: string) => bundle(f, { code: WITH_LOGGER }) },
    {
      name: `${REAL_HANDLER}, log stand-in`,
      file: join(outdir, 'real-stand-in.js'),
      build: (f: string) => bundle(f, { entry: REAL_HANDLER }, [standInPlugin]),
    },
    { name: `${REAL_HANDLER}, as built`, file: join(outdir, 'real-logger.js'), build: (f: string) => bundle(f, { entry: REAL_HANDLER }) },
  ];
  for (const v of variants) await v.build(v.file);
  writeFileSync(join(outdir, 'package.json'), '{}');
  const times = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const v of variants) {
      const { stdout } = await run(process.execPath, ['-e', CHILD, v.file], {
        cwd: outdir,
        env: { PATH: process.env.PATH, NODE_PATH: join(ROOT, 'node_modules') },
      });
      times.get(v.name)!.push((JSON.parse(stdout) as { ms: number }).ms);
    }
  }
  console.log(`node ${process.version}, ${RUNS} cold requires each (median, min–max):`);
  for (const v of variants) {
    const ms = times.get(v.name)!;
    const kb = round(statSync(v.file).size / 1024, 1);
    console.log(`  ${v.name}: ${kb} KB, ${round(median(ms), 2)} ms (${round(Math.min(...ms), 2)}–${round(Math.max(...ms), 2)})`);
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
