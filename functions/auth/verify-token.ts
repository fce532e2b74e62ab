import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { toUserDto } from '../../shared/services/accounts/accounts.js';
import { verifyTokenBody } from '../../schemas/compiled/auth.js';

export const handler = httpHandler(
  {
    capability: 'none',
    allowUnverified: true,
    summary: 'Check that the presented token is valid; returns its user and expiry',
    description:
      'Answers 200 with the token’s user and expiry while the token is valid (also for unverified accounts), else 401: a cheap way for a client to check a stored token.',
    body: verifyTokenBody,
    responses: { 200: { description: 'Token is valid', schema: 'VerifyTokenResponse' } },
  },
  async ({ user }) =>
    ok({ valid: true, user: toUserDto(user), tokenId: user.token.jti, expiresAt: new Date(user.token.expiresAt * 1000).toISOString() }, 'Token is valid'),
);
