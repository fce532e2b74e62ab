/**
 * Counts in the docs are the code's. A number that changes when the code does (functions, routes, route
 * groups, indexes…) is written between markers, `<!-- count:KEY -->N<!-- /count -->` (N in digits or in
 * words: `7` or `seven`), and this file computes every KEY from what the code declares: the functions
 * serverless.yml deploys (scripts/serverless/functions.cjs merges every functions/<group>/routes.yml),
 * the route table, and the table definition (shared/db/table.json). Adding a route, a job or an index
 * without updating the sentence that counts them fails here, naming the file, the line and both numbers.
 * A few domain counts (roles, limiter classes, configuration sections, optimization rules) are marked the
 * same way.
 *
 * A count written without markers ("55 routes", "two GSIs") fails too, unless its line reports a past
 * measurement and says so with `<!-- measured -->` (docs/performance.md is all dated bench runs).
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, apiRoutes, eventFunctions, routeFiles } from '../../scripts/lib/route-table.js';
import { ANALYTICS_SECTIONS } from '../../schemas/analytics-config.js';
import { ROLES } from '../../schemas/vocabulary.js';
import { LIMITER_CLASSES } from '../../shared/config/rate-limits.js';
import { RULES as OPTIMIZATION_RULES } from '../../shared/domain/optimization.js';

interface FunctionDef {
  handler: string;
  role?: string;
  events?: Array<Record<string, unknown>>;
}

const requireCjs = createRequire(import.meta.url);
/** What serverless.yml's `functions:` resolves to. */
const functions = (requireCjs('../../scripts/serverless/functions.cjs') as () => Record<string, FunctionDef>)();
const table = JSON.parse(readFileSync(join(ROOT, 'shared/db/table.json'), 'utf8')) as { GlobalSecondaryIndexes: { IndexName: string }[] };

const defs = Object.entries(functions).map(([name, def]) => ({ name, def, group: def.handler.split('/')[1]! }));
const isHttp = (def: FunctionDef) => (def.events ?? []).some((e) => 'http' in e);
const eventDefs = defs.filter(({ def }) => !isHttp(def));

/** Every count a doc may state, from the code. */
function codeCounts(): Map<string, number> {
  const counts = new Map<string, number>([
    ['functions', defs.length],
    ['http-functions', defs.length - eventDefs.length],
    ['event-functions', eventDefs.length],
    ['api-routes', apiRoutes().length],
    ['groups', routeFiles().length],
    ['gsis', table.GlobalSecondaryIndexes.length],
    ['continuity-role-functions', defs.filter(({ def }) => def.role === 'ContinuityRole').length],
    ['roles', ROLES.length],
    ['limiter-classes', LIMITER_CLASSES.length],
    ['analytics-config-sections', ANALYTICS_SECTIONS.length],
    ['optimization-rules', OPTIMIZATION_RULES.length],
  ]);
  for (const file of routeFiles()) {
    const group = file.split('/')[1]!;
    counts.set(`event-functions:${group}`, eventDefs.filter((d) => d.group === group).length);
  }
  return counts;
}

const KEYS =
  'functions, http-functions, event-functions, event-functions:<group>, api-routes, groups, gsis, continuity-role-functions, roles, limiter-classes, analytics-config-sections, optimization-rules';

const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
].sort();
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const WORDS_TEENS = ['thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];
const NUMBER_WORDS = [...WORDS, ...WORDS_TEENS];
const numberStated = (stated: string) => (/^\d+$/.test(stated) ? Number(stated) : NUMBER_WORDS.indexOf(stated.toLowerCase()));

const MARKER = /<!-- count:([a-z0-9:-]+) -->([^<]*)<!-- \/count -->/g;

interface Marker {
  where: string;
  key: string;
  stated: string;
}

function markers(): Marker[] {
  return DOCS.flatMap((file) =>
    text(file)
      .split('\n')
      .flatMap((line, i) => [...line.matchAll(MARKER)].map((m) => ({ where: `${file}:${i + 1}`, key: m[1]!, stated: m[2]!.trim() }))),
  );
}

/** Whole docs that report dated measurements only. */
const MEASURED_FILES = new Set(['docs/performance.md']);
const QUALIFIER = String.raw`(?:(?:HTTP|API|Lambda|non-HTTP|event|route|nested|secondary|global|overloaded|generated)[\s-]+)`;
const NOUN = '(?:routes?|route groups?|groups?|functions?|GSIs?|indexes|endpoints?|operations?)';
/** "55 routes", "3 non-HTTP functions", "90–100 routes". */
const DIGIT_COUNT = new RegExp(String.raw`\b\d[\d,]*(?:[–-]\d[\d,]*)?\s+${QUALIFIER}{0,3}${NOUN}\b`, 'gi');
/** "two GSIs", "seven event functions" ("one function per route" is a rule, not a count: from two up). */
const WORD_COUNT = new RegExp(String.raw`\b(?:${[...WORDS.slice(2), ...WORDS_TEENS].join('|')})\s+${QUALIFIER}{0,2}(?:GSIs|indexes|groups|functions)\b`, 'gi');

/** "one overloaded GSI", "a single GSI": a table with one index says so between markers too. */
const ONE_GSI = /\b(?:one|a single)\s+(?:(?:overloaded|global|secondary)\s+){0,2}GSI\b/gi;

function unmarkedCounts(file: string, content: string): string[] {
  if (MEASURED_FILES.has(file)) return [];
  return content.split('\n').flatMap((line, i) => {
    if (line.includes('<!-- measured -->')) return [];
    const bare = line.replace(MARKER, '#');
    return [...bare.matchAll(DIGIT_COUNT), ...bare.matchAll(WORD_COUNT), ...bare.matchAll(ONE_GSI)].map((m) => `${file}:${i + 1}: "${m[0]}"`);
  });
}

describe('counts in the docs', () => {
  const counts = codeCounts();

  it('every marked count states what the code declares today', () => {
    const found = markers();
    expect(found.length).toBeGreaterThan(5);
    const wrong = found.flatMap(({ where, key, stated }) => {
      const actual = counts.get(key);
      if (actual === undefined) return [`${where}: unknown count "${key}" (known: ${KEYS})`];
      return numberStated(stated) === actual ? [] : [`${where}: ${key} is ${actual}, the doc says "${stated}"`];
    });
    expect(wrong, wrong.join('\n')).toEqual([]);
  });

  it('the headline counts are stated somewhere', () => {
    const keys = new Set(markers().map((m) => m.key));
    for (const key of ['functions', 'http-functions', 'event-functions', 'api-routes', 'groups', 'gsis']) expect(keys, key).toContain(key);
  });

  it('no count is written without markers, past measurements aside', () => {
    const loose = DOCS.flatMap((file) => unmarkedCounts(file, text(file)));
    expect(
      loose,
      `mark each as <!-- count:KEY -->N<!-- /count --> (keys: ${KEYS}), or end a line that reports a past measurement with <!-- measured -->:\n${loose.join('\n')}`,
    ).toEqual([]);
  });

  it('the scan finds loose counts and leaves rules, markers and measurements alone', () => {
    const found = (line: string) => unmarkedCounts('README.md', line);
    for (const line of ['now 55 routes, 8 groups', 'adds 3 non-HTTP functions', 'one overloaded GSI', 'two GSIs', 'Five event functions use it'])
      expect(found(line), line).not.toEqual([]);
    for (const line of [
      'one Lambda function per route',
      '<!-- count:gsis -->two<!-- /count --> overloaded GSIs',
      'a trial with 150 generated functions <!-- measured -->',
      '500 resources per stack',
      'one index item per farm served',
    ])
      expect(found(line), line).toEqual([]);
  });

  it('the counts agree with one another and with the route table', () => {
    expect(counts.get('functions')).toBe(counts.get('http-functions')! + counts.get('event-functions')!);
    // the catch-all `ANY /{proxy+}` is the one HTTP function that is no operation of the API
    expect(counts.get('api-routes')).toBe(counts.get('http-functions')! - 1);
    expect(
      eventFunctions()
        .map((e) => e.functionName)
        .sort(),
    ).toEqual(eventDefs.map((d) => d.name).sort());
    // every folder of functions/ is a route group
    const folders = readdirSync(join(ROOT, 'functions'), { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(folders.filter((d) => !existsSync(join(ROOT, 'functions', d.name, 'routes.yml'))).map((d) => d.name)).toEqual([]);
    // the event stack (docs/architecture.md) serves exactly the functions without an http event
    const usingEventStack = defs.filter(({ def }) => /\beventHandler\(/.test(text(`${def.handler.replace(/\.handler$/, '')}.ts`)));
    expect(usingEventStack.map((d) => d.name).sort()).toEqual(eventDefs.map((d) => d.name).sort());
  });

  it('the docs name every function, index and role member they count', () => {
    const architecture = text('docs/architecture.md');
    const deployment = text('docs/deployment.md');
    const dataModel = text('docs/data-model.md');
    for (const { name, def } of eventDefs) {
      expect(architecture, `docs/architecture.md names ${def.handler}`).toContain(`\`${def.handler.replace(/\.handler$/, '')}.ts\``);
      expect(deployment, `docs/deployment.md names ${name}`).toContain(`\`${name}\``);
    }
    for (const { name, def } of defs) if (def.role === 'ContinuityRole') expect(deployment, `docs/deployment.md names ${name}`).toContain(`\`${name}\``);
    for (const { IndexName } of table.GlobalSecondaryIndexes)
      expect(dataModel.slice(0, 600), `docs/data-model.md opens with ${IndexName}`).toContain(`\`${IndexName}\``);
  });
});
