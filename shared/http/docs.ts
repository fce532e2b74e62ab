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
  <link rel="icon" href="data:,">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="docs/swagger-init.js"></script>
</body>
</html>`;

export function docsPage(): HttpResponse {
  return { statusCode: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CSP }, body: PAGE };
}
