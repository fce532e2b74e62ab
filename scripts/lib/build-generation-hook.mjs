/**
 * Preloaded into serverless-offline (`node --import`) by scripts/lib/offline-process.ts. Offline runs every
 * handler in its own process (`--useInProcess`), and Node caches an ES module by its URL, so a rebuilt
 * handler would never be loaded again. This registers a resolve hook that gives every module of the
 * stack's build folder (FLOCKWISE_BUILD_DIR) the folder's current build generation as a query
 * (`…/list-flocks.mjs?g=<generation>`): after a rebuild the next invocation loads the new code, before it
 * the cached modules are served (warm).
 */
import { register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = process.env.FLOCKWISE_BUILD_DIR;
if (dir) {
  register('./build-generation-loader.mjs', import.meta.url, {
    data: { root: `${pathToFileURL(dir).href}/`, generationFile: join(dir, '.generation') },
  });
}
