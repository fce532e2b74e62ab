/**
 * Chromium for the browser tests: the npm devDependency @sparticuz/chromium (a headless-shell build,
 * Linux x64), started by playwright-core. `npm install` brings it, so a Chromium that cannot be unpacked
 * or started is a failure of the test that needs it, never a skip.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import packagedChromium, { inflate } from '@sparticuz/chromium';
import type { LaunchOptions } from 'playwright-core';

/**
 * The machine's network is closed: without the background-networking flags Chromium keeps trying
 * Google's hosts. playwright-core passes --headless itself and gives every launch a fresh temporary
 * --user-data-dir of its own (and refuses one in args), removed again by close().
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/**
 * Switches of the package's own list (tuned for AWS Lambda) left out here; the rest is merged with
 * CHROMIUM_ARGS. WebGL is switched off through the package (setGraphicsMode below): the page needs no GPU.
 */
const NOT_FROM_PACKAGE = new Set([
  // playwright-core passes --headless already; the package's value is the literal 'shell', quotes included
  '--headless',
  // browser and renderers in one process: Lambda's way around a failing prctl(), unsupported elsewhere
  '--single-process',
  // Chromium keeps only the last of a repeated switch: these would replace playwright-core's own lists,
  // which keep features such as network time queries and search preconnects from reaching Google's hosts
  '--disable-features',
  '--enable-features',
  // they loosen what readers' browsers enforce (same-origin and CORS, mixed content, site isolation)
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
]);
/** Where the package lives: bin/ holds its Brotli archives, package.json its version (major = Chromium's). */
const PACKAGE_DIR = join(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..');
const CHROMIUM_MAJOR = (JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version.split('.')[0];
/**
 * Launch options for the package's Chromium (a headless-shell build). Its executablePath() unpacks the
 * binary to <tmpdir>/chromium on first use, with its fonts to <tmpdir>/fonts and SwiftShader's libraries
 * into <tmpdir> itself, and from then on returns whatever <tmpdir>/chromium is: a binary that does not
 * answer `--version` with the package's major (another version's, or an interrupted unpack) is unpacked again.
 * The binary links the machine's NSS, NSPR and expat: where they are missing, the package's own copies
 * (built for Amazon Linux 2023, glibc 2.34 or later) go to <tmpdir>/al2023/lib and onto the browser's
 * LD_LIBRARY_PATH. Without a fontconfig setup on the machine, the package's fonts stand in.
 */
export async function chromiumLaunchOptions(): Promise<LaunchOptions & { version: string; unpackMs: number }> {
  const started = performance.now();
  const env: Record<string, string | undefined> = { ...process.env };
  if (!existsSync('/etc/fonts/fonts.conf')) env.FONTCONFIG_PATH = join(tmpdir(), 'fonts');
  packagedChromium.setGraphicsMode = false;
  let executablePath = await packagedChromium.executablePath();
  let version = await versionOf(executablePath, env);
  if (version.includes('error while loading shared libraries')) {
    const libs = join(await inflate(join(PACKAGE_DIR, 'bin', 'al2023.tar.br')), 'lib');
    env.LD_LIBRARY_PATH = [libs, env.LD_LIBRARY_PATH].filter(Boolean).join(':');
    version = await versionOf(executablePath, env);
  }
  const expected = `Chromium ${CHROMIUM_MAJOR}.`;
  if (!version.startsWith(expected)) {
    await rm(executablePath, { force: true });
    executablePath = await packagedChromium.executablePath();
    version = await versionOf(executablePath, env);
  }
  if (!version.startsWith(expected)) {
    throw new Error(`${executablePath} (@sparticuz/chromium, unpacked from ${PACKAGE_DIR}) does not start as ${expected}x: ${version}`);
  }
  const own = new Set(CHROMIUM_ARGS.map(switchName));
  const fromPackage = packagedChromium.args.filter((arg) => !NOT_FROM_PACKAGE.has(switchName(arg)) && !own.has(switchName(arg)));
  return { executablePath, args: [...fromPackage, ...CHROMIUM_ARGS], env, headless: true, timeout: 60_000, version, unpackMs: performance.now() - started };
}

/** `--disk-cache-size=33554432` -> `--disk-cache-size` */
function switchName(arg: string): string {
  return arg.split('=', 1)[0] ?? arg;
}

/** What `chromium --version` prints, or why it did not start. */
async function versionOf(executablePath: string, env: Record<string, string | undefined>): Promise<string> {
  try {
    return (await promisify(execFile)(executablePath, ['--version'], { env, timeout: 15_000 })).stdout.trim();
  } catch (err) {
    return (err as { stderr?: string }).stderr?.trim() || (err as Error).message;
  }
}
