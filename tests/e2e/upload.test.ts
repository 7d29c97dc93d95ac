import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import enUS from '../../src/i18n/locales/en-US.json';
import { e2eApp, evidence, signIn, uploadThroughPage } from './harness.js';

/** Spec §2, §4, §7: the slide upload page sends a file in 2 MiB chunks and the floating list shows it uploaded. */
describe('slide upload in Chromium', () => {
  const pageErrors: string[] = [];

  const app = e2eApp({ ownDataDir: true });

  async function upload(locale: 'zh-CN' | 'en-US', text: typeof zhCN) {
    const page: Page = await app.browser.newPage({ viewport: { width: 1366, height: 800 }, locale });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${app.url}/manage/slide/upload`);
    await page.waitForURL(/\/login\?redirect=/);
    if (locale === 'en-US') {
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'English' }).click()]);
      await page.locator('input[name=username]').waitFor();
    }
    await page.locator('input[name=username]').fill('technician');
    await page.locator('input[name=password]').fill('dsms-demo');
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/manage\/slide\/upload$/);
    await page.getByTestId('dss-upload').waitFor();

    // ~5 MB: three chunks, the last one short.
    const buffer = crypto.randomBytes(5 * 1024 * 1024 + 12345);
    await page.getByTestId('upload-input').setInputFiles({ name: `e2e-${locale}.svs`, mimeType: 'application/octet-stream', buffer });
    const task = page.getByTestId('upload-task');
    await task.waitFor();
    await expect.poll(() => task.getAttribute('data-state'), { timeout: 60_000 }).toBe('success');
    await expect.poll(() => task.getByTestId('upload-state').textContent()).toBe(text.upload.state.uploaded);
    await evidence(page, `upload-${locale}.png`);
    // Then the file is bound and its ingest job reads it: random bytes are no slide, so the slide ends as
    // 'needs_conversion'. That needs the user's action, so the task stays (it neither goes nor spins) with the
    // state and what to do, in the page's language; the upload itself stays a success.
    const slide = task.getByTestId('upload-slide');
    await expect.poll(() => slide.getAttribute('data-status'), { timeout: 60_000 }).toBe('needs_conversion');
    expect(await task.getByTestId('upload-slide-state').textContent()).toBe(text.upload.slide.needs_conversion);
    expect(await task.getByTestId('upload-slide-error').textContent()).toBe(text.upload.slide.reason.needs_conversion);
    expect(await task.getByTestId('upload-slide-progress').count()).toBe(0);
    expect(await page.getByTestId('upload-bind-error').count()).toBe(0);
    expect(await task.getAttribute('data-state')).toBe('success');
    await evidence(page, `upload-bound-${locale}.png`);
    return { page, buffer };
  }

  it('uploads a generated file as technician in zh-CN; sends the same file again; cancel removes a task', async () => {
    const { page, buffer } = await upload('zh-CN', zhCN);
    const task = page.getByTestId('upload-task');
    // The user dismisses the settled task.
    await page.evaluate(() => document.querySelectorAll('[data-testid=upload-task] button[aria-label]').forEach((b) => (b as HTMLButtonElement).click()));
    await expect.poll(() => task.count()).toBe(0);

    // Sent again after binding (which moves the file away on the server): uploaded again, at most one POST per chunk.
    let chunkPosts = 0;
    page.on('request', (req) => { if (req.url().endsWith('/api/upload/large')) chunkPosts += 1; });
    await page.getByTestId('upload-input').setInputFiles({ name: 'e2e-zh-CN.svs', mimeType: 'application/octet-stream', buffer });
    await expect.poll(() => task.first().getAttribute('data-state'), { timeout: 60_000 }).toBe('success');
    expect(chunkPosts).toBeGreaterThanOrEqual(1);
    expect(chunkPosts).toBeLessThanOrEqual(3);
    await page.evaluate(() => document.querySelectorAll('[data-testid=upload-task] button[aria-label]').forEach((b) => (b as HTMLButtonElement).click()));
    await expect.poll(() => task.count()).toBe(0);

    // Cancel while chunks are slow: the task goes.
    await page.route('**/api/upload/large', (route) => setTimeout(() => void route.continue().catch(() => {}), 1500));
    await page.getByTestId('upload-input').setInputFiles({ name: 'cancel-me.svs', mimeType: 'application/octet-stream', buffer: crypto.randomBytes(9 * 1024 * 1024) });
    await expect.poll(() => task.first().getAttribute('data-state'), { timeout: 30_000 }).toBe('uploading');
    await task.first().getByRole('button', { name: zhCN.upload.cancel }).click();
    await expect.poll(() => task.count(), { timeout: 10_000 }).toBe(0);
    await page.close();
  });
  it('uploads a demo slide, which is bound and shows its thumbnail in SlideLibrary', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-e2e-slide-'));
    const file = path.join(dir, 'e2e-demo-slide.tiff');
    await generateDemoSlide({ out: file, width: 3000, height: 2000, seed: 7 });
    const page: Page = await app.browser.newPage({ viewport: { width: 1366, height: 800 }, locale: 'zh-CN' });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(page, app.url, 'technician', 'dsms-demo');
    await page.getByTestId('dashboard').waitFor();
    await uploadThroughPage(page, app.url, file);

    await page.goto(`${app.url}/manage/slide/library`);
    const row = page.getByTestId('list-page').getByRole('row').filter({ hasText: 'e2e-demo-slide' });
    await row.waitFor();
    const thumb = row.locator('img');
    await expect.poll(() => thumb.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await evidence(page, 'slide-library-zh-CN.png');
    await page.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('offers an unfinished upload after a reload and resumes it from the re-picked file', async () => {
    const page: Page = await app.browser.newPage({ viewport: { width: 1366, height: 800 }, locale: 'zh-CN' });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${app.url}/login?redirect=/manage/slide/upload`);
    await page.locator('input[name=username]').fill('technician');
    await page.locator('input[name=password]').fill('dsms-demo');
    await page.locator('button[type=submit]').click();
    await page.getByTestId('dss-upload').waitFor();

    // The first chunk gets through, the rest fail (and are retried with back-off): then the page is reloaded mid-upload.
    let passed = 0;
    await page.route('**/api/upload/large', (route) => (passed++ < 1 ? route.continue() : route.abort()));
    const buffer = crypto.randomBytes(7 * 1024 * 1024);
    await page.getByTestId('upload-input').setInputFiles({ name: 'resume-me.svs', mimeType: 'application/octet-stream', buffer });
    await expect.poll(() => page.getByTestId('upload-task').getAttribute('data-state'), { timeout: 30_000 }).toBe('uploading');
    await expect.poll(() => passed, { timeout: 10_000 }).toBeGreaterThan(1);
    await page.unroute('**/api/upload/large');
    await page.reload();

    const pending = page.getByTestId('upload-pending');
    await pending.waitFor({ timeout: 20_000 });
    await evidence(page, 'upload-resume-zh-CN.png');
    let sent = 0;
    page.on('request', (req) => {
      if (req.url().endsWith('/api/upload/large')) sent += 1;
    });
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), pending.getByRole('button', { name: zhCN.upload.resume }).click()]);
    await chooser.setFiles({ name: 'resume-me.svs', mimeType: 'application/octet-stream', buffer });
    await expect.poll(() => page.getByTestId('upload-task').getAttribute('data-state'), { timeout: 60_000 }).toBe('success');
    await expect.poll(() => pending.count()).toBe(0);
    // At most the probe plus the missing chunks (4 in all). Which chunks reached the server before the reload
    // is not deterministic under Playwright routing, so the exact skip rule is covered by sendChunks.test.ts.
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThanOrEqual(4);
    await page.close();
  });

  it('uploads a generated file in en-US', async () => {
    const { page } = await upload('en-US', enUS);
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  // Issue 31 item 4: files that finish together are bound together, none refused as a duplicate request, and a bind
  // that failed is bound again from the panel without sending the file again.
  for (const [locale, text] of [['zh-CN', zhCN], ['en-US', enUS]] as const) {
    it(`${locale}: ten files sent at once all bind; a failed bind is bound again from the panel`, async () => {
      const page = await app.page(locale, 'technician');
      await page.goto(`${app.url}/manage/slide/upload`);
      await page.getByTestId('dss-upload').waitFor();
      // The first bind call is cut off, as a dropped connection would.
      let cut = false;
      await page.route('**/api/data/kfb/bind', (route) => {
        if (cut) return route.continue();
        cut = true;
        return route.abort('connectionreset');
      });
      const files = Array.from({ length: 10 }, (_, i) => ({ name: `many-${locale}-${i}.svs`, mimeType: 'application/octet-stream', buffer: crypto.randomBytes(256 * 1024 + i) }));
      await page.getByTestId('upload-input').setInputFiles(files);
      const bound = page.locator('[data-testid=upload-task] [data-testid=upload-slide]');
      const refused = page.getByTestId('upload-bind-error');
      await expect.poll(() => page.getByTestId('upload-task').count()).toBe(10);
      await expect.poll(async () => [await bound.count(), await refused.count()], { timeout: 90_000 }).toEqual([9, 1]);
      // In the page's language, with why.
      expect(await refused.textContent()).toMatch(new RegExp(`^${text.upload.bindFailed}: \\S`));
      await evidence(page, `upload-bind-retry-${locale}.png`);
      await page.getByTestId('upload-bind-retry').click();
      await expect.poll(() => bound.count(), { timeout: 60_000 }).toBe(10);
      expect(await refused.count()).toBe(0);
      // Ten slides on the server, one per file.
      const slides = await app.db.selectFrom('slides').select('file_path').where('file_path', 'like', `%many-${locale}-%`).execute();
      expect(slides.map((r) => path.basename(r.file_path)).sort()).toEqual(files.map((f) => f.name).sort());
      await page.close();
    });
  }
});
