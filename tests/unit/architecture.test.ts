/**
 * The layers hold: dependency-cruiser checks the import rules of .dependency-cruiser.cjs (services never
 * import an entry-point stack, db and domain never import what sits above them, the domain stays pure,
 * handlers call services only, nothing imports a handler, no module cycle), and this file adds the one
 * rule it cannot express: no folder imports a folder that imports it back.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/route-table.js';

interface Cruise {
  summary: { violations: { rule: { name: string }; from: string; to: string }[]; totalCruised: number };
  modules: { source: string; dependencies: { resolved: string; coreModule: boolean; couldNotResolve: boolean }[] }[];
}

function cruise(): Cruise {
  const bin = join(ROOT, 'node_modules', '.bin', 'depcruise');
  const args = ['functions', 'shared', 'schemas', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
  let out: string;
  try {
    out = execFileSync(bin, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }).toString();
  } catch (err) {
    // a non-zero exit with a report means "violations found": they are in the JSON, asserted below
    const stdout = (err as { stdout?: Buffer }).stdout?.toString() ?? '';
    if (!stdout.startsWith('{')) throw err;
    out = stdout;
  }
  return JSON.parse(out) as Cruise;
}

/** The folder a module belongs to for the cycle rule: each layer of shared/, schemas/, each handler group. */
const folderOf = (path: string) => /^(functions\/[^/]+|shared\/[^/]+(?=\/)|schemas|shared)/.exec(path)?.[0];

/** Strongly connected groups of more than one folder (Tarjan). */
function folderCycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('architecture', () => {
  const result = cruise();

  it('cruises the whole tree (handlers, shared layers, schemas)', () => {
    expect(result.summary.totalCruised).toBeGreaterThan(150);
  });

  it('breaks none of the import rules', () => {
    expect(result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it('has no cycle between folders', () => {
    const edges = new Map<string, Set<string>>();
    for (const m of result.modules) {
      const from = folderOf(m.source);
      if (!from) continue;
      for (const d of m.dependencies) {
        const to = d.coreModule || d.couldNotResolve ? undefined : folderOf(d.resolved);
        if (!to || to === from) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)!.add(to);
      }
    }
    expect(edges.size).toBeGreaterThan(5);
    expect(folderCycles(edges)).toEqual([]);
  });
});
