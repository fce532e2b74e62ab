import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import document from '../../schemas/compiled/openapi.json' with { type: 'json' };
import { apiRoutes } from '../../scripts/lib/route-table.js';
import { ENDPOINT_GROUPS } from '../../shared/presentation/service-info.js';

type Operation = {
  operationId: string;
  security: unknown[];
  summary: string;
  responses: Record<string, unknown>;
  'x-capability': string;
  requestBody?: unknown;
};
const operations = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
);

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const api = await SwaggerParser.validate(structuredClone(document) as never);
    expect((api as { openapi: string }).openapi).toBe('3.1.0');
    expect((api as { info: { version: string } }).info.version).toBe('2.0.0');
  });

  it('documents exactly the routes of the route table (the catch-all excepted)', () => {
    const documented = operations.map((o) => `${o.method} ${o.path}`).sort();
    const routed = apiRoutes()
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    expect(documented).toEqual(routed);
  });

  it('gives each operation a unique id, a summary, its capability, bearer security unless public (a device key for ingestion), and the common errors', () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of operations) {
      const label = `${method} ${path}`;
      expect(op.summary.length, label).toBeGreaterThan(5);
      expect(op.responses, label).toHaveProperty('500');
      if (op['x-capability'] === 'public') expect(op.security, label).toEqual([]);
      else if (op['x-capability'] === 'device') {
        // sensor ingestion: a device key instead of a token, and no capability to miss
        expect(op.security, label).toEqual([{ deviceKey: [] }]);
        expect(op.responses, label).toHaveProperty('401');
        expect(op.responses, label).not.toHaveProperty('403');
      } else {
        expect(op.security, label).toEqual([{ bearerAuth: [] }]);
        expect(op.responses, label).toHaveProperty('401');
        expect(op.responses, label).toHaveProperty('403');
      }
      if (path !== '/health') expect(op.responses, label).toHaveProperty('429');
      if (op.requestBody) expect(op.responses, label).toHaveProperty('400');
    }
  });

  it('names in its description exactly the endpoint groups that have a route', () => {
    const under = (path: string, basePath: string) => path === basePath || path.startsWith(`${basePath}/`);
    const listed = /Endpoint groups: ([^.]*)\./.exec(document.info.description)?.[1]?.split(', ') ?? [];
    const paths = apiRoutes().map((r) => r.path);
    for (const basePath of listed)
      expect(
        paths.some((p) => under(p, basePath)),
        `${basePath} is listed but has no route`,
      ).toBe(true);
    const routed = Object.values(ENDPOINT_GROUPS)
      .map((g) => g.basePath)
      .filter((b) => paths.some((p) => under(p, b)));
    expect(listed).toEqual(routed);
  });
});
