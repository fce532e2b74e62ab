import type { MiddlewareObj } from '@middy/core';
import { limiterClassesFor, rateLimits, type LimiterClass, type RateLimit } from '../../config/rate-limits.js';
import { hitCounter } from '../../db/rate-limits.js';
import { TooManyRequests } from '../../errors.js';
import { stateOf, type HttpRequest } from '../context.js';

/**
 * Stage 3: the contract's four limiters as fixed-window DynamoDB counters per client (source IP; the auth
 * limiter also per account e-mail). Every response carries RateLimit-Policy / RateLimit (IETF
 * draft-ietf-httpapi-ratelimit-headers); a hit limit answers 429 with Retry-After. Counter failures fail
 * open (logged): the limiter must never take the API down.
 */
interface Hit {
  cls: LimiterClass;
  limit: RateLimit;
  count: number;
  resetIn: number;
}

export function rateLimit(): MiddlewareObj {
  const limits = rateLimits();
  const before = async (request: HttpRequest) => {
    const state = stateOf(request);
    const classes = limiterClassesFor(state.route);
    if (classes.length === 0) return;
    const now = Math.floor(Date.now() / 1000);
    const subjects: Array<[LimiterClass, string]> = classes.map((cls) => [cls, `ip:${state.clientIp}`]);
    const email = (state.body as { email?: unknown } | undefined)?.email;
    if (classes.includes('auth') && typeof email === 'string' && email.length <= 254) subjects.push(['auth', `account:${email.trim().toLowerCase()}`]);

    let hits: Hit[];
    try {
      hits = await Promise.all(
        subjects.map(async ([cls, client]) => {
          const limit = limits[cls];
          const windowStart = now - (now % limit.windowSeconds);
          const count = await hitCounter(cls, client, windowStart, limit.windowSeconds);
          return { cls, limit, count, resetIn: windowStart + limit.windowSeconds - now };
        }),
      );
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', msg: 'rate limiter unavailable, failing open', requestId: state.requestId, error: (err as Error).name }));
      return;
    }
    const tightest = hits.reduce((a, b) => (b.limit.max - b.count < a.limit.max - a.count ? b : a));
    const policies = [...new Map(hits.map((h) => [h.cls, `"${h.cls}";q=${h.limit.max};w=${h.limit.windowSeconds}`])).values()];
    state.responseHeaders['RateLimit-Policy'] = policies.join(', ');
    state.responseHeaders.RateLimit = `"${tightest.cls}";r=${Math.max(0, tightest.limit.max - tightest.count)};t=${tightest.resetIn}`;
    const exceeded = hits.filter((h) => h.count > h.limit.max).sort((a, b) => b.resetIn - a.resetIn)[0];
    if (exceeded) {
      throw new TooManyRequests(
        `Rate limit exceeded (${exceeded.cls}: ${exceeded.limit.max} requests per ${exceeded.limit.windowSeconds} s); retry in ${exceeded.resetIn} s`,
        { 'Retry-After': String(exceeded.resetIn), RateLimit: `"${exceeded.cls}";r=0;t=${exceeded.resetIn}` },
      );
    }
  };
  return { before } as MiddlewareObj;
}
