import { publicHandler } from '../../shared/http/handler.js';
import { docsPage } from '../../shared/http/docs.js';

export const handler = publicHandler(
  {
    summary: 'Interactive API documentation (Swagger UI, served from the swagger-ui-dist package)',
    responses: { 200: { description: 'HTML page', contentType: 'text/html', schema: { type: 'string' } } },
  },
  async () => docsPage(),
);
