import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { caseMessages } from '../../server/modules/cases/messages.js';
import { slideMessages } from '../../server/modules/slides/messages.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import enUS from '../../src/i18n/locales/en-US.json';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import { afterConfirmThrottle, e2eApp, evidence, uploadThroughPage } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
/** The labels the page schemas give (schemas/pages/DssUploaded.json, SlideLibrary.json): one row's bind names a glass slide or a case, a batch a case. */
const required = {
  bind: { 'zh-CN': '请选择或扫描玻片，或输入病理号', 'en-US': 'Choose or scan a glass slide, or enter a pathology number' },
  batch: { 'zh-CN': '请输入病理号', 'en-US': 'Enter a pathology number' },
};
/** The machine is shared: give a list a generous while to load after a navigation or an action. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const unknownNumber = (lang: Lang, number: string) => caseMessages['case.not_found_by_number'][lang].replace('{{number}}', number);
const unknownCode = (lang: Lang, code: string) => slideMessages['slide.bind_target_unknown'][lang].replace('{{code}}', code);
/** How the bind prompt offers a case (beside its glass slides). */
const caseOption = (lang: Lang, number: string) => (lang === 'zh-CN' ? zhCN : enUS).upload.bindCaseOption.replace('{{number}}', number);

/**
 * The slide pages in Chromium (spec §2 slide upload and binding, slide library, slide data, slide
 * search): a technician uploads a real demo TIFF, binds it to a case from the uploaded list through
 * the pathology-number prompt, and finds it in the slide library with its thumbnail; an administrator
 * downloads it through a signed link, reads the slide data table, the search cards, and widens a
 * hospital-scoped list with the header's show-all-data switch.
 */
describe('slide pages in Chromium', () => {
  let dir: string;
  const files: Record<Lang, string> = { 'zh-CN': '', 'en-US': '' };

  const app = e2eApp({
    ownDataDir: true,
    async setup() {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-e2e-slides-'));
      files['zh-CN'] = path.join(dir, 'e2e-slide-zh.tiff');
      files['en-US'] = path.join(dir, 'e2e-slide-en.tiff');
      await generateDemoSlide({ out: files['zh-CN'], width: 3000, height: 2000, seed: 11 });
      await generateDemoSlide({ out: files['en-US'], width: 2400, height: 1800, seed: 12 });
    },
  });
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const open = (user: string, lang: Lang): Promise<Page> => app.page(lang, user, { options: { acceptDownloads: true } });
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`);
  const rowOf = (page: Page, name: string) => page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: name });
  const imageLoaded = (img: Locator) => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth);
  const tab = (page: Page, key: string) => page.getByTestId('list-tabs').locator(`[data-tab="${key}"]`);

  /** Through the upload page, as a person would; the upload binds the file as a slide without a case. */
  const upload = (page: Page, file: string) => uploadThroughPage(page, app.url, file);

  /** The prompt refuses an empty value with the page's message, shows the server's message for an unknown number, then binds. */
  async function answerPrompt(page: Page, lang: Lang, shotName: string, kind: 'bind' | 'batch') {
    const prompt = page.getByTestId('prompt-dialog');
    await prompt.waitFor();
    await prompt.getByTestId('prompt-confirm').click();
    let confirmedAt = Date.now();
    await prompt.getByText(required[kind][lang]).waitFor();
    await shot(page, `${shotName}-required`);

    // The confirm is throttled at 500 ms (spec §9); a person typing takes longer than that.
    await afterConfirmThrottle(confirmedAt);
    await prompt.getByTestId('prompt-input').fill('NOPE-404');
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/data/kfb/move'));
    await prompt.getByTestId('prompt-confirm').click();
    confirmedAt = Date.now();
    expect((await refused).status()).toBe(404);
    await prompt.getByText(kind === 'bind' ? unknownCode(lang, 'NOPE-404') : unknownNumber(lang, 'NOPE-404')).waitFor();
    await shot(page, `${shotName}-unknown`);

    // The pathology numbers come from the cases resource: pick one from the list.
    await afterConfirmThrottle(confirmedAt);
    await prompt.getByTestId('prompt-input').fill('');
    await prompt.getByTestId('prompt-input').click();
    await page.getByRole('option', { name: kind === 'bind' ? caseOption(lang, 'P2026-00001') : 'P2026-00001', exact: true }).click();
    const moved = page.waitForResponse((r) => r.url().endsWith('/api/data/kfb/move'));
    await prompt.getByTestId('prompt-confirm').click();
    const res = await moved;
    expect(res.status()).toBe(200);
    await prompt.waitFor({ state: 'detached' });
    return res;
  }

  /** In the slide library: the row shows the case's number and patient, and its thumbnail really loaded. */
  async function seeInLibrary(page: Page, name: string, lang: Lang) {
    await page.goto(`${app.url}/manage/slide/library`);
    const row = rowOf(page, name);
    await row.waitFor();
    await poll(() => row.locator('td[data-column="pathology_number"]').textContent()).toBe('P2026-00001');
    expect(await row.locator('td[data-column="patient_name"]').textContent()).toBe('张伟');
    await poll(() => imageLoaded(row.locator('td[data-column="thumb_url"] img'))).toBeGreaterThan(0);
    await shot(page, `slides-library-${lang}`);
  }

  it('zh-CN: a technician uploads a demo slide, binds it to a case in the uploaded list, and sees it in the slide library', async () => {
    const page = await open('technician', 'zh-CN');
    await upload(page, files['zh-CN']);

    await page.goto(`${app.url}/manage/slide/uploaded`);
    await page.getByTestId('list-page').waitFor();
    // "Not bound" is the first, default tab.
    await poll(() => new URL(page.url()).searchParams.get('tab')).toBe('unbound');
    await poll(() => tab(page, 'unbound').getAttribute('aria-selected')).toBe('true');
    const row = rowOf(page, 'e2e-slide-zh');
    await row.waitFor();
    await poll(() => imageLoaded(row.locator('img'))).toBeGreaterThan(0);
    // Not bound yet: Bind is offered, Unbind is not.
    expect(await row.locator('[data-action="unbind"]').count()).toBe(0);
    await shot(page, 'slides-uploaded-zh-CN');

    await row.locator('[data-action="bind"]').click();
    const res = await answerPrompt(page, 'zh-CN', 'slides-bind-zh-CN', 'bind');
    expect(JSON.parse(res.request().postData()!)).toMatchObject({ code: 'P2026-00001', ids: [expect.any(Number)] });
    await page.locator('.fui-ToastTitle', { hasText: zhCN.actions.done.replace('{{action}}', '绑定玻片或病例') }).waitFor();
    // Bound: it leaves the "Not bound" tab and shows under "Bound" with its number.
    await poll(() => rowOf(page, 'e2e-slide-zh').count()).toBe(0);
    await tab(page, 'bound').click();
    await poll(() => rowOf(page, 'e2e-slide-zh').locator('td[data-column="pathology_number"]').textContent()).toBe('P2026-00001');

    await seeInLibrary(page, 'e2e-slide-zh', 'zh-CN');
    await page.close();
  });

  it('en-US: unbinds, then binds two slides at once with one request, and finds them in the library cards and the slide search', async () => {
    const page = await open('technician', 'en-US');
    await upload(page, files['en-US']);

    await page.goto(`${app.url}/manage/slide/uploaded`);
    await page.getByTestId('list-page').waitFor();
    await tab(page, 'bound').click();
    const bound = rowOf(page, 'e2e-slide-zh');
    await bound.waitFor();
    await bound.locator('[data-action="unbind"]').click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.getByText('Unbind this slide from its case?', { exact: false }).waitFor();
    const unbound = page.waitForResponse((r) => r.url().endsWith('/api/data/kfb/move'));
    await confirm.getByRole('button', { name: enUS.common.confirm }).click();
    const unbindRes = await unbound;
    expect(unbindRes.status()).toBe(200);
    expect(JSON.parse(unbindRes.request().postData()!)).toMatchObject({ pathology_number: null });
    await poll(() => bound.count()).toBe(0);

    // Both slides wait in "Not bound": select both and bind them in one call.
    await tab(page, 'unbound').click();
    for (const name of ['e2e-slide-zh', 'e2e-slide-en']) await rowOf(page, name).getByRole('checkbox').click();
    await poll(() => page.getByText(enUS.table.selected.replace('{{count}}', '2')).count()).toBe(1);
    const moves: string[] = [];
    page.on('request', (r) => { if (r.url().endsWith('/api/data/kfb/move')) moves.push(r.postData() ?? ''); });
    await page.locator('button[data-action="batchBind"]').click();
    const res = await answerPrompt(page, 'en-US', 'slides-bind-en-US', 'batch');
    // One request for both rows (plus the refused one with the unknown number).
    expect(moves.length).toBe(2);
    const body = JSON.parse(res.request().postData()!) as { ids: number[]; pathology_number: string };
    expect(body.pathology_number).toBe('P2026-00001');
    expect(body.ids).toHaveLength(2);
    await poll(() => page.getByTestId('data-table').getByText(enUS.table.empty).count()).toBe(1);
    await shot(page, 'slides-uploaded-en-US');

    await seeInLibrary(page, 'e2e-slide-en', 'en-US');
    // The library as cards: the same rows, thumbnails loaded lazily, and the choice kept.
    await page.getByTestId('layout-cards').click();
    const card = page.getByTestId('card-grid').locator('article', { hasText: 'e2e-slide-en' });
    await card.waitFor();
    expect(await card.locator('img').getAttribute('loading')).toBe('lazy');
    await poll(() => imageLoaded(card.locator('img'))).toBeGreaterThan(0);
    expect(await card.textContent()).toContain('P2026-00001');
    await shot(page, 'slides-library-cards-en-US');
    await page.reload();
    await page.getByTestId('card-grid').waitFor();
    await page.getByTestId('layout-table').click();
    await page.getByTestId('data-table').waitFor();

    // The slide search: cards found by the number on the label.
    await page.goto(`${app.url}/manage/slide/search`);
    const box = page.getByTestId('keyword-box');
    await box.fill('P2026-00001');
    await box.press('Enter');
    await poll(() => new URL(page.url()).searchParams.get('search')).toBe('P2026-00001');
    const cards = page.getByTestId('card-grid').locator('article');
    await poll(() => cards.count()).toBe(2);
    for (const i of [0, 1]) await poll(() => imageLoaded(cards.nth(i).locator('img'))).toBeGreaterThan(0);
    await shot(page, 'slides-search-en-US');
    await box.fill('no-such-slide');
    await box.press('Enter');
    await page.getByTestId('card-grid').getByText(enUS.table.empty).waitFor();
    expect(app.pageErrors).toEqual([]);
    await page.close();
  });

  it('as administrator: downloads a slide through its signed link, reads the slide data and search pages in both languages, and shows all hospitals\' data', async () => {
    const page = await open('admin', 'zh-CN');
    await page.goto(`${app.url}/manage/slide/library`);
    const row = rowOf(page, 'e2e-slide-zh');
    await row.waitFor();
    await shot(page, 'slides-library-admin-zh-CN');
    const [download] = await Promise.all([page.waitForEvent('download'), row.locator('[data-action="download"]').click()]);
    expect(download.suggestedFilename()).toBe('e2e-slide-zh.tiff');
    expect(new URL(download.url()).pathname).toMatch(/^\/api\/data\/kfb\/file\/\d+$/);
    expect(fs.statSync((await download.path())!).size).toBe(fs.statSync(files['zh-CN']).size);

    for (const lang of ['zh-CN', 'en-US'] as const) {
      if (lang === 'en-US') {
        await page.evaluate(() => localStorage.setItem('lang', 'en-US'));
        await page.reload();
      }
      await page.goto(`${app.url}/manage/slide/data`);
      const data = rowOf(page, 'e2e-slide-en');
      await data.waitFor();
      expect(await data.locator('td[data-column="pathology_number"]').textContent()).toBe('P2026-00001');
      expect(await data.locator('td[data-column="md5"]').textContent()).toMatch(/^[0-9a-f]{32}$/);
      expect(await data.locator('td[data-column="dimensions"]').textContent()).toBe('2400 × 1800');
      await shot(page, `slides-data-${lang}`);

      await page.goto(`${app.url}/manage/slide/search`);
      await poll(() => page.getByTestId('card-grid').locator('article').count()).toBe(2);
      await poll(() => page.getByTestId('keyword-box').getAttribute('placeholder'))
        .toBe(lang === 'zh-CN' ? '输入病理号、患者姓名或切片名称' : 'Pathology number, patient or slide name');
      await shot(page, `slides-search-${lang}`);

      await page.goto(`${app.url}/manage/slide/uploaded`);
      await tab(page, 'bound').click();
      await rowOf(page, 'e2e-slide-en').locator('[data-action="unbind"]').waitFor();
      await shot(page, `slides-uploaded-bound-${lang}`);
    }

    // Spec §6: the show-all-data switch sends X-Show-All-Data and the list reloads with every hospital's cases.
    await page.goto(`${app.url}/manage/case/list`);
    const cases = page.getByTestId('data-table').locator('tbody tr[data-row-key]');
    await cases.first().waitFor();
    await poll(() => cases.count()).toBe(5);
    const wide = page.waitForRequest((r) => r.url().includes('/api/pathology/lists') && r.headers()['x-show-all-data'] === '1');
    await page.getByTestId('show-all-data').click();
    await wide;
    await poll(() => cases.count()).toBe(6);
    await shot(page, 'slides-show-all-data-en-US');
    await page.getByTestId('show-all-data').click();
    await poll(() => cases.count()).toBe(5);
    expect(app.pageErrors).toEqual([]);
    await page.close();
  });

  it('binds at upload time to the pathology number typed on the upload page; an unknown number uploads nothing', async () => {
    const file = path.join(dir, 'e2e-slide-direct.tiff');
    await generateDemoSlide({ out: file, width: 1600, height: 1200, seed: 13 });
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const text = lang === 'en-US' ? enUS : zhCN;
      const page = await open('technician', lang);
      await page.goto(`${app.url}/manage/slide/upload`);
      await page.getByTestId('dss-upload').waitFor();
      if (lang === 'en-US') {
        await page.getByTestId('upload-case-number').fill('NOPE-77');
        await page.getByTestId('upload-input').setInputFiles(file);
        await page.getByText(text.upload.caseUnknown.replace('{{number}}', 'NOPE-77')).waitFor();
        expect(await page.getByTestId('upload-task').count()).toBe(0);
        await shot(page, 'slides-upload-case-unknown-en-US');
        await page.close();
        continue;
      }
      await page.getByTestId('upload-case-number').fill('P2026-00002');
      await page.getByTestId('upload-input').setInputFiles(file);
      const task = page.getByTestId('upload-task');
      await task.getByTestId('upload-case').waitFor();
      expect(await task.getByTestId('upload-case').textContent()).toBe('→ P2026-00002');
      await shot(page, 'slides-upload-case-zh-CN');
      await expect.poll(() => task.getAttribute('data-state'), { timeout: 60_000 }).toBe('success');
      await task.waitFor({ state: 'detached', timeout: 20_000 });
      await page.goto(`${app.url}/manage/slide/library`);
      const row = rowOf(page, 'e2e-slide-direct');
      await row.waitFor();
      await poll(() => row.locator('td[data-column="pathology_number"]').textContent()).toBe('P2026-00002');
      await page.close();
    }
  });
});
