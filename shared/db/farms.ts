import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulidx';
import { batchGet, db, tableName, transact } from './client.js';
import { defaultFarmKey, farmKey, gsi1 } from './keys.js';
import { Conflict } from '../errors.js';

/** The part of the farm repository the foundation needs: the default farm and existence checks. */
export async function getDefaultFarmId(): Promise<string | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: defaultFarmKey(), ConsistentRead: true }));
  return res.Item?.farmId as string | undefined;
}

/** Creates the default farm once (idempotent, race-safe): the pointer and the farm in one transaction. */
export async function ensureDefaultFarm(name: string): Promise<{ id: string; created: boolean }> {
  const existing = await getDefaultFarmId();
  if (existing) return { id: existing, created: false };
  const id = ulid();
  const now = new Date().toISOString();
  const T = tableName();
  try {
    await transact(
      [
        { Put: { TableName: T, Item: { ...defaultFarmKey(), type: 'DefaultFarm', farmId: id }, ConditionExpression: 'attribute_not_exists(PK)' } },
        {
          Put: {
            TableName: T,
            Item: { ...farmKey(id), ...gsi1.farms, GSI1SK: `${name}#${id}`, type: 'Farm', id, name, isDefault: true, createdAt: now, updatedAt: now, version: 1 },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
      () => new Conflict('default farm already exists'),
    );
    return { id, created: true };
  } catch (err) {
    if (err instanceof Conflict) return { id: (await getDefaultFarmId())!, created: false };
    throw err;
  }
}

/** Which of `ids` name existing farms. */
export async function existingFarmIds(ids: readonly string[]): Promise<Set<string>> {
  const items = await batchGet(ids.map((id) => farmKey(id)), { projection: 'id' });
  return new Set(items.map((i) => i.id as string));
}
