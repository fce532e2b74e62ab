import { publicHandler } from '../../shared/http/handler.js';
import { NotFound } from '../../shared/errors.js';
import { MethodNotAllowed } from '../../shared/http/errors.js';
import { allowedMethods } from '../../shared/http/route-match.js';
import { preflight } from '../../shared/http/responses.js';
import { notFoundParams } from '../../schemas/compiled/public.js';
import routes from '../../schemas/compiled/routes.json' with { type: 'json' };

/**
 * Catch-all (`ANY /{proxy+}`): a path no route owns → 404 JSON; a known path with another method → 405
 * with Allow; a CORS preflight (OPTIONS) on a known path → 204 with the allowed methods and headers.
 */
export const handler = publicHandler(
  { summary: 'Unknown route', params: notFoundParams, responses: { 404: { description: 'No such route' } } },
  async ({ event }) => {
    const path = event.path ?? '/';
    const allow = allowedMethods(routes, path);
    if (allow.length > 0 && event.httpMethod === 'OPTIONS') return preflight(allow);
    if (allow.length > 0) throw new MethodNotAllowed(`Method ${event.httpMethod} is not allowed on ${path}; allowed: ${allow.join(', ')}`, allow);
    throw new NotFound(`Route not found: ${event.httpMethod} ${path.slice(0, 200)}`);
  },
);
