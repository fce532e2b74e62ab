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

type Operation = { summary?: string; 'x-capability'?: string; tags?: string[] };

/** Every operation in brief (method, path, summary, capability, group): what overview endpoints list, without the whole document. */
function operationsOf(doc: { paths?: Record<string, Record<string, Operation>> }) {
  return Object.entries(doc.paths ?? {}).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, summary: op.summary ?? '', capability: op['x-capability'] ?? 'public', group: op.tags?.[0] ?? '' })),
  );
}

export async function generate(): Promise<void> {
  const modules = await compileSchemas();
  const out = join(ROOT, 'schemas', 'compiled');
  // Handlers import these files (openapi, not-found, the analytics overview); give them a body before importing handlers.
  for (const f of ['openapi.json', 'routes.json', 'operations.json']) if (!existsSync(join(out, f))) writeGenerated(join(out, f), f === 'openapi.json' ? '{}' : '[]');
  writeGenerated(join(out, 'routes.json'), JSON.stringify(apiRoutes().map(({ method, path }) => ({ method, path }))));
  const { buildOpenApi } = await import('./lib/openapi.js');
  const doc = await buildOpenApi();
  writeGenerated(join(out, 'openapi.json'), JSON.stringify(doc));
  writeGenerated(join(out, 'operations.json'), JSON.stringify(operationsOf(doc)));
  console.log(`generated: ${modules.length} validator modules, ${Object.keys(doc.paths as object).length} OpenAPI paths`);
}

if (process.argv[1] === import.meta.filename) await generate();
