import { publicHandler } from '../../shared/http/handler.js';
import { docsPage } from '../../shared/http/docs.js';

export const handler = publicHandler(
  {
    summary: 'Interactive API documentation (Swagger UI, served from the swagger-ui-dist package)',
    description:
      'No token needed. A browser for this document: sign in with `POST /api/v1/auth/login` and paste the token under Authorize to try the endpoints.',
    responses: { 200: { description: 'HTML page', contentType: 'text/html', schema: { type: 'string' } } },
  },
  async () => docsPage(),
);
