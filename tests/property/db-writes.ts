/**
 * Which items a request wrote. shared/db/client.ts counts calls per command (`dbCalls`), which cannot tell
 * a rate-limit counter from a record, so this wraps `send` of every DynamoDB document client of the
 * process (the service has one, `db()`) and records the keys of each write that SUCCEEDED: a write that
 * DynamoDB refused (failed condition, cancelled transaction) changed nothing and is not recorded.
 * Only this test instrumentation changes; shared/ is untouched. The writes of a function the request
 * started (the alarms on new data, run in process by tests/support/lambda.ts) are another Lambda's and are
 * left out, as the stand-in leaves them out of `dbCalls`.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { standIn } from '../support/lambda.js';

export interface WrittenItem {
  op: 'Put' | 'Update' | 'Delete';
  PK: string;
  SK: string;
}

const WRITE_COMMANDS = new Set([
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'TransactWriteCommand',
  'BatchWriteCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);

let log: WrittenItem[] = [];
/** Write commands sent (succeeded or not) since recordWrites(): compared with shared/db/client.ts's dbCalls. */
let attempted = 0;
let installed = false;

/** A key attribute as a string, whether the command carries native values or marshalled ones ({S: …}). */
function str(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && 'S' in v) return String((v as { S: unknown }).S);
  return String(v);
}
const keyOf = (op: WrittenItem['op'], item: Record<string, unknown> | undefined): WrittenItem => ({ op, PK: str(item?.PK), SK: str(item?.SK) });

const id = (w: WrittenItem) => `${w.PK}\u0000${w.SK}`;

type Input = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- command inputs of several shapes

function writesOf(name: string, input: Input): WrittenItem[] {
  switch (name) {
    case 'PutCommand':
    case 'PutItemCommand':
      return [keyOf('Put', input.Item)];
    case 'UpdateCommand':
    case 'UpdateItemCommand':
      return [keyOf('Update', input.Key)];
    case 'DeleteCommand':
    case 'DeleteItemCommand':
      return [keyOf('Delete', input.Key)];
    case 'TransactWriteCommand':
    case 'TransactWriteItemsCommand':
      return (input.TransactItems ?? []).flatMap((t: Input) =>
        t.Put ? [keyOf('Put', t.Put.Item)] : t.Update ? [keyOf('Update', t.Update.Key)] : t.Delete ? [keyOf('Delete', t.Delete.Key)] : [],
      );
    case 'BatchWriteCommand':
    case 'BatchWriteItemCommand':
      return Object.values(input.RequestItems ?? {}).flatMap((reqs) =>
        (reqs as Input[]).map((r) => (r.PutRequest ? keyOf('Put', r.PutRequest.Item) : keyOf('Delete', r.DeleteRequest?.Key))),
      );
    default:
      return [];
  }
}

/** Installs the wrapper once per process (idempotent). */
export function installWriteRecorder(): void {
  if (installed) return;
  installed = true;
  const parentSend = Object.getPrototypeOf(DynamoDBDocumentClient.prototype).send as (...args: unknown[]) => Promise<unknown>;
  Object.defineProperty(DynamoDBDocumentClient.prototype, 'send', {
    configurable: true,
    writable: true,
    value: async function send(this: DynamoDBDocumentClient, command: { constructor: { name: string }; input: Input }, ...rest: unknown[]) {
      // a function the request started (run in process by the Lambda stand-in) writes for itself, not for the request
      if (standIn.running > 0) return parentSend.call(this, command, ...rest);
      const name = command?.constructor?.name ?? '';
      if (WRITE_COMMANDS.has(name)) attempted++;
      const result = await parentSend.call(this, command, ...rest);
      if (WRITE_COMMANDS.has(name)) {
        // BatchWrite may leave items unprocessed: those were not written.
        const unprocessed = new Set(
          Object.values(((result as Input)?.UnprocessedItems ?? {}) as Record<string, Input[]>).flatMap((reqs) =>
            reqs.map((r) => id(keyOf('Put', r.PutRequest?.Item ?? r.DeleteRequest?.Key))),
          ),
        );
        for (const w of writesOf(name, command.input)) if (!unprocessed.has(id(w))) log.push(w);
      }
      return result;
    },
  });
}

/** Starts a fresh log and returns a function that ends it and hands back what was written meanwhile. */
export function recordWrites(): () => { written: WrittenItem[]; attempted: number } {
  log = [];
  attempted = 0;
  return () => {
    const out = { written: log, attempted };
    log = [];
    attempted = 0;
    return out;
  };
}

/** Names under which shared/db/client.ts counts write commands in `dbCalls` (command name without "Command"). */
export const WRITE_CALL_NAMES = [
  'Put',
  'PutItem',
  'Update',
  'UpdateItem',
  'Delete',
  'DeleteItem',
  'TransactWrite',
  'TransactWriteItems',
  'BatchWrite',
  'BatchWriteItem',
];
