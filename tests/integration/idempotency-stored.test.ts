/** Stored first outcomes of idempotent writes: the current form, and the form earlier versions wrote (still within its 24 h). */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.js';
import { getStoredResponse } from '../../shared/db/idempotency.js';
import { idempotencyKey } from '../../shared/db/keys.js';

const put = (key: string, response: unknown) =>
  db().send(new PutCommand({ TableName: tableName(), Item: { ...idempotencyKey('U1', key), type: 'IdempotentResponse', requestHash: 'h', response } }));

describe('stored outcomes of idempotent writes', () => {
  it('reads an outcome back as written', async () => {
    await put('k-now', { created: true, message: 'Flock created', data: { id: 'F1' } });
    expect(await getStoredResponse('U1', 'k-now')).toEqual({ requestHash: 'h', response: { created: true, message: 'Flock created', data: { id: 'F1' } } });
  });
  it('reads an HTTP response stored by an earlier version as the same outcome', async () => {
    await put('k-201', { statusCode: 201, body: { message: 'Movement recorded', data: { id: 'M1' } } });
    await put('k-200', { statusCode: 200, body: { message: 'Daily record replaced', data: { record: {} } } });
    expect((await getStoredResponse('U1', 'k-201'))?.response).toEqual({ created: true, message: 'Movement recorded', data: { id: 'M1' } });
    expect((await getStoredResponse('U1', 'k-200'))?.response).toEqual({ created: false, message: 'Daily record replaced', data: { record: {} } });
  });
});
