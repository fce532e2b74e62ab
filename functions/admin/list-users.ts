import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listUsersFor } from '../../shared/services/accounts/admin-users.js';
import { listUsersQuery } from '../../schemas/compiled/admin.js';

export const handler = httpHandler(
  {
    capability: 'manage_users',
    summary: 'List users (by e-mail; optional role filter)',
    description:
      'Requires manage_users. A page of at most `limit` users ordered by e-mail (optionally only one role); send `page.nextCursor` back as `cursor` for the next page.',
    query: listUsersQuery,
    responses: { 200: { description: 'A page of users', schema: 'UserListResponse' } },
  },
  async ({ query }) => {
    const { items, nextCursor, limit } = await listUsersFor(query);
    return list(items, { limit, nextCursor });
  },
);
