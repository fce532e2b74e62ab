/**
 * What a structured logger costs a cold start: bundle size and the time of a fresh `require()`, bundled
 * as bench/lib/bundles.ts bundles a function (esbuild: bundle, platform node, target node22, CJS,
 * minified), each bundle required in a fresh `node -e` RUNS times, all in turn. Variants:
 * - a tiny handler writing its JSON line itself, through shared/platform/log.ts, and through Powertools'
 *   Logger (`@aws-lambda-powertools/logger`, set up as shared/platform/log.ts would use it: a formatter
 *   for the same line, the ids as appended keys);
 * - the largest function (POST /api/v1/flocks/{flockId}/movements) as built, and with Powertools in place
 *   of shared/platform/log.ts, external AWS SDK as deployed (its budget: 300 KB, tests/deploy).
 * Powertools is not a dependency (docs/decisions.md, "Structured logging"): its variants run when it is
 * installed (`npm install --no-save @aws-lambda-powertools/logger`). `npx tsx bench/logger-cost.ts [runs]`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { ROOT } from '../scripts/lib/route-table.js';
import { median, round } from './lib/stats.js';

const run = promisify(execFile);
const RUNS = Number(process.argv[2] ?? 21);
const LARGEST = 'functions/flocks/create-movement.ts';
const LOG_MODULE = join(ROOT, 'shared/platform/log.ts');

/** Wall time and CPU time (user + system: what the require costs, whatever else the machine runs) of the require. */
const CHILD = `
const t0 = performance.now();
const c0 = process.cpuUsage();
require(process.argv[1]);
const c = process.cpuUsage(c0);
process.stdout.write(JSON.stringify({ ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 }));
`;

/** A handler logging one request line, through `logModule` (or by itself). */
const tiny = (logModule: string | null) =>
  logModule === null
    ? `export const handler = async (event) => {
  process.stdout.write(JSON.stringify({ level: 'info', msg: 'request', requestId: event.requestId, correlationId: event.requestId }) + '\\n');
  return { statusCode: 200 };
};`
    : `import { endInvocation, invocationIds, log, startInvocation } from ${JSON.stringify(logModule)};
export const handler = async (event) => {
  startInvocation(invocationIds(event.requestId));
  log.info('request', {});
  endInvocation();
  return { statusCode: 200 };
};`;

/** shared/platform/log.ts's interface on Powertools' Logger (the variant that was measured and not taken). */
const POWERTOOLS_LOG = `import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger';
class Line extends LogItem { prepareForPrint() {} }
class LineFormatter extends LogFormatter {
  formatAttributes(attributes, additional) {
    const { fields, ...keys } = additional;
    const head = { level: attributes.logLevel.toLowerCase(), msg: attributes.message };
    return new Line({ attributes: { ...head, ...keys, ...fields, ...head } });
  }
}
const logger = new Logger({ logFormatter: new LineFormatter() });
export const log = {
  info: (msg, fields = {}) => logger.info(msg, { fields }),
  warn: (msg, fields = {}) => logger.warn(msg, { fields }),
  error: (msg, fields = {}) => logger.error(msg, { fields }),
};
export const invocationIds = (requestId, sent) => ({ requestId, correlationId: sent ?? requestId });
export const startInvocation = (ids) => { logger.resetKeys(); logger.appendKeys(ids); };
export const endInvocation = () => logger.resetKeys();`;

const powertoolsInstead: esbuild.Plugin = {
  name: 'powertools-log',
  setup(build) {
    build.onResolve({ filter: /platform\/log(\.js|\.ts)?$/ }, () => ({ path: 'powertools-log', namespace: 'powertools-log' }));
    build.onLoad({ filter: /.*/, namespace: 'powertools-log' }, () => ({ contents: POWERTOOLS_LOG, loader: 'js', resolveDir: ROOT }));
  },
};

async function bundle(outfile: string, from: { code: string } | { entry: string }, plugins: esbuild.Plugin[] = []): Promise<void> {
  await esbuild.build({
    absWorkingDir: ROOT,
    ...('code' in from ? { stdin: { contents: from.code, resolveDir: ROOT, loader: 'ts' as const } } : { entryPoints: [from.entry] }),
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    minify: true,
    outfile,
    external: ['swagger-ui-dist', '@aws-sdk/*'],
    plugins,
    logLevel: 'error',
  });
}

const hasPowertools = (() => {
  try {
    createRequire(join(ROOT, 'package.json')).resolve('@aws-lambda-powertools/logger');
    return true;
  } catch {
    return false;
  }
})();

const outdir = mkdtempSync(join(tmpdir(), 'flockwise-logger-'));
try {
  const variants = [
    { name: 'tiny handler, its own line', build: (f: string) => bundle(f, { code: tiny(null) }) },
    { name: 'tiny handler, shared/platform/log.ts', build: (f: string) => bundle(f, { code: tiny(LOG_MODULE) }) },
    ...(hasPowertools ? [{ name: 'tiny handler, Powertools Logger', build: (f: string) => bundle(f, { code: tiny(LOG_MODULE) }, [powertoolsInstead]) }] : []),
    { name: `${LARGEST}, as built`, build: (f: string) => bundle(f, { entry: LARGEST }) },
    ...(hasPowertools ? [{ name: `${LARGEST}, Powertools Logger`, build: (f: string) => bundle(f, { entry: LARGEST }, [powertoolsInstead]) }] : []),
  ].map((v, i) => ({ ...v, file: join(outdir, `variant-${i}.js`) }));
  if (!hasPowertools) console.log('(@aws-lambda-powertools/logger is not installed: its variants are left out)');
  for (const v of variants) await v.build(v.file);
  const times = new Map<string, { ms: number[]; cpuMs: number[] }>(variants.map((v) => [v.name, { ms: [], cpuMs: [] }]));
  // the AWS SDK is external, as in the deploy bundles: resolved from the project
  const env = { PATH: process.env.PATH, NODE_PATH: join(ROOT, 'node_modules') };
  for (let i = 0; i < RUNS; i++) {
    for (const v of variants) {
      const { stdout } = await run(process.execPath, ['-e', CHILD, v.file], { cwd: outdir, env });
      const sample = JSON.parse(stdout) as { ms: number; cpuMs: number };
      times.get(v.name)!.ms.push(sample.ms);
      times.get(v.name)!.cpuMs.push(sample.cpuMs);
    }
  }
  console.log(`node ${process.version}, ${RUNS} cold requires each: median (min–max) of wall time, median of CPU time`);
  for (const v of variants) {
    const { ms, cpuMs } = times.get(v.name)!;
    const wall = `${round(median(ms), 2)} ms (${round(Math.min(...ms), 2)}–${round(Math.max(...ms), 2)})`;
    console.log(`  ${v.name}: ${round(statSync(v.file).size / 1024, 1)} KB, ${wall}, CPU ${round(median(cpuMs), 2)} ms`);
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
