import type { MiddlewareObj } from '@middy/core';
import { Forbidden } from '../../errors.js';
import { stateOf, type HttpRequest, type RouteSpec } from '../context.js';

/** Stage 7: the route's declared capability (deny by default: a route without one never gets this far). */
export function authorize(spec: RouteSpec): MiddlewareObj {
  const before = (request: HttpRequest) => {
    if (spec.capability === 'public' || spec.capability === 'none' || spec.capability === 'device') return;
    const user = stateOf(request).user;
    if (!user?.capabilities.has(spec.capability)) throw new Forbidden(`Missing capability: ${spec.capability}`);
  };
  return { before } as MiddlewareObj;
}
