import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { listProgrammes } from '../../shared/services/schedules/programmes.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The programme templates (a typical broiler and a typical layer rearing vaccination programme), with their public sources',
    description:
      'Requires view_analytics. Typical programmes from public references, to be adapted with the farm’s veterinarian. Applying one writes ordinary ' +
      'schedules that the farm then edits.',
    responses: { 200: { description: 'The programmes', schema: 'ProgrammeListResponse' } },
  },
  async () => ok(listProgrammes()),
);
