/**
 * e2e: the /docs page in a real browser. The stack as the other e2e files start it (serverless-offline
 * over the single esbuild build, a table of this file's own on the shared DynamoDB Local, the e2e admin
 * seeded), Chromium from the npm package @sparticuz/chromium driven by playwright-core (started by
 * tests/support/chromium.ts), Swagger UI loading /openapi.json.
 *
 * What a reader of the docs relies on: the info block names the service and its version; every tag
 * of the document renders as a section holding exactly the document's operations (counted from the
 * /openapi.json this stack serves, so new routes are covered without touching this file); "Try it
 * out" reaches the API from the page (GET /health, then POST /api/v1/auth/login with the seeded admin);
 * and nothing on the way logs a console error, violates the page's CSP or fails a request.
 * A full-page screenshot goes to tests/e2e/artifacts/docs.png (git-ignored).
 *
 * The browser is a devDependency like any other (`npm install` brings it, Linux x64 only), so a
 * Chromium that cannot be unpacked or started fails this file instead of skipping it.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/route-table.js';
import { chromiumLaunchOptions } from '../support/chromium.js';
import { startOffline, type Offline } from '../support/offline.js';

const ARTIFACTS = join(ROOT, 'tests', 'e2e', 'artifacts');
const SCREENSHOT = join(ARTIFACTS, 'docs.png');
/** Each browser step; generous for a slow shared machine, far below the test timeout. */
const STEP_MS = 15_000;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface OpenApiOperation {
  tags?: string[];
}
interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string };
  tags?: { name: string }[];
  paths: Record<string, Partial<Record<(typeof METHODS)[number], OpenApiOperation>>>;
}

/** What Swagger UI should render: one block per operation and tag (untagged ones go to "default"). */
function expectedLayout(doc: OpenApiDoc): { operations: string[]; perTag: Map<string, string[]> } {
  const operations: string[] = [];
  const perTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const key = `${method.toUpperCase()} ${path}`;
      operations.push(key);
      for (const tag of op.tags?.length ? op.tags : ['default']) perTag.set(tag, [...(perTag.get(tag) ?? []), key]);
    }
  }
  return { operations, perTag };
}

describe('the /docs page in Chromium (Swagger UI)', () => {
  let api: Offline;
  let doc: OpenApiDoc;
  let browser: Browser | undefined;
  let page: Page;
  let screenshotTaken = false;
  const consoleErrors: string[] = [];
  const failedRequests: string[] = [];
  /**
   * A failed setup (no Chromium, the stack or the page not coming up) is kept and thrown by every test:
   * a throwing beforeAll would mark the tests skipped, and CI reads the closing summary line.
   */
  let setupError: unknown;
  const test = (name: string, fn: () => Promise<void>) =>
    it(name, async () => {
      if (setupError) throw setupError;
      await fn();
    });

  beforeAll(async () => {
    try {
      await setUp();
    } catch (err) {
      setupError = err;
    }
  }, 150_000);

  async function setUp(): Promise<void> {
    // First, before the stack starts: no browser is a failure, never a skip.
    const { version, unpackMs, ...launchOptions } = await chromiumLaunchOptions();
    console.info(`docs-browser: ${version} from @sparticuz/chromium at ${launchOptions.executablePath}, ready in ${Math.round(unpackMs)} ms`);
    api = await startOffline();
    const res = await fetch(`${api.baseUrl}/openapi.json`, { signal: AbortSignal.timeout(STEP_MS) });
    expect(res.status, 'GET /openapi.json').toBe(200);
    doc = (await res.json()) as OpenApiDoc;

    browser = await chromium.launch(launchOptions);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(STEP_MS);
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(`${msg.text()} (${msg.location().url || 'no url'})`);
    });
    page.on('pageerror', (err) => consoleErrors.push(`uncaught: ${err.message}`));
    page.on('requestfailed', (req) => failedRequests.push(`${req.method()} ${req.url()}: ${req.failure()?.errorText ?? 'failed'}`));
    page.on('response', (r) => {
      if (r.status() >= 400) failedRequests.push(`${r.request().method()} ${r.url()}: HTTP ${r.status()}`);
    });
    // Chromium logs CSP violations to the console; record them from the page as well, with the directive.
    // (A script string: this project type-checks without the DOM library.)
    await page.addInitScript({
      content: `window.__csp = [];
        document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.effectiveDirective + ' blocked ' + (e.blockedURI || '(inline)')));`,
    });

    const response = await page.goto(`${api.baseUrl}/docs`, { waitUntil: 'load' });
    expect(response?.status(), 'GET /docs').toBe(200);
    // Swagger UI has rendered the document once its info block and the operation blocks are there.
    try {
      await page.locator('.swagger-ui .info .title').waitFor();
      await page.locator('.swagger-ui .opblock').first().waitFor();
    } catch (err) {
      const seen = [...consoleErrors.map((e) => `console: ${e}`), ...failedRequests.map((r) => `request: ${r}`)];
      throw new Error(
        `Swagger UI did not render ${api.baseUrl}/docs: ${(err as Error).message.split('\n')[0]}\n${seen.join('\n') || 'no console error, no failed request'}`,
      );
    }
  }

  afterAll(async () => {
    try {
      if (browser && page && !screenshotTaken) await screenshot().catch(() => undefined); // the state a failure left
    } finally {
      await browser?.close();
      await api?.stop();
    }
  });

  async function screenshot(): Promise<void> {
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    screenshotTaken = true;
  }

  /** The operation block of METHOD path, found by what Swagger UI renders (not by its generated ids). */
  function operation(method: string, path: string): Locator {
    return page.locator(`.opblock.opblock-${method.toLowerCase()}`).filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
  }

  /**
   * Swagger UI (5.3x) renders a list of 150 rows or more (tag headers + operations) virtualised: only the
   * rows near the viewport are in the DOM, each in an `.operations-virtual__item` numbered `data-index`.
   * Without it, every tag header and operation block is there at once, in document order. Either way,
   * this scrolls the page from top to bottom and answers each row once, in order, and whether the list
   * was virtualised.
   */
  async function renderedRows(): Promise<{ rows: Array<{ tag: string } | { op: string }>; virtualised: boolean }> {
    const found = new Map<number, { tag: string } | { op: string }>();
    let virtualised = false;
    await page.evaluate('window.scrollTo(0, 0)');
    for (let atBottom = false, step = 0; !atBottom; step++) {
      if (step > 1000) throw new Error('the page did not reach its bottom in 1000 scroll steps');
      // two animation frames: the virtualiser renders the rows of the new scroll position
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
      const seen = (await page.evaluate(`(() => {
        const virtual = document.querySelector('.swagger-ui .operations-virtual');
        const rowOf = (el) => {
          const tag = el.matches('.opblock-tag') ? el : el.querySelector('.opblock-tag');
          if (tag) return { tag: tag.getAttribute('data-tag') };
          const op = el.matches('.opblock') ? el : el.querySelector('.opblock');
          if (!op) return null;
          const method = op.querySelector('.opblock-summary-method')?.textContent?.trim().toUpperCase() ?? '?';
          return { op: method + ' ' + (op.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '?') };
        };
        const rows = virtual
          ? [...virtual.querySelectorAll('.operations-virtual__item')].map((el) => [Number(el.getAttribute('data-index')), rowOf(el)])
          : [...document.querySelectorAll('.swagger-ui .opblock-tag, .swagger-ui .opblock')].map((el, i) => [i, rowOf(el)]);
        const before = window.scrollY;
        window.scrollBy(0, Math.floor(window.innerHeight * 0.7));
        return { virtual: Boolean(virtual), rows, atBottom: window.scrollY === before };
      })()`)) as { virtual: boolean; rows: Array<[number, { tag: string } | { op: string } | null]>; atBottom: boolean };
      virtualised ||= seen.virtual;
      for (const [index, row] of seen.rows) if (row) found.set(index, row);
      atBottom = seen.atBottom;
    }
    const indexes = [...found.keys()].sort((a, b) => a - b);
    expect(indexes, 'rows read while scrolling, without a gap').toEqual(indexes.map((_, i) => i));
    return { rows: indexes.map((i) => found.get(i)!), virtualised };
  }

  /** Scrolls until METHOD path's block is rendered (a virtualised list renders only what is in view). */
  async function reveal(method: string, path: string): Promise<Locator> {
    const op = operation(method, path);
    await page.evaluate('window.scrollTo(0, 0)');
    for (let step = 0; (await op.count()) === 0; step++) {
      const moved = (await page.evaluate(
        `(() => { const y = window.scrollY; window.scrollBy(0, Math.floor(window.innerHeight * 0.7)); return window.scrollY !== y; })()`,
      )) as boolean;
      if (!moved || step > 1000) break;
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    }
    expect(await op.count(), `${method} ${path} blocks on the page`).toBe(1);
    await op.scrollIntoViewIfNeeded();
    return op;
  }

  /** Expands an operation, "Try it out", optionally replaces the JSON body, "Execute"; returns the rendered response. */
  async function tryItOut(method: string, path: string, body?: unknown): Promise<{ status: string; body: string; url: string; sent: string | null }> {
    const op = await reveal(method, path);
    await op.locator('.opblock-summary-control').click();
    await op.locator('.try-out__btn').click();
    if (body !== undefined) {
      const editor = op.locator('textarea.body-param__text');
      await editor.fill(JSON.stringify(body, null, 2));
    }
    const sent = page.waitForRequest((r) => r.method() === method && new URL(r.url()).pathname === path, { timeout: STEP_MS });
    await op.locator('.btn.execute').click();
    const request = await sent;
    // the live response: a row with the code, then "Response body" (the first code block), then headers
    const row = op.locator('.live-responses-table tr.response').first();
    await row.waitFor();
    return {
      status: (await row.locator('.response-col_status').innerText()).trim(),
      body: await row.locator('.response-col_description .highlight-code code').first().innerText(),
      url: (await op.locator('.request-url pre').innerText()).trim(),
      sent: request.postData(),
    };
  }

  test('shows the service name and version 2.0.0 of the OpenAPI document', async () => {
    expect(doc.info.version).toBe('2.0.0');
    expect(doc.info.title).toBe('Flockwise API');
    const title = page.locator('.swagger-ui .info .title');
    await expect.poll(() => title.innerText()).toContain(doc.info.title);
    expect((await title.locator('.version').first().innerText()).trim()).toBe(doc.info.version);
    expect(await page.title()).toContain(doc.info.title);
  });

  test('renders every tag of /openapi.json as a section with exactly its operations', async () => {
    const { operations, perTag } = expectedLayout(doc);
    expect(operations.length, 'operations in /openapi.json').toBeGreaterThan(0);

    const { rows, virtualised } = await renderedRows();
    // a tag header opens its section: the operations after it, up to the next header, are its own
    const rendered: { tag: string; operations: string[] }[] = [];
    for (const row of rows) {
      if ('tag' in row) rendered.push({ tag: row.tag, operations: [] });
      else {
        expect(rendered.length, `${row.op} rendered before any tag header`).toBeGreaterThan(0);
        rendered.at(-1)!.operations.push(row.op);
      }
    }
    const renderedTags = new Map(rendered.map((s) => [s.tag, s.operations]));
    const declared = new Set((doc.tags ?? []).map((t) => t.name));

    // every tag that groups operations has its section, holding exactly those operations
    for (const [tag, ops] of perTag) {
      expect(renderedTags.has(tag), `section for tag "${tag}" (rendered: ${[...renderedTags.keys()].join(', ')})`).toBe(true);
      expect([...(renderedTags.get(tag) ?? [])].sort(), `operations under "${tag}"`).toEqual([...ops].sort());
    }
    // and no section comes from anywhere but the document
    for (const tag of renderedTags.keys()) expect(perTag.has(tag) || declared.has(tag), `rendered section "${tag}"`).toBe(true);

    const total = rendered.reduce((n, s) => n + s.operations.length, 0);
    expect(total, 'operation blocks on the page').toBe([...perTag.values()].reduce((n, ops) => n + ops.length, 0));
    expect(new Set(rendered.flatMap((s) => s.operations))).toEqual(new Set(operations));
    console.info(
      `docs-browser: ${perTag.size} tags, ${operations.length} operations in /openapi.json, ${total} operation blocks rendered${virtualised ? ' (virtualised list, read by scrolling)' : ''}`,
    );
  });

  test('"Try it out" on GET /health answers 200 with the status in the rendered body', async () => {
    const res = await tryItOut('GET', '/health');
    expect(res.url).toBe(`${api.baseUrl}/health`);
    expect(res.status, res.body).toBe('200');
    expect(res.body).toMatch(/"status":\s*"ok"/);
  });

  test('"Try it out" on POST /api/v1/auth/login with the seeded admin answers 200 with a token', async () => {
    const res = await tryItOut('POST', '/api/v1/auth/login', { email: api.admin.email, password: api.admin.password });
    expect(JSON.parse(res.sent ?? 'null'), 'the body Swagger UI sent').toEqual({ email: api.admin.email, password: api.admin.password });
    expect(res.url).toBe(`${api.baseUrl}/api/v1/auth/login`);
    expect(res.status, res.body).toBe('200');
    expect(res.body).toMatch(/"token":\s*"[\w-]+\.[\w-]+\.[\w-]+"/);
    expect(res.body).toContain(api.admin.email);
  });

  test('logged no console error, no CSP violation and no failed request on the way', async () => {
    const csp = (await page.evaluate('window.__csp')) as string[];
    expect(csp, 'CSP violations').toEqual([]);
    // The page declares no icon, so Chromium asks for /favicon.ico on its own and the API answers 404
    // (a known gap of the docs page, not a request of Swagger UI). Tolerated only while the page has
    // no <link rel="icon">: once it declares one, its request counts like any other.
    const declaresIcon = (await page.locator('link[rel~="icon"]').count()) > 0;
    const isFavicon404 = (line: string) => !declaresIcon && /\/favicon\.ico\b/.test(line) && /\b404\b/.test(line);
    expect(
      consoleErrors.filter((e) => !isFavicon404(e)),
      'console errors',
    ).toEqual([]);
    expect(
      failedRequests.filter((r) => !isFavicon404(r)),
      'failed requests',
    ).toEqual([]);
  });

  test('saves a full-page screenshot to tests/e2e/artifacts/docs.png', async () => {
    await screenshot();
    expect((await stat(SCREENSHOT)).size).toBeGreaterThan(10_000);
  });
});
