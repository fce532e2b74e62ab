import type { MiddlewareObj } from '@middy/core';
import { COUNTED_PER_ACCOUNT, limiterClassesFor, rateLimits, type LimiterClass, type RateLimit } from '../../config/rate-limits.js';
import { countRateLimited } from '../../db/metrics.js';
import { hitCounters } from '../../db/rate-limits.js';
import { log } from '../../platform/log.js';
import { TooManyRequests } from '../errors.js';
import { peekState, stateOf, type HttpRequest, type RequestState } from '../context.js';

/**
 * The limiter classes as fixed-window DynamoDB counters, in three stages: `rateLimit()` starts the
 * per-client count before the body is read, `accountRateLimit()` adds the per-account count of sign-up,
 * `rateLimitGate()` waits for both right before the handler (a 429 comes before any handler work, and
 * before an earlier error).
 * Order, headers, the one-UpdateItem layout and failing open: docs/decisions.md ("Rate limits").
 */
interface Hit {
  cls: LimiterClass;
  limit: RateLimit;
  count: number;
  resetIn: number;
}

/** The outcome of a request's counts: the 429 to answer, or an unexpected failure to rethrow (never a rejection). */
interface Verdict {
  exceeded?: TooManyRequests;
  failure?: unknown;
}

const hitsOf = new WeakMap<RequestState, Hit[]>();
const verdictOf = new WeakMap<RequestState, Promise<Verdict>>();

/**
 * Clients this container has already seen over a limit, until that window ends (`<class>|<client>` → epoch s).
 * Counters only grow within a window, so such a request is known to end in 429: it waits for its count at
 * once (as before the concurrent limiter) instead of parsing, verifying and loading a user first. Not a cache
 * of any decision: the counter is still written and its answer still decides.
 */
const knownOver = new Map<string, number>();
const KNOWN_OVER_MAX = 10_000;

/** Whether each window of `inner` lies inside one window of `outer` (both aligned to the epoch). */
export function nests(inner: RateLimit, outer: RateLimit): boolean {
  return inner.windowSeconds <= outer.windowSeconds && outer.windowSeconds % inner.windowSeconds === 0;
}

async function hit(limits: Record<LimiterClass, RateLimit>, classes: LimiterClass[], client: string, now: number): Promise<Hit[]> {
  const windowOf = (cls: LimiterClass) => {
    const limit = limits[cls];
    const windowStart = now - (now % limit.windowSeconds);
    return { cls, limit, windowStart, resetIn: windowStart + limit.windowSeconds - now };
  };
  const [outer, inner] = classes.map(windowOf);
  if (classes.length === 2 && nests(inner!.limit, outer!.limit)) {
    const counts = await hitCounters(outer!.cls, client, outer!.windowStart, outer!.limit.windowSeconds, {
      limiter: inner!.cls,
      windowStart: inner!.windowStart,
    });
    return [
      { cls: outer!.cls, limit: outer!.limit, count: counts.hits, resetIn: outer!.resetIn },
      { cls: inner!.cls, limit: inner!.limit, count: counts.nested!, resetIn: inner!.resetIn },
    ];
  }
  return Promise.all(
    classes.map(windowOf).map(async (w) => ({
      cls: w.cls,
      limit: w.limit,
      count: (await hitCounters(w.cls, client, w.windowStart, w.limit.windowSeconds)).hits,
      resetIn: w.resetIn,
    })),
  );
}

async function count(state: RequestState, limits: Record<LimiterClass, RateLimit>, classes: LimiterClass[], client: string): Promise<Verdict> {
  try {
    if (classes.length === 0) return {};
    const now = Math.floor(Date.now() / 1000);
    let hits: Hit[];
    try {
      hits = await hit(limits, classes, client, now);
    } catch (err) {
      log.error('rate limiter unavailable, failing open', { requestId: state.requestId, correlationId: state.correlationId, error: (err as Error).name });
      return {};
    }
    const all = [...(hitsOf.get(state) ?? []), ...hits];
    hitsOf.set(state, all);

    const tightest = all.reduce((a, b) => (b.limit.max - b.count < a.limit.max - a.count ? b : a));
    const policies = [...new Map(all.map((h) => [h.cls, `"${h.cls}";q=${h.limit.max};w=${h.limit.windowSeconds}`])).values()];
    state.responseHeaders['RateLimit-Policy'] = policies.join(', ');
    state.responseHeaders.RateLimit = `"${tightest.cls}";r=${Math.max(0, tightest.limit.max - tightest.count)};t=${tightest.resetIn}`;

    const over = hits.filter((h) => h.count > h.limit.max);
    if (over.length === 0) return {};
    if (knownOver.size >= KNOWN_OVER_MAX) knownOver.clear();
    const newlyOver = over.filter((h) => !knownOver.has(`${h.cls}|${client}`));
    for (const h of over) knownOver.set(`${h.cls}|${client}`, now + h.resetIn);
    if (newlyOver.length > 0)
      await recordRateLimited(
        state,
        newlyOver.map((h) => h.cls),
      );
    const exceeded = over.sort((a, b) => b.resetIn - a.resetIn)[0]!;
    return {
      exceeded: new TooManyRequests(
        `Rate limit exceeded (${exceeded.cls}: ${exceeded.limit.max} requests per ${exceeded.limit.windowSeconds} s); retry in ${exceeded.resetIn} s`,
        { 'Retry-After': String(exceeded.resetIn), RateLimit: `"${exceeded.cls}";r=0;t=${exceeded.resetIn}` },
      ),
    };
  } catch (failure) {
    return { failure };
  }
}

/** The admin dashboard's count of clients going over a limit; a metrics failure never changes the answer. */
async function recordRateLimited(state: RequestState, classes: LimiterClass[]): Promise<void> {
  try {
    await countRateLimited(classes);
  } catch (err) {
    log.error('rate-limit metric not recorded', { requestId: state.requestId, correlationId: state.correlationId, error: (err as Error).name });
  }
}

function isKnownOver(classes: LimiterClass[], client: string): boolean {
  const now = Math.floor(Date.now() / 1000);
  for (const cls of classes) {
    const key = `${cls}|${client}`;
    const until = knownOver.get(key);
    if (until === undefined) continue;
    if (until > now) return true;
    knownOver.delete(key);
  }
  return false;
}

/** Waits for the request's counts: throws the 429 (or an unexpected failure of the limiter itself). */
async function enforce(state: RequestState): Promise<void> {
  const verdict = await verdictOf.get(state);
  if (verdict?.failure !== undefined) throw verdict.failure;
  if (verdict?.exceeded) throw verdict.exceeded;
}

export function rateLimit(): MiddlewareObj {
  const limits = rateLimits();
  const before = async (request: HttpRequest) => {
    const state = stateOf(request);
    const classes = limiterClassesFor(state.route);
    if (classes.length === 0) return;
    const client = `ip:${state.clientIp}`;
    verdictOf.set(state, count(state, limits, classes, client));
    if (isKnownOver(classes, client)) await enforce(state);
  };
  return { before } as MiddlewareObj;
}

export function accountRateLimit(): MiddlewareObj {
  const limits = rateLimits();
  const before = (request: HttpRequest) => {
    const state = stateOf(request);
    const email = (state.body as { email?: unknown } | undefined)?.email;
    if (!COUNTED_PER_ACCOUNT.includes(state.route) || typeof email !== 'string' || email.length > 254) return;
    const client = `account:${email.trim().toLowerCase()}`;
    const perClient = verdictOf.get(state) ?? Promise.resolve<Verdict>({});
    verdictOf.set(
      state,
      perClient.then((v) => (v.exceeded || v.failure !== undefined ? v : count(state, limits, ['auth'], client))),
    );
  };
  return { before } as MiddlewareObj;
}

/** The last stage before the handler: the limiter's answer (429) is awaited here, and on every earlier error. */
export function rateLimitGate(): MiddlewareObj {
  const before = (request: HttpRequest) => enforce(stateOf(request));
  const onError = async (request: HttpRequest) => {
    const state = peekState(request);
    const pending = state && verdictOf.get(state);
    if (!pending) return;
    const verdict = await pending;
    if (verdict.exceeded) request.error = verdict.exceeded;
    else if (verdict.failure !== undefined) request.error = verdict.failure as Error;
  };
  return { before, onError } as MiddlewareObj;
}
