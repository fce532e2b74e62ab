import { httpHandler } from '../../shared/http/handler.js';
import { created } from '../../shared/http/responses.js';
import { createUserAsAdmin } from '../../shared/services/admin-users.js';
import { toUserDto } from '../../shared/services/accounts.js';
import { createUserBody } from '../../schemas/compiled/admin.js';
import { UserResponse } from '../../schemas/admin.js';

export const handler = httpHandler(
  {
    capability: 'manage_users',
    summary: 'Create a user (verified unless `verified: false`; without farmIds it joins the default farm)',
    body: createUserBody,
    responses: { 201: { description: 'User created', schema: UserResponse }, 409: { description: 'E-mail already registered' } },
  },
  async ({ body, user, requestId }) => created(toUserDto(await createUserAsAdmin(user, body, requestId)), 'User created'),
);
