import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Locator, type Page, type PageScreenshotOptions } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { buildApp } from '../../server/app.js';
import { connect } from '../../server/db/connect.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { jobTypesFor } from '../../server/modules/job-types.js';
import type { JobType } from '../../server/modules/jobs/registry.js';
import { slideIngestJob } from '../../server/modules/slides/ingest.js';
import { SLIDE_CONVERSION } from '../../server/modules/slides/conversion/queries.js';
import { startJobRunner, type JobRunner } from '../../server/modules/jobs/runner.js';
import type { RealtimeConfig } from '../../server/realtime/config.js';
import type { HisConfig } from '../../server/modules/his/index.js';
import type { CorsOrigins } from '../../server/config-http.js';
import { browsers, SHOTS, watchCsp } from './page-watch.js';
import { freePort, startServer as startProcess, type ServerProcess } from '../api/server-process.js';
import { seededSqliteFile } from '../api/template-db.js';

/**
 * Whether the pages' pictures are kept (`E2E_SHOTS=1`): for a person to look at what a change drew, in both
 * languages. They assert nothing, and a run takes some 350 of them (a full-page PNG costs Chromium up to a second on
 * a busy machine), so CI leaves them out. A failed test's pictures (afterEach below) are always taken.
 */
const KEEP_SHOTS = process.env.E2E_SHOTS === '1';

/** A picture of the page (or of one part of it) as `test-results/e2e/<file>`, when pictures are kept (KEEP_SHOTS). */
export async function evidence(target: Page | Locator, file: string, options: Omit<PageScreenshotOptions, 'path'> = {}): Promise<void> {
  if (!KEEP_SHOTS) return;
  await target.screenshot({ path: path.join(SHOTS, file), ...options });
}
/** The built front end the servers serve: dist/, or E2E_DIST_DIR (a build of its own, which a rebuild of dist/ by someone else meanwhile leaves alone). */
export const DIST = path.resolve(process.env.E2E_DIST_DIR ?? 'dist');

export interface ServerOptions {
  ownDataDir?: boolean;
  realtime?: RealtimeConfig;
  peerDataDir?: boolean;
  his?: HisConfig;
  /**
   * The server's public address is fixed before it starts (single sign-on's callback names it): a port is chosen
   * beforehand, and chosen again should another process have taken it meanwhile.
   */
  knownUrl?: boolean;
  /** IIIF_CORS_ORIGINS: which other sites' pages may read the image routes (default `*`). */
  iiifCorsOrigins?: CorsOrigins;
}
export type E2eServer = Awaited<ReturnType<typeof startServer>>;

/**
 * The run's migrated, seeded database (tests/e2e/template-db.ts) as this server's, with the key its migrations sealed
 * with; migrated and seeded here when there is none (a file run outside the project's set-up).
 */
async function fromTemplate(dir: string, dataDir: string) {
  const template = inject('e2eTemplate');
  const file = path.join(dir, 'dsms.sqlite');
  // With this server's key, as server/setup.ts migrates: whatever the migrations seal, this server (its dataDir) opens.
  if (!template) return seededSqliteFile(file, dataDir);
  fs.copyFileSync(path.join(template, 'dsms.sqlite'), file);
  const key = path.join(template, 'data', 'secrets.key');
  if (fs.existsSync(key)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.copyFileSync(key, path.join(dataDir, 'secrets.key'));
    fs.chmodSync(path.join(dataDir, 'secrets.key'), 0o600);
  }
}

/**
 * The real server, on a fresh SQLite file, serving the built front end on a free port. `realtime`: its broker
 * (default embedded); `peerDataDir`: slide files in the database's own directory, so a peer process (startPeer)
 * started on that directory shares both.
 */
export async function startServer(options: ServerOptions = {}) {
  let jobs: JobRunner | null = null;
  if (!fs.existsSync(path.join(DIST, 'index.html'))) throw new Error(`${DIST} is missing: the e2e tests run against the build (npm test builds first)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-e2e-'));
  // Every server keeps its files (attachments, upload parts, report files, the secrets key) in a directory of its own,
  // removed with it: files run side by side, and the checkout's data/ is no test's. `ownDataDir` adds the slide jobs.
  const dataDir = options.peerDataDir ? dir : path.join(dir, 'data');
  const slideJobs = !!(options.peerDataDir || options.ownDataDir);
  await fromTemplate(dir, dataDir);
  const db = connect({ sqliteFile: path.join(dir, 'dsms.sqlite') });
  const build = (publicPort?: number) => buildApp({
    db, config: {
      tokenTtlSeconds: 3600, distDir: DIST, logLevel: 'warn', dataDir, ...(options.realtime ? { realtime: options.realtime } : {}),
      ...(options.his ? { his: options.his } : {}),
      ...(options.iiifCorsOrigins ? { iiifCorsOrigins: options.iiifCorsOrigins } : {}),
      // A port chosen beforehand (freePort) makes the public address known before start: single sign-on's callback needs it.
      ...(publicPort ? { publicUrl: `http://127.0.0.1:${publicPort}` } : {}),
    }, logger: false,
  });
  let app: Awaited<ReturnType<typeof buildApp>>;
  for (let attempt = 1; ; attempt++) {
    // Port 0 (the system's choice) unless the address must be known first; files run side by side, so a port chosen
    // beforehand may be taken by another file's process before this one listens on it: then another is chosen.
    const port = options.knownUrl ? await freePort() : 0;
    app = await build(port || undefined);
    try {
      await app.listen({ port, host: '127.0.0.1' });
      break;
    } catch (error) {
      await app.close();
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !port || attempt >= 5) {
        await db.destroy();
        fs.rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  const { port } = app.server.address() as AddressInfo;
  const quiet = { info() {}, warn() {}, error() {} };
  // Slide ingest always runs, as in server/main.ts: a bound slide is 'ingesting' until its job reads it.
  let releaseHeld = () => {};
  let reachHold = () => {};
  let holdReached = Promise.resolve();
  const held = (type: JobType<unknown>, gate: Promise<void>): JobType<unknown> => ({
    ...type,
    run: (ctx) => type.run({
      ...ctx,
      async progress(value, message) {
        const kept = await ctx.progress(value, message);
        if (value >= 96) {
          reachHold();
          await Promise.race([gate, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
        }
        return kept;
      },
    }),
  });
  let ingest = slideJobs ? startJobRunner(db, { types: [slideIngestJob(dataDir, 30_000) as JobType<unknown>], log: quiet, pollMs: 200 }) : null;
  return {
    url: `http://127.0.0.1:${port}`,
    db,
    /** The key the server seals stored secrets with (its data directory's key file). */
    secrets: app.secrets,
    /** The directory of the SQLite file (and, with `peerDataDir`, of the slide files). */
    dir,
    /** Where the server keeps its files (with `ownDataDir`, slide files a test may put there). */
    dataDir,
    /**
     * Starts every background job (ingest, conversion, focus) as server/main.ts does; a test chooses when. Needs
     * `ownDataDir`. `holdConversion`: a conversion stops once its pyramid is written (progress 96, still
     * 'converting') until `releaseConversions`, so a test sees the work under way however fast the file converts.
     */
    startJobs(options: { holdConversion?: boolean } = {}) {
      if (!slideJobs) throw new Error('startJobs needs ownDataDir');
      if (jobs) return;
      const gate = new Promise<void>((resolve) => { releaseHeld = resolve; });
      holdReached = new Promise<void>((resolve) => { reachHold = resolve; });
      const types = jobTypesFor({ dataDir, jobLeaseMs: 30_000 });
      jobs = startJobRunner(db, { types: options.holdConversion ? types.map((t) => (t.type === SLIDE_CONVERSION ? held(t, gate) : t)) : types, log: quiet, pollMs: 200 });
    },
    /** Resolves once a conversion of this startJobs({ holdConversion }) has stopped at its last step. */
    conversionHeld(): Promise<void> {
      return holdReached;
    },
    /** Lets every held conversion finish (and later ones run through). */
    releaseConversions() {
      releaseHeld();
    },
    /** Stops the runner (a test that watches a job wait first stops the one an earlier test started). */
    async stopJobs() {
      await jobs?.stop();
      jobs = null;
      // Ingest too: a test that watches a slide wait as 'ingesting' stops it first.
      await ingest?.stop();
      ingest = null;
    },
    async close() {
      await jobs?.stop();
      await ingest?.stop();
      await app.close();
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A second app process (server/main.ts, as production runs it) on the database and slide files in `dir` (a
 * startServer with `peerDataDir`), serving the same build: two nodes of one installation. `env` adds its realtime
 * broker (RABBITMQ_URL …). No demo seed: the first server made it.
 */
export async function startPeer(dir: string, env: Record<string, string>): Promise<{ url: string; process: ServerProcess; close(): Promise<void> }> {
  let port: number;
  let proc: ServerProcess;
  for (let attempt = 1; ; attempt++) {
    // The port is chosen before the process starts: another file's process may take it meanwhile (files run side by
    // side), and then the peer is started again on another.
    port = await freePort();
    try {
      proc = await startProcess({ PORT: String(port), DATA_DIR: dir, DIST_DIR: DIST, DSMS_DEMO: '0', ...env }, 'DSMS listening');
      break;
    } catch (error) {
      if (!String((error as Error).message).includes('EADDRINUSE') || attempt >= 5) throw error;
    }
  }
  return {
    url: `http://127.0.0.1:${port}`,
    process: proc,
    async close() {
      if (proc.child.exitCode !== null) return;
      const exited = new Promise((r) => proc.child.once('exit', r));
      proc.child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * How long a locator or a navigation may wait. `E2E_WAIT_MS` shortens it to find waits that only end at their limit
 * (a `waitFor` caught on purpose costs the whole limit each time it runs): `E2E_WAIT_MS=8000 npm run test:e2e` fails them.
 */
const WAIT_MS = Number(process.env.E2E_WAIT_MS ?? 60_000);

/** Debian's Chromium, never a downloaded one; flags keep it off the (closed) network. Every page it opens is watched for CSP violations. */
export async function launchBrowser(): Promise<Browser> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // browser.newPage() goes through newContext(), so this covers both.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext({ ...(process.env.E2E_REDUCED_MOTION ? { reducedMotion: 'reduce' as const } : {}), ...options });
    // CI runs the API suites on both databases beside the e2e files on two cores: a page that answers in a second
    // alone has been seen to take over Playwright's default 30 s there. Waiting longer only changes when a real
    // failure is reported (each test has 180 s), never whether.
    context.setDefaultTimeout(WAIT_MS);
    context.setDefaultNavigationTimeout(WAIT_MS);
    await watchCsp(context);
    return context;
  };
  browsers.push(browser);
  return browser;
}

/** Signs in through the login page as a person would; resolves once the form has been submitted. */
export async function signIn(page: Page, url: string, username: string, password: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  await page.locator('button[type=submit]').click();
}

/**
 * A new page signed in as the demo account `user` (its seeded password) through the login page, in `lang` (chosen
 * before signing in, as a browser that was here before remembers it), once the dashboard shows. `errors` collects the
 * page's uncaught errors; `options` adds to the page's own (a viewport, downloads, touch …).
 */
export async function signedInPage(browser: Browser, url: string, lang: Lang, user: string, opts: PageOptions = {}): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: lang, ...opts.options });
  const errors = opts.errors;
  if (errors) page.on('pageerror', (e) => errors.push(e.message));
  // The language is in place before the first document (one login page load, not two: a cold load of the app's code
  // costs Chromium more than a second of CPU); set once, so a test's own switch of it survives a reload.
  await page.addInitScript((l) => {
    try {
      if (localStorage.getItem('e2e:lang-set')) return;
      localStorage.setItem('lang', l);
      localStorage.setItem('e2e:lang-set', '1');
    } catch { /* a frame without storage of this origin */ }
  }, lang);
  await signIn(page, url, user, user === 'admin' ? DEMO_PASSWORDS.admin : DEMO_PASSWORDS.others);
  await page.getByTestId('dashboard').waitFor();
  return page;
}

export type Lang = 'zh-CN' | 'en-US';
export type PageOptions = { errors?: string[]; options?: Parameters<Browser['newPage']>[0] };

export interface E2eAppOptions extends ServerOptions {
  /** Runs on the started server (rows, slide files, doubles that need its address …) while the browser launches. */
  setup?: (server: E2eServer) => Promise<void>;
  /** The start's time limit (the e2e project's hookTimeout unless given). */
  timeout?: number;
}

/** A file's server and browser, from `e2eApp`. Each is there from the file's first test on. */
export interface E2eApp {
  readonly server: E2eServer;
  readonly browser: Browser;
  /** The server's address (`server.url`). */
  readonly url: string;
  /** The server's database (`server.db`). */
  readonly db: E2eServer['db'];
  /** Uncaught errors of the pages `page()` opened without an `errors` array of their own. */
  readonly pageErrors: string[];
  /** A new page signed in as the demo account `user` in `lang` (signedInPage), its errors in `errors` or `pageErrors`. */
  page(lang: Lang, user: string, opts?: PageOptions): Promise<Page>;
}

/**
 * The set-up every e2e file shares, called at the top of its describe: before its tests, a fresh server
 * (startServer with `options`; a function gives them once earlier hooks ran) and its own Chromium, started together,
 * then `setup` on the server while the browser still launches; after them, the browser closed, then the server, however
 * far the start got. A file's own beforeAll/afterAll for the extra parts come after this one's, and their afterAll before.
 */
export function e2eApp(options: E2eAppOptions | (() => E2eAppOptions | Promise<E2eAppOptions>) = {}): E2eApp {
  let server: E2eServer | undefined;
  let browser: Browser | undefined;
  const pageErrors: string[] = [];
  beforeAll(async () => {
    const { setup, timeout: _timeout, ...serverOptions } = typeof options === 'function' ? await options() : options;
    const results = await Promise.allSettled([
      startServer(serverOptions).then(async (s) => {
        server = s;
        await setup?.(s);
      }),
      launchBrowser().then((b) => { browser = b; }),
    ]);
    for (const result of results) if (result.status === 'rejected') throw result.reason;
  }, typeof options === 'function' ? undefined : options.timeout);
  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await server?.close();
    }
  });
  const started = <T>(what: T | undefined, name: string): T => {
    if (what === undefined) throw new Error(`e2eApp: the ${name} is not started (used outside a test, or its start failed)`);
    return what;
  };
  return {
    get server() { return started(server, 'server'); },
    get browser() { return started(browser, 'browser'); },
    get url() { return started(server, 'server').url; },
    get db() { return started(server, 'server').db; },
    pageErrors,
    page: (lang, user, opts = {}) => signedInPage(started(browser, 'browser'), started(server, 'server').url, lang, user, { errors: pageErrors, ...opts }),
  };
}

/**
 * Sends a file through the slide upload page as a person would, and waits until it is bound: the task leaves the
 * floating list by itself (a binding error would stay on it). `pathologyNumber` is typed on the page first.
 */
export async function uploadThroughPage(page: Page, url: string, file: string, pathologyNumber?: string, opts: { keepTask?: boolean } = {}): Promise<void> {
  await page.goto(`${url}/manage/slide/upload`);
  await page.getByTestId('dss-upload').waitFor();
  if (pathologyNumber) await page.getByTestId('upload-case-number').fill(pathologyNumber);
  await page.getByTestId('upload-input').setInputFiles(file);
  const task = page.getByTestId('upload-task');
  await page.waitForFunction(() => document.querySelector('[data-testid=upload-task]')?.getAttribute('data-state') === 'success', undefined, { timeout: 60_000 });
  // Bound: the task follows the slide's ingest (and conversion) job, then goes once the slide is ready.
  await task.getByTestId('upload-slide').waitFor({ timeout: 20_000 });
  if (opts.keepTask) return;
  // Where the job ended (watched on every frame: a ready task shows 'ready' for a moment and then goes). A file that
  // ends anywhere else keeps its task, so the test fails here with the state rather than waiting for it to go.
  const settled = await page.waitForFunction(() => {
    const status = document.querySelector('[data-testid=upload-slide]')?.getAttribute('data-status');
    return status && status !== 'ingesting' && status !== 'converting' ? status : null;
  }, undefined, { timeout: 120_000 });
  expect(await settled.jsonValue()).toBe('ready');
  await task.waitFor({ state: 'detached', timeout: 60_000 });
}

export { registerFileHooks, SHOTS } from './page-watch.js';
export { afterConfirmThrottle, animationsDone, codeOf, doubleClick, openMenuPage, pickDateTime, setCode, viewsSettled } from './page-actions.js';
