/**
 * Viewer benchmark (issue 11): opening a large demo slide in the viewer, and the frame rate of a scripted pan/zoom.
 *
 * Starts the app in this process on SQLite (the built `dist/`, one process, demo accounts), registers a synthetic
 * slide (`--size` px square, 0.25 µm/px; generated once and kept under the OS temp dir), and drives Debian's
 * Chromium through playwright-core:
 *
 * - first sharp viewport: from navigation start of /slide/view?id=… to OpenSeadragon's first fully-loaded view
 *   (every tile of the view drawn at its best level). Baseline in the same run: fetching the very tiles that view
 *   loaded, all at once with fetch() from the page (no cache), plus the descriptor: what the network and the tile
 *   server cost anyway. Ratio = viewer / baseline.
 * - frame rate: requestAnimationFrame callbacks counted during a scripted sequence of drags and wheel zooms over the
 *   viewer, against the same count on the same page standing still (the display rate headless Chromium gives).
 * - duplicate tile requests: tile URLs requested more than once during the whole run (the browser cache should
 *   answer repeats without a request).
 *
 *   npx vite build
 *   node --import tsx scripts/bench/viewer.ts [--size 50000] [--runs 3] [--seconds 4]
 *
 * Targets: first sharp viewport ≤ 500 ms on loopback; pan/zoom ≥ 50 fps.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { buildApp } from '../../server/app.js';
import { connect } from '../../server/db/connect.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { seed } from '../../server/db/seed/index.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { registerSlide } from '../../server/modules/slides/register.js';

const { values: args } = parseArgs({
  options: { size: { type: 'string', default: '50000' }, runs: { type: 'string', default: '3' }, seconds: { type: 'string', default: '4' } },
});
const SIZE = Number(args.size);
const RUNS = Math.max(1, Number(args.runs));
const SECONDS = Math.max(1, Number(args.seconds));
const DIST = path.resolve('dist');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) throw new Error('run `npx vite build` first');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-bench-viewer-'));
  const slideFile = path.join(os.tmpdir(), `dsms-bench-viewer-${SIZE}.tiff`);
  if (!fs.existsSync(slideFile)) {
    const t = Date.now();
    console.log(`generating a ${SIZE}×${SIZE} demo slide (once) …`);
    await generateDemoSlide({ out: `${slideFile}.part`, width: SIZE, height: SIZE, mpp: 0.25, seed: 50, slideId: `BENCH-${SIZE}`, bigTiff: 'auto' });
    fs.renameSync(`${slideFile}.part`, slideFile);
    console.log(`  ${((Date.now() - t) / 1000).toFixed(0)} s`);
  }
  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(path.join(dataDir, 'slides'), { recursive: true });
  const served = path.join(dataDir, 'slides', 'bench.tiff');
  fs.symlinkSync(slideFile, served);
  const db = connect({ sqliteFile: path.join(dir, 'dsms.sqlite') });
  await migrateToLatest(db);
  await seed(db, true);
  const hospital = await db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
  const slideId = await registerSlide(db, dataDir, served, { name: 'BENCH', hospital_id: hospital.id, case_id: null, uploaded_by: null });
  const app = await buildApp({ db, config: { tokenTtlSeconds: 3600, distDir: DIST, logLevel: 'warn', dataDir }, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${url}/login`);
    await page.locator('input[name=username]').fill('primary');
    await page.locator('input[name=password]').fill('dsms-demo');
    await page.locator('button[type=submit]').click();
    await page.getByTestId('dashboard').waitFor();

    const requested = new Map<string, number>();
    page.on('request', (r) => { if (r.url().includes('/api/tiles/')) requested.set(r.url(), (requested.get(r.url()) ?? 0) + 1); });

    const sharp: number[] = [];
    /** When OpenSeadragon had the descriptor and began loading tiles: after the app, its chunk and the slide's information. */
    const opened: number[] = [];
    const raw: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const tiles: string[] = [];
      const onTile = (r: { url(): string }) => { if (/_files\/\d+\/\d+_\d+\.jpeg$/.test(r.url())) tiles.push(r.url()); };
      page.on('request', onTile);
      // Each run a fresh document and an empty HTTP cache, as a first visit (the session stays signed in).
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      await page.goto(`${url}/manage`);
      await page.getByTestId('dashboard').waitFor();
      requested.clear();
      await page.goto(`${url}/slide/view?id=${slideId}`);
      const pane = page.getByTestId('viewer-pane-0');
      await page.waitForFunction(() => document.querySelector('[data-testid="viewer-pane-0"]')?.getAttribute('data-sharp-at'), undefined, { timeout: 60_000 });
      sharp.push(Number(await pane.getAttribute('data-sharp-at')));
      // Where the time went (Resource Timing, ms from navigation start): the viewer's chunk, the slide's information,
      // the descriptor, and each pyramid level's first request and last response.
      const waterfall = await page.evaluate(`(() => {
        const out = {}; const span = (k, e) => { const o = out[k] ?? (out[k] = { start: Infinity, end: 0, n: 0 }); o.start = Math.min(o.start, e.startTime); o.end = Math.max(o.end, e.responseEnd); o.n++; };
        for (const e of performance.getEntriesByType('resource')) {
          const u = new URL(e.name).pathname; const m = /_files\\/(\\d+)\\//.exec(u);
          if (m) span('level ' + m[1], e); else if (u.endsWith('.dzi')) span('descriptor', e); else if (u.includes('/kfb/open/')) span('slide info', e);
          else if (/ViewerPage|openseadragon/i.test(u)) span('viewer chunk', e);
        }
        // Server time per tile (request sent → first byte), median over the view's tiles: is the tile server the bottleneck?
        const ttfb = performance.getEntriesByType('resource').filter((e) => /_files\\//.test(e.name) && e.responseStart > 0).map((e) => e.responseStart - e.requestStart).sort((a, b) => a - b);
        return Object.entries(out).map(([k, v]) => k + ' ' + v.start.toFixed(0) + '→' + v.end.toFixed(0) + (v.n > 1 ? ' (' + v.n + ')' : '')).join(', ')
          + '; tile time to first byte median ' + (ttfb[Math.floor(ttfb.length / 2)] ?? 0).toFixed(0) + ' ms, max ' + (ttfb[ttfb.length - 1] ?? 0).toFixed(0) + ' ms';
      })()`);
      console.log(`  waterfall: ${String(waterfall)}`);
      opened.push(Number(await pane.getAttribute('data-open-at')));
      page.off('request', onTile);
      // Baseline: the same descriptor and tiles, fetched at once from the same page, bypassing the cache.
      raw.push(await page.evaluate(async ({ id, list }) => {
        const t0 = performance.now();
        await fetch(`/api/tiles/${id}.dzi`, { cache: 'no-store' }).then((r) => r.text());
        await Promise.all(list.map((u) => fetch(u, { cache: 'no-store' }).then((r) => r.arrayBuffer())));
        return performance.now() - t0;
      }, { id: slideId, list: [...new Set(tiles)] }));
      console.log(`run ${run + 1}: first sharp viewport ${sharp[run]!.toFixed(0)} ms after navigation start, ${(sharp[run]! - opened[run]!).toFixed(0)} ms after the viewer opened the slide (${new Set(tiles).size} tiles); raw fetch of them ${raw[run]!.toFixed(0)} ms`);
    }

    // Frame rate: a scripted pan/zoom (drags and wheel steps) against the page standing still.
    // A string, not a function: the bundler's name helpers do not exist in the page.
    const frames = (page: Page, ms: number) => page.evaluate(`new Promise((resolve) => {
      let n = 0; const end = performance.now() + ${ms};
      const tick = () => { n++; if (performance.now() < end) requestAnimationFrame(tick); else resolve(n); };
      requestAnimationFrame(tick);
    })`) as Promise<number>;
    // The baseline above asked for the same tiles again on purpose: count the viewer's own requests from here.
    requested.clear();
    await page.getByTestId('mag-10').click();
    await page.waitForTimeout(1500);
    const idle = await frames(page, SECONDS * 1000);
    const box = (await page.getByTestId('viewer-pane-0').boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const moving = frames(page, SECONDS * 1000);
    const end = Date.now() + SECONDS * 1000;
    for (let i = 0; Date.now() < end; i++) {
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      await page.mouse.move(cx + (i % 2 ? -300 : 300), cy + (i % 3 ? 120 : -120), { steps: 20 });
      await page.mouse.up();
      await page.mouse.wheel(0, i % 2 ? 240 : -240);
    }
    const busy = await moving;
    const duplicates = [...requested.values()].filter((n) => n > 1).length;

    const s = median(sharp);
    const r = median(raw);
    console.log('');
    console.log(`slide ${SIZE}×${SIZE} px, ${RUNS} runs, Chromium ${browser.version()}`);
    const o = median(sharp.map((x, i) => x - opened[i]!));
    console.log(`first sharp viewport   median ${s.toFixed(0)} ms from navigation start, ${o.toFixed(0)} ms from the slide opening   baseline (raw tile fetch) ${r.toFixed(0)} ms   ratio ${(o / r).toFixed(2)}   target ≤ 500 ms`);
    console.log(`pan/zoom frame rate    ${(busy / SECONDS).toFixed(1)} fps   idle page ${(idle / SECONDS).toFixed(1)} fps   ratio ${(busy / idle).toFixed(2)}   target ≥ 50 fps`);
    console.log(`tile URLs requested more than once during the pan/zoom run: ${duplicates} of ${requested.size}`);
  } finally {
    await browser.close();
    await app.close();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
