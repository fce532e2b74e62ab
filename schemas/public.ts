import { Type } from '@sinclair/typebox';
import { JsonValue, StringEnum } from './common.js';

export const ServiceInfo = Type.Object(
  {
    message: Type.String(),
    data: Type.Object({
      name: Type.String(),
      version: Type.String(),
      environment: Type.String(),
      endpoints: Type.Record(Type.String(), Type.Object({ basePath: Type.String(), description: Type.String() })),
      links: Type.Object({ docs: Type.String(), openapi: Type.String(), health: Type.String() }),
    }),
  },
  { $id: 'ServiceInfo' },
);

export const Health = Type.Object(
  {
    status: StringEnum(['ok', 'degraded'] as const),
    timestamp: Type.String({ format: 'date-time' }),
    uptime: Type.Number({ description: 'Seconds since this instance started' }),
    environment: Type.String(),
  },
  { $id: 'Health' },
);

export const DOC_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-init.js'] as const;
export const docAssetParams = Type.Object(
  { asset: StringEnum(DOC_ASSETS, { description: 'A file of the API browser (Swagger UI)' }) },
  { additionalProperties: false, $id: 'DocAssetParams' },
);

/** The catch-all route's path parameter (`ANY /{proxy+}`). */
export const notFoundParams = Type.Object({ proxy: Type.Optional(Type.String({ maxLength: 2048 })) }, { additionalProperties: false, $id: 'NotFoundParams' });

/** GET /openapi.json: the document itself (its parts are JSON by nature: operations and schemas as OpenAPI 3.1 defines them). */
const JsonMap = (description: string) => Type.Record(Type.String(), JsonValue, { description });
export const OpenApiDocument = Type.Object(
  {
    openapi: Type.String({ description: 'OpenAPI version (3.1.x)' }),
    info: Type.Object({
      title: Type.String(),
      version: Type.String(),
      summary: Type.Optional(Type.String()),
      description: Type.Optional(Type.String()),
      termsOfService: Type.Optional(Type.String()),
      contact: Type.Optional(Type.Object({ name: Type.Optional(Type.String()), url: Type.Optional(Type.String()), email: Type.Optional(Type.String()) })),
      license: Type.Optional(Type.Object({ name: Type.String(), identifier: Type.Optional(Type.String()), url: Type.Optional(Type.String()) })),
    }),
    jsonSchemaDialect: Type.Optional(Type.String()),
    servers: Type.Optional(
      Type.Array(Type.Object({ url: Type.String(), description: Type.Optional(Type.String()), variables: Type.Optional(JsonMap('Server variables')) })),
    ),
    tags: Type.Optional(
      Type.Array(Type.Object({ name: Type.String(), description: Type.Optional(Type.String()), externalDocs: Type.Optional(JsonMap('External docs')) })),
    ),
    security: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Array(Type.String())))),
    externalDocs: Type.Optional(Type.Object({ url: Type.String(), description: Type.Optional(Type.String()) })),
    paths: Type.Record(Type.String(), JsonMap('Operations by method'), { description: 'Path items by path template' }),
    webhooks: Type.Optional(Type.Record(Type.String(), JsonMap('Operations by method'))),
    components: Type.Optional(
      Type.Record(Type.String(), JsonMap('Components of one kind by name'), { description: 'schemas, responses, parameters, securitySchemes…' }),
    ),
  },
  {
    $id: 'OpenApiDocument',
    description: 'The OpenAPI 3.1 document of this API (the fields of an OpenAPI object; `x-` extensions allowed)',
    patternProperties: { '^x-': JsonValue },
  },
);
