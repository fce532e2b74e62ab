'use strict';
/**
 * serverless-offline keeps a worker per function and serves stale code after a rebuild until told.
 * This watches dist/ (written by the single esbuild build of scripts/build.ts) and tells it.
 */
const { watch } = require('node:fs');
const { join } = require('node:path');

class OfflineReload {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = { 'before:offline:start': () => this.watch() };
  }

  watch() {
    const dist = join(this.serverless.serviceDir, 'dist');
    let timer;
    try {
      watch(dist, { recursive: true }, () => {
        clearTimeout(timer);
        timer = setTimeout(() => this.serverless.pluginManager.spawn('offline:functionsUpdated').catch(() => {}), 200);
      }).unref();
    } catch {
      // no dist yet (packaging, or offline started without scripts/start.ts): nothing to watch
    }
  }
}

module.exports = OfflineReload;
