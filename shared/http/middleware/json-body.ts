import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { settings } from '../../config/env.js';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from '../errors.js';
import { stateOf, type HttpRequest, type RouteSpec } from '../context.js';

/**
 * Stage 5: body size cap (413), content type (415 unless JSON; a body without a Content-Type is read
 * as JSON), then Middy's `http-json-body-parser`: malformed JSON is a 400; a `__proto__` or
 * `constructor.prototype` key (which it refuses) is kept aside for the validation stage to refuse by name. An absent body counts as `{}`, so a missing field is reported by name by the validator.
 */
const parser = httpJsonBodyParser({ disableContentTypeCheck: true });

export function jsonBody(spec?: Pick<RouteSpec, 'maxBodyBytes'>): MiddlewareObj {
  const before = async (request: HttpRequest) => {
    const state = stateOf(request);
    const { body, isBase64Encoded } = request.event;
    if (body === null || body === undefined || body === '') {
      state.body = {};
      return;
    }
    const bytes = isBase64Encoded ? Buffer.from(body, 'base64').byteLength : Buffer.byteLength(body);
    const max = spec?.maxBodyBytes ?? settings().maxBodyBytes;
    if (bytes > max) throw new PayloadTooLarge(`Request body exceeds ${max} bytes`);
    const type = (state.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
      throw new UnsupportedMediaType(`Content-Type must be application/json (or absent), got "${type.slice(0, 100)}"`);
    }
    const raw = request.event.body;
    try {
      await parser.before!(request);
      state.body = request.event.body;
    } catch {
      // A forbidden key, or valid JSON nested deeper than the parser's key check can walk (it recurses):
      // parse it plainly and find the forbidden keys without recursion, for the validation stage to refuse
      // (after the caller's authorization, like any other invalid field).
      state.body = parseDeep(raw as string, isBase64Encoded, state.forbiddenKeys);
    }
  };
  return { before } as MiddlewareObj;
}

function parseDeep(body: string, isBase64Encoded: boolean, forbiddenKeys: string[]): unknown {
  let value: unknown;
  try {
    value = JSON.parse(isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body);
  } catch {
    throw new BadRequest('Malformed JSON in request body');
  }
  const pending = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, child] of Object.entries(node)) {
      const forbidden = key === '__proto__' || (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype'));
      if (forbidden && !forbiddenKeys.includes(key)) forbiddenKeys.push(key);
      pending.push(child);
    }
  }
  return value;
}
