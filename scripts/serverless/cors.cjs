'use strict';
/**
 * CORS for every HTTP route without repeating `cors:` in each routes.yml: API Gateway then answers the
 * browser's OPTIONS preflight itself (a mock method per path; stacks-map.cjs keeps each in its group's
 * stack). The same origin setting (CORS_ORIGIN, default "*") feeds the Access-Control-Allow-Origin header
 * the middleware puts on every response. Locally the catch-all route answers preflights (204).
 */
const HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'X-Request-Id'];

class Cors {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = { 'before:package:compileEvents': () => this.apply() };
  }

  apply() {
    const origin = this.serverless.service.provider.environment?.CORS_ORIGIN || '*';
    for (const fn of Object.values(this.serverless.service.functions || {})) {
      for (const event of fn.events || []) {
        if (event.http && typeof event.http === 'object' && event.http.cors === undefined) {
          event.http.cors = { origin, headers: HEADERS, allowCredentials: false, maxAge: 600 };
        }
      }
    }
  }
}

module.exports = Cors;
