import { publicHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { settings } from '../../shared/config/env.js';
import { ENDPOINT_GROUPS, SERVICE } from '../../shared/domain/service-info.js';
import { ServiceInfo } from '../../schemas/public.js';

export const handler = publicHandler(
  {
    summary: 'Service metadata: name, version 2.0.0 and the base path of every endpoint group',
    responses: { 200: { description: 'Service metadata', schema: ServiceInfo } },
  },
  async () =>
    ok(
      { ...SERVICE, environment: settings().stage, endpoints: ENDPOINT_GROUPS, links: { docs: '/docs', openapi: '/openapi.json', health: '/health' } },
      `${SERVICE.name} ${SERVICE.version}`,
    ),
);
