/**
 * The DynamoDB calls of one request, exactly: a middleware on the service's one client records every call
 * (failed ones too) with the request it was made for. The request is known from the async context the
 * handler runs in (`withinRequest`), so a call still in flight when the response is sent, or made by
 * parallel work of the same request, is counted for that request and no other. Calls of the functions
 * the service invokes itself (the alarms on new data, run in this process by the Lambda stand-in of
 * tests/support/lambda.ts) run outside that context: they are another Lambda's, counted apart.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { categorize, itemsOf, type Category } from './db-probe.js';

interface RecordedCall {
  request: string | undefined;
  category: Category;
  command: string;
  items: number;
  failed: boolean;
}

const current = new AsyncLocalStorage<string>();
const recorded: RecordedCall[] = [];

export function installRouteProbe(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const request = current.getStore();
      const command = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      // recorded as it starts (a call counts for the window it started in), completed when it answers
      const call: RecordedCall = { request, category: categorize(command, args.input), command, items: 0, failed: true };
      recorded.push(call);
      const out = await next(args);
      call.items = itemsOf(out.output);
      call.failed = false;
      return out;
    },
    { step: 'initialize', name: 'routeCallsProbe', override: true },
  );
}

/** Runs `fn` as request `id`: every DynamoDB call it leads to is that request's. */
export const withinRequest = <T>(id: string, fn: () => Promise<T>): Promise<T> => current.run(id, fn);

/** What one request cost in DynamoDB calls. */
export interface RequestCalls {
  /** Calls per command, commands in alphabetical order. */
  calls: Record<string, number>;
  total: number;
  /** The rate limiter's and the user load's calls (shared/http's middleware), within `total`. */
  middleware: number;
  /** Items returned by the request's data calls (Item, Items, Responses). */
  itemsRead: number;
  /** Calls that failed (a cancelled transaction, a failed condition), within `total`. */
  failed: number;
}

export function callsOf(id: string): RequestCalls {
  const mine = recorded.filter((c) => c.request === id);
  const calls: Record<string, number> = {};
  for (const c of [...mine].sort((a, b) => a.command.localeCompare(b.command))) calls[c.command] = (calls[c.command] ?? 0) + 1;
  return {
    calls,
    total: mine.length,
    middleware: mine.filter((c) => c.category !== 'data').length,
    itemsRead: mine.filter((c) => c.category === 'data').reduce((n, c) => n + c.items, 0),
    failed: mine.filter((c) => c.failed).length,
  };
}

/** Where the record stands now, for `callsOutsideSince`. */
export const recordMark = (): number => recorded.length;

/**
 * Calls made outside any request since `mark`. Taken around one request, with nothing else running, they
 * are the calls of the functions that request invoked (the stand-in answers once the function is done).
 */
export const callsOutsideSince = (mark: number): number => recorded.slice(mark).filter((c) => c.request === undefined).length;

export const formatCalls = (calls: Record<string, number>) =>
  Object.entries(calls)
    .map(([command, n]) => `${command} ${n}`)
    .join(', ') || '—';
