import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LoginThrottleState } from '../domain/accounts.js';
import { batchGet, db, queryAll, tableName } from './client.js';
import { eq, isNew, withCondition } from './conditions.js';
import { LOGIN_THROTTLE_SK_PREFIX, emailKey, loginAccountKey, loginClientKey } from './keys.js';

/**
 * The sign-in throttle's items (policy: LOGIN_THROTTLE in shared/domain/accounts.ts), all in the e-mail's
 * partition and kept for unknown e-mails exactly as for registered ones: per client that tried the e-mail
 * `attempts`, `openAt` (when it may try again) and a TTL; per window the account's `failures`.
 */

/** What a sign-in reads first, in ONE BatchGetItem: the e-mail claim (→ user id), the client's attempts, the account's window. */
export interface LoginRead {
  userId: string | undefined;
  throttle: LoginThrottleState;
  /** The client item's `attempts` as stored (expired or not): what counting the next attempt expects to find. */
  storedAttempts: number | undefined;
}

const windowStartOf = (now: number, windowSeconds: number) => now - (now % windowSeconds);

export async function readLoginState(email: string, client: string, now: number, windowSeconds: number): Promise<LoginRead> {
  const windowStart = windowStartOf(now, windowSeconds);
  const clientKey = loginClientKey(email, client);
  const accountKey = loginAccountKey(email, windowStart);
  const items = await batchGet([emailKey(email), clientKey, accountKey], { consistent: true });
  const claim = items.find((i) => i.SK === 'EMAIL');
  const mine = items.find((i) => i.SK === clientKey.SK);
  const all = items.find((i) => i.SK === accountKey.SK);
  // TTL deletes lazily: an item past its expiry is forgotten here
  const live = mine !== undefined && (mine.expiresAt as number) > now;
  return {
    userId: claim?.userId as string | undefined,
    storedAttempts: mine?.attempts as number | undefined,
    throttle: {
      client: live ? { attempts: mine.attempts as number, openAt: mine.openAt as number } : undefined,
      accountFailures: (all?.failures as number | undefined) ?? 0,
      accountWindowEndsAt: windowStart + windowSeconds,
    },
  };
}

/**
 * Counts one attempt of `client` for `email` BEFORE its password is checked (a correct password clears it
 * again), on condition that the count is still the one read: of concurrent attempts by one client only one
 * is counted and checked, the others answer false. So a burst gets no more password checks than one
 * attempt after another would.
 */
export async function countLoginAttempt(
  email: string,
  client: string,
  read: Pick<LoginRead, 'storedAttempts'>,
  next: { attempts: number; openAt: number },
  expiresAt: number,
): Promise<boolean> {
  const first = read.storedAttempts === undefined;
  try {
    await db().send(
      new UpdateCommand(
        withCondition(
          {
            TableName: tableName(),
            Key: loginClientKey(email, client),
            UpdateExpression: 'SET attempts = :n, openAt = :open, expiresAt = :exp',
            ExpressionAttributeValues: { ':n': next.attempts, ':open': next.openAt, ':exp': expiresAt },
          },
          first ? isNew() : eq('attempts', read.storedAttempts),
        ),
      ),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** A successful sign-in forgets the client's attempts for the e-mail. */
export async function clearLoginAttempts(email: string, client: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: loginClientKey(email, client) }));
}

/** One failed sign-in for the e-mail, from any client, in the current window (atomic ADD): the window's count with it. */
export async function countAccountLoginFailure(email: string, now: number, windowSeconds: number): Promise<number> {
  const windowStart = windowStartOf(now, windowSeconds);
  const res = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: loginAccountKey(email, windowStart),
      UpdateExpression: 'ADD failures :one SET expiresAt = if_not_exists(expiresAt, :exp)',
      ExpressionAttributeValues: { ':one': 1, ':exp': windowStart + windowSeconds + 60 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(res.Attributes?.failures ?? 1);
}

/** Lifts every sign-in throttle of an e-mail, the account's and every client's (an admin unlocking the account). */
export async function clearLoginThrottles(email: string): Promise<void> {
  const T = tableName();
  const { PK } = emailKey(email);
  const keys = await queryAll({
    TableName: T,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': PK, ':prefix': LOGIN_THROTTLE_SK_PREFIX },
    ProjectionExpression: 'PK, SK',
  });
  for (let i = 0; i < keys.length; i += 25)
    await Promise.all(keys.slice(i, i + 25).map((Key) => db().send(new DeleteCommand({ TableName: T, Key: { PK: Key.PK, SK: Key.SK } }))));
}
