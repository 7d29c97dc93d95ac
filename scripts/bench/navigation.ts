/**
 * Navigation benchmark (issue 9): from a click in the side menu to a schema list page showing its rows.
 *
 * Starts the app as a user runs it — the built `dist/` and `server/main.ts` in their own process with
 * `npm start`'s defaults (all cores as workers, demo data) on a temporary DATA_DIR and a free port —,
 * drives Debian's Chromium through playwright-core, signs in as admin, and for every schema list page
 * in the menu times click → rows visible (the page's `[data-row-key]` rows, or its empty text once
 * loaded). Cold: the first visit in the session; warm: the later visits (`--rounds`).
 *
 * Baseline (measured in the same run, same browser): the raw API round trip of the very list request
 * the page sent, repeated with `fetch` from the page (headers as the app sends them) and parsed as
 * JSON. The ratio says how far navigation is above what the network and the database cost anyway.
 *
 *   npx vite build   # the benchmark serves the build in dist/ of the current directory
 *   node --import tsx scripts/bench/navigation.ts [--rounds 5] [--lang zh-CN] [--build] [--profile DIR]
 *
 * Targets: warm p95 ≤ 100 ms, cold p95 ≤ 300 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { visibleMenu, type MenuEntry as ShownEntry } from '../../src/core/menuRules';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    lang: { type: 'string', default: 'zh-CN' },
    build: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    // --profile DIR: a V8 CPU profile of the page for each warm click of the last round (open in Chrome DevTools).
    profile: { type: 'string' },
  },
});
const ROUNDS = Math.max(1, Number(args.rounds));
const ROOT = process.cwd();

interface MenuEntry { alias?: string; uri: string; name: string; en_name?: string; hidden?: number | boolean; children?: MenuEntry[] }
interface Target { alias: string; uri: string; parent: string | null }

const percentile = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0).padStart(5) : '    —');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/common/setting`);
      if (res.ok) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server did not start in time');
}

/** Schema aliases whose base page is a list (schemas/pages/<Alias>.json with type "list"). */
function listAliases(): Set<string> {
  const dir = path.join(ROOT, 'schemas/pages');
  const out = new Set<string>();
  for (const file of fs.readdirSync(dir)) {
    if (!file.endsWith('.json')) continue;
    const schema = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { type?: string };
    if (schema.type === 'list') out.add(file.replace(/\.json$/, ''));
  }
  return out;
}

/** Menu leaves (the side menu flattens deeper levels under their top entry) that are schema list pages. */
function targetsOf(menu: MenuEntry[], lists: Set<string>): Target[] {
  const out: Target[] = [];
  const leaves = (e: MenuEntry): MenuEntry[] => (e.children?.length ? e.children.flatMap(leaves) : [e]);
  for (const top of menu) {
    if (top.hidden) continue;
    const under = top.children?.length ? leaves(top).map((e) => ({ e, parent: top.name })) : [{ e: top, parent: null }];
    for (const { e, parent } of under) {
      if (!e.hidden && e.alias && lists.has(e.alias) && !/^https?:/.test(e.uri)) out.push({ alias: e.alias, uri: e.uri, parent });
    }
  }
  return out;
}

/**
 * In the page: the click's time (capture phase, before React sees it) and the moment the target list shows rows.
 * Plain text, not a function: tsx would wrap a function's inner names in a helper the page does not have.
 */
const PROBE = `
  const isList = (url) => /\\/lists(\\?|$)/.test(url) && !/page_size=1000/.test(url);
  const check = () => {
    const n = window.__nav;
    if (n && n.start && n.listed && !n.end && done(n.alias)) n.end = performance.now();
  };
  // Rows count only once the page's own list request, sent after the click, has answered (not stale rows).
  const listed = (url) => {
    const n = window.__nav;
    if (!n || !n.start || !isList(url) || n.listed) return;
    n.listed = true;
    n.answered = performance.now();
    // A render that changes nothing in the DOM (empty before, empty after) gives the observer nothing: poll per frame too.
    const frame = () => { check(); if (!n.end) requestAnimationFrame(frame); };
    setTimeout(frame, 0);
  };
  const open = XMLHttpRequest.prototype.open;
  const sending = (url) => { const n = window.__nav; if (n && n.start && !n.sent && isList(url)) n.sent = performance.now(); };
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    sending(String(url));
    this.addEventListener('load', () => listed(String(url)));
    return open.call(this, method, url, ...rest);
  };
  const fetch0 = window.fetch;
  window.fetch = async (input, init) => {
    sending(typeof input === 'string' ? input : input.url);
    const res = await fetch0(input, init);
    listed(typeof input === 'string' ? input : input.url);
    return res;
  };
  document.addEventListener('click', () => { if (window.__nav && !window.__nav.start) window.__nav.start = performance.now(); }, true);
  const done = (alias) => {
    const root = document.querySelector('[data-testid="list-page"][data-alias="' + alias + '"]');
    if (!root) return false;
    const body = root.querySelector('[data-testid="data-table"], [data-testid="card-grid"]');
    if (!body || body.querySelector('[role="progressbar"]')) return false;
    if (body.querySelector('[data-row-key]')) return true;
    // An empty list: loaded (no spinner) with its empty text.
    const rows = body.querySelector('tbody') || body;
    return rows.textContent.trim().length > 0;
  };
  window.__navArm = (alias) => {
    window.__nav = { alias, start: 0, end: 0, listed: false, sent: 0, answered: 0 };
    const observer = new MutationObserver(() => {
      check();
      if (window.__nav.end) observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
  };
`;

async function main() {
  if (args.build) {
    const build = spawn(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: ROOT, stdio: 'inherit' });
    await new Promise((r) => build.on('exit', r));
  }
  if (!fs.existsSync(path.join(ROOT, 'dist/index.html'))) throw new Error('dist/ is missing: run `npx vite build` first (or pass --build)');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-bench-nav-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', args.verbose ? 'inherit' : 'ignore', 'inherit'],
  });
  const stop = () => { if (server.exitCode === null) server.kill('SIGTERM'); };
  process.on('exit', stop);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    await waitForServer(url, server);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: args.lang });
    await context.addInitScript({ content: PROBE });
    await context.addInitScript({ content: `localStorage.setItem('lang', ${JSON.stringify(args.lang)});` });
    const page = await context.newPage();
    const cdp = args.profile ? await context.newCDPSession(page) : null;
    if (cdp) { fs.mkdirSync(args.profile!, { recursive: true }); await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); }
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(`${url}/login`);
    await page.locator('input[name=username]').fill('admin');
    await page.locator('input[name=password]').fill('dsms-admin');
    await page.locator('button[type=submit]').click();
    await page.getByTestId('dashboard').waitFor({ timeout: 60_000 });

    const menu = await page.evaluate(async () => {
      const res = await fetch('/api/system_management/users/menu', { headers: { Authorization: `Bearer ${sessionStorage.getItem('access_token')}` } });
      return (await res.json()).data;
    }) as MenuEntry[];
    // The side menu shows only what `visibleMenu` keeps (is_show, empty categories): walk the same tree.
    const targets = targetsOf(visibleMenu(menu as ShownEntry[]) as MenuEntry[], listAliases());
    if (!targets.length) throw new Error('no schema list page in the menu');

    const cold = new Map<string, number>();
    const warm = new Map<string, number[]>();
    const listUrl = new Map<string, string>();
    const coldPhases: { toSend: number; toDraw: number }[] = [];
    const warmPhases: { toSend: number; toDraw: number }[] = [];
    // Round 0 is the cold pass (first visit of every page); then `ROUNDS` warm passes.
    for (let round = 0; round <= ROUNDS; round++) {
      for (const t of targets) {
        const link = page.locator(`[data-testid="side-menu"] a[data-alias="${t.alias}"]`);
        if (!(await link.isVisible())) {
          await page.locator('[data-testid="side-menu"] button[aria-expanded]', { hasText: t.parent ?? '' }).first().click();
          await link.waitFor({ state: 'visible' }).catch(async (e) => {
            await page.screenshot({ path: '/tmp/nav-fail.png' });
            throw e;
          });
          await page.waitForTimeout(400); // the category's opening motion
        }
        const sent = page.waitForRequest((r) => r.url().includes('/lists') && !r.url().includes('page_size=1000'), { timeout: 15_000 }).catch(() => null);
        await page.evaluate((alias) => (window as unknown as { __navArm(a: string): void }).__navArm(alias), t.alias);
        const profiling = cdp && round === ROUNDS;
        if (profiling && process.env.NAV_TRACE) await browser.startTracing(page, { path: path.join(args.profile!, `${t.alias}.trace.json`), categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'] });
        else if (profiling) await cdp.send('Profiler.start');
        await link.click();
        await page.waitForFunction(() => {
          const n = (window as unknown as { __nav?: { end: number } }).__nav;
          return !n || n.end > 0;
        }, undefined, { timeout: 30_000, polling: 50 });
        if (profiling && process.env.NAV_TRACE) await browser.stopTracing();
        else if (profiling) {
          const { profile } = await cdp.send('Profiler.stop');
          fs.writeFileSync(path.join(args.profile!, `${t.alias}.cpuprofile`), JSON.stringify(profile));
        }
        if (!(await page.evaluate(() => !!(window as unknown as { __nav?: unknown }).__nav))) {
          throw new Error(`the page reloaded on the way to ${t.alias} (now at ${page.url()}); page errors: ${errors.join(' | ') || 'none'}`);
        }
        const phase = await page.evaluate(() => {
          const n = (window as unknown as { __nav: { start: number; end: number; sent: number; answered: number } }).__nav;
          return { took: n.end - n.start, toSend: n.sent - n.start, toDraw: n.end - n.answered };
        });
        const took = phase.took;
        (round === 0 ? coldPhases : warmPhases).push(phase);
        const request = await sent;
        if (request && !listUrl.has(t.alias)) listUrl.set(t.alias, request.url());
        if (round === 0) cold.set(t.alias, took);
        else warm.set(t.alias, [...(warm.get(t.alias) ?? []), took]);
        // Let the page settle (column preferences, counts) before the next click, as a person reading it would.
        await page.waitForTimeout(150);
      }
    }

    // Memory: what the visited pages hold (the shell keeps list pages drawn when left), against the last page
    // loaded afresh in the same tab. Taken after a collection, so both count what is alive.
    const memory = async () => {
      const session = await context.newCDPSession(page);
      await session.send('HeapProfiler.collectGarbage');
      await session.send('Performance.enable');
      const { metrics } = await session.send('Performance.getMetrics');
      const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
      const lists = await page.locator('[data-testid="list-page"]').count();
      await session.detach();
      return { nodes: metric('Nodes'), heapMb: metric('JSHeapUsedSize') / 2 ** 20, lists };
    };
    const visited = await memory();
    await page.reload();
    await page.locator('[data-testid="list-page"] [data-row-key], [data-testid="list-page"] tbody').first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(1000);
    const fresh = await memory();

    // Baseline: the same list requests, raw, from the same page.
    const api = new Map<string, number[]>();
    for (const [alias, u] of listUrl) {
      const times = await page.evaluate(async ({ u, n, lang }) => {
        const out: number[] = [];
        const headers = { Authorization: `Bearer ${sessionStorage.getItem('access_token')}`, 'User-Language': lang };
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          const res = await fetch(u, { headers });
          await res.json();
          out.push(performance.now() - t0);
        }
        return out;
      }, { u, n: ROUNDS + 1, lang: args.lang! });
      api.set(alias, times);
    }

    const rows = targets.map((t) => ({
      alias: t.alias,
      cold: cold.get(t.alias) ?? NaN,
      warm50: percentile(warm.get(t.alias) ?? [], 50),
      warm95: percentile(warm.get(t.alias) ?? [], 95),
      api50: percentile(api.get(t.alias) ?? [], 50),
    }));
    console.log(`\nNavigation: side-menu click → list rows visible (ms), ${targets.length} schema list pages, ${ROUNDS} warm rounds, ${args.lang}`);
    console.log('page                 cold  warm p50  warm p95   api p50');
    for (const r of rows) console.log(`${r.alias.padEnd(18)} ${ms(r.cold)}     ${ms(r.warm50)}     ${ms(r.warm95)}     ${ms(r.api50)}`);
    const coldAll = [...cold.values()];
    const warmAll = [...warm.values()].flat();
    const apiAll = [...api.values()].flat();
    const line = (name: string, xs: number[]) => {
      const p50 = percentile(xs, 50);
      const p95 = percentile(xs, 95);
      return `${name.padEnd(28)} ${ms(p50)} ${ms(p95)}   ${(p50 / percentile(apiAll, 50)).toFixed(1).padStart(5)}× ${(p95 / percentile(apiAll, 95)).toFixed(1).padStart(5)}×`;
    };
    console.log('\nall pages                      p50   p95   ratio to the raw list API (p50, p95)');
    console.log(line('cold (first visit)', coldAll));
    console.log(line('warm (later visits)', warmAll));
    console.log(line('baseline: raw list API fetch', apiAll));
    console.log('targets: warm p95 ≤ 100 ms, cold p95 ≤ 300 ms');
    const split = (name: string, xs: { toSend: number; toDraw: number }[]) =>
      console.log(`${name.padEnd(6)} click → list request sent p50 ${ms(percentile(xs.map((x) => x.toSend), 50))}, p95 ${ms(percentile(xs.map((x) => x.toSend), 95))};` +
        ` list answer → rows drawn p50 ${ms(percentile(xs.map((x) => x.toDraw), 50))}, p95 ${ms(percentile(xs.map((x) => x.toDraw), 95))}`);
    console.log('\nwhere the time goes:');
    split('cold', coldPhases);
    split('warm', warmPhases);
    console.log(`\nmemory after the rounds: ${visited.lists} list pages drawn (kept), ${visited.nodes} DOM nodes, ${visited.heapMb.toFixed(1)} MB JS heap;` +
      ` the last page loaded afresh: ${fresh.lists} list page, ${fresh.nodes} DOM nodes, ${fresh.heapMb.toFixed(1)} MB JS heap`);
    if (errors.length) console.log(`\npage errors:\n${errors.join('\n')}`);
  } finally {
    await browser.close();
    stop();
    await new Promise((r) => (server.exitCode === null ? server.once('exit', r) : r(null)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
