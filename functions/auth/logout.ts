import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { logout } from '../../shared/services/accounts/accounts.js';
import { logoutBody } from '../../schemas/compiled/auth.js';

export const handler = httpHandler(
  {
    capability: 'none',
    allowUnverified: true,
    summary: 'Sign out: the token is revoked server-side until it expires',
    description:
      'Revokes the presented token (by its id) until it would have expired: later requests with it answer 401. Unverified accounts may sign out too.',
    body: logoutBody,
    responses: { 200: { description: 'Token revoked', schema: 'LogoutResponse' } },
  },
  async ({ user, ctx }) => {
    await logout(ctx, user.token);
    return ok({ revoked: true, tokenId: user.token.jti }, 'Signed out; discard the token');
  },
);
