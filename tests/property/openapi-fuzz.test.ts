/**
 * Property-based fuzzing from the OpenAPI document (quick profile, part of `npm test`): for EVERY
 * operation of schemas/compiled/openapi.json — one test each, generated from the document — valid and
 * invalid requests (openapi-requests.ts) go in-process through the full middleware stack against
 * DynamoDB Local, and each response is checked against the document (fuzz-harness.ts).
 *
 * `npm run fuzz` runs the same file as the long profile (tests/property/fuzz.config.ts: FUZZ_TOTAL requests,
 * default 12,000, a new seed each run, the full table of figures at the end). FUZZ_RUNS=<n> sets the
 * requests per operation, FUZZ_SEED=<n> replays a run (the quick profile always replays seed 424242).
 * Violations already reported are listed, one entry each, in KNOWN_FAILURES (known-failures.ts).
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { fuzzOperation, loadDocument, orderedOperations, runsPerOperation, setUpWorld, summary, type World } from './fuzz-harness.js';

const LONG = process.env.FUZZ_PROFILE === 'long';
const doc = loadDocument();
const operations = orderedOperations(doc);
/** Quick profile: about 500 requests in all, at least 5 per operation (the file stays short as the API grows). */
const QUICK_RUNS = Math.max(5, Math.ceil(500 / operations.length));
const runs = runsPerOperation(QUICK_RUNS, operations.length);
let world: World;

describe(`OpenAPI fuzz: ${operations.length} operations × ${runs} requests`, () => {
  beforeAll(async () => {
    world = await setUpWorld(doc);
  }, 180_000);

  afterAll(() => {
    // the long profile hands its full table to the fuzz reporter (printed after the run); the quick one prints totals
    if (LONG && process.env.FUZZ_SUMMARY_FILE) writeFileSync(process.env.FUZZ_SUMMARY_FILE, summary());
    else console.log(`\n${summary(!LONG)}\n`);
  });

  it('fuzzes the document the API serves', async () => {
    const served = await call('GET', '/openapi.json');
    expect(served.status).toBe(200);
    expect(served.body).toEqual(doc);
    expect(operations.length).toBeGreaterThan(40);
  });

  for (const op of operations) {
    it(
      op.label,
      async () => {
        await fuzzOperation(world, op, runs);
      },
      Math.max(60_000, runs * 3_000),
    );
  }
});
