/**
 * ONE esbuild build of every handler for local runs (serverless-offline reads it): ESM with code
 * splitting, so shared code and the AWS SDK are parsed once, not once per function (measured at 150
 * routes: 0.5 s instead of ~50 s and 8 GB; docs/decisions.md). Each running stack builds into a folder
 * of its own (scripts/lib/stack.ts: `.build/api-<port>/`), so `npm start` and a test run never pull files
 * from under each other. `watchBuild` rebuilds on edits and bumps the folder's build generation, which
 * the running stack's module loader reads (scripts/lib/build-generation-hook.mjs). `npm run build`
 * builds once into dist/.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { ROOT, handlerFiles } from './lib/route-table.js';

/** The file holding a build folder's generation: a new value after every successful rebuild. */
export const GENERATION_FILE = '.generation';

export function buildOptions(outdir = join(ROOT, 'dist')): esbuild.BuildOptions {
  return {
    absWorkingDir: ROOT,
    entryPoints: handlerFiles(),
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    splitting: true,
    outdir,
    outbase: ROOT,
    outExtension: { '.js': '.mjs' },
    sourcemap: 'linked',
    external: ['swagger-ui-dist'],
    // Bundled CJS dependencies call require(); give ESM output one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'warning',
  };
}

export async function build(outdir = join(ROOT, 'dist')): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  await esbuild.build(buildOptions(outdir));
}

/** Builds into `outdir` (emptied first), then rebuilds on every edit; each successful build writes a new generation. */
export async function watchBuild(outdir: string, onRebuild?: (errors: number) => void): Promise<esbuild.BuildContext> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  let builds = 0;
  let firstBuilt: (errors: number) => void = () => {};
  const first = new Promise<number>((resolve) => (firstBuilt = resolve));
  const generation: esbuild.Plugin = {
    name: 'build-generation',
    setup(b) {
      b.onEnd((result) => {
        const errors = result.errors.length;
        if (errors === 0) writeFileSync(join(outdir, GENERATION_FILE), `${Date.now()}-${builds + 1}`);
        if (++builds === 1) firstBuilt(errors);
        else onRebuild?.(errors);
      });
    },
  };
  const ctx = await esbuild.context({ ...buildOptions(outdir), plugins: [generation] });
  await ctx.watch(); // builds once, then on every edit
  const errors = await first;
  if (errors > 0) {
    await ctx.dispose();
    throw new Error(`the build of the handlers failed (${errors} errors)`);
  }
  return ctx;
}

if (process.argv[1] === import.meta.filename) {
  const started = performance.now();
  await build();
  console.log(`built ${handlerFiles().length} handlers into dist/ in ${Math.round(performance.now() - started)} ms`);
}
