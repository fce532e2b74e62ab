import { Type } from '@sinclair/typebox';
import { StringEnum } from './common.js';

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
export const docAssetParams = Type.Object({ asset: StringEnum(DOC_ASSETS) }, { additionalProperties: false, $id: 'DocAssetParams' });

/** The catch-all route's path parameter (`ANY /{proxy+}`). */
export const notFoundParams = Type.Object({ proxy: Type.Optional(Type.String({ maxLength: 2048 })) }, { additionalProperties: false, $id: 'NotFoundParams' });
