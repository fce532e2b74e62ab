/**
 * An in-process stand-in for the Lambda Invoke API, for the tests that call the handlers in process:
 * the service invokes its own functions (the alarms on new data, shared/events/invoke.ts) at
 * `LAMBDA_ENDPOINT`; this answers like Lambda (202 for an `Event` invocation) after running the
 * function's handler from the route table in this process, so a test sees its effects as soon as the
 * request that started it has answered. An error of the function is printed, as Lambda would log it.
 * (Concurrent requests in one test may interleave their calls; the counts are exact for sequential ones.)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { eventFunctions } from '../../scripts/lib/route-table.js';
import { dbCalls } from '../../shared/db/client.js';

/**
 * The DynamoDB calls of each function run here, newest last. They are another Lambda's calls: they are
 * taken back out of the process-wide counters, so a test that counts a route's calls counts the route's
 * alone (as in AWS), and reads the started function's here.
 */
export const invocations: Array<{ name: string; calls: Record<string, number> }> = [];
/** How many functions run here right now: their writes are not the calling request's (tests/property/db-writes.ts). */
export const standIn = { running: 0 };

const ROOT = join(import.meta.dirname, '..', '..');

export async function startLambdaStandIn(stage: string): Promise<{ url: string; close: () => Promise<void> }> {
  const files = new Map(eventFunctions().map((f) => [`flockwise-${stage}-${f.functionName}`, f.file]));
  const server = createServer((req, res) => {
    const name = decodeURIComponent(/^\/2015-03-31\/functions\/([^/]+)\/invocations/.exec(req.url ?? '')?.[1] ?? '');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const file = files.get(name);
      if (!file) {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ Type: 'User', message: `Function not found: ${name}` }));
        return;
      }
      try {
        const { handler } = (await import(pathToFileURL(join(ROOT, file)).href)) as { handler: (e: unknown, c: unknown) => Promise<unknown> };
        const before = { ...dbCalls };
        standIn.running += 1;
        const result = await handler(JSON.parse(Buffer.concat(chunks).toString() || '{}'), { awsRequestId: `stand-in-${Date.now()}` }).finally(() => {
          standIn.running -= 1;
          const calls: Record<string, number> = {};
          for (const [op, n] of Object.entries(dbCalls)) {
            const own = n - (before[op] ?? 0);
            if (own > 0) calls[op] = own;
            if (before[op] === undefined) delete dbCalls[op];
            else dbCalls[op] = before[op]!;
          }
          invocations.push({ name, calls });
        });
        const event = req.headers['x-amz-invocation-type'] === 'Event';
        res.writeHead(event ? 202 : 200, { 'Content-Type': 'application/json' }).end(event ? '' : JSON.stringify(result ?? null));
      } catch (err) {
        console.error(`lambda stand-in: ${name} failed`, err);
        res.writeHead(202).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
