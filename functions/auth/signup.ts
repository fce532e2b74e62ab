import { publicHandler } from '../../shared/http/handler.js';
import { created } from '../../shared/http/responses.js';
import { signup, toUserDto } from '../../shared/services/accounts.js';
import { signupBody } from '../../schemas/compiled/auth.js';
import { SignupResponse } from '../../schemas/auth.js';

export const handler = publicHandler(
  {
    summary: 'Create an account (starts unverified, role viewer, no farm)',
    description:
      'Outside production the response carries `verificationToken` for POST /api/v1/auth/verify-email; in production it is e-mailed. 409 when the e-mail is taken.',
    body: signupBody,
    responses: { 201: { description: 'Account created', schema: SignupResponse }, 409: { description: 'E-mail already registered' } },
  },
  async ({ body, requestId }) => {
    const { user, verificationToken } = await signup(body, requestId);
    return created({ user: toUserDto(user), ...(verificationToken ? { verificationToken } : {}) }, 'Account created; verify the e-mail address to continue');
  },
);
