/** Account rules without I/O: e-mail normalization, the login lockout policy, what a PATCH changes. */
export const LOGIN_LOCKOUT = { maxFailures: 5, windowSeconds: 15 * 60, lockSeconds: 15 * 60 } as const;
export const VERIFICATION_TOKEN_TTL_SECONDS = 24 * 60 * 60;
/** A sign-up with a registered address mails its owner an "account exists" notice at most once per this window. */
export const ACCOUNT_EXISTS_NOTICE_SECONDS = 60 * 60;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** `{field: {from, to}}` for the fields whose value differs (arrays compared by content). */
export function diff<T extends object>(before: T, after: T, fields: readonly (keyof T)[]): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const f of fields) {
    if (JSON.stringify(before[f]) !== JSON.stringify(after[f])) changes[String(f)] = { from: before[f], to: after[f] };
  }
  return changes;
}
