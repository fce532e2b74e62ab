import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { getUserFor } from '../../shared/services/admin-users.js';
import { userIdParams } from '../../schemas/compiled/admin.js';
import { UserResponse } from '../../schemas/admin.js';

export const handler = httpHandler(
  { capability: 'manage_users', summary: 'Get one user', params: userIdParams, responses: { 200: { description: 'The user', schema: UserResponse } } },
  async ({ params }) => {
    const user = await getUserFor(params.userId);
    return ok(user, 'OK', { ETag: `"${user.version}"` });
  },
);
