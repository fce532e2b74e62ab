import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { accepted } from '../../shared/http/responses.js';
import { requestExport } from '../../shared/services/continuity/exports.js';
import { createExportBody } from '../../schemas/compiled/continuity.js';

export const handler = httpHandler(
  {
    capability: 'manage_continuity',
    summary: 'Export a farm: every record of it, streamed into a JSON Lines file (asynchronous)',
    description:
      'Requires manage_continuity, as a user of the farm. Answers 202 at once with the export (`pending`); the worker pages through the farm’s partitions ' +
      'into the file (docs/export-format.md: a header, one line per record with its type and schema version, the verification figures, a trailer with ' +
      'the counts and the sha256). Follow `Location` (GET) until `completed`, then download it. ' +
      'Send an Idempotency-Key to make retries safe: a retry gets the first answer with `Idempotent-Replayed: true` and starts nothing.',
    body: createExportBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      202: { headers: ['Location'], description: 'Export started', schema: 'ExportResponse' },
      404: { description: 'No such farm, or not one of yours' },
    },
  },
  async ({ body, ctx }) => accepted(await requestExport(ctx, body), '/api/v1/continuity/exports/'),
);
