'use strict';
/**
 * Maps shared/config/rate-limits.json (custom.rateLimits, with the same RATE_LIMIT_<CLASS>_MAX /
 * _WINDOW_SECONDS overrides the middleware reads) onto API Gateway:
 *  - the usage plan: the general class as throttle (rate = max/window per second, burst = max) and a
 *    daily quota (max × 86400 / window);
 *  - per-method throttling inside the usage plan for routes of the auth, read and date classes
 *    and of the ingest class (sensor batches) with the same token-bucket mapping, by the same path
 *    prefixes as shared/config/rate-limits.ts.
 * Usage-plan limits apply per API key; JWT-only clients are limited per client by the middleware.
 */
const CLASSES = ['general', 'auth', 'read', 'date', 'ingest'];
const PREFIXES = {
  auth: ['/api/v1/auth'],
  read: ['/api/v1/dashboard', '/api/v2/analytics', '/api/v1/flock-analytics', '/api/v1/rules', '/api/v1/anomalies', '/api/v1/predictive'],
  date: ['/api/v1/inventory', '/api/v1/admin'],
  ingest: ['/api/v1/iot/ingest'],
};

function limitsFrom(config, env) {
  const out = {};
  for (const cls of CLASSES) {
    const p = `RATE_LIMIT_${cls.toUpperCase()}`;
    out[cls] = {
      max: Number(env[`${p}_MAX`] || config[cls].max),
      windowSeconds: Number(env[`${p}_WINDOW_SECONDS`] || config[cls].windowSeconds),
    };
  }
  return out;
}

function classOf(path) {
  for (const [cls, prefixes] of Object.entries(PREFIXES)) {
    if (prefixes.some((p) => path === p || path.startsWith(`${p}/`))) return cls;
  }
  return undefined;
}

const bucket = ({ max, windowSeconds }) => ({ rateLimit: Number((max / windowSeconds).toFixed(4)), burstLimit: max });

class RateLimits {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = {
      'before:package:compileEvents': () => this.usagePlan(),
      'after:package:compileEvents': () => this.methodThrottles(),
    };
  }

  limits() {
    return limitsFrom(this.serverless.service.custom.rateLimits, process.env);
  }

  usagePlan() {
    const general = this.limits().general;
    const provider = this.serverless.service.provider;
    provider.apiGateway = provider.apiGateway || {};
    provider.apiGateway.usagePlan = {
      quota: { limit: Math.floor((general.max * 86400) / general.windowSeconds), period: 'DAY' },
      throttle: bucket(general),
    };
  }

  methodThrottles() {
    const limits = this.limits();
    const resources = this.serverless.service.provider.compiledCloudFormationTemplate.Resources;
    const plan = Object.values(resources).find((r) => r.Type === 'AWS::ApiGateway::UsagePlan');
    if (!plan) return;
    const throttle = {};
    for (const fn of Object.values(this.serverless.service.functions)) {
      for (const event of fn.events || []) {
        const http = event.http;
        if (!http || typeof http !== 'object') continue;
        const path = `/${String(http.path).replace(/^\//, '')}`;
        const cls = classOf(path);
        if (!cls) continue;
        const { rateLimit, burstLimit } = bucket(limits[cls]);
        throttle[`${path}/${String(http.method).toUpperCase()}`] = { RateLimit: rateLimit, BurstLimit: burstLimit };
      }
    }
    for (const stage of plan.Properties.ApiStages) stage.Throttle = throttle;
  }
}

module.exports = RateLimits;
module.exports.limitsFrom = limitsFrom;
