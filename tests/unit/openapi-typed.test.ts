/**
 * Every field a success response can carry is declared with its type: walking every 2xx response schema
 * of the document (built from the handlers, as `npm run generate` does; $refs resolved), no object may
 * be without fields (unless it is a map whose value type is declared), none may be open
 * (`additionalProperties: true`) and no value may be `{}`. And the tests' closed copies of the response
 * schemas (tests/support/contract.ts) compile and refuse a field the document does not declare.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../scripts/lib/openapi.js';
import { closeSchema, contractChecker, untypedObjects, type UntypedObject } from '../support/contract.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON documents
let doc: Json;
let untyped: UntypedObject[];

beforeAll(async () => {
  doc = await buildOpenApi();
  untyped = untypedObjects(doc);
});

describe('success responses are typed', () => {
  it('no object without fields, no additionalProperties: true, no {} value in any 2xx response', () => {
    expect(untyped.map((u) => `${u.operation} ${u.at || '(body)'}: ${u.problem}`)).toEqual([]);
  });

  it('the walker finds an open object, an object without fields and a {} value', () => {
    const probe = {
      paths: {
        '/probe': {
          get: {
            responses: {
              200: {
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: {
                        open: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
                        bare: { type: 'object' },
                        list: { type: 'array', items: {} },
                        map: { type: 'object', additionalProperties: { type: 'number' } },
                        ref: { $ref: '#/components/schemas/Bare' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      components: { schemas: { Bare: { type: 'object', additionalProperties: true } } },
    };
    expect(untypedObjects(probe).map((u) => `${u.at}: ${u.problem}`)).toEqual([
      'open: additionalProperties: true',
      'bare: object without fields',
      'list/[]: untyped value {}',
      'ref → Bare: additionalProperties: true',
      'ref → Bare: object without fields',
    ]);
  });
});

describe('responses are validated as if every object were closed', () => {
  it('closeSchema closes every object, nested ones and union branches included, and keeps declared maps', () => {
    const closed = closeSchema({
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { type: 'string' } } }, u: { anyOf: [{ type: 'object', properties: {} }, { type: 'null' }] } },
      additionalProperties: true,
      patternProperties: undefined,
    } as Json);
    expect(closed.additionalProperties).toBe(false);
    expect(closed.properties.a.additionalProperties).toBe(false);
    expect(closed.properties.u.anyOf[0].additionalProperties).toBe(false);
    const map = closeSchema({ type: 'object', additionalProperties: { type: 'number' } } as Json);
    expect(map.additionalProperties).toEqual({ type: 'number' });
  });

  it('every 2xx JSON schema of the document compiles closed, and a field it does not declare fails', () => {
    const checker = contractChecker(doc);
    const body = { status: 'ok', timestamp: new Date().toISOString(), uptime: 1, environment: 'test' };
    expect(checker.errors('GET', '/health', 200, 'application/json', body)).toEqual([]);
    expect(checker.errors('GET', '/health', 200, 'application/json', { ...body, extra: 1 })).toEqual(['/ must NOT have additional properties (extra)']);
    for (const [path, item] of Object.entries(doc.paths as Json))
      for (const [method, op] of Object.entries(item as Json))
        for (const [status, response] of Object.entries((op as Json).responses ?? {}))
          if (/^2/.test(status) && (response as Json).content?.['application/json'])
            expect(() => checker.errors(method.toUpperCase(), path, Number(status), 'application/json', null), `${method} ${path} ${status}`).not.toThrow();
  });
});
