import fs from 'node:fs';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { asJobPush, slidePushEffect, type JobPush } from '../../src/core/jobPush.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { login, request } from '../api/server-process.js';
import { e2eApp, evidence, uploadThroughPage } from './harness.js';
import { REAL_DIR, realSlides } from '../support/real-slides.js';

/**
 * Issue 14: a Hamamatsu NDPI from ../shared/data/real, uploaded in the browser, is bound at once as 'ingesting'; the
 * upload panel follows its ingest and then its conversion job (state and percentage) and SlideLibrary shows its
 * conversion as a progress bar on the row, then the slide turns ready with its thumbnail. Issue 28: both follow the
 * jobs' pushes over the realtime channel, not a poll: from the jobs' start to ready the list asks for its rows only as
 * often as the pushes that change a row's state (and once on catching up). The conversion is held at its last step
 * (the harness's holdConversion) until the bar has been seen, so the test does not race a small file's conversion.
 */
const ndpis = realSlides() ? fs.readdirSync(REAL_DIR).filter((f) => f.toLowerCase().endsWith('.ndpi')).sort() : [];

if (ndpis.length === 0) {
  describe('NDPI conversion in the browser', () => {
    it.skip(`skipped: no NDPI in ${REAL_DIR} (the real slide files are not committed)`, () => {});
  });
}

describe.runIf(ndpis.length > 0)('NDPI conversion in the browser', () => {
  const app = e2eApp({ ownDataDir: true });
  const listeners: MqttClient[] = [];
  afterAll(() => { for (const c of listeners) c.end(true); });

  /** Every job push the members of `user`'s hospitals get from now on, heard as the browser connects. */
  async function hearJobs(url: string, user: string): Promise<JobPush[]> {
    const token = await login(url, user, DEMO_PASSWORDS.others);
    const conn = (await request(url, 'GET', '/api/realtime/connection', { authorization: `Bearer ${token}` })).json().data as { url: string; username: string; topics: { hospitals: string[] } };
    const client = await mqtt.connectAsync(url.replace(/^http/, 'ws') + conn.url, { username: conn.username, password: token, reconnectPeriod: 0, connectTimeout: 10_000 });
    listeners.push(client);
    const heard: JobPush[] = [];
    client.on('message', (_topic, payload) => {
      const push = asJobPush(JSON.parse(payload.toString()));
      if (push) heard.push(push);
    });
    await client.subscribeAsync(conn.topics.hospitals.map((h) => h.replace(/#$/, 'jobs')), { qos: 0 });
    return heard;
  }

  it.each([['zh-CN', 0], ['en-US', 1]] as const)('%s: uploads an NDPI, watches it convert in SlideLibrary over the realtime channel, then opens it', async (locale, i) => {
    const source = path.join(REAL_DIR, ndpis[i % ndpis.length]);
    const name = `e2e-${locale}-${path.basename(source).replace(/[^\w.-]+/g, '-')}`;
    const file = path.join(app.server.dataDir!, '..', name);
    fs.copyFileSync(source, file);
    await app.server.stopJobs(); // the previous case's runner would convert this file before its bar is seen
    const page: Page = await app.browser.newPage({ viewport: { width: 1600, height: 800 }, locale });
    await page.goto(`${app.url}/login`);
    if (locale === 'en-US') {
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'English' }).click()]);
    }
    await page.locator('input[name=username]').fill('technician');
    await page.locator('input[name=password]').fill('dsms-demo');
    await page.locator('button[type=submit]').click();
    await page.getByTestId('dashboard').waitFor();
    await uploadThroughPage(page, app.url, file, undefined, { keepTask: true });

    // The upload panel follows the bound slide's jobs: first its ingest (waiting, the runner is stopped) …
    const task = page.getByTestId('upload-task');
    const panel = task.getByTestId('upload-slide');
    await expect.poll(() => panel.getAttribute('data-status')).toBe('ingesting');
    expect(await panel.getByRole('progressbar').count()).toBe(1);
    expect(await task.getByTestId('upload-slide-state').textContent()).toBe(locale === 'en-US' ? 'Reading the slide' : '正在读取切片');
    await evidence(page, `upload-panel-ingesting-${locale}.png`);
    // To SlideLibrary within the app (the upload panel stays): the bound slide's row waits with its bar at 0.
    await page.locator('[data-testid="side-menu"] a[data-alias="SlideLibrary"]').click();
    const row = page.getByTestId('list-page').getByRole('row').filter({ hasText: name.replace(/\.ndpi$/, '') });
    await row.waitFor();
    const bar = row.locator('[data-progress]');
    await bar.waitFor();
    expect(await row.getByRole('progressbar').count()).toBe(1);
    // Work is shown, so the list listens on its hospital's jobs topic at once.
    await page.locator('html[data-realtime="live"]').waitFor({ state: 'attached' });
    // From here on the list asks for its rows only when a push says a job was queued, ended or failed (or once, on
    // catching up as the channel came up), never on a timer: what it asks is counted against what the test hears.
    const heard = await hearJobs(app.url, 'technician');
    const asked: string[] = [];
    page.on('request', (r) => { if (new URL(r.url()).pathname.endsWith('/lists')) asked.push(r.url()); });
    const refetching = () => heard.filter((p) => slidePushEffect(p).kind === 'refetch').length;
    const readyCount = () => page.locator('[data-testid="list-page"][data-alias="SlideLibrary"] [data-tab="ready"] [data-count]').first().getAttribute('data-count').then(Number);
    const readyBefore = await readyCount();

    // The jobs run: ingest, then the conversion, held before its last step.
    app.server.startJobs({ holdConversion: true });
    await expect.poll(() => panel.getAttribute('data-status'), { timeout: 120_000 }).toBe('converting');
    expect(await task.getByTestId('upload-slide-state').textContent()).toBe(locale === 'en-US' ? 'Converting' : '正在转换');
    expect(await task.getByTestId('upload-slide-progress').textContent()).toMatch(/^\d{1,3}%$/);
    expect(await panel.getByRole('progressbar').count()).toBe(1);
    await evidence(page, `upload-panel-converting-${locale}.png`);
    // The row's bar follows the conversion's pushes up to its held step: 96 % is the job's own (indexing the pyramid),
    // never written to the slide's row (which stops at 95), so only a push can have drawn it.
    await expect.poll(() => bar.getAttribute('data-progress'), { timeout: 180_000 }).toBe('96');
    await app.server.conversionHeld();
    expect(await task.getByTestId('upload-slide-progress').textContent()).toBe('96%');
    // Wide enough for the row's name and its bar side by side, with the upload panel.
    await page.setViewportSize({ width: 2200, height: 800 });
    await evidence(page, `progress-${locale}.png`);
    await page.setViewportSize({ width: 1600, height: 800 });
    await bar.scrollIntoViewIfNeeded();
    await evidence(page, `conversion-progress-${locale}.png`);
    expect(asked.length, `list requests while the jobs ran: ${asked.length}; refetching pushes heard: ${refetching()}`).toBeLessThanOrEqual(refetching() + 1);

    // The conversion ends; the list reads the slide ready (its tab counts too) without a reload or a poll.
    // Fluent's tab draws its content twice (the second reserves the bold width): the first is the count shown.
    app.server.releaseConversions();
    await bar.waitFor({ state: 'detached', timeout: 180_000 });
    await expect.poll(readyCount, { timeout: 30_000 }).toBe(readyBefore + 1);
    expect(asked.length, `list requests during the jobs: ${asked.length}; refetching pushes heard: ${refetching()}`).toBeLessThanOrEqual(refetching() + 1);
    console.info(`[conversion ${locale}] SlideLibrary list requests from the start of the jobs to ready: ${asked.length} (refetching pushes: ${refetching()}, all pushes: ${heard.length})`);
    const thumb = row.locator('img');
    // The thumbnail loads lazily: the row was scrolled sideways to its progress bar, so bring the thumbnail back into view.
    await thumb.scrollIntoViewIfNeeded();
    await expect.poll(() => thumb.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);
    await evidence(page, `conversion-done-${locale}.png`);

    // Opened from the library: the viewer loads tiles of the converted pyramid.
    let tiles = 0;
    page.on('response', (r) => { if (/\/api\/tiles\/\d+_files\/\d+\/\d+_\d+\.jpeg$/.test(r.url()) && r.status() === 200) tiles++; });
    await row.getByRole('link').first().click();
    await page.waitForURL('**/slide/view?id=*');
    await page.getByTestId('current-magnification').waitFor();
    await expect.poll(() => tiles, { timeout: 30_000 }).toBeGreaterThan(0);
    await evidence(page, `conversion-viewer-${locale}.png`);
    await page.close();
  }, 300_000);
});
