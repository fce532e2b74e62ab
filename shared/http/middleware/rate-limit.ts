import type { MiddlewareObj } from '@middy/core';
import { limiterClassesFor, rateLimits, type LimiterClass, type RateLimit } from '../../config/rate-limits.js';
import { hitCounter } from '../../db/rate-limits.js';
import { TooManyRequests } from '../../errors.js';
import { stateOf, type HttpRequest, type RequestState } from '../context.js';

/**
 * The contract's four limiters as fixed-window DynamoDB counters.
 * - `rateLimit()` runs BEFORE the body is read: every class of the route, per client IP, so malformed,
 *   oversized and wrongly typed requests are counted too.
 * - `accountRateLimit()` runs after the JSON body: the auth class again per account e-mail (guessing one
 *   account's password from many addresses).
 * Every response carries RateLimit-Policy / RateLimit (IETF draft-ietf-httpapi-ratelimit-headers); a hit
 * limit answers 429 with Retry-After. Counter failures fail open (logged): the limiter never takes the API down.
 */
interface Hit {
  cls: LimiterClass;
  limit: RateLimit;
  count: number;
  resetIn: number;
}

const hitsOf = new WeakMap<RequestState, Hit[]>();

async function count(state: RequestState, limits: Record<LimiterClass, RateLimit>, subjects: Array<[LimiterClass, string]>): Promise<void> {
  if (subjects.length === 0) return;
  const now = Math.floor(Date.now() / 1000);
  let hits: Hit[];
  try {
    hits = await Promise.all(
      subjects.map(async ([cls, client]) => {
        const limit = limits[cls];
        const windowStart = now - (now % limit.windowSeconds);
        const n = await hitCounter(cls, client, windowStart, limit.windowSeconds);
        return { cls, limit, count: n, resetIn: windowStart + limit.windowSeconds - now };
      }),
    );
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', msg: 'rate limiter unavailable, failing open', requestId: state.requestId, error: (err as Error).name }));
    return;
  }
  const all = [...(hitsOf.get(state) ?? []), ...hits];
  hitsOf.set(state, all);

  const tightest = all.reduce((a, b) => (b.limit.max - b.count < a.limit.max - a.count ? b : a));
  const policies = [...new Map(all.map((h) => [h.cls, `"${h.cls}";q=${h.limit.max};w=${h.limit.windowSeconds}`])).values()];
  state.responseHeaders['RateLimit-Policy'] = policies.join(', ');
  state.responseHeaders.RateLimit = `"${tightest.cls}";r=${Math.max(0, tightest.limit.max - tightest.count)};t=${tightest.resetIn}`;

  const exceeded = hits.filter((h) => h.count > h.limit.max).sort((a, b) => b.resetIn - a.resetIn)[0];
  if (exceeded) {
    throw new TooManyRequests(
      `Rate limit exceeded (${exceeded.cls}: ${exceeded.limit.max} requests per ${exceeded.limit.windowSeconds} s); retry in ${exceeded.resetIn} s`,
      { 'Retry-After': String(exceeded.resetIn), RateLimit: `"${exceeded.cls}";r=0;t=${exceeded.resetIn}` },
    );
  }
}

export function rateLimit(): MiddlewareObj {
  const limits = rateLimits();
  const before = async (request: HttpRequest) => {
    const state = stateOf(request);
    await count(state, limits, limiterClassesFor(state.route).map((cls) => [cls, `ip:${state.clientIp}`]));
  };
  return { before } as MiddlewareObj;
}

export function accountRateLimit(): MiddlewareObj {
  const limits = rateLimits();
  const before = async (request: HttpRequest) => {
    const state = stateOf(request);
    const email = (state.body as { email?: unknown } | undefined)?.email;
    if (!limiterClassesFor(state.route).includes('auth') || typeof email !== 'string' || email.length > 254) return;
    await count(state, limits, [['auth', `account:${email.trim().toLowerCase()}`]]);
  };
  return { before } as MiddlewareObj;
}
