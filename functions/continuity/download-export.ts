import { httpHandler } from '../../shared/http/handler.js';
import { exportFileFor } from '../../shared/services/continuity/exports.js';
import { exportParams } from '../../schemas/compiled/continuity.js';

export const handler = httpHandler(
  {
    capability: 'manage_continuity',
    summary: 'Download a completed export (JSON Lines)',
    description:
      'Requires manage_continuity, as a user of the exported farm. In AWS answers 302 to a pre-signed S3 URL (valid 15 minutes: the file never passes ' +
      'through the function); locally (no bucket) answers the file itself.',
    params: exportParams,
    responses: {
      200: { headers: ['Content-Disposition'], description: 'The file (local)', contentType: 'application/x-ndjson', schema: { type: 'string' } },
      302: { headers: ['Location'], description: 'The pre-signed URL of the file (AWS)' },
      404: { description: 'No such export, or one of a farm you cannot see' },
      409: { description: 'The export is not completed' },
    },
  },
  async ({ params, user }) => {
    const file = await exportFileFor(user, params.exportId);
    if (file.redirect) return { statusCode: 302, headers: { Location: file.redirect } as Record<string, string>, body: '' };
    return {
      statusCode: 200,
      headers: {
        'Content-Type': 'application/x-ndjson; charset=utf-8',
        'Content-Disposition': `attachment; filename="${file.filename}"`,
        'Access-Control-Expose-Headers': 'X-Request-Id, RateLimit, RateLimit-Policy, Retry-After, Content-Disposition',
      },
      body: file.body ?? '',
    };
  },
);
