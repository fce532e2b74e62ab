import { publicHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { toUserDto, verifyEmail } from '../../shared/services/accounts/accounts.js';
import { verifyEmailBody } from '../../schemas/compiled/auth.js';

export const handler = publicHandler(
  {
    summary: 'Verify the e-mail address with the token from signup',
    description: 'No token needed: send the verification token from the sign-up answer. An invalid or expired token answers 400.',
    body: verifyEmailBody,
    responses: { 200: { description: 'E-mail verified', schema: 'VerifyEmailResponse' }, 400: { description: 'Invalid or expired token' } },
  },
  async ({ body, requestId }) => ok({ user: toUserDto(await verifyEmail(body.token, requestId)) }, 'E-mail verified'),
);
