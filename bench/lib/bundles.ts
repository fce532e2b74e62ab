/**
 * Per-function bundle size and cold init: every handler bundled on its own as Lambda would get it
 * (esbuild: bundle, platform node, target node22, CJS, minified, swagger-ui-dist external), then a
 * fresh `node -e "require(bundle)"` per bundle, timing the require inside the child.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { ROOT, handlerFiles } from '../../scripts/lib/route-table.js';
import { median, round } from './stats.js';

const run = promisify(execFile);

export interface BundleResult {
  handler: string;
  bytes: number;
  kb: number;
  initMs: number[];
  initMedianMs: number;
  processMedianMs: number;
}

export interface BundleReport {
  buildMs: number;
  nodeVersion: string;
  bundles: BundleResult[];
  /** Bytes of the largest bundle's input per package (what a bundle is made of). */
  largestComposition: Array<{ source: string; kb: number }>;
  /** The largest handler again with the AWS SDK external (as the Lambda Node 22 runtime provides it). */
  largestSdkExternal: { handler: string; kb: number; initMedianMs: number; initMs: number[] };
}

const CHILD = `
const t0 = performance.now();
require(process.argv[1]);
const t1 = performance.now();
process.stdout.write(JSON.stringify({ ms: t1 - t0 }));
`;

function sourceOf(input: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (!m) return input.startsWith('schemas/') ? '(project) schemas' : '(project) functions + shared';
  const pkg = m[1]!;
  if (
    pkg.startsWith('@aws-sdk/') ||
    pkg.startsWith('@smithy/') ||
    pkg.startsWith('@aws-crypto/') ||
    pkg === 'tslib' ||
    pkg === 'fast-xml-parser' ||
    pkg === 'strnum' ||
    pkg === 'bowser'
  )
    return 'AWS SDK v3 (+@smithy, deps)';
  return pkg;
}

export async function measureBundles(opts: { runs: number; env: NodeJS.ProcessEnv; log: (s: string) => void }): Promise<BundleReport> {
  const outdir = mkdtempSync(join(tmpdir(), 'flockwise-bench-'));
  try {
    const entryPoints = handlerFiles();
    const started = performance.now();
    const result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints,
      bundle: true,
      platform: 'node',
      target: 'node22',
      format: 'cjs',
      minify: true,
      outdir,
      outbase: ROOT,
      external: ['swagger-ui-dist'],
      metafile: true,
      logLevel: 'error',
    });
    const buildMs = Math.round(performance.now() - started);
    opts.log(`  built ${entryPoints.length} bundles in ${buildMs} ms; timing cold require (${opts.runs} runs each)…`);

    const bundles: BundleResult[] = [];
    // NODE_PATH: the bundles sit in a temp dir, swagger-ui-dist (external) is resolved from the project.
    const env = { ...opts.env, NODE_PATH: join(ROOT, 'node_modules') };
    for (const handler of entryPoints) {
      const file = join(outdir, handler.replace(/\.ts$/, '.js'));
      const bytes = statSync(file).size;
      const initMs: number[] = [];
      const processMs: number[] = [];
      for (let i = 0; i < opts.runs; i++) {
        const t0 = performance.now();
        const { stdout } = await run(process.execPath, ['-e', CHILD, file], { env, cwd: outdir });
        processMs.push(performance.now() - t0);
        initMs.push((JSON.parse(stdout) as { ms: number }).ms);
      }
      bundles.push({
        handler,
        bytes,
        kb: round(bytes / 1024, 1),
        initMs: initMs.map((x) => round(x, 1)),
        initMedianMs: round(median(initMs), 1),
        processMedianMs: round(median(processMs), 1),
      });
    }
    bundles.sort((a, b) => b.bytes - a.bytes || b.initMedianMs - a.initMedianMs);

    const largest = bundles[0]!;
    const outKey = Object.keys(result.metafile.outputs).find((k) => k.endsWith(largest.handler.replace(/\.ts$/, '.js')));
    const composition = new Map<string, number>();
    for (const [input, { bytesInOutput }] of Object.entries(outKey ? result.metafile.outputs[outKey]!.inputs : {})) {
      const src = sourceOf(input);
      composition.set(src, (composition.get(src) ?? 0) + bytesInOutput);
    }
    const largestComposition = [...composition.entries()]
      .map(([source, b]) => ({ source, kb: round(b / 1024, 1) }))
      .sort((a, b) => b.kb - a.kb)
      .slice(0, 10);

    const extDir = join(outdir, 'sdk-external');
    await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: [largest.handler],
      bundle: true,
      platform: 'node',
      target: 'node22',
      format: 'cjs',
      minify: true,
      outdir: extDir,
      outbase: ROOT,
      external: ['swagger-ui-dist', '@aws-sdk/*', '@smithy/*'],
      logLevel: 'error',
    });
    const extFile = join(extDir, largest.handler.replace(/\.ts$/, '.js'));
    const extInit: number[] = [];
    for (let i = 0; i < opts.runs; i++) {
      const { stdout } = await run(process.execPath, ['-e', CHILD, extFile], { env, cwd: outdir });
      extInit.push((JSON.parse(stdout) as { ms: number }).ms);
    }
    const largestSdkExternal = {
      handler: largest.handler,
      kb: round(statSync(extFile).size / 1024, 1),
      initMedianMs: round(median(extInit), 1),
      initMs: extInit.map((x) => round(x, 1)),
    };
    return { buildMs, nodeVersion: process.version, bundles, largestComposition, largestSdkExternal };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
