/**
 * Code, comments and docs say what the code does and why, never which ticket asked for it: no tracked
 * file names an issue by number ("issue 12", "issue #12", "issue 12, point 3"), a point of one
 * ("point 3 of …"), or "the brief". Links into third-party trackers (a URL such as
 * https://github.com/<owner>/<repo>/issues/123) are fine, and so is a point of a legal text
 * ("Annex point 5 of Directive 98/58/EC").
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/route-table.js';

const SELF = 'tests/unit/no-issue-references.test.ts';
/** Third-party content: the lockfile lists registry packages, not our words. */
const SKIPPED = new Set([SELF, 'package-lock.json']);

/** What a reference to a ticket looks like. */
const PATTERNS: ReadonlyArray<{ name: string; re: RegExp }> = [
  { name: 'issue number', re: /\bissues? #?\d+/gi },
  { name: 'issue hash', re: /\bissue #(?!\d)/gi },
  { name: 'point of', re: /\bpoint \d+ of\b(?! (?:Directive|Regulation|Reg\.|Annex|Article|Art\.))/gi },
  { name: 'brief', re: /\bbrief\b/gi },
];

/** A URL (a third-party tracker may well say /issues/123): matches inside one are allowed. */
const URL_RE = /\bhttps?:\/\/\S+/g;

function trackedTextFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }).toString();
  return out.split('\0').filter((f) => f && !SKIPPED.has(f));
}

/** `path:line: text` for every match of the patterns outside a URL. */
function offendersIn(path: string, text: string): string[] {
  if (text.includes('\0')) return []; // binary
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const urls = [...line.matchAll(URL_RE)].map((m) => [m.index, m.index + m[0].length] as const);
    const inUrl = (at: number) => urls.some(([from, to]) => at >= from && at < to);
    for (const { name, re } of PATTERNS) for (const m of line.matchAll(re)) if (!inUrl(m.index)) found.push(`${path}:${i + 1}: ${name}: ${line.trim()}`);
  });
  return found;
}

describe('no code or doc names an issue, a point of one, or the brief', () => {
  it('the patterns catch what they should and let URLs and legal citations through', () => {
    const bad = ['// fixed for issue 14', 'see issue #3', 'as issue 2, point 4 asks', 'point 3 of the list', 'per the brief'];
    for (const line of bad) expect(offendersIn('x.ts', line), line).not.toEqual([]);
    const fine = [
      '// https://github.com/middyjs/middy/issues/1234',
      'quality issues per delivery',
      'Annex point 5 of Directive 98/58/EC',
      'briefly, the cursor is sealed',
    ];
    for (const line of fine) expect(offendersIn('x.ts', line), line).toEqual([]);
  });

  it('no tracked file has one', () => {
    const files = trackedTextFiles();
    expect(files.length).toBeGreaterThan(300);
    const offenders = files.flatMap((f) => offendersIn(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(offenders, `reword these to say what the code does and why:\n${offenders.join('\n')}`).toEqual([]);
  });
});
