import { publicHandler } from '../../shared/http/handler.js';
import { docsAsset } from '../../shared/http/docs-assets.js';
import { docAssetParams } from '../../schemas/compiled/public.js';

export const handler = publicHandler(
  {
    summary: 'Static files of the documentation page',
    description: 'No token needed. The stylesheet and scripts the documentation page loads, cached for an hour.',
    params: docAssetParams,
    responses: {
      200: { headers: ['Cache-Control'], description: 'CSS or JavaScript', contentType: ['text/css', 'text/javascript'], schema: { type: 'string' } },
    },
  },
  async ({ params }) => docsAsset(params.asset),
);
