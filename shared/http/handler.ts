import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { stateOf, type AuthUser, type RouteSpec } from './context.js';
import type { HttpResponse } from './responses.js';
import { ifMatchOf } from './request-headers.js';
import type { Precondition } from '../domain/concurrency.js';
import { commandContext, type CommandContext } from '../domain/command.js';
import type { DeviceRecord } from '../domain/iot/records.js';
import { requestContext } from './middleware/request-context.js';
import { securityHeaders } from './middleware/security-headers.js';
import { errorHandler } from './middleware/error-handler.js';
import { jsonBody } from './middleware/json-body.js';
import { accountRateLimit, rateLimit, rateLimitGate } from './middleware/rate-limit.js';
import { authenticate } from './middleware/authenticate.js';
import { authorize } from './middleware/authorize.js';
import { validate } from './middleware/validate.js';

/**
 * The one middleware stack every route uses, in this order (drawn in docs/architecture.md):
 * request context + log → security headers/CORS (on the way out) → typed errors → rate limit per
 * client → JSON body → auth limit per account → authenticate + user load → capability guard →
 * validation → rate-limit gate → handler. (The per-client count starts before the body is read, so bad
 * bodies count too: see docs/decisions.md. Its UpdateItem runs while the body is parsed, the token
 * verified and the user loaded; the gate waits for it before the handler, and every earlier error waits
 * for it too, so a 429 comes first exactly as if it had been awaited at its own stage.)
 */
export interface HandlerInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  headers: Record<string, string>;
  /** The `If-Match` precondition of a change, when the request sends one. */
  ifMatch: Precondition | undefined;
  requestId: string;
  /** The client's source IP as API Gateway saw it (never a header the client sets). */
  clientIp: string;
  event: APIGatewayProxyEvent;
}

export type RouteHandler = ((event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>) & {
  /** The route's declaration, read by the OpenAPI generator and the generated security tests. */
  readonly route: RouteSpec;
};

function build(spec: RouteSpec, fn: (event: APIGatewayProxyEvent) => Promise<HttpResponse>): RouteHandler {
  if (!spec || typeof spec.capability !== 'string') throw new Error('every route must declare its capability (or "public"/"none")');
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(requestContext())
    .use(securityHeaders())
    .use(errorHandler(spec))
    .use(rateLimit())
    .use(jsonBody(spec))
    .use(accountRateLimit())
    .use(authenticate(spec))
    .use(authorize(spec))
    .use(validate(spec))
    .use(rateLimitGate())
    .handler((event) => fn(event));
  return Object.assign(handler as unknown as RouteHandler, { route: spec });
}

function inputOf<B, Q, P>(event: APIGatewayProxyEvent): HandlerInput<B, Q, P> {
  const state = stateOf(event);
  return {
    body: state.body as B,
    query: state.query as Q,
    params: state.params as P,
    headers: state.headers,
    ifMatch: ifMatchOf(state.headers),
    requestId: state.requestId,
    clientIp: state.clientIp,
    event,
  };
}

/**
 * An authenticated route: `user` is the loaded, verified (unless allowUnverified), unlocked caller, and
 * `ctx` the command context every use case takes: the caller, the request id, the `Idempotency-Key` and
 * `If-Match` headers, and the request's instant.
 */
export function httpHandler<B = never, Q = Record<string, never>, P = Record<string, never>>(
  spec: RouteSpec<B, Q, P> & { capability: Exclude<RouteSpec['capability'], 'public' | 'device'> },
  fn: (input: HandlerInput<B, Q, P> & { user: AuthUser; ctx: CommandContext }) => Promise<HttpResponse>,
): RouteHandler {
  return build(spec as RouteSpec, (event) => {
    const input = inputOf<B, Q, P>(event);
    const user = stateOf(event).user!;
    const ctx = commandContext(user, { requestId: input.requestId, idempotencyKey: input.headers['idempotency-key'], precondition: input.ifMatch });
    return fn({ ...input, user, ctx });
  });
}

/** A device route (no token): `device` is the registered device its `X-Device-Key` names. */
export function deviceHandler<B = never, Q = Record<string, never>, P = Record<string, never>>(
  spec: Omit<RouteSpec<B, Q, P>, 'capability' | 'allowUnverified'>,
  fn: (input: HandlerInput<B, Q, P> & { device: DeviceRecord }) => Promise<HttpResponse>,
): RouteHandler {
  return build({ ...(spec as RouteSpec), capability: 'device' }, (event) => fn({ ...inputOf<B, Q, P>(event), device: stateOf(event).device! }));
}

/** A public route (no token): `GET /`, `/health`, signup, login, verify-email, the docs. */
export function publicHandler<B = never, Q = Record<string, never>, P = Record<string, never>>(
  spec: Omit<RouteSpec<B, Q, P>, 'capability' | 'allowUnverified'>,
  fn: (input: HandlerInput<B, Q, P>) => Promise<HttpResponse>,
): RouteHandler {
  return build({ ...(spec as RouteSpec), capability: 'public' }, (event) => fn(inputOf<B, Q, P>(event)));
}
