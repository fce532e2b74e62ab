/**
 * Every key of the single table, in one place (docs/data-model.md has the access-pattern table).
 * Partition prefixes are uppercase; GSI1 is overloaded for the lists that need another order.
 */
export interface Key {
  PK: string;
  SK: string;
}

export const userKey = (id: string): Key => ({ PK: `USER#${id}`, SK: 'PROFILE' });
/** Uniqueness guard and login lookup: one item per lower-cased e-mail, holding the user id. */
export const emailKey = (email: string): Key => ({ PK: `EMAIL#${email}`, SK: 'EMAIL' });
export const loginFailuresKey = (email: string): Key => ({ PK: `EMAIL#${email}`, SK: 'LOGIN_FAILURES' });
export const verificationTokenKey = (tokenHash: string): Key => ({ PK: `VERIFY#${tokenHash}`, SK: 'TOKEN' });
export const revokedTokenKey = (jti: string): Key => ({ PK: `REVOKED#${jti}`, SK: 'TOKEN' });
export const rateLimitKey = (limiter: string, client: string, windowStart: number): Key => ({
  PK: `RATE#${limiter}#${client}`,
  SK: `WINDOW#${windowStart}`,
});
export const auditKey = (id: string): Key => ({ PK: 'AUDIT', SK: id });
export const outboxKey = (id: string): Key => ({ PK: 'OUTBOX', SK: id });
export const farmKey = (id: string): Key => ({ PK: `FARM#${id}`, SK: 'META' });
export const houseKey = (farmId: string, houseId: string): Key => ({ PK: `FARM#${farmId}`, SK: `HOUSE#${houseId}` });
export const defaultFarmKey = (): Key => ({ PK: 'CONFIG', SK: 'DEFAULT_FARM' });
export const healthKey = (): Key => ({ PK: 'CONFIG', SK: 'HEALTH' });

/** GSI1 partitions. */
export const gsi1 = {
  users: { GSI1PK: 'USERS' },
  farms: { GSI1PK: 'FARMS' },
  auditOf: (targetId: string) => ({ GSI1PK: `AUDIT#${targetId}` }),
} as const;
