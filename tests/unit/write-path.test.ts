import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The one write path holds: outside the commit primitive (shared/db/commit.ts) and the conditions it
 * compiles (shared/db/conditions.ts), no source writes a DynamoDB ConditionExpression or compares a
 * version by hand; use cases name conditions as values and versions on their writes.
 */
const OWNERS = new Set(['shared/db/commit.ts', 'shared/db/conditions.ts']);
const sources = execFileSync('git', ['ls-files', 'shared', 'functions', 'schemas'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f.endsWith('.ts') && !OWNERS.has(f));

function offenders(pattern: RegExp): string[] {
  const out: string[] = [];
  for (const file of sources) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (pattern.test(line) && !/^\s*(\/\/|\*)/.test(line)) out.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return out;
}

describe('the one write path', () => {
  it('no ConditionExpression is written outside the commit primitive', () => {
    expect(offenders(/(?<!Key)ConditionExpression/)).toEqual([]);
  });

  it('no version is compared by hand', () => {
    // (a rule state's `ruleVersion` names the definition that judged it: a fact of the rule, not a lost race)
    const byHand = offenders(/expectedVersion\(|\.version\s*[!=]==|[!=]==\s*[\w.]*\.version\b|(#version|\bversion)\s*=\s*:(v|previous|expected)\b/);
    expect(byHand.filter((line) => !/ruleVersion/.test(line))).toEqual([]);
  });

  it('the write-path primitives are the only writers of transactions for use cases', () => {
    expect(offenders(/\bversionedUpdate\(|\bversionedDelete\(/)).toEqual([]);
  });
});
