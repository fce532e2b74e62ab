import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { exportFor } from '../../shared/services/continuity/exports.js';
import { exportParams } from '../../schemas/compiled/continuity.js';

export const handler = httpHandler(
  {
    capability: 'manage_continuity',
    summary: 'An export: its status, records per type, checksum and (once completed) where to download it',
    description:
      'Requires manage_continuity, as a user of the exported farm. `download` is a pre-signed URL valid 15 minutes in AWS, the download route locally.',
    params: exportParams,
    responses: { 200: { description: 'The export', schema: 'ExportResponse' }, 404: { description: 'No such export, or one of a farm you cannot see' } },
  },
  async ({ params, user }) => ok(await exportFor(user, params.exportId)),
);
