import { describe, expect, it } from 'vitest';
import { limiterClassesFor, rateLimits } from '../../shared/config/rate-limits.js';
import defaults from '../../shared/config/rate-limits.json' with { type: 'json' };

describe('rate-limit configuration', () => {
  it('documents defaults: auth is stricter than general and at most 50 per 15 minutes', () => {
    const l = rateLimits({});
    expect(l.auth.max).toBeLessThanOrEqual(50);
    expect(l.auth.windowSeconds).toBe(900);
    expect(l.auth.max / l.auth.windowSeconds).toBeLessThan(l.general.max / l.general.windowSeconds);
    for (const cls of ['general', 'auth', 'read', 'date'] as const) expect(defaults[cls].description.length).toBeGreaterThan(10);
  });

  it('each class is overridable with RATE_LIMIT_<CLASS>_MAX and _WINDOW_SECONDS', () => {
    const l = rateLimits({ RATE_LIMIT_READ_MAX: '7', RATE_LIMIT_DATE_WINDOW_SECONDS: '30', RATE_LIMIT_GENERAL_MAX: '' });
    expect(l.read.max).toBe(7);
    expect(l.date.windowSeconds).toBe(30);
    expect(l.general.max).toBe(defaults.general.max);
    expect(() => rateLimits({ RATE_LIMIT_AUTH_MAX: '-1' })).toThrow(/RATE_LIMIT_AUTH_MAX must be a positive integer/);
    expect(() => rateLimits({ RATE_LIMIT_AUTH_WINDOW_SECONDS: 'soon' })).toThrow(/RATE_LIMIT_AUTH_WINDOW_SECONDS/);
  });

  it('assigns the contract’s limiter classes by path; /health has none', () => {
    expect(limiterClassesFor('/health')).toEqual([]);
    expect(limiterClassesFor('/')).toEqual(['general']);
    expect(limiterClassesFor('/api/v1/auth/login')).toEqual(['general', 'auth']);
    expect(limiterClassesFor('/api/v1/dashboard')).toEqual(['general', 'read']);
    expect(limiterClassesFor('/api/v2/analytics/cycle/{flockId}/{cycleId}')).toEqual(['general', 'read']);
    expect(limiterClassesFor('/api/v1/rules/{ruleId}')).toEqual(['general', 'read']);
    expect(limiterClassesFor('/api/v1/anomalies')).toEqual(['general', 'read']);
    expect(limiterClassesFor('/api/v1/inventory/input-schema')).toEqual(['general', 'date']);
    expect(limiterClassesFor('/api/v1/admin/users/{userId}')).toEqual(['general', 'date']);
    expect(limiterClassesFor('/api/v1/flocks')).toEqual(['general']);
    expect(limiterClassesFor('/api/v1/authority')).toEqual(['general']);
  });
});
