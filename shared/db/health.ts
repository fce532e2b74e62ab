import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { healthKey } from './keys.js';

/** True when the table answers a point read within `timeoutMs`. */
export async function tableReachable(timeoutMs = 1500): Promise<boolean> {
  try {
    await db().send(new GetCommand({ TableName: tableName(), Key: healthKey() }), { abortSignal: AbortSignal.timeout(timeoutMs) });
    return true;
  } catch {
    return false;
  }
}
