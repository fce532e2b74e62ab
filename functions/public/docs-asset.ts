import { publicHandler } from '../../shared/http/handler.js';
import { docsAsset } from '../../shared/http/docs-assets.js';
import { docAssetParams } from '../../schemas/compiled/public.js';

export const handler = publicHandler(
  {
    summary: 'Static files of the documentation page',
    params: docAssetParams,
    responses: { 200: { description: 'CSS or JavaScript', contentType: ['text/css', 'text/javascript'], schema: { type: 'string' } } },
  },
  async ({ params }) => docsAsset(params.asset),
);
