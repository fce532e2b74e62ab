/** The resolve hook of build-generation-hook.mjs (it runs on Node's loader thread). */
import { readFileSync } from 'node:fs';

let root = '';
let generationFile = '';

export function initialize(data) {
  root = data.root;
  generationFile = data.generationFile;
}

function generation() {
  try {
    return readFileSync(generationFile, 'utf8').trim();
  } catch {
    return '0';
  }
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (!resolved.url.startsWith(root)) return resolved;
  return { ...resolved, url: `${resolved.url.split('?')[0]}?g=${generation()}` };
}
