import type { Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Capability } from '../domain/capabilities.js';
import type { UserRecord } from '../domain/users.js';
import type { DeviceRecord } from '../domain/iot/records.js';
import type { Caller } from '../domain/caller.js';
import type { CompiledSchema } from '../../schemas/compiled-schema.js';
import type * as ResponseSchemas from '../../schemas/responses.js';
import type { ResponseHeader } from './responses.js';

/** What a route declares: who may call it and what it accepts. Read by the middleware and by the OpenAPI generator. */
export type Access = 'public' | 'none' | 'device' | Capability;

/**
 * A response body's schema by its name in `schemas/responses.ts`: the OpenAPI generator resolves it, and
 * the import above is a type only, so a function's bundle carries neither the schema nor TypeBox.
 */
export type ResponseSchemaName = keyof typeof ResponseSchemas;
/** A body that is text, not JSON (a CSV file, an HTML page), described inline. */
export interface TextBodySchema {
  readonly type: 'string';
  readonly description?: string;
}

export interface ResponseDoc {
  description: string;
  /** The body's schema: a response schema's name, or a text body's; omitted for empty bodies. */
  schema?: ResponseSchemaName | TextBodySchema;
  /** Media type(s) of the body (default application/json); several when the route answers more than one kind with the same schema. */
  contentType?: string | string[];
  /** Other media types this status answers, each with its schema (e.g. an SVG chart next to the JSON: `SVG_CHART`). */
  alternatives?: Record<string, unknown>;
  /**
   * Optional headers this answer sends that the generator cannot infer (components/headers by name, e.g.
   * `ETag`); the common ones (X-Request-Id, RateLimit*, Retry-After on 429/503, …) are added by the generator.
   */
  headers?: readonly ResponseHeader[];
}

export interface RouteSpec<B = unknown, Q = unknown, P = unknown> {
  /** 'public': no token; 'none': any signed-in, verified user; 'device': a registered device's `X-Device-Key`; otherwise the capability required. */
  capability: Access;
  body?: CompiledSchema<B>;
  query?: CompiledSchema<Q>;
  params?: CompiledSchema<P>;
  /** Unverified accounts may call it (verify-token, logout). */
  allowUnverified?: boolean;
  summary: string;
  description?: string;
  /** Success and route-specific responses for the OpenAPI document (the common error responses are added). */
  responses: Record<number, ResponseDoc>;
  /** A larger body limit than MAX_BODY_BYTES (sensor batches of 500 frames). */
  maxBodyBytes?: number;
  /** Headers the route reads (OpenAPI parameters). */
  headers?: Record<string, string>;
}

/** The signed-in user of a request: the Caller the use cases act for, with its record and token. */
export type AuthUser = UserRecord & Caller & { token: { jti: string; expiresAt: number } };

/** Per-request state the middleware fills in, stage by stage. */
export interface RequestState {
  requestId: string;
  /** The caller's `X-Correlation-Id` when valid, else the request id: every log line of the request carries it. */
  correlationId: string;
  startedAt: number;
  method: string;
  /** The route template (`/api/v1/admin/users/{userId}`), not the concrete path. */
  route: string;
  clientIp: string;
  headers: Record<string, string>;
  body: unknown;
  /** Keys of the JSON body that are never accepted (`__proto__`, `constructor.prototype`): the validation stage refuses them by name. */
  forbiddenKeys: string[];
  query: Record<string, unknown>;
  params: Record<string, unknown>;
  user?: AuthUser;
  /** The device of a `device` route, authenticated by its key. */
  device?: DeviceRecord;
  responseHeaders: Record<string, string>;
}

export type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;

/** Request state keyed by the event object: middlewares reach it through the request, the handler through its event. */
const states = new WeakMap<APIGatewayProxyEvent, RequestState>();

export function initState(event: APIGatewayProxyEvent, state: RequestState): void {
  states.set(event, state);
}

export function peekState(request: HttpRequest): RequestState | undefined {
  return states.get(request.event);
}

export function stateOf(requestOrEvent: HttpRequest | APIGatewayProxyEvent): RequestState {
  const event = 'event' in requestOrEvent && 'context' in requestOrEvent ? requestOrEvent.event : (requestOrEvent as APIGatewayProxyEvent);
  const state = states.get(event);
  if (!state) throw new Error('request state used before the request-context middleware ran');
  return state;
}
