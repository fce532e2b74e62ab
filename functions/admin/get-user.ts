import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { getUserOrThrow } from '../../shared/db/users.js';
import { toUserDto } from '../../shared/services/accounts.js';
import { userIdParams } from '../../schemas/compiled/admin.js';
import { UserResponse } from '../../schemas/admin.js';

export const handler = httpHandler(
  { capability: 'manage_users', summary: 'Get one user', params: userIdParams, responses: { 200: { description: 'The user', schema: UserResponse } } },
  async ({ params }) => {
    const user = await getUserOrThrow(params.userId);
    return ok(toUserDto(user), 'OK', { ETag: `"${user.version}"` });
  },
);
