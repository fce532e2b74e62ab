import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { capabilityCatalogue } from '../../shared/services/accounts/admin-users.js';

export const handler = httpHandler(
  {
    capability: 'manage_users',
    summary: 'The capability catalogue: name, description, admin-only flag and the roles that hold it by default',
    description: 'Requires manage_users. The catalogue a role’s default capabilities come from: use it to grant or check a capability by name.',
    responses: { 200: { description: 'All capabilities', schema: 'CapabilityListResponse' } },
  },
  async () => ok(capabilityCatalogue()),
);
