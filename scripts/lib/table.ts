/**
 * Creates the table from shared/db/table.json (the definition serverless.yml deploys), idempotently;
 * on an existing table (a developer's .data/) it adds the indexes the definition gained since.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import table from '../../shared/db/table.json' with { type: 'json' };

export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<boolean> {
  const { TimeToLiveAttribute, ...definition } = table;
  try {
    await client.send(new CreateTableCommand({ ...(definition as Omit<CreateTableCommandInput, 'TableName'>), TableName: tableName }));
  } catch (err) {
    if (!(err instanceof ResourceInUseException)) throw err;
    await addMissingIndexes(client, tableName);
    return false;
  }
  await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TimeToLiveAttribute, Enabled: true } }));
  return true;
}

async function addMissingIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName));
  for (const gsi of table.GlobalSecondaryIndexes) {
    if (present.has(gsi.IndexName)) continue;
    const names = new Set(gsi.KeySchema.map((k) => k.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: table.AttributeDefinitions.filter((a) => names.has(a.AttributeName)) as CreateTableCommandInput['AttributeDefinitions'],
        GlobalSecondaryIndexUpdates: [{ Create: gsi as never }],
      }),
    );
  }
}
