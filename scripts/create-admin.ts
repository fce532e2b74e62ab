/**
 * `npm run create-admin`: creates an admin account from ADMIN_EMAIL / ADMIN_PASSWORD (and ADMIN_NAME) in
 * the table TABLE_NAME of DYNAMODB_ENDPOINT (or of AWS when unset). Idempotent: an existing account is left alone.
 */
import { seed } from './lib/seed.js';

const email = process.env.ADMIN_EMAIL;
const password = process.env.ADMIN_PASSWORD;
if (!email || !password) {
  console.error('Set ADMIN_EMAIL and ADMIN_PASSWORD (at least 10 characters).');
  process.exit(1);
}
try {
  const result = await seed({ email, password, name: process.env.ADMIN_NAME });
  console.log(result.adminCreated ? `admin ${email} created (${result.adminId})` : `an account for ${email} already exists (${result.adminId}); unchanged`);
} catch (err) {
  console.error(`create-admin failed: ${(err as Error).message}`);
  process.exit(1);
}
