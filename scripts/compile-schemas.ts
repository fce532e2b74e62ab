/**
 * Build step: compiles every request schema in schemas/*.ts (exports named …Body, …Query, …Params) into
 * standalone AJV validator modules under schemas/compiled/ (git-ignored), so no handler compiles a
 * schema at cold start (50–90 ms per schema; docs/decisions.md). Query and path schemas coerce strings and fill
 * defaults; body schemas are strict. Each module exports the validators under the source names, with a
 * .d.ts typing them from the TypeBox source, so `import { loginBody } from 'schemas/compiled/auth.js'`
 * gives the validator, its static type and its JSON Schema. The constants of each module are copied too,
 * as JSON, into schemas/compiled/constants/ (scripts/lib/schema-constants.ts).
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv, type Options } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import addFormats from 'ajv-formats';
import { writeGenerated } from './lib/write-file.js';
import { constantsModule } from './lib/schema-constants.js';
import { MAX_DAYS_AHEAD_KEYWORD, MAX_DEPTH_KEYWORD, MIN_DATE_KEYWORD, maxDepthOf } from '../schemas/input-limits.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const schemasDir = join(root, 'schemas');
const outDir = join(schemasDir, 'compiled');
const constantsDir = join(outDir, 'constants');
const REQUEST_SCHEMA = /(Body|Query|Params)$/;

function newAjv(coerce: boolean): Ajv {
  const opts: Options = {
    allErrors: true,
    // no message strings in the generated code: schemas/problems.ts words each error from its keyword
    messages: false,
    strict: true,
    discriminator: true,
    useDefaults: coerce,
    coerceTypes: coerce,
    code: { source: true, esm: true, optimize: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  };
  const ajv = new Ajv(opts);
  addFormats.default(ajv);
  // an annotation: the depth a recursive schema allows, checked before the validator runs (schemas/input-limits.ts)
  ajv.addKeyword({ keyword: MAX_DEPTH_KEYWORD, schemaType: 'number' });
  // a date a person types lies on or after a date, and at most N days after today (UTC), judged when the request is validated
  ajv.addKeyword({
    keyword: MIN_DATE_KEYWORD,
    type: 'string',
    schemaType: 'string',
    error: { message: 'is too early', params: ({ schema }) => _`{limit: ${schema}}` },
    code(cxt) {
      const { data, schema } = cxt;
      cxt.fail(_`${data}.length === 10 && ${data} < ${schema}`);
    },
  });
  ajv.addKeyword({
    keyword: MAX_DAYS_AHEAD_KEYWORD,
    type: 'string',
    schemaType: 'number',
    error: { message: 'is too far ahead', params: ({ schema }) => _`{limit: ${schema}}` },
    code(cxt) {
      const { data, schema } = cxt;
      // the one date function of shared/platform/calendar.ts, imported by the validator module (see requiresToImports)
      cxt.fail(_`${data}.length === 10 && ${data} > require("../../shared/platform/calendar.js").isoDate(Date.now() + ${schema} * 86400000)`);
    },
  });
  return ajv;
}

/**
 * ajv's standalone ESM still emits `require("x").prop` for its runtime helpers and formats. Turn each
 * into a namespace import and pick the property in a way that works both under Node's CJS interop
 * (namespace.default is module.exports) and esbuild's (__esModule: namespace.default is exports.default).
 */
const PICK = 'const __pick = (ns, prop) => ns.default?.[prop] ?? ns[prop];';
function requiresToImports(code: string, imports: Map<string, string>): string {
  const body = code.replace(/require\("([^"]+)"\)\.(\w+)/g, (_m, spec: string, prop: string) => {
    const path = spec.endsWith('.js') ? spec : `${spec}.js`;
    if (!imports.has(path)) imports.set(path, `__ns${imports.size}`);
    return `__pick(${imports.get(path)}, ${JSON.stringify(prop)})`;
  });
  if (/require\(/.test(body)) throw new Error('unexpected require() form in ajv standalone output');
  return body;
}

export async function compileSchemas(): Promise<string[]> {
  const written: string[] = [];
  const produced = new Set<string>();
  const files = readdirSync(schemasDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'compiled-schema.ts');
  const producedConstants = new Set<string>();
  for (const file of files.sort()) {
    const mod = (await import(pathToFileURL(join(schemasDir, file)).href)) as Record<string, unknown>;
    const stem = basename(file, '.ts');
    const constants = constantsModule(stem, mod);
    if (constants) {
      producedConstants.add(`${stem}.js`).add(`${stem}.d.ts`);
      writeGenerated(join(constantsDir, `${stem}.js`), constants.js);
      writeGenerated(join(constantsDir, `${stem}.d.ts`), constants.dts);
    }
    const names = Object.keys(mod).filter((n) => REQUEST_SCHEMA.test(n) && typeof mod[n] === 'object');
    if (names.length === 0) continue;
    const parts: string[] = [];
    const types: string[] = [];
    const imports = new Map<string, string>();
    for (const name of names.sort()) {
      const schema = JSON.parse(JSON.stringify(mod[name])) as Record<string, unknown>;
      // every recursive schema declares its depth: a build error otherwise (see schemas/input-limits.ts)
      maxDepthOf(schema);
      const ajv = newAjv(!name.endsWith('Body'));
      // validation needs no prose: AJV embeds the schema it compiles, so it gets one without descriptions
      ajv.addSchema(withoutProse(schema) as Record<string, unknown>, name);
      const code = requiresToImports(standaloneCode.default(ajv, { [name]: name }), imports)
        .replace(/^"use strict";/m, '')
        .replace(`export const ${name} =`, `const __${name} =`);
      parts.push(wrap(name, code, schema));
      types.push(`export declare const ${name}: CompiledSchema<Static<typeof src.${name}>>;`);
    }
    const importLines = [...imports].map(([path, name]) => `import * as ${name} from ${JSON.stringify(path)};`);
    produced.add(`${stem}.js`).add(`${stem}.d.ts`);
    writeGenerated(
      join(outDir, `${stem}.js`),
      `// Generated by scripts/compile-schemas.ts from schemas/${file}. Do not edit.\n${importLines.join('\n')}\n${PICK}\n${parts.join('\n')}`,
    );
    writeGenerated(
      join(outDir, `${stem}.d.ts`),
      `// Generated by scripts/compile-schemas.ts. Do not edit.\nimport type { Static } from '@sinclair/typebox';\nimport type { CompiledSchema } from '../compiled-schema.js';\nimport type * as src from '../${stem}.js';\n${types.join('\n')}\n`,
    );
    written.push(`${stem}: ${names.join(', ')}`);
  }
  // validator modules of schema files that no longer exist
  for (const f of readdirSync(outDir)) if (/\.(js|d\.ts)$/.test(f) && !produced.has(f)) rmSync(join(outDir, f));
  if (existsSync(constantsDir)) for (const f of readdirSync(constantsDir)) if (!producedConstants.has(f)) rmSync(join(constantsDir, f));
  return written;
}

/** A schema without `description` and `title` (documentation only; the attached `.schema` keeps them for the OpenAPI document). */
function withoutProse(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProse);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => !((k === 'description' || k === 'title') && typeof v === 'string'))
      .map(([k, v]) => [k, k === 'properties' || k === 'patternProperties' || k === '$defs' ? mapValues(v) : withoutProse(v)]),
  );
}
/** The values of a map of schemas (its keys are names, never keywords: a property may be called `description`). */
function mapValues(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, withoutProse(v)]));
}

/** Each validator in its own function scope (helper names of separate compilations would clash), with its schema attached. */
function wrap(name: string, code: string, schema: Record<string, unknown>): string {
  return `export const ${name} = /* @__PURE__ */ (() => {\n${code}\n__${name}.schema = ${JSON.stringify(schema)};\nreturn __${name};\n})();\n`;
}
