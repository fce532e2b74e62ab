import { publicHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/responses.js';
import { login, toUserDto } from '../../shared/services/accounts/accounts.js';
import { loginBody } from '../../schemas/compiled/auth.js';

export const handler = publicHandler(
  {
    summary: 'Sign in with e-mail and password → `{token, user}`',
    description:
      'Unknown e-mail and wrong password give the same 401. Failed attempts slow down the client that makes them, per e-mail: after 5 failures from one address ' +
      'it waits 1 minute before its next attempt for that e-mail, doubling with each further failure up to 15 minutes (403 with Retry-After); other addresses, ' +
      'the account owner’s included, are not slowed. 100 failures for one e-mail from all addresses in a 15-minute window refuse it to everyone until the ' +
      'window ends (403 with Retry-After). Unknown e-mails are throttled exactly like registered ones. Accounts locked by an admin get 403 (only with the right password).',
    body: loginBody,
    responses: {
      200: { description: 'Signed in', schema: 'LoginResponse' },
      401: { description: 'Invalid e-mail or password' },
      403: { description: 'Account locked, or sign-in throttled after failed attempts (this address, or the e-mail for all)', headers: ['Retry-After'] },
    },
  },
  async ({ body, clientIp, requestId }) => {
    const { token, expiresAt, user } = await login(body, clientIp, requestId);
    return json(200, { message: 'Signed in', token, expiresAt, user: toUserDto(user) });
  },
);
