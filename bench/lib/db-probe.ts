/**
 * Classifies and times every DynamoDB call of this process, next to shared/db/client.ts's own `dbCalls`
 * counter: a middleware on the service's one client sorts each call into
 * - `limiter`: UpdateItem on a RATE#… counter (the rate-limit middleware),
 * - `userLoad`: the BatchGetItem of the user and the token's REVOKED#… marker (authenticate),
 * - `data`: everything else (the route's own work),
 * and records per command the count, the items it returned and its wall-clock interval.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export type Category = 'limiter' | 'userLoad' | 'data';

export interface ProbeCall {
  category: Category;
  command: string;
  items: number;
  start: number;
  end: number;
}

export const probe = { calls: [] as ProbeCall[] };

export function resetProbe(): void {
  probe.calls.length = 0;
}

export function categorize(command: string, input: unknown): Category {
  const text = JSON.stringify(input ?? {});
  if (command === 'UpdateItem' && text.includes('RATE#')) return 'limiter';
  if (command === 'BatchGetItem' && text.includes('REVOKED#')) return 'userLoad';
  return 'data';
}

export function itemsOf(output: unknown): number {
  const o = (output ?? {}) as { Item?: unknown; Items?: unknown[]; Responses?: Record<string, unknown[]> | unknown[] };
  let n = o.Item ? 1 : 0;
  if (Array.isArray(o.Items)) n += o.Items.length;
  if (o.Responses && !Array.isArray(o.Responses)) for (const v of Object.values(o.Responses)) if (Array.isArray(v)) n += v.length;
  return n;
}

export function installProbe(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      const category = categorize(command, args.input);
      const start = performance.now();
      const out = await next(args);
      probe.calls.push({ category, command, items: itemsOf(out.output), start, end: performance.now() });
      return out;
    },
    { step: 'initialize', name: 'benchProbe', override: true },
  );
}

export interface CallBreakdown {
  limiter: Record<string, number>;
  userLoad: Record<string, number>;
  data: Record<string, number>;
  dataItemsRead: number;
}

export function breakdown(calls: readonly ProbeCall[] = probe.calls): CallBreakdown {
  const out: CallBreakdown = { limiter: {}, userLoad: {}, data: {}, dataItemsRead: 0 };
  for (const c of calls) {
    out[c.category][c.command] = (out[c.category][c.command] ?? 0) + 1;
    if (c.category === 'data') out.dataItemsRead += c.items;
  }
  return out;
}

export const fmt = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, v]) => `${k}×${v}`)
    .join(' ') || '—';
export const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
