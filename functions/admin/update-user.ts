import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { patchUserAsAdmin } from '../../shared/services/accounts/admin-users.js';
import { toUserDto } from '../../shared/services/accounts/accounts.js';
import { patchUserBody, userIdParams } from '../../schemas/compiled/admin.js';

export const handler = httpHandler(
  {
    capability: 'manage_users',
    summary: 'Change role, explicit capabilities, locked, verified, farmIds or name',
    description:
      'Send the version you read as `If-Match` (412 on mismatch) or `version` (409 on mismatch). Admin-only capabilities cannot be granted to non-admins. You cannot demote, lock or delete yourself.',
    params: userIdParams,
    body: patchUserBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The updated user', schema: 'UserResponse' },
      409: { description: 'Changed concurrently or a change to yourself' },
      412: { description: 'If-Match does not match' },
    },
  },
  async ({ params, body, ctx }) => {
    const saved = await patchUserAsAdmin(ctx, params.userId, body);
    return ok(toUserDto(saved), 'User updated', { ETag: `"${saved.version}"` });
  },
);
