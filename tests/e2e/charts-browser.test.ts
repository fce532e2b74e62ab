/**
 * e2e: the analytics charts as a person sees them. The stack as the other e2e files start it, a broiler
 * cycle of 21 days written over HTTP (chicks and feed, a daily record a day, a weighing each week), then
 * every SVG chart (weight, mortality, FCR) of both chart routes (GET /api/v2/analytics/daily/… and
 * …/breed/… with `Accept: image/svg+xml`) opened in Chromium (tests/support/chromium.ts) as served, and
 * screenshotted to tests/e2e/artifacts/chart-<route>-<chart>.png (git-ignored).
 *
 * What a reader relies on: on the screenshot each series is a line, its colour all along the way from
 * marker to marker (the dashed standard: through its own points), as many pixels of it as the way is long;
 * Chromium lays each path out as long as that way; and the SVG served holds one subpath (one `M`, an `L`
 * per further point) per series. A row of lone markers (the path of a series measured on some days only,
 * broken at every day without a value) shows its colour at the markers only and fails here.
 *
 * As in docs-browser.test.ts, a Chromium that cannot be unpacked or started fails this file, never skips it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/route-table.js';
import { chromiumLaunchOptions } from '../support/chromium.js';
import { checkedClient } from '../support/contract.js';
import { day } from '../support/cycles.js';
import { client } from '../support/http.js';
import { startOffline, type Offline } from '../support/offline.js';
import { drawnLines, markers, plotOrigin, type Vertex } from '../support/svg-chart.js';

const ARTIFACTS = join(ROOT, 'tests', 'e2e', 'artifacts');
const STEP_MS = 15_000;
const CYCLE_DAYS = 21;
/** The weekly weighings: age in days and the sampled weights (g), some 15 % under the Ross 308 curve. */
const WEIGHINGS: Array<[number, number[]]> = [
  [7, [175, 180, 185, 178, 182]],
  [14, [440, 455, 450, 460, 445]],
  [21, [850, 870, 860, 880, 865]],
];
/** Points sampled along each line's route, and how far (px) from a sample the series' colour may be found. */
const SAMPLES = 120;
const REACH = 2;

interface Pixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

const rgbOf = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));

/** Whether the pixel is the colour, or near it (anti-aliasing blends a line's edge into the background). */
function isColour(px: Pixels, x: number, y: number, rgb: number[]): boolean {
  if (x < 0 || y < 0 || x >= px.width || y >= px.height) return false;
  const at = (y * px.width + x) * 4;
  return Math.hypot(px.rgba[at]! - rgb[0]!, px.rgba[at + 1]! - rgb[1]!, px.rgba[at + 2]! - rgb[2]!) < 80;
}

/** The pixels of the colour within REACH of each sample: how many samples found one, and how many pixels in all. */
function colourAlong(px: Pixels, samples: Vertex[], colour: string): { hits: number; pixels: number } {
  const rgb = rgbOf(colour);
  const seen = new Set<number>();
  let hits = 0;
  for (const s of samples) {
    let hit = false;
    for (let dy = -REACH; dy <= REACH; dy++)
      for (let dx = -REACH; dx <= REACH; dx++) {
        const x = Math.round(s.x) + dx;
        const y = Math.round(s.y) + dy;
        if (!isColour(px, x, y, rgb)) continue;
        hit = true;
        seen.add(y * px.width + x);
      }
    if (hit) hits++;
  }
  return { hits, pixels: seen.size };
}

const distance = (a: Vertex, b: Vertex) => Math.hypot(a.x - b.x, a.y - b.y);

/** `count` + 1 points evenly spaced along the polyline through `at` (its ends included). */
function alongPolyline(at: Vertex[], count: number): Vertex[] {
  const legs = at.slice(1).map((v, i) => ({ from: at[i]!, to: v, length: distance(at[i]!, v) }));
  const total = legs.reduce((sum, leg) => sum + leg.length, 0);
  return Array.from({ length: count + 1 }, (_, k) => {
    let rest = (total * k) / count;
    for (const leg of legs) {
      if (rest <= leg.length || leg === legs.at(-1)) {
        const t = leg.length === 0 ? 0 : Math.min(1, rest / leg.length);
        return { x: leg.from.x + (leg.to.x - leg.from.x) * t, y: leg.from.y + (leg.to.y - leg.from.y) * t };
      }
      rest -= leg.length;
    }
    return at[0]!;
  });
}

describe('the analytics SVG charts in Chromium', () => {
  let api: Offline;
  const http = checkedClient(client(() => api));
  let token: string;
  let ids: string;
  let browser: Browser | undefined;
  /** A blank page that turns a screenshot into its pixels (a canvas), so no PNG decoder is needed. */
  let decoder: Page;
  /** As in docs-browser.test.ts: a failed setup is thrown by every test rather than skipping them. */
  let setupError: unknown;

  beforeAll(async () => {
    try {
      const { version, unpackMs, ...launchOptions } = await chromiumLaunchOptions();
      console.info(`charts-browser: ${version} ready in ${Math.round(unpackMs)} ms`);
      api = await startOffline();
      await writeCycle();
      browser = await chromium.launch(launchOptions);
      decoder = await browser.newPage();
    } catch (err) {
      setupError = err;
    }
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  async function writeCycle(): Promise<void> {
    const login = await http('POST', '/api/v1/auth/login', { body: { email: api.admin.email, password: api.admin.password } });
    token = login.body.token;
    const post = async (path: string, body: unknown) => {
      const res = await http('POST', path, { token, body });
      expect(res.status, `POST ${path} ${res.text}`).toBe(201);
      return res.body.data;
    };
    const start = day(-CYCLE_DAYS - 1);
    const farm = await post('/api/v1/config/farms', { name: 'Chart farm', timezone: 'Europe/Amsterdam' });
    const house = await post(`/api/v1/config/farms/${farm.id}/houses`, { name: 'House 1', usableAreaM2: 1000, capacity: 20000 });
    const flock = await post('/api/v1/flocks', {
      name: 'Chart flock',
      birdType: 'broiler',
      breed: 'Ross 308',
      farmId: farm.id,
      houseId: house.id,
      hatchDate: start,
    });
    const cycle = await post(`/api/v1/flocks/${flock.id}/cycles`, { startDate: start, targetAgeDays: 42 });
    const base = `/api/v1/flocks/${flock.id}/cycles/${cycle.id}`;
    ids = `${flock.id}/${cycle.id}`;
    await post(`${base}/movements`, { type: 'bird_inflow', date: start, quantity: 10000, averageWeightGrams: 42 });
    await post(`${base}/movements`, { type: 'feed_delivery', date: start, feedType: 'starter', quantityKg: 30000 });
    for (let n = 1; n <= CYCLE_DAYS; n++) {
      await post(`${base}/daily-records`, {
        date: day(n - CYCLE_DAYS - 1),
        deaths: { unknown: 5 + (n % 4) },
        culls: 1,
        feedKg: 100 + n * 40,
        waterLiters: 180 + n * 70,
        temperatureMinC: 30 - n / 3,
        temperatureMaxC: 33 - n / 3,
        humidityPct: 60,
      });
    }
    for (const [age, samples] of WEIGHINGS) await post(`${base}/weights`, { date: day(age - CYCLE_DAYS - 1), samples });
  }

  /** The screenshot's pixels, read back through a canvas of the blank page. */
  async function pixelsOf(png: Buffer): Promise<Pixels> {
    const read = (await decoder.evaluate(`(async () => {
      const img = new Image();
      img.src = 'data:image/png;base64,${png.toString('base64')}';
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, img.width, img.height).data;
      let bytes = '';
      for (let i = 0; i < data.length; i += 0x8000) bytes += String.fromCharCode.apply(null, data.subarray(i, i + 0x8000));
      return { width: img.width, height: img.height, rgba: btoa(bytes) };
    })()`)) as { width: number; height: number; rgba: string };
    return { width: read.width, height: read.height, rgba: new Uint8Array(Buffer.from(read.rgba, 'base64')) };
  }

  for (const route of ['breed', 'daily'] as const) {
    for (const chart of ['weight', 'mortality', 'fcr'] as const) {
      it(`${route} ${chart}: every series is one line through its markers, drawn on the screenshot`, async () => {
        if (setupError) throw setupError;
        const path = `/api/v2/analytics/${route}/${ids}?chart=${chart}`;
        const served = await http('GET', path, { token, headers: { Accept: 'image/svg+xml' } });
        expect(served.status, served.text).toBe(200);
        const svg = served.text;
        const lines = drawnLines(svg);
        expect(lines.length, 'series lines').toBe(chart === 'mortality' ? 1 : 2);
        const origin = plotOrigin(svg);
        // Where each line must run, in screenshot pixels: from marker to marker for a solid series (a marker
        // is drawn at each value), through the path's own points for the dashed standard (no markers).
        const routes = lines.map((line) => {
          const at = line.dashed ? line.subpaths.flat() : markers(svg, line.colour);
          expect(at.length, `${line.colour}: points`).toBeGreaterThanOrEqual(line.dashed || chart === 'mortality' ? CYCLE_DAYS : WEIGHINGS.length);
          return { line, at: at.map((v) => ({ x: v.x + origin.x, y: v.y + origin.y })) };
        });

        // the same document in Chromium, at its own size, as a person opens the URL
        const context = await browser!.newContext({ viewport: { width: 800, height: 420 }, deviceScaleFactor: 1 });
        try {
          // a navigation sends the browser's own Accept (HTML first): the request asks as a client of the API does
          await context.route(`${api.baseUrl}/api/**`, (request) =>
            request.continue({ headers: { ...request.request().headers(), authorization: `Bearer ${token}`, accept: 'image/svg+xml' } }),
          );
          const page = await context.newPage();
          page.setDefaultTimeout(STEP_MS);
          const res = await page.goto(`${api.baseUrl}${path}`, { waitUntil: 'load' });
          expect(res?.status()).toBe(200);
          expect(res?.headers()['content-type']).toMatch(/^image\/svg\+xml/);
          // each path's length as Chromium lays it out (a script string: this project has no DOM types)
          const lengths = (await page.evaluate(`[...document.querySelectorAll('path')].map((p) => p.getTotalLength())`)) as number[];
          const png = await page.screenshot();
          await mkdir(ARTIFACTS, { recursive: true });
          await writeFile(join(ARTIFACTS, `chart-${route}-${chart}.png`), png);
          const px = await pixelsOf(png);
          expect([px.width, px.height]).toEqual([800, 420]);

          expect(lengths, 'paths in Chromium').toHaveLength(lines.length);
          const report: string[] = [];
          routes.forEach(({ line, at }, i) => {
            const span = at.slice(1).reduce((sum, v, j) => sum + distance(at[j]!, v), 0);
            const { hits, pixels } = colourAlong(px, alongPolyline(at, SAMPLES), line.colour);
            report.push(`${line.colour}${line.dashed ? ' dashed' : ''}: ${Math.round(span)} px, ${hits}/${SAMPLES + 1} samples, ${pixels} px of its colour`);
            // the line is there on the screenshot: a solid line shows its colour at every sample, a dashed one
            // has gaps of 4 px (within REACH of a dash); a 2 px wide line has some 2 pixels per unit of length
            expect((hits / (SAMPLES + 1)) * 100, `${line.colour}: % of samples along the route with the colour`).toBeGreaterThanOrEqual(line.dashed ? 90 : 97);
            expect(pixels, `${line.colour}: pixels of the colour along the route (${Math.round(span)} px)`).toBeGreaterThanOrEqual(
              span * (line.dashed ? 0.6 : 1),
            );
            // and Chromium lays the path out as long as the route: one line, not a row of lone points
            expect(lengths[i], `${line.colour}: path length in Chromium`).toBeCloseTo(span, 0);
          });
          console.info(`charts-browser ${route} ${chart}: ${report.join('; ')}`);
        } finally {
          await context.close();
        }

        // the SVG as served: one continuous subpath (one M, an L per further point) per series, through its markers
        for (const { line, at } of routes) {
          expect(line.d, `${line.colour}: one subpath`).toMatch(/^M[^MZ]+$/);
          expect(line.subpaths[0], `${line.colour}: a vertex per point`).toHaveLength(at.length);
        }
      });
    }
  }
});
