import { publicHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/responses.js';
import { login, toUserDto } from '../../shared/services/accounts.js';
import { loginBody } from '../../schemas/compiled/auth.js';
import { LoginResponse } from '../../schemas/auth.js';

export const handler = publicHandler(
  {
    summary: 'Sign in with e-mail and password → `{token, user}`',
    description:
      'Unknown e-mail and wrong password give the same 401. After 5 failures in 15 minutes the e-mail is locked for 15 minutes (403 with Retry-After). Locked accounts get 403.',
    body: loginBody,
    responses: {
      200: { description: 'Signed in', schema: LoginResponse },
      401: { description: 'Invalid e-mail or password' },
      403: { description: 'Account locked, or temporarily locked after failed attempts', headers: ['Retry-After'] },
    },
  },
  async ({ body, requestId }) => {
    const { token, expiresAt, user } = await login(body, requestId);
    return json(200, { message: 'Signed in', token, expiresAt, user: toUserDto(user) });
  },
);
