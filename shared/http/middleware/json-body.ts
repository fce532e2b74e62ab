import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { settings } from '../../config/env.js';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from '../errors.js';
import { stateOf, type HttpRequest } from '../context.js';

/**
 * Stage 2: body size cap (413), content type (415 unless JSON; a body without a Content-Type is read
 * as JSON), then Middy's `http-json-body-parser` (it also refuses `__proto__` and `constructor.prototype`
 * keys). Whatever it refuses is a 400 naming the problem. An absent body counts as `{}`, so a missing
 * field is reported by name by the validator.
 */
const parser = httpJsonBodyParser({ disableContentTypeCheck: true });

export function jsonBody(): MiddlewareObj {
  const before = async (request: HttpRequest) => {
    const state = stateOf(request);
    const { body, isBase64Encoded } = request.event;
    if (body === null || body === undefined || body === '') {
      state.body = {};
      return;
    }
    const bytes = isBase64Encoded ? Buffer.from(body, 'base64').byteLength : Buffer.byteLength(body);
    const max = settings().maxBodyBytes;
    if (bytes > max) throw new PayloadTooLarge(`Request body exceeds ${max} bytes`);
    const type = (state.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
      throw new UnsupportedMediaType(`Content-Type must be application/json, got "${type.slice(0, 100)}"`);
    }
    try {
      await parser.before!(request);
    } catch (err) {
      throw new BadRequest((err as Error).message === 'Forbidden key in JSON body' ? 'Forbidden key in JSON body' : 'Malformed JSON in request body');
    }
    state.body = request.event.body;
  };
  return { before } as MiddlewareObj;
}
