/**
 * The build-time generation step (run by `npm install` via prepare, by `npm test`, `npm start` and the
 * test setup): request validators, then the OpenAPI document and the route list, all under the
 * git-ignored schemas/compiled/.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compileSchemas } from './compile-schemas.js';
import { ROOT, apiRoutes } from './lib/route-table.js';
import { writeGenerated } from './lib/write-file.js';

export async function generate(): Promise<void> {
  const modules = await compileSchemas();
  const out = join(ROOT, 'schemas', 'compiled');
  // The openapi and not-found handlers import these two files; give them a body before importing handlers.
  for (const f of ['openapi.json', 'routes.json']) if (!existsSync(join(out, f))) writeGenerated(join(out, f), f === 'routes.json' ? '[]' : '{}');
  writeGenerated(join(out, 'routes.json'), JSON.stringify(apiRoutes().map(({ method, path }) => ({ method, path }))));
  const { buildOpenApi } = await import('./lib/openapi.js');
  const doc = await buildOpenApi();
  writeGenerated(join(out, 'openapi.json'), JSON.stringify(doc));
  console.log(`generated: ${modules.length} validator modules, ${Object.keys(doc.paths as object).length} OpenAPI paths`);
}

if (process.argv[1] === import.meta.filename) await generate();
