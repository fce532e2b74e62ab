import type { MiddlewareObj } from '@middy/core';
import { settings } from '../../config/env.js';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from '../../errors.js';
import { stateOf, type HttpRequest } from '../context.js';

/**
 * Stage 2: body size cap (413), content type (415 unless JSON), JSON parsing (malformed → 400).
 * An absent body counts as `{}` so a missing field is reported by name by the validator.
 */
export function jsonBody(): MiddlewareObj {
  const before = (request: HttpRequest) => {
    const state = stateOf(request);
    const { body, isBase64Encoded } = request.event;
    if (body === null || body === undefined || body === '') {
      state.body = {};
      return;
    }
    const raw = isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
    const max = settings().maxBodyBytes;
    if (Buffer.byteLength(raw) > max) throw new PayloadTooLarge(`Request body exceeds ${max} bytes`);
    const type = (state.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
      throw new UnsupportedMediaType(`Content-Type must be application/json, got "${type.slice(0, 100)}"`);
    }
    try {
      state.body = JSON.parse(raw);
    } catch {
      throw new BadRequest('Malformed JSON in request body');
    }
  };
  return { before } as MiddlewareObj;
}
