import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { caseAtFirstDiagnosis, type Send } from '../api/diagnosis-setup.js';
import { afterConfirmThrottle, e2eApp, evidence } from './harness.js';
import pdfEn from '../../src/i18n/locales/en-US/pages/pdf.json';
import pdfZh from '../../src/i18n/locales/zh-CN/pages/pdf.json';
import caseEn from '../../src/i18n/locales/en-US/pages/case-detail.json';
import caseZh from '../../src/i18n/locales/zh-CN/pages/case-detail.json';

type Lang = 'zh-CN' | 'en-US';
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });

/**
 * Issue 15 in Chromium: `primary` writes a diagnosis from a template in DiagnosisList's editor, `auditor` returns it
 * with a reason, `primary` fixes it, `auditor` approves, `signer` signs and previews the PDF. The case reaches
 * to_first through the lab's own commands (API calls as registrar, sampler, technician, allocator).
 */
describe('diagnosis in Chromium', () => {
  const app = e2eApp();
  const pages: Record<string, Page> = {};
  let caseId: number;

  async function as(user: string, lang: Lang = 'zh-CN'): Promise<Page> {
    if (pages[user]) return pages[user];
    pages[user] = await app.page(lang, user, { options: { viewport: { width: 1440, height: 960 } } });
    return pages[user];
  }
  /** An API call as a signed-in user (their session's bearer token), for the test's setup. */
  const send: Send = async (who, method, url, payload) => {
    const page = await as(who);
    const res = await page.evaluate(async ({ method, url, payload }) => {
      const r = await fetch(url, { method, headers: { authorization: `Bearer ${sessionStorage.getItem('access_token')}`, 'content-type': 'application/json' }, body: payload ? JSON.stringify(payload) : undefined });
      return { status: r.status, body: await r.text() };
    }, { method, url, payload });
    if (res.status !== 200) throw new Error(`${method} ${url} as ${who}: ${res.status} ${res.body}`);
    return JSON.parse(res.body).data;
  };
  const status = (page: Page) => page.getByTestId('diagnosis-status').getAttribute('data-status');
  const openEditor = async (page: Page) => {
    await page.goto(`${app.url}/diagnosis/${caseId}`);
    await page.getByTestId('diagnosis-editor').waitFor();
  };

  beforeAll(async () => {
    const primary = await app.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow();
    await as('primary', 'zh-CN');
    await as('auditor', 'en-US');
    await as('signer', 'en-US');
    caseId = await caseAtFirstDiagnosis(send, primary.id, { patient_name: '林小雨', gender: 'female', age: 38, age_unit: 'year' });
    const root = await send('primary', 'POST', '/api/diagnosis/templates', { name: '消化系统' }) as { id: number };
    await send('primary', 'POST', '/api/diagnosis/templates', {
      name: '慢性胃炎', parent_id: root.id, gross_description: '灰白色黏膜组织两粒，直径 0.2 cm。', microscopic: '胃黏膜慢性炎细胞浸润。', diagnosis: '（胃窦）慢性浅表性胃炎。',
    });
    await send('primary', 'POST', '/api/diagnosis/phrases', { text: '伴肠上皮化生' });
  }, 240_000);

  it('primary finds the case in DiagnosisList (to_first tab) and writes the diagnosis from a template', async () => {
    const page = pages.primary;
    await page.goto(`${app.url}/manage/case/diagnosis`);
    await page.locator('[data-tab="to_first"]').click();
    const link = page.getByRole('link', { name: /P\d{4}-\d+/ }).first();
    await link.waitFor();
    await evidence(page, `diagnosis-list-zh-CN.png`);
    await link.click();
    await page.getByTestId('diagnosis-editor').waitFor();
    expect(page.url()).toContain(`/diagnosis/${caseId}`);
    await poll(() => status(page)).toBe('to_first');
    await page.locator('[data-template="慢性胃炎"] button').click();
    await poll(() => page.locator('[data-field="diagnosis"]').inputValue()).toBe('（胃窦）慢性浅表性胃炎。');
    // A phrase goes in at the cursor: after "胃炎" in the diagnosis.
    const diagnosis = page.locator('[data-field="diagnosis"]');
    await diagnosis.click();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.locator('[data-phrase="伴肠上皮化生"]').click();
    await poll(() => diagnosis.inputValue()).toBe('（胃窦）慢性浅表性胃炎伴肠上皮化生。');
    await poll(() => page.getByTestId('save-state').getAttribute('data-state')).toBe('saved');
    await evidence(page, `diagnosis-editor-zh-CN.png`);
    await page.locator('[data-action="submit"]').click();
    await poll(() => status(page)).toBe('to_audit');
  });

  it.each(['en-US', 'zh-CN'] as const)('DiagnosisList opens on "to review" for the auditor, whose work is there [%s]', async (lang) => {
    // Its own page in each language: the shared one keeps English for the steps below.
    const page = lang === 'en-US' ? pages.auditor : await app.page(lang, 'auditor', { options: { viewport: { width: 1440, height: 960 } } });
    await page.goto(`${app.url}/manage/case/diagnosis`);
    const tab = page.locator('[data-tab="to_audit"]');
    await poll(() => tab.getAttribute('aria-selected')).toBe('true');
    expect(await tab.textContent()).toContain(lang === 'zh-CN' ? '待审核' : 'To audit');
    expect(await page.locator('[data-tab="to_first"]').getAttribute('aria-selected')).toBe('false');
    // The case primary just submitted is listed without choosing a tab.
    await page.getByRole('link', { name: /P\d{4}-\d+/ }).first().waitFor();
    await evidence(page, `diagnosis-list-auditor-${lang}.png`);
    if (page !== pages.auditor) await page.close();
  });

  it('auditor returns it with a reason; primary fixes it (the text survives a reload) and submits again', async () => {
    const auditor = pages.auditor;
    await openEditor(auditor);
    await poll(() => status(auditor)).toBe('to_audit');
    await auditor.locator('[data-action="return"]').click();
    await auditor.getByTestId('return-reason-input').fill('Please describe the glands');
    await auditor.locator('[data-action="confirm-return"]').click();
    await poll(() => status(auditor)).toBe('to_first');

    const primary = pages.primary;
    await openEditor(primary);
    await primary.getByTestId('return-reason').waitFor();
    const micro = primary.locator('[data-field="microscopic"]');
    await micro.fill('胃黏膜慢性炎细胞浸润，腺体排列规则。');
    // Reloaded before the autosave ran: the typed text comes back from the browser's copy.
    await primary.reload();
    await primary.getByTestId('diagnosis-editor').waitFor();
    await poll(() => primary.locator('[data-field="microscopic"]').inputValue()).toBe('胃黏膜慢性炎细胞浸润，腺体排列规则。');
    await primary.locator('[data-action="submit"]').click();
    await poll(() => status(primary)).toBe('to_audit');
  });

  it('auditor approves; signer signs and previews the PDF', async () => {
    const auditor = pages.auditor;
    await openEditor(auditor);
    await auditor.locator('[data-action="approve"]').click();
    await poll(() => status(auditor)).toBe('to_sign');

    const signer = pages.signer;
    await openEditor(signer);
    await poll(() => signer.locator('[data-field="microscopic"]').inputValue()).toBe('胃黏膜慢性炎细胞浸润，腺体排列规则。');
    await signer.locator('[data-action="sign"]').click();
    await signer.locator('[data-action="sign-now"]').click();
    await poll(() => status(signer)).toBe('to_print');
    await signer.locator('[data-action="preview"]').click();
    const img = signer.getByTestId('report-preview');
    await img.waitFor();
    await poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(500);
    await evidence(signer, `diagnosis-preview-en-US.png`);
    // The dialog opens the /pdf page in a tab of its own, which inherits the session.
    const [tab] = await Promise.all([signer.waitForEvent('popup'), signer.getByTestId('open-pdf-page').click()]);
    await tab.locator('[data-rendered]').waitFor();
    expect(await tab.getByTestId('pdf-sheet').count()).toBeGreaterThan(0);
    await tab.close();
    await signer.keyboard.press('Escape');
    await signer.goto(`${app.url}/manage/case/diagnosis`);
    await signer.locator('[data-tab="to_print"]').click();
    await signer.getByRole('link', { name: /P\d{4}-\d+/ }).first().waitFor();
    await evidence(signer, `diagnosis-list-en-US.png`);
    // Batch print from the list: the case chosen, one PDF of its report downloaded, the report recorded as printed.
    await signer.locator(`[data-testid="data-table"] tbody tr[data-row-key="${caseId}"]`).getByRole('checkbox').click();
    const [download] = await Promise.all([signer.waitForEvent('download'), signer.locator('[data-action="print_batch"]').click()]);
    expect(download.suggestedFilename()).toBe('Print selected.pdf');
    expect(fs.readFileSync(await download.path()).subarray(0, 5).toString()).toBe('%PDF-');
    await poll(async () => (await app.db.selectFrom('reports').select('print_at').where('case_id', '=', caseId).executeTakeFirstOrThrow()).print_at).toBeTruthy();
    await timelineInWords(signer, caseEn);
  });

  /** The case's timeline names the report's steps in the page's words, never by their codes. */
  async function timelineInWords(page: Page, words: typeof caseEn) {
    await page.goto(`${app.url}/case/${caseId}`);
    const timeline = page.getByTestId('timeline');
    await timeline.getByText(words.lab.timelineAction.report_sign, { exact: true }).waitFor();
    for (const step of ['report_create', 'report_submit', 'report_approve'] as const) {
      expect(await timeline.getByText(words.lab.timelineAction[step], { exact: true }).count(), step).toBeGreaterThan(0);
    }
    expect(await timeline.textContent()).not.toMatch(/report_[a-z]/);
    const signing = timeline.locator('tr', { hasText: words.lab.timelineAction.report_sign });
    expect(await signing.textContent()).toContain(`→ ${words.lab.detail.reportStage.signed}`);
    await evidence(page, `case-timeline-${page === pages.signer ? 'en-US' : 'zh-CN'}.png`, { fullPage: true });
  }

  it('the editor and the preview in the other language (primary in Chinese, auditor in English)', async () => {
    await openEditor(pages.auditor);
    await evidence(pages.auditor, `diagnosis-editor-en-US.png`);
    const primary = pages.primary;
    await openEditor(primary);
    await primary.locator('[data-action="preview"]').click();
    const img = primary.getByTestId('report-preview');
    await poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(500);
    await evidence(primary, `diagnosis-preview-zh-CN.png`);
    await primary.keyboard.press('Escape');
    await timelineInWords(primary, caseZh);
  });

  it('quick open by pathology number, Alt+↓ to the next case at the same stage, and the timeout tab', async () => {
    const primaryId = (await app.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow()).id;
    const a = await caseAtFirstDiagnosis(send, primaryId, { patient_name: '周一', gender: 'male', age: 50, age_unit: 'year' });
    const b = await caseAtFirstDiagnosis(send, primaryId, { patient_name: '周二', gender: 'male', age: 51, age_unit: 'year' });
    // a was registered four days ago and is still unsigned: the timeout tab lists it.
    await app.db.updateTable('cases').set({ registration_at: new Date(Date.now() - 96 * 3_600_000).toISOString() }).where('id', '=', a).execute();
    const numberOf = async (id: number) => (await app.db.selectFrom('cases').select('pathology_number').where('id', '=', id).executeTakeFirstOrThrow()).pathology_number!;
    const [numberA, numberB] = [await numberOf(a), await numberOf(b)];
    for (const [user, lang] of [['primary', 'zh-CN'], ['auditor', 'en-US']] as const) {
      const page = pages[user]!;
      await page.goto(`${app.url}/manage/case/diagnosis`);
      await page.locator('[data-tab="timeout"]').click();
      await poll(() => page.getByRole('row').filter({ hasText: numberA }).count()).toBe(1);
      await poll(() => page.getByRole('row').filter({ hasText: numberB }).count()).toBe(0);
      await evidence(page, `diagnosis-timeout-${lang}.png`);
    }

    const page = pages.primary!;
    await page.goto(`${app.url}/manage/case/diagnosis`);
    await page.locator('[data-action="quick_open"]').click();
    await page.getByTestId('form-field-pathology_number').fill('NO-SUCH-NUMBER');
    await page.getByTestId('form-field-pathology_number').press('Enter');
    const refusedAt = Date.now();
    await page.getByTestId('form-dialog').getByRole('alert').or(page.getByTestId('form-dialog').locator('[class*="validationMessage"]')).first().waitFor();
    expect(page.url()).toContain('/manage/case/diagnosis');
    // A dialog's confirm acts once per 500 ms (spec §5, a double click); the second number comes after it.
    await afterConfirmThrottle(refusedAt);
    await page.getByTestId('form-field-pathology_number').fill(numberA);
    await page.getByTestId('form-field-pathology_number').press('Enter');
    await page.waitForURL(`**/diagnosis/${a}`);
    await page.getByTestId('diagnosis-editor').waitFor();
    // Alt+↓: the next case still waiting for its first diagnosis, in pathology order.
    await page.keyboard.press('Alt+ArrowDown');
    await page.waitForURL(`**/diagnosis/${b}`);
    await poll(() => page.getByTestId('diagnosis-number').textContent()).toBe(numberB);
    await evidence(page, `diagnosis-next-case-zh-CN.png`);
  });

  it('walks DiagnosisList and the four report settings pages from the menu: each is a real page, in both languages', async () => {
    type Entry = { alias?: string; uri?: string; children?: Entry[] };
    const leaves = (entries: Entry[]): Entry[] => entries.flatMap((e) => (e.children?.length ? leaves(e.children) : [e]));
    const wanted = ['DiagnosisList', 'SettingReport', 'SettingAddReport', 'SettingEditReport', 'SettingViewReport'];
    for (const [user, lang] of [['admin', 'zh-CN'], ['signer', 'en-US']] as const) {
      const page = await as(user, lang);
      const menus = await page.evaluate(async () => (await (await fetch('/api/system_management/users/menu', {
        headers: { Authorization: `Bearer ${sessionStorage.getItem('access_token')}` },
      })).json()).data);
      const entries = leaves(menus as Entry[]).filter((e) => wanted.includes(e.alias ?? ''));
      // The administrator's menu holds all five; the signer's at least the work list.
      expect(entries.length, user).toBeGreaterThanOrEqual(user === 'admin' ? 5 : 1);
      for (const e of entries) {
        await page.goto(`${app.url}${e.uri}`);
        await poll(() => page.locator('[data-testid="list-page"], [data-testid="form-page"]').count()).toBeGreaterThan(0);
        expect(await page.getByTestId('page-pending').count(), e.alias).toBe(0);
        if (user === 'admin') await evidence(page, `menu-walk-${e.alias}-${lang}.png`);
      }
    }
  });

  it('the /pdf page draws the report, blocks printing, saving and the context menu, and opens nothing but this site’s API', async () => {
    const report = await app.db.selectFrom('reports').select('id').where('case_id', '=', caseId).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const file = encodeURIComponent(`/api/diagnosis/reports/${report.id}/pdf`);
    const blocked = (page: Page) => page.evaluate(() => {
      const menu = new MouseEvent('contextmenu', { bubbles: true, cancelable: true });
      document.querySelector('canvas')!.dispatchEvent(menu);
      const print = new KeyboardEvent('keydown', { key: 'p', ctrlKey: true, bubbles: true, cancelable: true });
      document.body.dispatchEvent(print);
      const save = new KeyboardEvent('keydown', { key: 's', metaKey: true, bubbles: true, cancelable: true });
      document.body.dispatchEvent(save);
      return [menu.defaultPrevented, print.defaultPrevented, save.defaultPrevented];
    });
    // Ink on the first sheet: the report was drawn, not an empty canvas.
    const ink = (page: Page) => page.evaluate(() => {
      const c = document.querySelector('canvas')!;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) dark++;
      return dark;
    });
    for (const [user, lang, words] of [['primary', 'zh-CN', pdfZh], ['signer', 'en-US', pdfEn]] as const) {
      const page = pages[user]!;
      await page.goto(`${app.url}/pdf?file=${file}`);
      await page.locator('[data-rendered]').waitFor();
      expect(await ink(page)).toBeGreaterThan(1000);
      expect(await page.getByTestId('pdf-protected').textContent()).toBe(words.pdf.protected);
      expect(await page.getByTestId('pdf-download').count()).toBe(0);
      expect(await blocked(page)).toEqual([true, true, true]);
      await evidence(page, `pdf-page-${lang}.png`);

      for (const bad of ['https://evil.example/report.pdf', '/login', '/api/../index.html']) {
        await page.goto(`${app.url}/pdf?file=${encodeURIComponent(bad)}`);
        expect(await page.getByTestId('pdf-error').textContent(), bad).toBe(words.pdf.badAddress);
      }
      await page.goto(`${app.url}/pdf?file=${encodeURIComponent('/api/common/setting')}`);
      await poll(() => page.getByTestId('pdf-error').textContent()).toContain(words.pdf.notPdf);
      await evidence(page, `pdf-page-error-${lang}.png`);
    }

    // The hospital switches protection off (SettingOther): the page offers the download and leaves the menu alone.
    const admin = await as('admin', 'en-US');
    const current = JSON.parse(await send('admin', 'GET', '/api/common/setting/get?settings_key=system_config') as unknown as string) as Record<string, unknown>;
    // What the form sends: the fields it shows (the FTP ones only with an FTP upload protocol).
    const shown = Object.fromEntries(Object.entries(current).filter(([k]) => !k.startsWith('ftp')));
    await send('admin', 'POST', '/api/common/setting', { settings_key: 'system_config', settings_value: { ...shown, pdf_protect: false } });
    await admin.goto(`${app.url}/pdf?file=${file}`);
    await admin.locator('[data-rendered]').waitFor();
    await admin.getByTestId('pdf-download').waitFor();
    expect(await admin.getByTestId('pdf-protected').count()).toBe(0);
    expect(await blocked(admin)).toEqual([false, false, false]);

    // The switch itself, on SettingOther, in both languages.
    for (const [lang, label] of [['zh-CN', 'PDF 页面禁止打印、保存和右键菜单'], ['en-US', 'PDF page blocks printing, saving and the context menu']] as const) {
      await admin.evaluate((l) => localStorage.setItem('lang', l), lang);
      await admin.goto(`${app.url}/manage/setting/other`);
      await admin.getByTestId('form-page').waitFor();
      await poll(() => admin.getByText(label).count()).toBeGreaterThan(0);
      await evidence(admin, `setting-other-pdf-${lang}.png`, { fullPage: true });
    }
  });

  // Last: its cases wait at to_first, which the next-case test above counts on being only its own.
  it.each(['zh-CN', 'en-US'] as const)('a new report starts its gross description from what gross sampling wrote [%s]', async (lang) => {
    const primary = await app.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow();
    const grossed = await caseAtFirstDiagnosis(send, primary.id, { patient_name: `取材描述 ${lang}`, gender: 'male', age: 52, age_unit: 'year' }, [
      { name: '胃窦活检', gross: '灰白色组织两粒，直径 0.2 cm' }, { name: '胃体活检', gross: '灰白色组织一粒' },
    ]);
    const page = await app.page(lang, 'primary', { options: { viewport: { width: 1440, height: 960 } } });
    await page.goto(`${app.url}/diagnosis/${grossed}`);
    await page.getByTestId('diagnosis-editor').waitFor();
    const colon = lang === 'zh-CN' ? '：' : ': ';
    const expected = `胃窦活检${colon}灰白色组织两粒，直径 0.2 cm\n胃体活检${colon}灰白色组织一粒`;
    const gross = page.locator('[data-field="gross_description"]');
    await poll(() => gross.inputValue()).toBe(expected);
    await evidence(page, `diagnosis-gross-from-sampling-${lang}.png`);
    // Saved as it stands, it is the report's gross description.
    await page.locator('[data-action="save"]').click();
    await poll(() => page.getByTestId('save-state').getAttribute('data-state')).toBe('saved');
    await poll(async () => (await app.db.selectFrom('reports').select('gross_description').where('case_id', '=', grossed).executeTakeFirst())?.gross_description).toBe(expected);
    await page.close();
  });
});
