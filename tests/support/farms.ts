/** Farm fixtures: the default farm, and other farms for scoping tests (written straight to the table). */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulidx';
import { db, tableName } from '../../shared/db/client.js';
import { farmKey, gsi1, houseKey } from '../../shared/db/keys.js';
import { getDefaultFarmId } from '../../shared/db/farms.js';
import { adminLogin } from './accounts.js';

export async function defaultFarmId(): Promise<string> {
  await adminLogin();
  return (await getDefaultFarmId())!;
}

export async function otherFarm(name = 'Other farm'): Promise<string> {
  const id = ulid();
  const now = new Date().toISOString();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...farmKey(id), ...gsi1.farms, GSI1SK: `${name}#${id}`, type: 'Farm', id, name, createdAt: now, updatedAt: now, version: 1 },
    }),
  );
  return id;
}

export async function house(farmId: string, name = 'House 1'): Promise<string> {
  const id = ulid();
  await db().send(
    new PutCommand({ TableName: tableName(), Item: { ...houseKey(farmId, id), type: 'House', id, farmId, name, usableAreaM2: 1200, capacity: 20000 } }),
  );
  return id;
}
