import { publicHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { settings } from '../../shared/config/env.js';
import { availableGroups, SERVICE } from '../../shared/presentation/service-info.js';
import routes from '../../schemas/compiled/routes.json' with { type: 'json' };

/** Only the groups that have a route, from the route list the build generates (no file is read at cold start). */
const ENDPOINTS = availableGroups(routes);

export const handler = publicHandler(
  {
    summary: 'Service metadata: name, version 2.0.0 and the base path of every endpoint group that has routes',
    description: 'No token needed. Where to start: the base path of each endpoint group and links to the docs, this document and the health check.',
    responses: { 200: { description: 'Service metadata', schema: 'ServiceInfo' } },
  },
  async () =>
    ok(
      { ...SERVICE, environment: settings().stage, endpoints: ENDPOINTS, links: { docs: '/docs', openapi: '/openapi.json', health: '/health' } },
      `${SERVICE.name} ${SERVICE.version}`,
    ),
);
