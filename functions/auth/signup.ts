import { publicHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/responses.js';
import { signup } from '../../shared/services/accounts/accounts.js';
import { signupBody } from '../../schemas/compiled/auth.js';

export const handler = publicHandler(
  {
    summary: 'Sign up: 202 "check your mail", the same answer whether or not the address already has an account',
    description:
      'A new address gets an account (unverified, role viewer, no farm) and a verification mail. An address that already has an account gets no new account and ' +
      'no error: its owner is mailed an "account exists" notice instead (at most one an hour). Both answers are the same 202 with the same body shape and headers, ' +
      'so sign-up tells nobody which addresses are registered. Outside production `data.verificationToken` stands in for the mail: for a new account the token ' +
      'for POST /api/v1/auth/verify-email, for a registered address a random token that verifies nothing (400 there, like any unknown token).',
    body: signupBody,
    responses: { 202: { description: 'Accepted: a mail is on its way to the address', schema: 'SignupResponse' } },
  },
  async ({ body, requestId }) => json(202, { message: 'Check your mail to continue: we sent a message to this address', data: await signup(body, requestId) }),
);
