/**
 * A tiny local stand-in for the CloudFormation API, for OFFLINE PACKAGING ONLY (never for deploy).
 *
 * serverless-plugin-split-stacks asks CloudFormation which resources the deployed stack already has
 * (ListStackResources) during `serverless package`, so it can keep them in their nested stack. With
 * no AWS account and no network that call fails (ENOTFOUND). This stub answers every stack lookup the
 * way CloudFormation answers before the first deploy — "Stack with id … does not exist" — so the
 * package shows the layout a first deploy creates. Any other action (or any other AWS service routed
 * here through AWS_ENDPOINT_URL) gets a clear error instead of a silent success or a DNS timeout.
 *
 * Point the AWS SDK v3 at it with `AWS_ENDPOINT_URL_CLOUDFORMATION` (see `stubEnv`).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

export interface StubCall {
  service: string;
  action: string;
  stackName?: string;
}

export interface CloudFormationStub {
  endpoint: string;
  /** Every request answered, in order. */
  calls: StubCall[];
  close(): Promise<void>;
}

/** Actions that look a stack up by name: all answer "does not exist", as before a first deploy. */
const STACK_LOOKUPS = new Set([
  'ListStackResources',
  'DescribeStacks',
  'DescribeStackResource',
  'DescribeStackResources',
  'DescribeStackEvents',
  'GetTemplate',
  'GetTemplateSummary',
]);

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** AWS Query protocol error document (what the CloudFormation client parses). */
function queryError(code: string, message: string): string {
  return (
    '<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">' +
    `<Error><Type>Sender</Type><Code>${xmlEscape(code)}</Code><Message>${xmlEscape(message)}</Message></Error>` +
    `<RequestId>${randomUUID()}</RequestId></ErrorResponse>`
  );
}

/** The signing scope names the service: `Credential=KEY/20260101/eu-west-1/cloudformation/aws4_request`. */
function serviceOf(req: IncomingMessage): string {
  const auth = String(req.headers.authorization ?? '');
  return /Credential=[^/]+\/[^/]+\/[^/]+\/([^/]+)\//.exec(auth)?.[1] ?? 'unknown';
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startCloudFormationStub(): Promise<CloudFormationStub> {
  const calls: StubCall[] = [];
  const server = createServer((req, res) => {
    readBody(req)
      .then((body) => {
        const service = serviceOf(req);
        const params = new URLSearchParams(body);
        const action = params.get('Action') ?? String(req.headers['x-amz-target'] ?? `${req.method} ${req.url}`);
        const stackName = params.get('StackName') ?? undefined;
        calls.push({ service, action, ...(stackName ? { stackName } : {}) });
        let xml: string;
        if (service === 'cloudformation' && STACK_LOOKUPS.has(action) && stackName) {
          xml = queryError('ValidationError', `Stack with id ${stackName} does not exist`);
        } else {
          xml = queryError(
            'UnsupportedOperation',
            `offline packaging stub (scripts/lib/cloudformation-stub.ts) does not implement ${service} ${action}; packaging must not call AWS`,
          );
        }
        res.writeHead(400, { 'Content-Type': 'text/xml', 'x-amzn-RequestId': randomUUID() });
        res.end(xml);
      })
      .catch(() => {
        res.writeHead(500);
        res.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Environment for an offline `serverless package`: fake credentials (letters and digits only), any
 * profile or stage-specific credentials removed so the fake ones are used, no instance-metadata
 * lookups, and every AWS SDK v3 client pointed at the stub.
 */
export function stubEnv(base: NodeJS.ProcessEnv, endpoint: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) {
    if (/^AWS_/.test(k) && !['AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_CA_BUNDLE'].includes(k)) continue;
    env[k] = v;
  }
  return {
    ...env,
    AWS_ACCESS_KEY_ID: 'offlinePackageKeyId',
    AWS_SECRET_ACCESS_KEY: 'offlinePackageSecret',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_ENDPOINT_URL: endpoint,
    AWS_ENDPOINT_URL_CLOUDFORMATION: endpoint,
    SLS_AWS_REQUEST_MAX_RETRIES: '0',
  };
}
