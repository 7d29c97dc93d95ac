import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { analyseFocus } from '../../server/modules/focus/analyse.js';
import { saveFocus } from '../../server/modules/focus/queries.js';
import { newScannerKey } from '../../server/modules/scanners/keys.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { sharpAndBlurred } from '../api/focus-slides.js';
import { e2eApp, evidence } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
/** The blurred slide's scan time as stored: the viewer shows it as YYYY-MM-DD HH:mm:ss in the browser's zone. */
const SCAN_AT = '2026-11-20T02:03:04.000Z';
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });

/**
 * Scanners and the focus check in Chromium: a ScannerList row changes state without a reload when its scanner
 * heartbeats, SlideQC lists the blurred slide first, and the viewer's focus toggle draws the heat map. Screenshots
 * in both languages.
 */
describe('scanners, QC and the focus overlay in Chromium', () => {
  let key = '';
  let slideId = 0;
  let caseNumber = '';

  const app = e2eApp({
    timeout: 120_000,
    ownDataDir: true,
    async setup(server) {
      const hospital = await server.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
      const made = newScannerKey();
      key = made.key;
      const now = new Date().toISOString();
      await server.db.insertInto('scanners').values({
        hospital_id: hospital.id, name: 'KF-PRO-400', model: 'KF-PRO-400', area: 'Main', location: 'Lab 2', ip: '10.0.0.21', status: 'offline',
        key_hash: made.hash, key_prefix: made.prefix, created_at: now, updated_at: now,
      } as never).execute();
      // One scanner without a key for each language's "Issue key" test.
      for (const lang of ['zh-CN', 'en-US']) {
        await server.db.insertInto('scanners').values({
          hospital_id: hospital.id, name: `KEYLESS-${lang}`, model: 'KF-PRO-120', area: 'Main', status: 'offline', created_at: now, updated_at: now,
        } as never).execute();
      }
      // The blurred copy belongs to a demo case: the QC list shows its pathology number.
      const inCase = await server.db.selectFrom('cases').select(['id', 'pathology_number']).where('hospital_id', '=', hospital.id).orderBy('id').executeTakeFirstOrThrow();
      caseNumber = inCase.pathology_number;
      const slides = await sharpAndBlurred(path.join(server.dataDir!, 'focus-src'));
      const dir = path.join(server.dataDir!, 'slides', 'e2e');
      fs.mkdirSync(dir, { recursive: true });
      for (const which of ['sharp', 'blurred'] as const) {
        const file = path.join(dir, `${which}.tiff`);
        fs.copyFileSync(slides[which], file);
        const id = await registerSlide(server.db, server.dataDir!, file, { name: `FOCUS-${which}`, hospital_id: hospital.id, case_id: which === 'blurred' ? inCase.id : null, uploaded_by: null });
        await ingestNow(server.db, server.dataDir!, id);
        // What the job queue's focus job does (the e2e server runs no job runner).
        await saveFocus(server.db, { id, hospital_id: hospital.id }, await analyseFocus(file), 0, 0.1);
        if (which === 'blurred') slideId = id;
        // A scan time as stored (ISO, UTC) for the viewer's slide information.
        if (which === 'blurred') await server.db.updateTable('slides').set({ scan_at: SCAN_AT }).where('id', '=', id).execute();
      }
    },
  });

  async function open(lang: Lang, user: string): Promise<Page> {
    return app.page(lang, user);
  }
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`);
  const beat = (status: string) => fetch(`${app.url}/api/scanner-agent/heartbeat`, {
    method: 'POST', headers: { 'x-scanner-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ status }),
  }).then((r) => r.status);

  it.each(['zh-CN', 'en-US'] as const)('ScannerList follows a heartbeat without reload [%s]', async (lang) => {
    const page = await open(lang, 'scanner');
    await page.goto(`${app.url}/manage/scanner/list`);
    const row = page.getByRole('row').filter({ hasText: 'KF-PRO-400' }).first();
    await row.waitFor();
    const before = lang === 'zh-CN' ? '离线' : 'Offline';
    const after = lang === 'zh-CN' ? '扫描中' : 'Working';
    // The list subscribed to its hospital's scanner topic: from here changes are pushed, not polled (every 30 s).
    await page.locator('html[data-realtime="live"]').waitFor({ state: 'attached' });
    await beat('idle');
    await poll(() => row.textContent()).not.toContain(before);
    const sent = Date.now();
    expect(await beat('working')).toBe(200);
    const url = page.url();
    await expect.poll(() => row.textContent(), { timeout: 10_000, interval: 20 }).toContain(after);
    console.log(`ScannerList row changed ${Date.now() - sent} ms after the heartbeat [${lang}]`);
    expect(page.url()).toBe(url);
    expect(before).not.toBe(after);
    await shot(page, `scanner-list-${lang}`);
    await page.close();
  });

  it.each(['zh-CN', 'en-US'] as const)('ScannerList issues a key, shown once, that the scanner then heartbeats with [%s]', async (lang) => {
    const page = await app.page(lang, 'scanner', { options: { permissions: ['clipboard-read', 'clipboard-write'] } });
    await page.goto(`${app.url}/manage/scanner/list`);
    const row = page.getByRole('row').filter({ hasText: `KEYLESS-${lang}` }).first();
    await row.locator('[data-action="issueKey"]').click();
    // The confirmation says that a new key replaces the old one.
    const confirm = page.getByTestId('confirm-dialog');
    expect(await confirm.textContent()).toContain(lang === 'zh-CN' ? '原密钥（如有）随即失效' : 'its old key, if any, stops working');
    await confirm.getByRole('button', { name: lang === 'zh-CN' ? '确定' : 'Confirm' }).click();
    const dialog = page.getByTestId('reveal-dialog');
    const value = dialog.getByTestId('reveal-value');
    await poll(() => value.inputValue()).toMatch(/\S{20,}/);
    const issued = await value.inputValue();
    expect(await dialog.textContent()).toContain(lang === 'zh-CN' ? '密钥只显示这一次' : 'shown this once only');
    await dialog.getByTestId('reveal-copy').click();
    await dialog.getByText(lang === 'zh-CN' ? '已复制到剪贴板' : 'Copied to the clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(issued);
    await shot(page, `scanner-issue-key-${lang}`);
    // The scanner, configured with the key read from the dialog, is let in; the list shows its new state.
    const res = await fetch(`${app.url}/api/scanner-agent/heartbeat`, {
      method: 'POST', headers: { 'x-scanner-key': issued, 'content-type': 'application/json' }, body: JSON.stringify({ status: 'idle' }),
    });
    expect(res.status).toBe(200);
    await dialog.getByTestId('reveal-close').click();
    await dialog.waitFor({ state: 'detached' });
    await poll(() => row.textContent()).toContain(lang === 'zh-CN' ? '空闲' : 'Idle');
    // Once closed, the key is nowhere on the page.
    expect(await page.content()).not.toContain(issued);
    await page.close();
  });

  it.each(['zh-CN', 'en-US'] as const)('SlideQC lists the blurred slide first; its "Unqualified" starts with blurry image, and takes another reason [%s]', async (lang) => {
    const page = await open(lang, 'qc');
    await page.goto(`${app.url}/manage/slide/qc`);
    const first = page.getByRole('row').nth(1);
    const blurry = lang === 'zh-CN' ? '图像模糊' : 'Blurry image';
    const wrongArea = lang === 'zh-CN' ? '扫描区域错误' : 'Wrong scan area';
    // Worst focus first: the blurred copy (half its tissue out of focus), with "blurry image" suggested.
    await poll(() => first.textContent()).toContain(blurry);
    // Which slide it is: its name (linked to the viewer), its case's number (linked to the case) and its thumbnail, loaded.
    await expect.poll(() => first.getByRole('link', { name: 'FOCUS-blurred' }).getAttribute('href')).toBe(`/slide/view?id=${slideId}`);
    expect(await first.getByRole('link', { name: caseNumber }).getAttribute('href')).toMatch(/^\/case\//);
    const thumb = first.locator(`img[src="/api/data/kfb/thumb/${slideId}"]`);
    await poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    const header = page.getByRole('row').first();
    for (const label of lang === 'zh-CN' ? ['缩略图', '切片名称', '病理号'] : ['Thumbnail', 'Slide', 'Pathology no.']) expect(await header.textContent()).toContain(label);
    await shot(page, `slide-qc-${lang}`);

    // The focus check's suggestion is already chosen in the prompt; a second reason is added beside it.
    const qcRow = () => app.db.selectFrom('slide_qc').select(['grade', 'reasons', 'version']).where('slide_id', '=', slideId).executeTakeFirstOrThrow();
    const before = await qcRow();
    await first.locator('[data-action="unqualified"]').click();
    const dialog = page.getByTestId('prompt-dialog');
    const reasons = dialog.getByTestId('prompt-input');
    await poll(() => reasons.textContent()).toBe(blurry);
    await reasons.click();
    await page.locator('.fui-Listbox .fui-Option').filter({ hasText: wrongArea }).click();
    await poll(() => reasons.textContent()).toBe(`${blurry}, ${wrongArea}`);
    await dialog.locator('.fui-DialogTitle').click();
    await shot(page, `slide-qc-unqualified-${lang}`);
    await dialog.getByTestId('prompt-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await qcRow()).toEqual({ grade: 'unqualified', reasons: 'blurry,wrong_area', version: before.version + 1 });
    await poll(() => first.textContent()).toContain(wrongArea);
    await shot(page, `slide-qc-graded-${lang}`);
    await page.close();
  });

  it.each(['zh-CN', 'en-US'] as const)('the viewer draws the focus heat map [%s]', async (lang) => {
    const page = await open(lang, 'primary');
    await page.goto(`${app.url}/slide/view?id=${slideId}`);
    await page.getByTestId('focus-toggle').click();
    await page.getByTestId('focus-overlay').waitFor();
    await poll(() => page.getByTestId('focus-legend').textContent()).toMatch(/%/);
    // Left half red (out of focus), right half green: read back from the overlay's own pixels.
    const colours = await page.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('[data-testid="focus-overlay"]')!;
      const px = (x: number) => Array.from(c.getContext('2d')!.getImageData(x, Math.floor(c.height / 2), 1, 1).data);
      return { left: px(1), right: px(c.width - 2) };
    });
    expect(colours.left[0]).toBeGreaterThan(colours.left[1]);
    expect(colours.right[1]).toBeGreaterThan(colours.right[0]);
    await shot(page, `viewer-focus-${lang}`);
    await page.close();
  });

  it.each(['zh-CN', 'en-US'] as const)('the viewer\'s slide information shows the scan time as YYYY-MM-DD HH:mm:ss, not ISO [%s]', async (lang) => {
    const page = await open(lang, 'primary');
    await page.goto(`${app.url}/slide/view?id=${slideId}`);
    await page.getByTestId('tab-info').click();
    // The browser's own clock reading of the stored instant.
    const local = await page.evaluate((iso) => {
      const d = new Date(iso), two = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
    }, SCAN_AT);
    await poll(() => page.getByTestId('info-scanAt').textContent()).toBe(local);
    expect(await page.getByTestId('slide-info').textContent()).toContain(lang === 'zh-CN' ? '扫描时间' : 'Scan');
    await shot(page, `viewer-scan-time-${lang}`);
    await page.close();
  });
});
