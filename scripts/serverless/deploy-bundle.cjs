'use strict';
/**
 * serverless-esbuild for deploy packages only (one minified bundle per function). Its offline and
 * `invoke local` hooks are removed: local runs use ONE code-split esbuild build of all handlers
 * (scripts/build.ts → dist/), because per-function builds take ~50 s and GBs at 150 routes (docs/decisions.md).
 */
const EsbuildServerlessPlugin = require('serverless-esbuild');

const LOCAL_HOOKS = ['before:offline:start', 'before:offline:start:init', 'before:run:run', 'before:invoke:local:invoke'];

class DeployBundle extends EsbuildServerlessPlugin {
  constructor(serverless, options, logging) {
    super(serverless, options, logging);
    for (const hook of LOCAL_HOOKS) delete this.hooks[hook];
  }
}

module.exports = DeployBundle;
