import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/responses.js';
import { deleteUserAsAdmin } from '../../shared/services/accounts/admin-users.js';
import { userIdParams } from '../../schemas/compiled/admin.js';

export const handler = httpHandler(
  {
    capability: 'manage_users',
    summary: 'Delete a user (frees the e-mail; their tokens stop working)',
    description: 'Requires manage_users. The user’s tokens stop working at once and the e-mail can be registered again.',
    params: userIdParams,
    responses: { 204: { description: 'Deleted' } },
  },
  async ({ params, ctx }) => {
    await deleteUserAsAdmin(ctx, params.userId);
    return noContent();
  },
);
