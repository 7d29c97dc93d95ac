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
 * - first sharp viewport from SlideLibrary: the usual way in — the app loaded on /manage/slide/library (HTTP cache
 *   emptied first), the list read for --dwell ms, the slide's row link clicked; from the click to the same first
 *   fully-loaded view, in the same document. Same baseline; ratio = click → sharp / baseline.
 * - first sharp viewport in a new tab: the app's code already in the HTTP cache (a working day), another slide id
 *   each run so no tile is cached; from navigation start.
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
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '50000' }, runs: { type: 'string', default: '3' }, seconds: { type: 'string', default: '4' },
    // --profile DIR: V8 CPU profiles of the page (open.cpuprofile: the last run's opening; panzoom.cpuprofile: the
    // pan/zoom sequence), and their heaviest functions by self time printed here.
    profile: { type: 'string' },
    // --trace DIR: Chromium performance traces of the last run's opening (open.trace.json) and of the pan/zoom
    // sequence (panzoom.trace.json), and the renderer main thread's time by event printed here (script, style, layout, paint, raster, image decode …).
    trace: { type: 'string' },
    // --dist DIR: serve another build (a "before" build beside this one, run back to back).
    dist: { type: 'string', default: 'dist' },
    // --hide SELECTORS: hidden (display: none) for the pan/zoom, to find which layer its frames cost (an experiment).
    hide: { type: 'string' },
    // --dwell MS: how long the slide list is shown before its row is clicked (a person finding the row).
    dwell: { type: 'string', default: '1000' },
  },
});
const SIZE = Number(args.size);
const RUNS = Math.max(1, Number(args.runs));
const SECONDS = Math.max(1, Number(args.seconds));
const DIST = path.resolve(args.dist!);
const DWELL = Math.max(0, Number(args.dwell));
const BENCH_NAME = 'BENCH';
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'cc', 'gpu'];
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
  // Registered as a bind does, and read by its ingest job here before the app serves it.
  const register = async (file: string, name: string) => {
    const id = await registerSlide(db, dataDir, file, { name, hospital_id: hospital.id, case_id: null, uploaded_by: null });
    await ingestNow(db, dataDir, id);
    return id;
  };
  const slideId = await register(served, BENCH_NAME);
  // The same image under other slide ids, one per run of "a new tab with the app cached": tiles never asked before.
  const others: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const file = path.join(dataDir, 'slides', `bench-${run}.tiff`);
    fs.symlinkSync(slideFile, file);
    others.push(await register(file, `${BENCH_NAME}-${run}`));
  }
  const app = await buildApp({ db, config: { tokenTtlSeconds: 3600, distDir: DIST, logLevel: 'warn', dataDir }, logger: false });
  // Tile requests as the server sees them (the browser cache answers repeats without one): counted per URL.
  const atServer = new Map<string, number>();
  let counting = true;
  app.server.on('request', (req) => {
    if (counting && req.url && /^\/api\/tiles\/.*_files\//.test(req.url)) atServer.set(req.url, (atServer.get(req.url) ?? 0) + 1);
  });
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
    const cdp = await page.context().newCDPSession(page);
    if (args.profile) {
      fs.mkdirSync(args.profile, { recursive: true });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    }
    const stopProfile = async (name: string) => {
      const { profile } = await cdp.send('Profiler.stop');
      fs.writeFileSync(path.join(args.profile!, `${name}.cpuprofile`), JSON.stringify(profile));
      console.log(`  ${name}: heaviest by self time (ms)  ${heaviest(profile)}`);
    };

    const sharp: number[] = [];
    /** When OpenSeadragon had the descriptor and began loading tiles: after the app, its chunk and the slide's information. */
    const opened: number[] = [];
    const raw: number[] = [];
    const perView: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const tiles: string[] = [];
      const onTile = (r: { url(): string }) => { if (/_files\/\d+\/\d+_\d+\.jpeg$/.test(r.url())) tiles.push(r.url()); };
      // Each run a fresh document and an empty HTTP cache, as a first visit (the session stays signed in).
      await cdp.send('Network.clearBrowserCache');
      await page.goto(`${url}/manage`);
      await page.getByTestId('dashboard').waitFor();
      requested.clear();
      atServer.clear();
      page.on('request', onTile);
      const profiling = args.profile && run === RUNS - 1;
      if (profiling) await cdp.send('Profiler.start');
      const openTrace = args.trace && run === RUNS - 1 ? path.join(args.trace, 'open.trace.json') : null;
      if (openTrace) {
        fs.mkdirSync(args.trace!, { recursive: true });
        await browser.startTracing(page, { path: openTrace, categories: TRACE_CATEGORIES });
      }
      await page.goto(`${url}/slide/view?id=${slideId}`);
      const pane = page.getByTestId('viewer-pane-0');
      await page.waitForFunction(() => document.querySelector('[data-testid="viewer-pane-0"]')?.getAttribute('data-sharp-at'), undefined, { timeout: 60_000 });
      if (profiling) await stopProfile('open');
      if (openTrace) {
        await browser.stopTracing();
        console.log(`  opening trace: main-thread time by event (ms, self)  ${mainThreadTime(openTrace)}`);
      }
      sharp.push(Number(await pane.getAttribute('data-sharp-at')));
      console.log(`  waterfall:\n    ${await waterfall(page, 0)}`);
      opened.push(Number(await pane.getAttribute('data-open-at')));
      page.off('request', onTile);
      const dupBrowser = [...requested.values()].filter((n) => n > 1).length;
      const dupServer = [...atServer.values()].filter((n) => n > 1).length;
      perView.push(`${new Set(tiles).size} tiles for the first view, ${tiles.length} requests (${dupBrowser} URLs asked twice by the page, ${dupServer} twice at the server)`);
      // Baseline: the same descriptor and tiles, fetched at once from the same page, bypassing the cache.
      counting = false;
      raw.push(await rawFetch(page, slideId, tiles));
      const drawn = await sharpLevel(page, tiles);
      counting = true;
      console.log(`run ${run + 1}: first sharp viewport ${sharp[run]!.toFixed(0)} ms after navigation start, ${(sharp[run]! - opened[run]!).toFixed(0)} ms after the viewer opened the slide; ${perView[run]}; raw fetch of them ${raw[run]!.toFixed(0)} ms; ${drawn}`);
    }

    // The way a pathologist usually opens a slide: the app already loaded on SlideLibrary, the slide's row found, its
    // link clicked; the viewer opens in the same tab. Each run starts as a first visit of the day (HTTP cache emptied
    // before the list loads, so nothing of the viewer is cached unless the list page fetched it), and leaves the list
    // DWELL ms to be read before the click. Timed from the click event to the first sharp viewport, in one document.
    const clicked: number[] = [];
    const clickRaw: number[] = [];
    const clickView: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const tiles: string[] = [];
      const onTile = (r: { url(): string }) => { if (/_files\/\d+\/\d+_\d+\.jpeg$/.test(r.url())) tiles.push(r.url()); };
      await cdp.send('Network.clearBrowserCache');
      await page.goto(`${url}/manage/slide/library`);
      const link = page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: BENCH_NAME }).getByRole('link', { name: BENCH_NAME, exact: true });
      await link.waitFor();
      await page.waitForTimeout(DWELL);
      await page.evaluate(`document.addEventListener('click', (e) => { window.__benchClickAt = e.timeStamp; }, { capture: true, once: true })`);
      requested.clear();
      atServer.clear();
      page.on('request', onTile);
      const profiling = args.profile && run === RUNS - 1;
      if (profiling) await cdp.send('Profiler.start');
      await link.click();
      const pane = page.getByTestId('viewer-pane-0');
      await page.waitForFunction(() => document.querySelector('[data-testid="viewer-pane-0"]')?.getAttribute('data-sharp-at'), undefined, { timeout: 60_000 });
      if (profiling) await stopProfile('click');
      page.off('request', onTile);
      const at = Number(await page.evaluate('window.__benchClickAt'));
      clicked.push(Number(await pane.getAttribute('data-sharp-at')) - at);
      console.log(`  waterfall (ms from the click):\n    ${await waterfall(page, at)}`);
      const dupBrowser = [...requested.values()].filter((n) => n > 1).length;
      const dupServer = [...atServer.values()].filter((n) => n > 1).length;
      clickView.push(`${new Set(tiles).size} tiles for the first view, ${tiles.length} requests (${dupBrowser} URLs asked twice by the page, ${dupServer} twice at the server)`);
      counting = false;
      clickRaw.push(await rawFetch(page, slideId, tiles));
      counting = true;
      console.log(`click run ${run + 1}: first sharp viewport ${clicked[run]!.toFixed(0)} ms after the click on SlideLibrary's row; ${clickView[run]}; raw fetch of them ${clickRaw[run]!.toFixed(0)} ms; ${await sharpLevel(page, tiles)}`);
    }

    // Browser cache honoured: the same view again in a new document, cache kept — no tile should reach the server.
    atServer.clear();
    requested.clear();
    await page.goto(`${url}/slide/view?id=${slideId}`);
    await page.waitForFunction(() => document.querySelector('[data-testid="viewer-pane-0"]')?.getAttribute('data-sharp-at'), undefined, { timeout: 60_000 });
    const revisit = `the same view reopened with the cache kept: ${requested.size} tile URLs asked by the page, ${[...atServer.values()].reduce((a, b) => a + b, 0)} tile requests reached the server`;

    // A slide opened in a new tab (a link from a case, a reload) on a working day: the app's code is in the HTTP
    // cache, the slide's tiles are not (another slide id each run). From navigation start to the first sharp view.
    const tabbed: number[] = [];
    for (const other of others) {
      await page.goto(`${url}/slide/view?id=${other}`);
      await page.waitForFunction(() => document.querySelector('[data-testid="viewer-pane-0"]')?.getAttribute('data-sharp-at'), undefined, { timeout: 60_000 });
      tabbed.push(Number(await page.getByTestId('viewer-pane-0').getAttribute('data-sharp-at')));
    }

    // Frame rate: a scripted pan/zoom (drags and wheel steps) against the page standing still.
    // A string, not a function: the bundler's name helpers do not exist in the page.
    const frames = (page: Page, ms: number) => page.evaluate(`new Promise((resolve) => {
      let n = 0; const end = performance.now() + ${ms};
      const tick = () => { n++; if (performance.now() < end) requestAnimationFrame(tick); else resolve(n); };
      requestAnimationFrame(tick);
    })`) as Promise<number>;
    requested.clear();
    atServer.clear();
    if (args.hide) await page.addStyleTag({ content: `${args.hide} { display: none !important; }` });
    await page.getByTestId('mag-10').click();
    await page.waitForTimeout(1500);
    const idle = await frames(page, SECONDS * 1000);
    const box = (await page.getByTestId('viewer-pane-0').boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    if (args.profile) await cdp.send('Profiler.start');
    const tracePath = args.trace ? path.join(args.trace, 'panzoom.trace.json') : null;
    if (tracePath) {
      fs.mkdirSync(args.trace!, { recursive: true });
      await browser.startTracing(page, { path: tracePath, categories: TRACE_CATEGORIES });
    }
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
    if (args.profile) await stopProfile('panzoom');
    if (tracePath) {
      await browser.stopTracing();
      console.log(`  pan/zoom trace: main-thread time by event (ms, self)  ${mainThreadTime(tracePath)}`);
    }
    const duplicates = [...requested.values()].filter((n) => n > 1).length;
    const serverDuplicates = [...atServer.values()].filter((n) => n > 1).length;

    const s = median(sharp);
    const r = median(raw);
    console.log('');
    console.log(`slide ${SIZE}×${SIZE} px, ${RUNS} runs, Chromium ${browser.version()}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    const o = median(sharp.map((x, i) => x - opened[i]!));
    console.log(`first sharp viewport   median ${s.toFixed(0)} ms from navigation start, ${o.toFixed(0)} ms from the slide opening   baseline (raw tile fetch) ${r.toFixed(0)} ms   ratio ${(o / r).toFixed(2)}   target ≤ 500 ms`);
    const c = median(clicked);
    const cr = median(clickRaw);
    console.log(`  from SlideLibrary    median ${c.toFixed(0)} ms from the click on the slide's row (list read ${DWELL} ms first)   baseline (raw tile fetch) ${cr.toFixed(0)} ms   ratio ${(c / cr).toFixed(2)}   target ≤ 500 ms`);
    console.log(`  app cached, new slide median ${median(tabbed).toFixed(0)} ms from navigation start (a new tab: the app's code in the HTTP cache, the slide's tiles not)   target ≤ 500 ms`);
    console.log(`pan/zoom frame rate    ${(busy / SECONDS).toFixed(1)} fps   idle page ${(idle / SECONDS).toFixed(1)} fps   ratio ${(busy / idle).toFixed(2)}   target ≥ 50 fps`);
    console.log(`tiles per view         ${perView[perView.length - 1]}`);
    console.log(`                       from SlideLibrary: ${clickView[clickView.length - 1]}`);
    console.log(`                       ${revisit}`);
    console.log(`                       pan/zoom: ${requested.size} tile URLs, ${duplicates} asked by the page more than once, ${serverDuplicates} reached the server more than once`);
  } finally {
    await browser.close();
    await app.close();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The descriptor and the view's tiles fetched at once from the page, bypassing the cache: what the network and tile server cost anyway. */
async function rawFetch(page: Page, slideId: number, tiles: string[]): Promise<number> {
  return page.evaluate(async ({ id, list }) => {
    const t0 = performance.now();
    await fetch(`/api/tiles/${id}.dzi`, { cache: 'no-store' }).then((r) => r.text());
    await Promise.all(list.map((u) => fetch(u, { cache: 'no-store' }).then((r) => r.arrayBuffer())));
    return performance.now() - t0;
  }, { id: slideId, list: [...new Set(tiles)] });
}

/**
 * The sharpness of the first view: the finest pyramid level among its tiles, and how many screen pixels one pixel
 * of that level covers (the annotation overlay's matrix scales level-0 pixels to screen pixels).
 */
async function sharpLevel(page: Page, tiles: string[]): Promise<string> {
  const level = Math.max(...tiles.map((u) => Number(/_files\/(\d+)\//.exec(u)![1])));
  const m = await page.getByTestId('viewer-pane-0').locator('[data-testid="annotation-overlay"] > g').first().getAttribute('transform');
  const [a, b] = m!.replace(/matrix\(|\)/g, '').split(/[ ,]+/).map(Number) as [number, number];
  const ratio = Math.hypot(a, b) * 2 ** (Math.ceil(Math.log2(SIZE)) - level);
  return `drawn at level ${level}, ${ratio.toFixed(2)} screen px per level pixel`;
}

/**
 * Where the time went (Resource Timing), in ms from `since` (0: navigation start; else the click that opened the
 * viewer in the same document, whose earlier entries are left out): every script chunk and API call, the
 * descriptor, each pyramid level's first request and last response, and the viewer's own marks.
 */
async function waterfall(page: Page, since: number): Promise<string> {
  // A string, not a function: the bundler's name helpers do not exist in the page.
  return String(await page.evaluate(`(() => {
    const since = ${since};
    const t = (x) => (x - since).toFixed(0);
    const out = {}; const span = (k, e) => { const o = out[k] ?? (out[k] = { start: Infinity, end: 0, n: 0 }); o.start = Math.min(o.start, e.startTime); o.end = Math.max(o.end, e.responseEnd); o.n++; };
    const resources = performance.getEntriesByType('resource').filter((e) => e.startTime >= since);
    for (const e of resources) {
      const u = new URL(e.name).pathname; const m = /_files\\/(\\d+)\\//.exec(u);
      if (m) span('level ' + m[1], e); else if (u.endsWith('.dzi')) span('descriptor', e); else if (u.includes('/kfb/open/')) span('slide info', e);
      else if (u.endsWith('.js')) span(u.split('/').pop().replace(/-[\\w-]{8}\\.js$/, '.js'), e);
      else if (u.startsWith('/api/')) span(u.replace(/\\/\\d+/g, '/:id'), e);
    }
    const rows = Object.entries(out).map(([k, v]) => [v.start, k + ' ' + t(v.start) + '→' + t(v.end) + (v.n > 1 ? ' (' + v.n + ')' : '')]);
    const nav = performance.getEntriesByType('navigation')[0];
    if (since === 0) rows.push([nav.responseEnd, 'document →' + nav.responseEnd.toFixed(0)]);
    for (const m of performance.getEntriesByType('mark')) if (m.name.startsWith('viewer:') && m.startTime >= since) rows.push([m.startTime, m.name + ' @' + t(m.startTime)]);
    rows.sort((a, b) => a[0] - b[0]);
    // Server time per tile (request sent → first byte), median over the view's tiles: is the tile server the bottleneck?
    const ttfb = resources.filter((e) => /_files\\//.test(e.name) && e.responseStart > 0).map((e) => e.responseStart - e.requestStart).sort((a, b) => a - b);
    return rows.map((r) => r[1]).join('\\n    ')
      + '\\n    tile time to first byte median ' + (ttfb[Math.floor(ttfb.length / 2)] ?? 0).toFixed(0) + ' ms, max ' + (ttfb[ttfb.length - 1] ?? 0).toFixed(0) + ' ms';
  })()`));
}

interface CpuProfile { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples?: number[]; timeDeltas?: number[] }

/** The profile's ten heaviest functions by self time, with their file: where the page's main thread went. */
function heaviest(profile: CpuProfile): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url ? `${f.url.split('/').pop()!.replace(/-[\w-]{8}\.js$/, '.js')}:${f.lineNumber + 1}` : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `\n      ${v.toFixed(0).padStart(5)}  ${k}`).join('');
}

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: { name?: string } }

/** The renderer main thread's self time per trace event name: what a frame of panning costs besides script. */
function mainThreadTime(file: string): string {
  const events = (JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return '(no renderer main thread in the trace)';
  const spans = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  // Self time: each complete event's duration less its direct children's (they nest by time on one thread).
  const self = new Map<string, number>();
  const stack: { end: number; name: string }[] = [];
  for (const e of spans) {
    while (stack.length && stack[stack.length - 1]!.end <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur!);
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur!);
    stack.push({ end: e.ts + e.dur!, name: e.name });
  }
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([k, v]) => `\n      ${(v / 1000).toFixed(0).padStart(5)}  ${k}`).join('');
}

await main();
