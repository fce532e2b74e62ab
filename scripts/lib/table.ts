/** Creates the table from shared/db/table.json (the definition serverless.yml deploys), idempotently. */
import { CreateTableCommand, DynamoDBClient, ResourceInUseException, UpdateTimeToLiveCommand, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import table from '../../shared/db/table.json' with { type: 'json' };

export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<boolean> {
  const { TimeToLiveAttribute, ...definition } = table;
  try {
    await client.send(new CreateTableCommand({ ...(definition as Omit<CreateTableCommandInput, 'TableName'>), TableName: tableName }));
  } catch (err) {
    if (err instanceof ResourceInUseException) return false;
    throw err;
  }
  await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TimeToLiveAttribute, Enabled: true } }));
  return true;
}
