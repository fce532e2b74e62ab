import { gunzipSync } from 'node:zlib';
import { publicHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/responses.js';
import packed from '../../schemas/compiled/openapi-document.js';

/** The generated document, shipped compressed (scripts/generate.ts) and inflated once per container. */
const document = JSON.parse(gunzipSync(Buffer.from(packed, 'base64')).toString('utf8')) as Record<string, unknown>;

export const handler = publicHandler(
  {
    summary: 'The OpenAPI 3.1 document of this API',
    description:
      'No token needed. Generated from the route table and the request schemas the API validates with; `servers` names the base path the API is served under.',
    responses: { 200: { headers: ['Cache-Control'], description: 'OpenAPI document', schema: 'OpenApiDocument' } },
  },
  async ({ event }) => {
    // Behind API Gateway the stage is a path prefix (/prod/...): tell clients where the API lives.
    const full = event.requestContext?.path ?? event.path;
    const base = full && event.path && full.endsWith(event.path) ? full.slice(0, full.length - event.path.length) : '';
    return json(200, { ...document, servers: [{ url: base || '/' }] }, { 'Cache-Control': 'public, max-age=300' });
  },
);
