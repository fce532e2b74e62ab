'use strict';
/**
 * `functions:` of serverless.yml: every functions/<group>/routes.yml, merged. The same files the route
 * table (scripts/lib/route-table.ts) reads, so a new group needs no edit here or in serverless.yml.
 */
const { readdirSync, readFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');
const { parse } = require('yaml');

module.exports = function functions() {
  const root = join(__dirname, '..', '..', 'functions');
  const merged = {};
  for (const group of readdirSync(root).sort()) {
    const file = join(root, group, 'routes.yml');
    if (!existsSync(file)) continue;
    for (const [name, def] of Object.entries(parse(readFileSync(file, 'utf8')) || {})) {
      if (merged[name]) throw new Error(`function ${name} is defined twice (functions/${group}/routes.yml)`);
      merged[name] = def;
    }
  }
  return merged;
};
