/**
 * The prod package, as CloudFormation will receive it: `scripts/package.ts --stage prod` runs ONCE
 * (offline, through the CloudFormation stub) and every test reads `.serverless/` (root template +
 * one nested stack per route group).
 *
 * The package runs with this test process's environment, which points DYNAMODB_ENDPOINT at the local
 * test database and JWT_SECRET at the test secret: the prod template must contain neither.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, loadRoutes, type RouteEntry } from '../../scripts/lib/route-table.js';
import { LIMITS, readPackagedStacks } from '../../scripts/package.js';
import { limiterClassesFor, rateLimits, type RateLimit } from '../../shared/config/rate-limits.js';
import table from '../../shared/db/table.json' with { type: 'json' };
import { StackSet, findCycle, strings } from './cfn.js';

const require = createRequire(import.meta.url);
const { stackBaseName } = require('../../scripts/serverless/stacks-map.cjs') as { stackBaseName: (group: string) => string };

const SERVICE = 'flockwise';
const STAGE = 'prod';
const JWT_SECRET_REF = '{{resolve:secretsmanager:flockwise/prod/jwt-secret}}';
const CATCH_ALL = 'ANY /{proxy+}';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

interface ServerlessState {
  service: { functions: Record<string, { handler: string; name: string; events?: Array<Record<string, unknown>> }> };
}

/**
 * The most a function's bundle may weigh (minified, the AWS SDK external). The largest carry the precompiled
 * movement validator (131 KB): the movement writes. The egg production corrects a day's eggs with the
 * egg_collection validator alone (docs/performance.md, "Update: deploy bundles back under 250 KB"). No bundle carries TypeBox (below).
 */
const BUNDLE_BUDGET_KB = 250;
const PACKAGE_TIMEOUT_MS = 480_000;
// The package script's own limit fires first and stops serverless cleanly.
const packageEnv: NodeJS.ProcessEnv = { ...process.env, PACKAGE_TIMEOUT_SECONDS: String(PACKAGE_TIMEOUT_MS / 1000 - 60) };
/** The package's files, hard-linked out of .serverless/ by the package script (--out), so a package
 * run started meanwhile elsewhere in this checkout cannot change them under the tests. */
const out = mkdtempSync(join(tmpdir(), 'flockwise-package-'));
let set: StackSet;
let state: ServerlessState;
let packageOutput = '';
const routes: RouteEntry[] = loadRoutes();
const routeFunctions = new Set(routes.map((r) => r.functionName));

function runPackage(): Promise<void> {
  // The test setup has generated schemas/compiled/ already; regenerating here would rewrite files
  // that test files running in parallel import.
  const args = [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/package.ts', '--stage', STAGE, '--no-generate', '--out', out];
  return new Promise((resolve, reject) => {
    // Own process group: on a timeout the whole tree (tsx, serverless, esbuild) is stopped.
    const child = spawn(process.execPath, args, { cwd: ROOT, env: packageEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const stopGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      // SIGTERM first: the package script then stops serverless's own process group.
      stopGroup('SIGTERM');
      setTimeout(() => stopGroup('SIGKILL'), 5000).unref();
      reject(new Error(`npm run package:prod did not finish in ${PACKAGE_TIMEOUT_MS / 1000} s:\n${packageOutput.slice(-4000)}`));
    }, PACKAGE_TIMEOUT_MS);
    child.stdout.on('data', (c: Buffer) => (packageOutput += c.toString()));
    child.stderr.on('data', (c: Buffer) => (packageOutput += c.toString()));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      stopGroup('SIGKILL'); // nothing of the package run may outlive it
      if (code === 0) resolve();
      else reject(new Error(`npm run package:prod failed (exit ${code}):\n${packageOutput.slice(-4000)}`));
    });
  });
}

beforeAll(async () => {
  await runPackage();
  set = new StackSet(readPackagedStacks(out));
  state = JSON.parse(readFileSync(join(out, 'serverless-state.json'), 'utf8')) as ServerlessState;
}, PACKAGE_TIMEOUT_MS + 30_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

const lambdaFunctions = () => set.ofType('AWS::Lambda::Function');
/** The handler's bundle in a function's zip: the zip, its listing, the file's path and size in bytes. */
function handlerOf(fn: { resource: { Properties?: Record<string, unknown> } }) {
  const zip = join(out, basename(String((fn.resource.Properties?.Code as { S3Key?: unknown } | undefined)?.S3Key)));
  const listing = execFileSync('unzip', ['-l', zip], { encoding: 'utf8' });
  const line = listing.split('\n').find((l) => /functions\/[^ ]+\.js$/.test(l.trim()));
  const [size, , , path] = (line ?? '').trim().split(/\s+/);
  return { zip, listing, path: path ?? '', size: Number(size ?? 0) };
}
/** API methods: every API Gateway method but CORS preflight mocks (OPTIONS, MOCK integration), which are no operation. */
const apiMethods = () =>
  set.ofType('AWS::ApiGateway::Method').filter((m) => {
    const p = m.resource.Properties as { HttpMethod: string; Integration?: { Type?: string } };
    return !(p.HttpMethod === 'OPTIONS' && p.Integration?.Type === 'MOCK');
  });
const env = (fn: { resource: { Properties?: Record<string, unknown> } }) =>
  ((fn.resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {}) as Record<string, unknown>;
const bucket = ({ max, windowSeconds }: RateLimit) => ({ RateLimit: Number((max / windowSeconds).toFixed(4)), BurstLimit: max });

describe('prod package: stacks', () => {
  it('packaged offline through the CloudFormation stub, which saw only the stack lookup', () => {
    expect(packageOutput).toMatch(/CloudFormation stub answered \d+ call\(s\): cloudformation ListStackResources flockwise-prod/);
    expect(packageOutput).not.toMatch(/packaging called other AWS APIs/);
    expect(packageOutput).toMatch(/packaged stage prod in [\d.]+ s/);
  });

  it(`no stack (root or nested) holds more than ${LIMITS.resources} resources, ${LIMITS.parameters} parameters or ${LIMITS.outputs} outputs`, () => {
    expect(set.stacks.length).toBeGreaterThan(1);
    for (const s of set.stacks) {
      const t = s.template;
      expect(Object.keys(t.Resources).length, `${s.name} resources`).toBeLessThanOrEqual(LIMITS.resources);
      expect(Object.keys(t.Parameters ?? {}).length, `${s.name} parameters`).toBeLessThanOrEqual(LIMITS.parameters);
      expect(Object.keys(t.Outputs ?? {}).length, `${s.name} outputs`).toBeLessThanOrEqual(LIMITS.outputs);
    }
  });

  it('one nested stack per route group holds that group’s functions, methods, permissions and log groups; the root keeps the shared parts', () => {
    // Every function's group (its handler folder), HTTP or not (scheduled jobs, IoT rules).
    const groups = [...new Set(Object.values(state.service.functions).map((f) => /^functions\/([^/]+)\//.exec(f.handler)?.[1]))].sort();
    expect(groups).not.toContain(undefined);
    const nested = set.stacks
      .filter((s) => s.name !== 'root')
      .map((s) => s.name)
      .sort();
    expect(nested).toEqual(groups.map((g) => `${stackBaseName(g!)}NestedStack`).sort());
    const groupOf = new Map(Object.entries(state.service.functions).map(([name, f]) => [name, f.handler.split('/')[1]!]));
    for (const fn of lambdaFunctions()) {
      const name = String(fn.resource.Properties?.FunctionName).replace(`${SERVICE}-${STAGE}-`, '');
      expect(fn.stack, name).toBe(`${stackBaseName(groupOf.get(name)!)}NestedStack`);
    }
    for (const m of apiMethods()) expect(set.methodFunction(m.stack, m.resource).stack, m.id).toBe(m.stack);
    for (const p of set.ofType('AWS::Lambda::Permission')) expect(set.resolve(p.stack, p.resource.Properties?.FunctionName).stack, p.id).toBe(p.stack);
    for (const l of set.ofType('AWS::Logs::LogGroup')) expect(l.stack, l.id).not.toBe('root');
    const rootTypes = new Set(Object.values(set.root.Resources).map((r) => r.Type));
    for (const type of [
      'AWS::ApiGateway::RestApi',
      'AWS::ApiGateway::Deployment',
      'AWS::ApiGateway::UsagePlan',
      'AWS::ApiGateway::ApiKey',
      'AWS::ApiGateway::UsagePlanKey',
      'AWS::DynamoDB::Table',
      'AWS::IAM::Role',
    ]) {
      expect(rootTypes.has(type), type).toBe(true);
    }
  });

  it('no circular dependency in any stack, and the API deployment waits for every stack holding methods', () => {
    for (const s of set.stacks) expect(findCycle(s.template), s.name).toBeUndefined();
    const deployment = set.ofType('AWS::ApiGateway::Deployment');
    expect(deployment).toHaveLength(1);
    expect(deployment[0]!.stack).toBe('root');
    const waitsFor = new Set([deployment[0]!.resource.DependsOn ?? []].flat());
    for (const m of set.ofType('AWS::ApiGateway::Method')) expect(waitsFor.has(m.stack === 'root' ? m.id : m.stack), m.id).toBe(true);
  });

  it('the docs asset function ships swagger-ui-dist; no other function does', () => {
    const list = (fn: string) => execFileSync('unzip', ['-Z1', join(out, `${fn}.zip`)], { encoding: 'utf8' });
    expect(list('docsAsset')).toContain('node_modules/swagger-ui-dist/swagger-ui-bundle.js');
    for (const fn of ['docs', 'authLogin', 'serviceInfo']) expect(list(fn), fn).not.toContain('swagger-ui-dist');
  });

  it(`every function bundle stays within ${BUNDLE_BUDGET_KB} KB (the AWS SDK comes from the runtime, not the zip)`, () => {
    for (const fn of lambdaFunctions()) {
      const { listing, size } = handlerOf(fn);
      expect(size, fn.id).toBeGreaterThan(0);
      expect(size, fn.id).toBeLessThanOrEqual(BUNDLE_BUDGET_KB * 1024);
      expect(listing, fn.id).not.toContain('node_modules/@aws-sdk');
    }
  });

  it('no function bundle carries TypeBox: routes name their response schemas, the code takes compiled validators and constants', () => {
    for (const fn of lambdaFunctions()) {
      const { zip, path } = handlerOf(fn);
      const code = execFileSync('unzip', ['-p', zip, path], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
      expect(code.length, fn.id).toBeGreaterThan(0);
      // every TypeBox schema carries Symbol.for('TypeBox.Kind'): the one string no minifier renames
      expect(code.includes('TypeBox.Kind'), `${fn.id} bundles @sinclair/typebox`).toBe(false);
    }
  });

  it('every nested stack template file exists and every function zip is packaged', () => {
    for (const fn of lambdaFunctions()) {
      const key = String((fn.resource.Properties?.Code as { S3Key?: unknown } | undefined)?.S3Key);
      expect(existsSync(join(out, basename(key))), key).toBe(true);
    }
  });
});

describe('prod package: functions', () => {
  it('exactly one Lambda function per route function of the route table (plus declared non-HTTP functions), all nodejs22.x', () => {
    const fns = lambdaFunctions();
    const names = fns.map((f) => String(f.resource.Properties?.FunctionName));
    expect(new Set(names).size).toBe(names.length);
    const nonHttp = Object.entries(state.service.functions)
      .filter(([, f]) => !(f.events ?? []).some((e) => 'http' in e))
      .map(([name]) => name);
    expect(names.sort()).toEqual([...routeFunctions, ...nonHttp].map((n) => `${SERVICE}-${STAGE}-${n}`).sort());
    expect(fns.length).toBe(routeFunctions.size + nonHttp.length);
    for (const fn of fns) expect(fn.resource.Properties?.Runtime, fn.id).toBe('nodejs22.x');
  });

  it('each function runs the handler file the route table names', () => {
    const fileOf = new Map(routes.map((r) => [r.functionName, r.file]));
    for (const fn of lambdaFunctions()) {
      const name = String(fn.resource.Properties?.FunctionName).replace(`${SERVICE}-${STAGE}-`, '');
      if (!fileOf.has(name)) continue;
      expect(`${String(fn.resource.Properties?.Handler).replace(/\.handler$/, '')}.ts`, name).toBe(fileOf.get(name));
    }
  });
});

describe('prod package: table', () => {
  it('keys, GSI1 and GSI2, TTL, point-in-time recovery, on-demand billing and deletion protection as shared/db/table.json says', () => {
    const tables = set.ofType('AWS::DynamoDB::Table');
    expect(tables).toHaveLength(1);
    const { stack, resource } = tables[0]!;
    expect(stack).toBe('root');
    const p = resource.Properties as Record<string, unknown>;
    expect(p.TableName).toBe(`${SERVICE}-${STAGE}`);
    expect(p.KeySchema).toEqual(table.KeySchema);
    expect(p.KeySchema).toEqual([
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ]);
    expect(p.AttributeDefinitions).toEqual(table.AttributeDefinitions);
    expect(p.GlobalSecondaryIndexes).toEqual(table.GlobalSecondaryIndexes);
    expect((p.GlobalSecondaryIndexes as Array<{ IndexName: string }>).map((g) => g.IndexName)).toEqual(['GSI1', 'GSI2']);
    expect(p.TimeToLiveSpecification).toEqual({ AttributeName: table.TimeToLiveAttribute, Enabled: true });
    expect(p.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(p.BillingMode).toBe('PAY_PER_REQUEST');
    expect(p.ProvisionedThroughput).toBeUndefined();
    expect(p.DeletionProtectionEnabled).toBe(true);
    expect(resource.DeletionPolicy).toBe('Retain');
  });
});

describe('prod package: IoT telemetry rule, dead letters and device health', () => {
  const TELEMETRY_SQL = "SELECT *, topic(2) AS farmId, topic(4) AS deviceId, timestamp() AS receivedAt FROM 'flockwise/+/devices/+/telemetry'";
  const TELEMETRY_FN = `${SERVICE}-${STAGE}-iotTelemetryRule`;
  const HEALTH_FN = `${SERVICE}-${STAGE}-iotDeviceHealth`;
  type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Principal?: unknown; Condition?: unknown };
  const props = (r: { resource: { Properties?: Record<string, unknown> } }) => (r.resource.Properties ?? {}) as Record<string, unknown>;
  const fnName = (stack: string, value: unknown) => {
    const target = set.resolve(stack, value);
    expect(target.resource.Type).toBe('AWS::Lambda::Function');
    return String(target.resource.Properties?.FunctionName);
  };
  const deadLetterQueue = () => {
    const queues = set.ofType('AWS::SQS::Queue');
    expect(queues).toHaveLength(1);
    return queues[0]!;
  };
  /** A value that designates the dead-letter queue (Ref: its URL; GetAtt Arn: its ARN). */
  const expectQueue = (stack: string, value: unknown, att?: string) => {
    const target = set.resolve(stack, value);
    expect({ stack: target.stack, id: target.id, att: target.att }).toEqual({ stack: 'root', id: deadLetterQueue().id, att });
  };

  it('one dead-letter queue in the root stack: 14-day retention, SQS-managed encryption', () => {
    const q = deadLetterQueue();
    expect(q.stack).toBe('root');
    expect(q.id).toBe('IotDeadLetterQueue');
    expect(props(q).MessageRetentionPeriod).toBe(14 * 86_400);
    expect(props(q).SqsManagedSseEnabled).toBe(true);
  });

  it('exactly one topic rule: the telemetry SQL (2016-03-23) → the telemetry function, errors → the dead-letter queue with its own role', () => {
    const rules = set.ofType('AWS::IoT::TopicRule');
    expect(rules).toHaveLength(1);
    const rule = rules[0]!;
    expect(rule.stack).toBe(`${stackBaseName('iot')}NestedStack`);
    expect(props(rule).RuleName).toBe(`${SERVICE}_${STAGE}_telemetry`);
    expect(String(props(rule).RuleName)).toMatch(/^[a-zA-Z0-9_]+$/);
    const payload = props(rule).TopicRulePayload as {
      Sql: string;
      AwsIotSqlVersion: string;
      RuleDisabled: boolean;
      Actions: Array<{ Lambda?: { FunctionArn: unknown } }>;
      ErrorAction?: { Sqs?: { QueueUrl: unknown; RoleArn: unknown; UseBase64: boolean } };
    };
    expect(payload.Sql).toBe(TELEMETRY_SQL);
    expect(payload.AwsIotSqlVersion).toBe('2016-03-23');
    expect(payload.RuleDisabled).toBe(false);
    expect(payload.Actions).toHaveLength(1);
    expect(fnName(rule.stack, payload.Actions[0]!.Lambda?.FunctionArn)).toBe(TELEMETRY_FN);
    expect(Object.keys(payload.ErrorAction ?? {})).toEqual(['Sqs']);
    const sqs = payload.ErrorAction!.Sqs!;
    expect(sqs.UseBase64).toBe(false);
    expectQueue(rule.stack, sqs.QueueUrl); // Ref of a queue is its URL
    const role = set.resolve(rule.stack, sqs.RoleArn);
    expect({ stack: role.stack, id: role.id, type: role.resource.Type, att: role.att }).toEqual({
      stack: 'root',
      id: 'IotRuleErrorActionRole',
      type: 'AWS::IAM::Role',
      att: 'Arn',
    });
  });

  it('the rule’s error-action role: assumed by IoT Core only, allowed only sqs:SendMessage on the dead-letter queue', () => {
    const role = set.root.Resources.IotRuleErrorActionRole!;
    const p = role.Properties as {
      AssumeRolePolicyDocument: { Statement: Statement[] };
      Policies: Array<{ PolicyDocument: { Statement: Statement[] } }>;
      ManagedPolicyArns?: unknown;
      PermissionsBoundary?: unknown;
    };
    expect(p.AssumeRolePolicyDocument.Statement).toHaveLength(1);
    const trust = p.AssumeRolePolicyDocument.Statement[0]!;
    expect(trust).toMatchObject({ Effect: 'Allow', Principal: { Service: 'iot.amazonaws.com' }, Action: 'sts:AssumeRole' });
    expect(p.ManagedPolicyArns).toBeUndefined();
    const statements = p.Policies.flatMap((policy) => policy.PolicyDocument.Statement);
    expect(statements).toHaveLength(1);
    const only = statements[0]!;
    expect(only.Effect).toBe('Allow');
    expect([only.Action].flat()).toEqual(['sqs:SendMessage']);
    expect([only.Resource].flat()).toHaveLength(1);
    expectQueue('root', [only.Resource].flat()[0], 'Arn');
  });

  it('the telemetry function’s async invoke config: 2 retries, then OnFailure → the dead-letter queue, which its role may send to', () => {
    const configs = set.ofType('AWS::Lambda::EventInvokeConfig').filter((c) => fnName(c.stack, props(c).FunctionName) === TELEMETRY_FN);
    expect(configs).toHaveLength(1);
    const c = configs[0]!;
    expect(props(c).MaximumRetryAttempts).toBe(2);
    expect(props(c).Qualifier).toBe('$LATEST');
    const destinations = props(c).DestinationConfig as { OnFailure?: { Destination: unknown }; OnSuccess?: unknown };
    expect(destinations.OnSuccess).toBeUndefined();
    expectQueue(c.stack, destinations.OnFailure?.Destination, 'Arn');

    // Lambda sends the failed event with the function's execution role.
    const fn = lambdaFunctions().find((f) => f.resource.Properties?.FunctionName === TELEMETRY_FN)!;
    const execRole = set.resolve(fn.stack, fn.resource.Properties?.Role);
    expect(execRole.resource.Type).toBe('AWS::IAM::Role');
    const policies = (execRole.resource.Properties as { Policies: Array<{ PolicyDocument: { Statement: Statement[] } }> }).Policies;
    const sends = policies.flatMap((p) => p.PolicyDocument.Statement).filter((st) => [st.Action].flat().includes('sqs:SendMessage'));
    expect(sends.length).toBeGreaterThan(0); // osls adds it for a destination of type sqs
    for (const send of sends) {
      expect(send.Effect).toBe('Allow');
      expect([send.Resource].flat()).toHaveLength(1);
      expectQueue(execRole.stack, [send.Resource].flat()[0], 'Arn');
    }
  });

  it('IoT Core may invoke the telemetry function (from that rule only), and nothing else is invoked by IoT Core', () => {
    const perms = set.ofType('AWS::Lambda::Permission').filter((p) => props(p).Principal === 'iot.amazonaws.com');
    expect(perms).toHaveLength(1);
    const perm = perms[0]!;
    expect(props(perm).Action).toBe('lambda:InvokeFunction');
    expect(fnName(perm.stack, props(perm).FunctionName)).toBe(TELEMETRY_FN);
    const rule = set.ofType('AWS::IoT::TopicRule')[0]!;
    expect(perm.stack).toBe(rule.stack);
    expect(JSON.stringify(props(perm).SourceArn)).toContain(':rule/');
    expect(JSON.stringify(props(perm).SourceArn)).toContain(JSON.stringify({ Ref: rule.id }));
  });

  it('the raw readings’ TTL: the table’s TimeToLiveSpecification is enabled on expiresAt', () => {
    const t = set.ofType('AWS::DynamoDB::Table')[0]!;
    expect(props(t).TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
  });

  it('the device health job: an enabled rate(5 minutes) schedule invoking iotDeviceHealth, with its permission', () => {
    const schedules = set
      .ofType('AWS::Events::Rule')
      .filter((r) => ((props(r).Targets as Array<{ Arn: unknown }> | undefined) ?? []).some((t) => fnName(r.stack, t.Arn) === HEALTH_FN));
    expect(schedules).toHaveLength(1);
    const rule = schedules[0]!;
    expect(props(rule).ScheduleExpression).toBe('rate(5 minutes)');
    expect(props(rule).State).toBe('ENABLED');
    const perms = set
      .ofType('AWS::Lambda::Permission')
      .filter((p) => props(p).Principal === 'events.amazonaws.com' && fnName(p.stack, props(p).FunctionName) === HEALTH_FN);
    expect(perms).toHaveLength(1);
  });

  it('the predictive job: an enabled rate(1 hour) schedule invoking predictiveJob (timeout 300 s), with its permission and PREDICTIVE_JOB_ENABLED', () => {
    const PREDICTIVE_FN = `${SERVICE}-${STAGE}-predictiveJob`;
    const rules = set
      .ofType('AWS::Events::Rule')
      .filter((r) => ((props(r).Targets as Array<{ Arn: unknown }> | undefined) ?? []).some((t) => fnName(r.stack, t.Arn) === PREDICTIVE_FN));
    expect(rules).toHaveLength(1);
    expect(props(rules[0]!).ScheduleExpression).toBe('rate(1 hour)');
    expect(props(rules[0]!).State).toBe('ENABLED');
    const perms = set
      .ofType('AWS::Lambda::Permission')
      .filter((p) => props(p).Principal === 'events.amazonaws.com' && fnName(p.stack, props(p).FunctionName) === PREDICTIVE_FN);
    expect(perms).toHaveLength(1);
    const fn = lambdaFunctions().find((f) => f.resource.Properties?.FunctionName === PREDICTIVE_FN)!;
    expect(fn.stack).toBe('PredictiveNestedStack');
    expect(fn.resource.Properties?.Timeout).toBe(300);
    expect(env(fn).PREDICTIVE_JOB_ENABLED).toBe(packageEnv.PREDICTIVE_JOB_ENABLED ?? '');
  });

  it('the alarm job: an enabled rate(15 minutes) schedule invoking rulesJob; rulesOnNewData has no trigger and the role may invoke only it', () => {
    const RULES_JOB = `${SERVICE}-${STAGE}-rulesJob`;
    const NEW_DATA = `${SERVICE}-${STAGE}-rulesOnNewData`;
    const rules = set
      .ofType('AWS::Events::Rule')
      .filter((r) => ((props(r).Targets as Array<{ Arn: unknown }> | undefined) ?? []).some((t) => fnName(r.stack, t.Arn) === RULES_JOB));
    expect(rules).toHaveLength(1);
    expect(props(rules[0]!).ScheduleExpression).toBe('rate(15 minutes)');
    expect(props(rules[0]!).State).toBe('ENABLED');
    const fn = lambdaFunctions().find((f) => f.resource.Properties?.FunctionName === NEW_DATA)!;
    expect(fn, NEW_DATA).toBeDefined();
    expect(set.ofType('AWS::Lambda::Permission').filter((p) => fnName(p.stack, props(p).FunctionName) === NEW_DATA)).toEqual([]);
    const execRole = set.resolve(fn.stack, fn.resource.Properties?.Role);
    const policies = (execRole.resource.Properties as { Policies: Array<{ PolicyDocument: { Statement: Statement[] } }> }).Policies;
    const invokes = policies.flatMap((p) => p.PolicyDocument.Statement).filter((st) => [st.Action].flat().some((a) => a.startsWith('lambda:')));
    expect(invokes).toHaveLength(1);
    expect([invokes[0]!.Action].flat()).toEqual(['lambda:InvokeFunction']);
    expect(JSON.stringify(invokes[0]!.Resource)).toContain(`function","${NEW_DATA}`);
    for (const f of lambdaFunctions()) expect(env(f).LAMBDA_ENDPOINT, f.id).toBe('');
  });

  it('the raw readings’ TTL and the ingest rate limit reach every function as packaged', () => {
    for (const fn of lambdaFunctions()) {
      const vars = env(fn);
      expect(vars.SENSOR_RAW_TTL_DAYS, fn.id).toBe(packageEnv.SENSOR_RAW_TTL_DAYS ?? '');
      expect(vars.RATE_LIMIT_INGEST_MAX, fn.id).toBe(packageEnv.RATE_LIMIT_INGEST_MAX ?? '');
      expect(vars.RATE_LIMIT_INGEST_WINDOW_SECONDS, fn.id).toBe(packageEnv.RATE_LIMIT_INGEST_WINDOW_SECONDS ?? '');
    }
  });
});

describe('prod package: continuity (export bucket, backups, least privilege)', () => {
  type Statement = { Sid?: string; Effect: string; Action: string | string[]; Resource: unknown; Principal?: unknown; Condition?: unknown };
  type RoleProps = { Policies?: Array<{ PolicyDocument: { Statement: Statement[] } }>; ManagedPolicyArns?: unknown[] };
  const props = (r: { resource: { Properties?: Record<string, unknown> } }) => (r.resource.Properties ?? {}) as Record<string, unknown>;
  /** The functions that read or write export files, the backup status or start the worker: they alone use ContinuityRole. */
  const S3_FUNCTIONS = [
    'continuityCreateExport',
    'continuityGetExport',
    'continuityDownloadExport',
    'continuityCreateRestore',
    'continuityStatus',
    'continuityWorker',
  ].map((k) => `${SERVICE}-${STAGE}-${k}`);
  const exportBucket = () => {
    const buckets = set.ofType('AWS::S3::Bucket').filter((b) => b.id === 'ContinuityExportBucket');
    expect(buckets).toHaveLength(1);
    return buckets[0]!;
  };
  const actionsOf = (st: Statement) => [st.Action].flat();
  const statementsOf = (role: { resource: { Properties?: Record<string, unknown> } }) =>
    ((role.resource.Properties as RoleProps).Policies ?? []).flatMap((p) => p.PolicyDocument.Statement);
  const roleOf = (fn: { stack: string; resource: { Properties?: Record<string, unknown> } }) => set.resolve(fn.stack, fn.resource.Properties?.Role);

  it('the export bucket: in the root stack, retained, SSE encryption by default, every public access blocked, owner-enforced', () => {
    const b = exportBucket();
    expect(b.stack).toBe('root');
    expect(b.resource.DeletionPolicy).toBe('Retain');
    const p = props(b) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const sse = p.BucketEncryption.ServerSideEncryptionConfiguration as Array<{ ServerSideEncryptionByDefault: { SSEAlgorithm: string } }>;
    expect(sse).toHaveLength(1);
    expect(['AES256', 'aws:kms']).toContain(sse[0]!.ServerSideEncryptionByDefault.SSEAlgorithm);
    expect(p.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(p.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
    expect(p.AccessControl).toBeUndefined();
    expect(p.WebsiteConfiguration).toBeUndefined();
  });

  it('the export bucket’s lifecycle: exports/ expire after 90 days, unfinished multipart uploads after 1 day', () => {
    const rules = (props(exportBucket()).LifecycleConfiguration as { Rules: Array<Record<string, unknown>> }).Rules;
    expect(rules).toEqual([
      { Id: 'expire-exports', Status: 'Enabled', Prefix: 'exports/', ExpirationInDays: 90, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
    ]);
  });

  it('the export bucket’s policy denies every request not over TLS, on the bucket and its objects, and allows nothing', () => {
    const policies = set.ofType('AWS::S3::BucketPolicy').filter((bp) => set.resolve(bp.stack, props(bp).Bucket).id === exportBucket().id);
    expect(policies).toHaveLength(1);
    const statements = (props(policies[0]!).PolicyDocument as { Statement: Statement[] }).Statement;
    expect(statements.filter((st) => st.Effect === 'Allow')).toEqual([]);
    const tls = statements.find((st) => st.Effect === 'Deny' && JSON.stringify(st.Condition) === JSON.stringify({ Bool: { 'aws:SecureTransport': 'false' } }));
    expect(tls, JSON.stringify(statements)).toBeDefined();
    expect(tls!.Principal).toBe('*');
    expect(actionsOf(tls!)).toEqual(['s3:*']);
    const resources = [tls!.Resource].flat().map((r) => JSON.stringify(r));
    expect(resources).toHaveLength(2);
    expect(resources[0]).toBe(JSON.stringify({ 'Fn::GetAtt': ['ContinuityExportBucket', 'Arn'] }));
    expect(resources[1]).toContain('ContinuityExportBucket');
    expect(resources[1]).toContain('"*"');
  });

  it('point-in-time recovery stays on for the table, and only the continuity role may read its backup status', () => {
    const table = set.ofType('AWS::DynamoDB::Table')[0]!;
    expect(props(table).PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    const describing = [...set.ofType('AWS::IAM::Role')].filter((r) =>
      statementsOf(r).some((st) => actionsOf(st).some((a) => a.startsWith('dynamodb:Describe'))),
    );
    expect(describing.map((r) => r.id)).toEqual(['ContinuityRole']);
    const st = statementsOf(describing[0]!).find((x) => actionsOf(x).includes('dynamodb:DescribeContinuousBackups'))!;
    expect(actionsOf(st)).toEqual(['dynamodb:DescribeContinuousBackups']);
    expect([st.Resource].flat()).toEqual([{ 'Fn::GetAtt': [table.id, 'Arn'] }]);
  });

  it('least privilege: only the continuity functions that touch exports get S3 (Put/Get/AbortMultipartUpload on exports/*) and may start the worker', () => {
    // no IAM resource but ContinuityRole mentions S3; no managed policy beyond basic execution
    for (const type of ['AWS::IAM::Role', 'AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy']) {
      for (const r of set.ofType(type)) {
        const doc = JSON.stringify(type === 'AWS::IAM::Role' ? statementsOf(r) : props(r).PolicyDocument);
        if (r.id !== 'ContinuityRole') expect(doc, `${r.id} mentions S3`).not.toMatch(/"s3:/);
        for (const arn of (props(r).ManagedPolicyArns as unknown[] | undefined) ?? [])
          expect(JSON.stringify(arn), r.id).toContain('AWSLambdaBasicExecutionRole');
      }
    }
    const role = set.root.Resources.ContinuityRole!;
    const trust = (role.Properties as { AssumeRolePolicyDocument: { Statement: Statement[] } }).AssumeRolePolicyDocument.Statement;
    expect(trust).toEqual([{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }]);
    const statements = statementsOf({ resource: role });
    const s3 = statements.filter((st) => actionsOf(st).some((a) => a.startsWith('s3:')));
    expect(s3).toHaveLength(1);
    expect(s3[0]!.Effect).toBe('Allow');
    expect(actionsOf(s3[0]!).sort()).toEqual(['s3:AbortMultipartUpload', 's3:GetObject', 's3:PutObject']);
    expect([s3[0]!.Resource].flat().map((r) => JSON.stringify(r))).toEqual([
      JSON.stringify({ 'Fn::Join': ['/', [{ 'Fn::GetAtt': ['ContinuityExportBucket', 'Arn'] }, 'exports/*']] }),
    ]);
    const invokes = statements.filter((st) => actionsOf(st).some((a) => a.startsWith('lambda:')));
    expect(invokes).toHaveLength(1);
    expect(actionsOf(invokes[0]!)).toEqual(['lambda:InvokeFunction']);
    expect(JSON.stringify(invokes[0]!.Resource)).toContain(`function","${SERVICE}-${STAGE}-continuityWorker"`);
    expect(statements.every((st) => st.Effect === 'Allow' && !actionsOf(st).some((a) => a === '*' || a.endsWith(':*')))).toBe(true);

    // the functions on ContinuityRole are exactly those that need it, and only they know the bucket
    const onRole = lambdaFunctions().filter((fn) => roleOf(fn).id === 'ContinuityRole');
    expect(onRole.map((fn) => String(fn.resource.Properties?.FunctionName)).sort()).toEqual([...S3_FUNCTIONS].sort());
    for (const fn of lambdaFunctions()) {
      const name = String(fn.resource.Properties?.FunctionName);
      const bucketVar = env(fn).EXPORT_BUCKET;
      if (S3_FUNCTIONS.includes(name)) expect(set.resolve(fn.stack, bucketVar).id, name).toBe('ContinuityExportBucket');
      else expect(bucketVar ?? '', name).toBe('');
    }
  });
});

describe('prod package: throttling', () => {
  const limits = () => rateLimits(packageEnv);

  it('the usage plan carries the general class as throttle and a daily quota', () => {
    const plans = set.ofType('AWS::ApiGateway::UsagePlan');
    expect(plans).toHaveLength(1);
    const p = plans[0]!.resource.Properties as Record<string, unknown>;
    const general = limits().general;
    expect(p.Throttle).toEqual(bucket(general));
    expect(p.Quota).toEqual({ Limit: Math.floor((general.max * 86400) / general.windowSeconds), Period: 'DAY' });
  });

  it('every auth, read and date route has its method throttle with its class’s numbers, and no other route has one', () => {
    const plan = set.ofType('AWS::ApiGateway::UsagePlan')[0]!.resource.Properties as {
      ApiStages: Array<{ Stage: string; ApiId: unknown; Throttle?: Record<string, unknown> }>;
    };
    expect(plan.ApiStages).toHaveLength(1);
    const stage = plan.ApiStages[0]!;
    expect(stage.Stage).toBe(STAGE);
    expect(set.resolve('root', stage.ApiId).resource.Type).toBe('AWS::ApiGateway::RestApi');
    const expected: Record<string, unknown> = {};
    let classed = 0;
    for (const r of routes) {
      const cls = limiterClassesFor(r.path).find((c) => c !== 'general');
      if (!cls) continue;
      classed++;
      const key = `${r.path}/${r.method}`;
      expected[key] = bucket(limits()[cls]);
      expect(stage.Throttle?.[key], `${key} (${cls})`).toEqual(expected[key]);
    }
    expect(classed).toBeGreaterThan(0);
    expect(stage.Throttle).toEqual(expected);
  });
});

describe('prod package: no local-only values', () => {
  it('no localhost / 127.0.0.1 anywhere, DYNAMODB_ENDPOINT empty, STAGE prod', () => {
    for (const s of set.stacks) {
      for (const [path, value] of strings(s.template)) expect(value, `${s.name} ${path}`).not.toMatch(/localhost|127\.0\.0\.1|0\.0\.0\.0/i);
    }
    for (const fn of lambdaFunctions()) {
      const vars = env(fn);
      expect(vars.DYNAMODB_ENDPOINT ?? '', fn.id).toBe('');
      expect(vars.STAGE, fn.id).toBe(STAGE);
    }
  });

  it('JWT_SECRET is the Secrets Manager reference; no other secret-looking literal', () => {
    const leaks = [packageEnv.JWT_SECRET, 'offlinePackageKeyId', 'offlinePackageSecret'].filter((v): v is string => !!v);
    const localSecret = join(ROOT, '.local', 'jwt-secret');
    if (existsSync(localSecret)) leaks.push(readFileSync(localSecret, 'utf8').trim());
    const logicalNames = new Set<string>();
    for (const s of set.stacks)
      for (const k of ['Resources', 'Parameters', 'Outputs'] as const) for (const id of Object.keys(s.template[k] ?? {})) logicalNames.add(id);

    for (const fn of lambdaFunctions()) {
      const vars = env(fn);
      expect(vars.JWT_SECRET, fn.id).toBe(JWT_SECRET_REF);
      for (const [name, value] of Object.entries(vars)) {
        if (name === 'JWT_SECRET' || !/SECRET|PASSWORD|PASSWD|TOKEN|PRIVATE|API_?KEY|CREDENTIAL/i.test(name)) continue;
        expect(value === '' || (typeof value === 'string' && value.startsWith('{{resolve:')), `${fn.id} ${name}`).toBe(true);
      }
    }
    for (const s of set.stacks) {
      for (const [path, value] of strings(s.template)) {
        for (const leak of leaks) expect(value.includes(leak), `${s.name} ${path} contains a local secret or the fake packaging credentials`).toBe(false);
        expect(value, `${s.name} ${path}`).not.toMatch(/AKIA[0-9A-Z]{16}|-----BEGIN|eyJ[A-Za-z0-9_-]{10,}\./);
        if (value.startsWith('{{resolve:')) {
          expect(value, `${s.name} ${path}`).toBe(JWT_SECRET_REF);
          continue;
        }
        // Token-shaped: long, no spaces or dots, mixed case and digits; not a name the template gives itself.
        const named = logicalNames.has(value) || value.startsWith(`${SERVICE}-${STAGE}`) || value.startsWith(`/aws/lambda/${SERVICE}-${STAGE}`);
        const tokenLike = !named && /^[A-Za-z0-9+/_=-]{32,}$/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value);
        expect(tokenLike, `${s.name} ${path} looks like a secret: ${value.slice(0, 6)}…`).toBe(false);
      }
    }
    for (const key of set.ofType('AWS::ApiGateway::ApiKey')) expect(key.resource.Properties?.Value, 'API key value must be generated by AWS').toBeUndefined();
  });
});

describe('prod package: OpenAPI parity', () => {
  it('the (METHOD, path) pairs deployed by serverless.yml are exactly the operations of schemas/compiled/openapi.json (plus the catch-all)', () => {
    const deployed = apiMethods().map((m) => {
      const props = m.resource.Properties as { HttpMethod: string; ResourceId: unknown };
      return `${props.HttpMethod.toUpperCase()} ${set.apiPath(m.stack, props.ResourceId) || '/'}`;
    });
    expect(new Set(deployed).size).toBe(deployed.length);
    expect(deployed).toContain(CATCH_ALL);

    const doc = JSON.parse(readFileSync(join(ROOT, 'schemas', 'compiled', 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((k) => HTTP_METHODS.includes(k))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented).not.toContain(CATCH_ALL);

    const missingFromDoc = deployed.filter((op) => op !== CATCH_ALL && !documented.includes(op));
    const missingFromServerless = documented.filter((op) => !deployed.includes(op));
    expect({ missingFromDoc, missingFromServerless }).toEqual({ missingFromDoc: [], missingFromServerless: [] });
  });

  it('every routed path answers the CORS preflight with a mock OPTIONS method in the same stack', () => {
    const pathOf = (m: { stack: string; resource: { Properties?: Record<string, unknown> } }) => set.apiPath(m.stack, m.resource.Properties?.ResourceId) || '/';
    const preflights = set.ofType('AWS::ApiGateway::Method').filter((m) => (m.resource.Properties as { HttpMethod: string }).HttpMethod === 'OPTIONS');
    const preflightPaths = new Set(preflights.map(pathOf));
    for (const m of apiMethods()) {
      if ((m.resource.Properties as { HttpMethod: string }).HttpMethod === 'ANY') continue;
      expect(preflightPaths.has(pathOf(m)), pathOf(m)).toBe(true);
    }
    for (const p of preflights) {
      const headers = JSON.stringify(p.resource.Properties);
      expect(headers).toContain('Authorization');
      expect(headers).toContain('Idempotency-Key');
    }
  });

  it('each deployed method invokes the function the route table assigns to it', () => {
    for (const m of apiMethods()) {
      const props = m.resource.Properties as { HttpMethod: string; ResourceId: unknown };
      const path = set.apiPath(m.stack, props.ResourceId) || '/';
      const route = routes.find((r) => r.method === props.HttpMethod.toUpperCase() && r.path === path);
      expect(route, `${props.HttpMethod} ${path}`).toBeDefined();
      expect(set.methodFunction(m.stack, m.resource).resource.Properties?.FunctionName).toBe(`${SERVICE}-${STAGE}-${route!.functionName}`);
    }
  });
});
