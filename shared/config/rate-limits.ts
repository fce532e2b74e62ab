import defaults from './rate-limits.json' with { type: 'json' };

/**
 * The four limiter classes of the interface contract (service version 2.0.0): general applies to every
 * route but /health and sensor ingestion; plus `ingest`, the devices' own class (a gateway uploading its
 * houses' frames is not a person clicking through the API), which alone applies to `POST /api/v1/iot/ingest`.
 */
export const LIMITER_CLASSES = ['general', 'auth', 'read', 'date', 'ingest'] as const;
export type LimiterClass = (typeof LIMITER_CLASSES)[number];

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

/**
 * Path prefixes of the route-specific classes. A route belongs to `general` plus at most one of these;
 * the same function feeds the middleware and the API Gateway throttling written at package time.
 */
const CLASS_PREFIXES: ReadonlyArray<readonly [LimiterClass, readonly string[]]> = [
  ['auth', ['/api/v1/auth']],
  ['read', ['/api/v1/dashboard', '/api/v2/analytics', '/api/v1/flock-analytics', '/api/v1/rules', '/api/v1/anomalies', '/api/v1/predictive']],
  ['date', ['/api/v1/inventory', '/api/v1/admin']],
];

/**
 * Routes whose `auth` class is counted again per account e-mail (the body's `email`): sign-up, so one
 * address is not flooded from many clients. Not sign-in: its per-account guard is the sign-in throttle
 * (LOGIN_THROTTLE in shared/domain/accounts.ts), whose ceiling counts failures only, far above what one
 * client reaches; counting every request per account would let one client deny an account's sign-in
 * with nothing but its own auth quota.
 */
export const COUNTED_PER_ACCOUNT: readonly string[] = ['/api/v1/auth/signup'];

/** Routes counted by their own class only (not general). */
const OWN_CLASS: ReadonlyArray<readonly [LimiterClass, string]> = [['ingest', '/api/v1/iot/ingest']];

/** Limiter classes that apply to a route path (the API Gateway resource path, e.g. `/api/v1/admin/users/{userId}`). */
export function limiterClassesFor(path: string): LimiterClass[] {
  if (path === '/health') return [];
  const own = OWN_CLASS.find(([, p]) => path === p);
  if (own) return [own[0]];
  const specific = CLASS_PREFIXES.find(([, prefixes]) => prefixes.some((p) => path === p || path.startsWith(`${p}/`)));
  return specific ? ['general', specific[0]] : ['general'];
}

function positiveInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

/** Documented defaults from rate-limits.json, overridden by RATE_LIMIT_<CLASS>_MAX / _WINDOW_SECONDS. */
export function rateLimits(env: NodeJS.ProcessEnv = process.env): Record<LimiterClass, RateLimit> {
  const out = {} as Record<LimiterClass, RateLimit>;
  for (const cls of LIMITER_CLASSES) {
    const prefix = `RATE_LIMIT_${cls.toUpperCase()}`;
    out[cls] = {
      max: positiveInt(env[`${prefix}_MAX`], `${prefix}_MAX`) ?? defaults[cls].max,
      windowSeconds: positiveInt(env[`${prefix}_WINDOW_SECONDS`], `${prefix}_WINDOW_SECONDS`) ?? defaults[cls].windowSeconds,
    };
  }
  return out;
}
