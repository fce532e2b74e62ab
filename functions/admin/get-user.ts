import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { getUserFor } from '../../shared/services/accounts/admin-users.js';
import { userIdParams } from '../../schemas/compiled/admin.js';

export const handler = httpHandler(
  {
    capability: 'manage_users',
    summary: 'Get one user',
    description: 'Requires manage_users. The ETag header carries the user’s version: send it as If-Match to update the user.',
    params: userIdParams,
    responses: { 200: { headers: ['ETag'], description: 'The user', schema: 'UserResponse' } },
  },
  async ({ params }) => {
    const user = await getUserFor(params.userId);
    return ok(user, 'OK', { ETag: `"${user.version}"` });
  },
);
