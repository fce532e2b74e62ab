import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// A static import of the (external) package: serverless-esbuild then packs swagger-ui-dist into the zip
// of the one function that serves its files. absolute-path.js only computes the folder; the package
// index would parse the 1.4 MB bundle at cold start.
import swaggerDist from 'swagger-ui-dist/absolute-path.js';
import type { HttpResponse } from './responses.js';

/** Static files of the /docs page: Swagger UI's CSS and bundle from swagger-ui-dist, and our init script. */
const INIT = `window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', window.location.href.replace(/\\/docs\\/?$/, '/')).toString(),
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: false,
});`;

const TYPES: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };
const cache = new Map<string, string>();

export function docsAsset(asset: string): HttpResponse {
  let body = cache.get(asset);
  if (body === undefined) {
    body = asset === 'swagger-init.js' ? INIT : readFileSync(join(swaggerDist(), asset), 'utf8');
    cache.set(asset, body);
  }
  return {
    statusCode: 200,
    headers: { 'Content-Type': TYPES[asset.slice(asset.lastIndexOf('.'))] ?? 'application/octet-stream', 'Cache-Control': 'public, max-age=3600' },
    body,
  };
}
