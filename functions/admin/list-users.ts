import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listUsers } from '../../shared/db/users.js';
import { toUserDto } from '../../shared/services/accounts.js';
import { listUsersQuery } from '../../schemas/compiled/admin.js';
import { UserListResponse } from '../../schemas/admin.js';

export const handler = httpHandler(
  {
    capability: 'manage_users',
    summary: 'List users (by e-mail; optional role filter)',
    query: listUsersQuery,
    responses: { 200: { description: 'A page of users', schema: UserListResponse } },
  },
  async ({ query }) => {
    const limit = query.limit ?? 25;
    const { items, nextCursor } = await listUsers({ limit, cursor: query.cursor, role: query.role });
    return list(items.map(toUserDto), { limit, nextCursor });
  },
);
