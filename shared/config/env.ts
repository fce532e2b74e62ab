/** Runtime settings read from the environment once per container. Every variable is listed in the README. */
export interface Settings {
  stage: string;
  isProduction: boolean;
  tableName: string;
  dynamodbEndpoint: string | undefined;
  region: string;
  jwtIssuer: string;
  jwtAudience: string;
  jwtTtlSeconds: number;
  maxBodyBytes: number;
  /** Movements lock automatically this long after they were recorded (MOVEMENT_AUTO_LOCK_HOURS, default 72). */
  autoLockHours: number;
  /** Raw sensor readings expire this many days after they arrive (SENSOR_RAW_TTL_DAYS, default 30); rollups are kept. */
  sensorRawTtlDays: number;
  /**
   * Where this service's own functions are invoked (LAMBDA_ENDPOINT): unset in AWS (the Lambda service);
   * serverless-offline's Lambda port locally, an in-process stand-in in the tests.
   */
  lambdaEndpoint: string | undefined;
  /** The hourly predictive job runs (PREDICTIVE_JOB_ENABLED, default on; `false` makes it skip). */
  predictiveJobEnabled: boolean;
  /** The S3 bucket of farm exports (EXPORT_BUCKET): set in AWS for the continuity functions; unset locally. */
  exportBucket: string | undefined;
  /** Where farm exports go when no bucket is set (EXPORT_DIR, default `.data/exports`; one folder per table). */
  exportDir: string;
}

function boolEnv(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new Error(`${name} must be true or false`);
}

function intEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer`);
  return n;
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const stage = env.STAGE ?? 'dev';
  return {
    stage,
    isProduction: stage === 'prod',
    tableName: env.TABLE_NAME ?? 'flockwise-dev',
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION ?? 'eu-west-1',
    jwtIssuer: env.JWT_ISSUER ?? 'flockwise',
    jwtAudience: env.JWT_AUDIENCE ?? 'flockwise-api',
    jwtTtlSeconds: intEnv(env, 'JWT_TTL_SECONDS', 3600),
    maxBodyBytes: intEnv(env, 'MAX_BODY_BYTES', 102_400),
    autoLockHours: intEnv(env, 'MOVEMENT_AUTO_LOCK_HOURS', 72),
    sensorRawTtlDays: intEnv(env, 'SENSOR_RAW_TTL_DAYS', 30),
    predictiveJobEnabled: boolEnv(env, 'PREDICTIVE_JOB_ENABLED', true),
    lambdaEndpoint: env.LAMBDA_ENDPOINT || undefined,
    exportBucket: env.EXPORT_BUCKET || undefined,
    exportDir: env.EXPORT_DIR || '.data/exports',
  };
}

let cached: Settings | undefined;
export function settings(): Settings {
  cached ??= loadSettings();
  return cached;
}

/** Tests change the environment between suites. */
export function resetSettings(): void {
  cached = undefined;
}
