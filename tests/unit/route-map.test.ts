/**
 * The README's "Route map" stays true: one row per functions/<group> folder, its URL prefix the common
 * prefix of the paths in its routes.yml, and its services (paths under shared/services/, a file or a
 * folder) exactly the use cases its handlers import: each one named exists and is imported by a handler
 * of the group, and each service a handler imports is named (or lies in a folder that is).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, loadRoutes } from '../../scripts/lib/route-table.js';

interface Row {
  group: string;
  prefix: string;
  services: string[];
}

const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

function routeMap(): Row[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n### Route map\n');
  expect(start, 'README.md has a "### Route map" section').toBeGreaterThan(-1);
  const section = readme.slice(start + 1).split(/\n#{1,3} /)[0]!;
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `functions/'))
    .map((line) => {
      const [group, prefix, services] = line
        .split('|')
        .slice(1, 4)
        .map((c) => c.trim());
      return { group: /^`functions\/([a-z-]+)\/`$/.exec(group!)?.[1] ?? group!, prefix: ticked(prefix!)[0] ?? '', services: ticked(services!) };
    });
}

const groups = readdirSync(join(ROOT, 'functions'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

/** The common leading path segments of a group's routes: `/api/v1/iot` for `/api/v1/iot/devices`, `/api/v1/iot/houses/…`. */
function prefixOf(paths: string[]): string {
  const split = paths.map((p) => p.split('/'));
  let common = split[0] ?? [];
  for (const p of split) {
    let i = 0;
    while (i < common.length && common[i] === p[i]) i++;
    common = common.slice(0, i);
  }
  return common.join('/') || '/';
}

/** The shared/services modules the handlers of a group import, as paths under shared/services/. */
function servicesImportedBy(group: string): string[] {
  const dir = join(ROOT, 'functions', group);
  const imported = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/shared\/services\/([a-z0-9/-]+)\.js['"]/g)].map((m) => `${m[1]}.ts`));
  return [...new Set(imported)].sort();
}

const covers = (listed: string, service: string) => (listed.endsWith('/') ? service.startsWith(listed) : service === listed);

describe('README route map', () => {
  const rows = routeMap();
  const routes = loadRoutes();

  it('has one row per functions/<group> folder', () => {
    expect(rows.map((r) => r.group).sort()).toEqual(groups);
  });

  it("states each group's URL prefix as its routes.yml has it", () => {
    const wrong = rows.flatMap((r) => {
      const prefix = prefixOf(routes.filter((route) => route.group === r.group).map((route) => route.path));
      return r.prefix === prefix ? [] : [`${r.group}: ${r.prefix} (routes.yml: ${prefix})`];
    });
    expect(wrong, wrong.join('\n')).toEqual([]);
  });

  it('names service paths that exist and that the group imports', () => {
    const wrong = rows.flatMap((r) => {
      const imported = servicesImportedBy(r.group);
      expect(r.services.length, `${r.group} names a service`).toBeGreaterThan(0);
      return r.services.flatMap((s) => {
        if (!existsSync(join(ROOT, 'shared/services', s))) return [`${r.group}: shared/services/${s} does not exist`];
        return imported.some((i) => covers(s, i)) ? [] : [`${r.group}: no handler imports shared/services/${s}`];
      });
    });
    expect(wrong, wrong.join('\n')).toEqual([]);
  });

  it('names every service a group imports', () => {
    const missing = rows.flatMap((r) =>
      servicesImportedBy(r.group)
        .filter((i) => !r.services.some((s) => covers(s, i)))
        .map((i) => `${r.group}: ${i}`),
    );
    expect(missing, missing.join('\n')).toEqual([]);
  });
});
