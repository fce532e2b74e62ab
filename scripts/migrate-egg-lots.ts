/**
 * `npm run migrate:egg-lots [-- --farm <farmId> …]`: gives eggs recorded before lots existed their lots,
 * in the table TABLE_NAME of DYNAMODB_ENDPOINT (or of AWS when unset). For every cycle (of the farms named,
 * else of all farms) it rebuilds the lots from the cycle's egg history and writes what the stored lots lack
 * (docs/deployment.md, "Egg lots for older eggs"). Idempotent and resumable: a second run writes nothing,
 * and a run stopped half way (or a cycle that failed because a movement was being recorded) is finished by
 * running it again. One JSON line per cycle changed or failed, then the totals; exit code 1 if one failed.
 */
import { commandContext } from '../shared/domain/command.js';
import { systemCaller } from '../shared/domain/caller.js';
import { backfillAllEggLots } from '../shared/services/movements/egg-lot-backfill.js';

const args = process.argv.slice(2);
const farmIds = args.flatMap((a, i) => (args[i - 1] === '--farm' ? [a] : []));
if (args.some((a, i) => a !== '--farm' && args[i - 1] !== '--farm')) {
  console.error('usage: npm run migrate:egg-lots [-- --farm <farmId> [--farm <farmId> …]]');
  process.exit(2);
}
const ctx = commandContext(systemCaller('migrate-egg-lots', [], 'all'), { requestId: `migrate-egg-lots-${Date.now()}` });
try {
  const totals = await backfillAllEggLots(ctx, farmIds.length ? farmIds : undefined, (outcome) => console.log(JSON.stringify(outcome)));
  console.log(JSON.stringify({ done: true, ...totals }));
  process.exit(totals.failed ? 1 : 0);
} catch (err) {
  console.error(`migrate:egg-lots failed: ${(err as Error).message}`);
  process.exit(1);
}
