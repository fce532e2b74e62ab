import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { createUserAsAdmin } from '../../shared/services/accounts/admin-users.js';
import { createUserBody } from '../../schemas/compiled/admin.js';

export const handler = httpHandler(
  {
    capability: 'manage_users',
    summary: 'Create a user (verified unless `verified: false`; without farmIds it joins the default farm)',
    description:
      'Requires manage_users. The account needs no e-mail verification unless `verified: false`. Send an Idempotency-Key to make retries safe: a retry with the same key and body gets the first answer with `Idempotent-Replayed: true`.',
    body: createUserBody,
    headers: IDEMPOTENCY_KEY,
    responses: { 201: { description: 'User created', schema: 'UserResponse' }, 409: { description: 'E-mail already registered' } },
  },
  async ({ body, ctx }) => replayable(await createUserAsAdmin(ctx, body)),
);
