/** Section 3: per-function bundle size and cold init (bench/lib/bundles.ts); child processes only, no DynamoDB. */
import { measureBundles, type BundleReport } from '../lib/bundles.js';
import { INIT_RUNS, log, section } from './settings.js';

export async function measureBundleSizes(benchEnv: Record<string, string>): Promise<BundleReport> {
  log(
    `\n3. Bundle size and cold init per function (esbuild CJS minified; fresh ${process.execPath.includes('node_modules') ? 'project' : 'current'} Node ${process.version})`,
  );
  section('bundles');
  const bundles = await measureBundles({ runs: INIT_RUNS, env: { ...process.env, ...benchEnv }, log });
  console.table(
    bundles.bundles.map((b) => ({
      handler: b.handler,
      KB: b.kb,
      'init median ms': b.initMedianMs,
      'init runs ms': b.initMs.join(' / '),
      'process ms': b.processMedianMs,
    })),
  );
  log(`   largest bundle (${bundles.bundles[0]!.handler}) by source:`);
  console.table(bundles.largestComposition);
  const ext = bundles.largestSdkExternal;
  log(
    `   same handler with the AWS SDK external (runtime-provided): ${ext.kb} KB, init median ${ext.initMedianMs} ms (${ext.initMs.join(' / ')}; SDK still loaded from node_modules)`,
  );
  return bundles;
}
