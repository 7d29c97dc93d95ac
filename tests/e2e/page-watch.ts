import path from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, type TestContext } from 'vitest';

/** Where the e2e files' pictures go (evidence(), and a failed test's pages). */
export const SHOTS = path.resolve('test-results/e2e');

/**
 * Content-Security-Policy violations seen by any page this file's browsers opened. The app must work under the
 * policy it is served with (server/http/security-headers.ts): after the file's tests, any violation fails it.
 */
const cspViolations: string[] = [];

/**
 * The hooks every e2e file gets without asking: the CSP check after its tests and the report of the pages when a
 * test fails. Registered per file by tests/e2e/file-hooks.ts (a setup file), not at this module's import: should a
 * worker import it once for several files (vitest's `isolate: false`), hooks registered at import would belong to the
 * first file only.
 */
export function registerFileHooks(): void {
  beforeAll(() => {
    cspViolations.length = 0;
    browsers.length = 0;
  });
  afterAll(() => {
    expect(cspViolations, 'Content-Security-Policy violations in the browser console').toEqual([]);
  });
  afterEach(reportFailedPages);
}

/** Chromium reports each blocked load, eval or inline style on the console; the event also names the directive. */
export async function watchCsp(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`[csp] ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  context.on('page', (page) => {
    page.on('console', (message) => {
      const text = message.text();
      if (text.startsWith('[csp]') || text.includes('Content Security Policy')) cspViolations.push(`${page.url()}: ${text}`);
      if (message.type() === 'error') remember(page, `console: ${text}`);
    });
    page.on('pageerror', (error) => remember(page, `page error: ${error.message}`));
    page.on('requestfailed', (request) => {
      // A load the next document's navigation cut off (ERR_ABORTED) is not what the page now shown waits for.
      const before = documentOf.get(request) !== documents.get(page) ? ' (an earlier document\'s, cut off by a navigation)' : '';
      remember(page, `failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}${before}`);
      pendingOf(page).delete(request);
    });
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.set(page, (documents.get(page) ?? 0) + 1);
      documentOf.set(request, documents.get(page) ?? 0);
      pendingOf(page).set(request, Date.now());
    });
    page.on('requestfinished', (request) => pendingOf(page).delete(request));
    page.on('response', (response) => {
      if (response.status() >= 400) remember(page, `${response.status()}: ${response.request().method()} ${response.url()}`);
    });
  });
}

/**
 * What each open page showed and last complained of, added to a failed test's report: a timeout that only a loaded
 * CI machine hits ("waiting for locator …") otherwise says nothing of the screen it waited on.
 */
const troubles = new WeakMap<Page, string[]>();
/** Each page's requests still without an answer, and since when: what a page stuck on a spinner is waiting for. */
const pending = new WeakMap<Page, Map<Request, number>>();
function pendingOf(page: Page): Map<Request, number> {
  if (!pending.has(page)) pending.set(page, new Map());
  return pending.get(page)!;
}
/** Each page's documents, counted by their main-frame navigation requests, and the document each request came from. */
const documents = new WeakMap<Page, number>();
const documentOf = new WeakMap<Request, number>();
/** The browsers this file launched (launchBrowser), whose pages a failed test's report shows. */
export const browsers: Browser[] = [];
function remember(page: Page, line: string): void {
  const lines = troubles.get(page) ?? [];
  lines.push(line.slice(0, 300));
  troubles.set(page, lines.slice(-8));
}
async function reportFailedPages(context: TestContext): Promise<void> {
  if (context.task.result?.state !== 'fail') return;
  const report: string[] = [];
  const pages = browsers.flatMap((b) => b.contexts().flatMap((c) => c.pages()));
  const test = context.task.name.replace(/[^\p{L}\p{N}]+/gu, '-').slice(0, 60).replace(/^-|-$/g, '');
  const shot = (i: number) => path.join(SHOTS, 'failed', `${path.basename(context.task.file.name, '.test.ts')}-${test}-${i}.png`);
  for (const [i, page] of pages.entries()) {
    const text = (await page.evaluate(() => document.body?.innerText ?? '').catch((e: Error) => `(unreadable: ${e.message})`)).replace(/\s+/g, ' ');
    // Its end too: a dialog is drawn last.
    const shown = text.length > 500 ? `${text.slice(0, 300)} … ${text.slice(-200)}` : text;
    // Spinners have no text: what is still loading, by test id (a schema page's engine-loading …).
    const spinning = await page.evaluate(() => [...document.querySelectorAll('[role=progressbar]')].map((e) => e.getAttribute('data-testid') ?? 'spinner')).catch(() => []);
    const waiting = [...pendingOf(page)].map(([request, since]) => `waiting ${Math.round((Date.now() - since) / 1000)} s for: ${request.method()} ${request.url()}`);
    const image = await page.screenshot({ path: shot(i) }).then(() => `  screenshot: ${path.relative(process.cwd(), shot(i))}\n`, () => '');
    report.push(`${page.url()}\n  shows: ${shown}\n${spinning.length ? `  spinning: ${spinning.join(', ')}\n` : ''}${image}  ${[...(troubles.get(page) ?? []), ...waiting.slice(-8)].join('\n  ')}`);
  }
  if (report.length) throw new Error(`The pages when the test failed:\n${report.join('\n')}`);
}

