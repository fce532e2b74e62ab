/**
 * The import rules of the layers (docs/architecture.md). `npm run lint` checks them, and
 * tests/unit/architecture.test.ts runs the same check inside `npm test`.
 *
 *   functions/  (one handler per route, IoT rule, scheduled job or self-invoked worker)
 *     └─> shared/http, shared/events (entry-point stacks) ─> shared/services (use cases)
 *                                                              ├─> shared/presentation (charts, CSV, listings)
 *                                                              ├─> shared/db (repositories) ─> DynamoDB
 *                                                              ├─> shared/aws (other AWS calls: invoking the service's own functions)
 *                                                              └─> shared/domain (pure) ─> schemas (shapes, vocabulary) ─> shared/errors
 *
 *   shared/platform (calendar, retry, log): below every layer, any of them may import it; it imports
 *   nothing of shared/ but shared/config and shared/errors.ts. The domain takes the pure ones only
 *   (calendar, retry), never the logger.
 */
const layer = (name) => `^shared/${name}/`;
/** The schema modules without TypeBox, which deployed code imports as they are. */
const PLAIN_SCHEMAS = '^schemas/(vocabulary|problems|input-limits|compiled-schema)\\.ts$';
/** A value import (not `import type`) of TypeBox or of a module written with it. */
const TYPEBOX_VALUE = { path: ['^schemas/', 'node_modules/@sinclair/typebox'], pathNot: PLAIN_SCHEMAS, dependencyTypesNot: ['type-only'] };

module.exports = {
  forbidden: [
    {
      name: 'services-not-http',
      comment: 'Use cases serve routes, IoT rules and jobs alike: they never import an entry point stack.',
      severity: 'error',
      from: { path: layer('services') },
      to: { path: [layer('http'), layer('events')] },
    },
    {
      name: 'db-and-domain-not-above',
      comment: 'Repositories and the domain sit below the use cases and the entry points.',
      severity: 'error',
      from: { path: [layer('db'), layer('domain'), layer('aws')] },
      to: { path: [layer('http'), layer('events'), layer('services'), layer('presentation')] },
    },
    {
      name: 'domain-pure',
      comment: 'The domain is pure: no repository, no I/O library, no logger.',
      severity: 'error',
      from: { path: layer('domain') },
      to: { path: [layer('db'), '^shared/platform/log\\.ts$', '^node_modules/@aws-sdk/', '^node:(fs|net|http|https|child_process)'] },
    },
    {
      name: 'presentation-below-services',
      comment: 'Charts, CSV and listings render what the use cases computed; they read no table and know no request.',
      severity: 'error',
      from: { path: layer('presentation') },
      to: { path: [layer('http'), layer('events'), layer('services'), layer('db')] },
    },
    {
      name: 'schemas-own-vocabulary',
      comment: 'Schemas are the shared vocabulary: they import nothing of shared/ but the error types and the platform (calendar dates).',
      severity: 'error',
      from: { path: '^schemas/' },
      to: { path: '^shared/', pathNot: ['^shared/errors\\.ts$', layer('platform')] },
    },
    {
      name: 'platform-below-all',
      comment: 'shared/platform (calendar, retry, log) sits below every layer: it imports nothing of shared/ but the settings and the error types.',
      severity: 'error',
      from: { path: layer('platform') },
      to: { path: '^shared/', pathNot: [layer('platform'), layer('config'), '^shared/errors\\.ts$'] },
    },
    {
      name: 'handlers-call-services',
      comment: 'A handler wires its route to a use case: it never reaches a repository or the domain directly.',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: [layer('db'), layer('domain'), layer('aws')] },
    },
    {
      name: 'nothing-imports-functions',
      comment: 'Handlers are entry points; shared code never depends on one.',
      severity: 'error',
      from: { path: '^(shared|schemas|scripts)/' },
      to: { path: '^functions/' },
    },
    {
      name: 'runtime-without-typebox',
      comment:
        'Deployed code never loads TypeBox: functions/ and shared/ take validators and constants from schemas/compiled/ and the vocabulary from the TypeBox-free modules; a TypeBox schema module only as a type (erased).',
      severity: 'error',
      from: { path: '^(functions|shared)/' },
      to: TYPEBOX_VALUE,
    },
    {
      name: 'plain-schema-modules',
      comment: 'The schema modules the functions import as they are stay TypeBox-free.',
      severity: 'error',
      from: { path: PLAIN_SCHEMAS },
      to: TYPEBOX_VALUE,
    },
    {
      name: 'no-folder-cycles',
      comment: 'No module cycle, so no folder imports a folder that imports it back.',
      severity: 'error',
      from: { path: '^(functions|shared|schemas)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(schemas/compiled|dist|\\.serverless|\\.esbuild|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
