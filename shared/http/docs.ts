import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { HttpResponse } from './responses.js';

/**
 * The /docs page: Swagger UI from the swagger-ui-dist npm package (no CDN). The page and its init
 * script use relative URLs so they work under an API Gateway stage prefix too.
 */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Flockwise API · docs</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="docs/swagger-init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', window.location.href.replace(/\\/docs\\/?$/, '/')).toString(),
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: false,
});`;

const TYPES: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };
const cache = new Map<string, string>();

function swaggerDist(): string {
  // absolute-path.js only computes the folder; requiring the package index would parse the 1.4 MB bundle.
  const require = createRequire(join(process.cwd(), 'package.json'));
  return (require('swagger-ui-dist/absolute-path.js') as () => string)();
}

export function docsPage(): HttpResponse {
  return { statusCode: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CSP }, body: PAGE };
}

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
