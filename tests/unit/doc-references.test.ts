/**
 * Pointers into the docs stay valid. Code and docs point at prose as `docs/<page>.md ("Section")` (or
 * `[page.md](page.md) ("Section")`, `page.md, "Section"`): every page named exists, and every section
 * named is a heading of that page or the bold lead-in of one of its paragraphs or list items. Renaming a
 * heading, or moving a comment's prose into docs/ under another name, fails here with the pointer.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/route-table.js';

const PAGES = new Set(readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')));
const plain = (s: string) => s.replaceAll('`', '').trim();

/** The headings and bold lead-ins of a page: what a pointer may name. */
function labelsOf(page: string): string[] {
  return readFileSync(join(ROOT, 'docs', page), 'utf8')
    .split('\n')
    .flatMap((line) => {
      if (line.startsWith('#')) return [plain(line.replace(/^#+\s*/, ''))];
      const bold = /^\s*(?:[-*]\s+)?\*\*([^*]+)\*\*/.exec(line);
      return bold ? [plain(bold[1]!)] : [];
    });
}

function sourceFiles(): string[] {
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 })
    .toString()
    .split('\0');
  return [...new Set(tracked)].filter((f) => /\.(ts|md|cjs|mjs|yml|yaml|json)$/.test(f) && f !== 'package-lock.json' && existsSync(join(ROOT, f)));
}

/** `docs/analytics.md ("Figures")`, `[domain.md](domain.md), "Compliance"`, `data-model.md "Predictive"`. */
const POINTER = /(?:docs\/)?([a-z-]+\.md)\)?,?\s*\(?["“]([^"”\n]{2,80})["”]/g;

describe('pointers into docs/', () => {
  const files = sourceFiles();
  const labels = new Map([...PAGES].map((p) => [p, labelsOf(p)]));

  it('every docs/<page>.md named exists', () => {
    const missing = files.flatMap((f) =>
      [...readFileSync(join(ROOT, f), 'utf8').matchAll(/\bdocs\/([a-z0-9-]+\.md)\b/g)].filter((m) => !PAGES.has(m[1]!)).map((m) => `${f}: docs/${m[1]}`),
    );
    expect(missing, missing.join('\n')).toEqual([]);
  });

  it('every section named is a heading or a bold lead-in of its page', () => {
    let checked = 0;
    const broken = files.flatMap((f) =>
      [...readFileSync(join(ROOT, f), 'utf8').matchAll(POINTER)].flatMap((m) => {
        const [page, section] = [m[1]!, plain(m[2]!)];
        if (!labels.has(page)) return [];
        checked++;
        return labels.get(page)!.some((l) => l.startsWith(section)) ? [] : [`${f}: ${page} ("${m[2]}")`];
      }),
    );
    expect(checked).toBeGreaterThan(50);
    expect(broken, broken.join('\n')).toEqual([]);
  });
});
