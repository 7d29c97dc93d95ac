import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import labEnums from '../../schemas/enums/lab.json';
import { enUSBundle as enUS, zhCNBundle as zhCN } from '../../src/i18n/bundles';
import { launchBrowser, SHOTS, signIn, startServer } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const LANGS: Lang[] = ['zh-CN', 'en-US'];
const PATIENT = 'E2E 流程患者';
/** The machine is shared: give a list a generous while to load after a navigation or an action. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
/** Spec §4 status wording as the case_status enum gives it (schemas/enums/lab.json). */
const statusWord = (key: string, lang: Lang) => labEnums.case_status.find((o) => o.value === key)!.label[lang];
const actionWord = (action: string, lang: Lang) => (({ 'zh-CN': zhCN, 'en-US': enUS })[lang].lab.timelineAction as Record<string, string>)[action];

/**
 * The lab half of a case's life in Chromium (issue 10): the registrar registers a case through CaseList's quick
 * form and receives its specimens, the sampler samples it on the case detail page (two specimens, a block each),
 * the technician runs the slide-making steps (from CaseList and from the detail page) and prints the slide
 * labels, the allocator assigns it to the first-diagnosis doctor on CaseDistribution. After each step CaseList
 * shows the spec §4 status in both languages; the detail timeline shows every step with who did it.
 */
describe('the case lifecycle in the lab, in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let caseId = 0;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(user: string, lang: Lang): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: lang });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${server.url}/login`);
    await page.evaluate((l) => localStorage.setItem('lang', l), lang);
    await signIn(page, server.url, user, user === 'admin' ? 'dsms-admin' : 'dsms-demo');
    await page.getByTestId('dashboard').waitFor();
    return page;
  }
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const rowOf = (page: Page) => page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: PATIENT });
  const caseList = async (page: Page) => {
    await page.goto(`${server.url}/manage/case/list`);
    await rowOf(page).waitFor();
  };
  const detail = async (page: Page) => {
    await page.goto(`${server.url}/case/${caseId}`);
    await page.getByTestId('case-detail').waitFor();
  };
  const answer = (page: Page, url: RegExp) => page.waitForResponse((r) => url.test(new URL(r.url()).pathname) && r.request().method() === 'POST');

  /** One signed-in page per language for `user`: each step is checked in both without signing in again. */
  async function both(user: string): Promise<Record<Lang, Page>> {
    return { 'zh-CN': await open(user, 'zh-CN'), 'en-US': await open(user, 'en-US') };
  }
  const closeAll = async (pages: Record<Lang, Page>) => { for (const lang of LANGS) await pages[lang].close(); };

  /** CaseList shows the case's status in the spec's words, in Chinese and in English. */
  async function statusIs(pages: Record<Lang, Page>, key: string) {
    for (const lang of LANGS) {
      await caseList(pages[lang]);
      await poll(() => rowOf(pages[lang]).locator('td[data-column="case_status"]').textContent()).toBe(statusWord(key, lang));
      await shot(pages[lang], `lab-caselist-${key}-${lang}`);
    }
  }

  it('registrar: registers a case through the quick form, then receives its specimens', async () => {
    const pages = await both('registrar');
    const page = pages['zh-CN'];
    await caseList(page).catch(() => undefined);
    await page.locator('[data-action="quick_register"]').click();
    const form = page.getByTestId('form-dialog');
    await form.waitFor();
    // Required fields are asked for before anything is sent.
    await form.getByTestId('form-confirm').click();
    await form.getByText(zhCN.dialog.required).first().waitFor();
    await form.getByTestId('form-field-patient_name').fill(PATIENT);
    await form.getByTestId('form-field-age').fill('56');
    await form.getByTestId('form-field-inspection_department').fill('消化内科');
    await form.getByTestId('form-field-specimens-0-name').fill('胃窦');
    await form.getByTestId('form-field-specimens-1-name').fill('胃体');
    await shot(page, 'lab-register-form-zh-CN');
    await page.waitForTimeout(600); // the confirm is throttled (spec §9)
    const registered = answer(page, /\/api\/pathology\/register$/);
    await form.getByTestId('form-confirm').click();
    const res = await registered;
    expect(res.status()).toBe(200);
    caseId = (await res.json()).data.id;
    await form.waitFor({ state: 'detached' });
    await statusIs(pages, 'to_receive');

    const en = pages['en-US'];
    await rowOf(en).locator('[data-action="receive"]').click();
    const received = answer(en, /\/receive$/);
    await en.getByTestId('confirm-dialog').getByRole('button', { name: enUS.common.confirm }).click();
    expect((await received).status()).toBe(200);
    await statusIs(pages, 'to_sample');
    await closeAll(pages);
  });

  it('sampler: samples the case with two blocks on the detail page', async () => {
    const pages = await both('sampler');
    for (const lang of LANGS) {
      await detail(pages[lang]);
      await pages[lang].getByTestId('sampling-panel').waitFor();
      await shot(pages[lang], `lab-detail-sampling-${lang}`);
    }
    const page = pages['en-US'];
    const sampled = answer(page, /\/sample$/);
    await page.getByTestId('sampling-submit').click();
    expect((await sampled).status()).toBe(200);
    await poll(() => page.getByTestId('blocks').locator('tbody tr').count()).toBe(2);
    await shot(page, 'lab-detail-sampled-en-US');
    await statusIs(pages, 'dehydration');
    await closeAll(pages);
  });

  it('technician: makes the slides step by step and prints the slide labels', async () => {
    const pages = await both('technician');
    const page = pages['zh-CN'];
    await caseList(page);
    // The first step from CaseList's row action, the rest on the detail page.
    const dehydrated = answer(page, /\/make-slides$/);
    await rowOf(page).locator('[data-action="step_dehydration"]').click();
    expect((await dehydrated).status()).toBe(200);
    await poll(() => rowOf(page).locator('td[data-column="case_status"]').textContent()).toBe(statusWord('embeded', 'zh-CN'));
    await detail(page);
    for (const step of ['embeded', 'cut', 'stain', 'cover']) {
      const done = answer(page, /\/make-slides$/);
      await page.getByTestId(`making-${step}`).click();
      expect((await done).status()).toBe(200);
      await page.getByTestId(`making-${step}`).waitFor({ state: 'detached' });
    }
    await poll(() => page.getByTestId('slides').locator('tbody tr').count()).toBe(2);
    await poll(() => page.getByTestId('labels-sheet').getByTestId('label').count()).toBe(2);
    await shot(page, 'lab-detail-labels-zh-CN');
    await page.evaluate(() => { window.print = () => undefined; });
    const printed = answer(page, /\/labels\/print$/);
    await page.getByTestId('labels-print').click();
    expect((await printed).status()).toBe(200);
    await page.getByTestId('timeline').getByText(actionWord('print_labels', 'zh-CN')).waitFor();

    const en = pages['en-US'];
    await detail(en);
    await en.getByTestId('labels-sheet').waitFor();
    await shot(en, 'lab-detail-labels-en-US');
    await statusIs(pages, 'to_allot');
    await closeAll(pages);
  });

  it('allocator: assigns the case to the first-diagnosis doctor on CaseDistribution', async () => {
    const pages = await both('allocator');
    const page = pages['zh-CN'];
    await page.goto(`${server.url}/manage/case/distribution`);
    await rowOf(page).waitFor();
    await shot(page, 'lab-distribution-zh-CN');
    await rowOf(page).locator('[data-action="distribute"]').click();
    const prompt = page.getByTestId('prompt-dialog');
    await prompt.waitFor();
    await prompt.getByTestId('prompt-input').click();
    // The doctor's current workload is shown with the name (GET /api/pathology/doctors/workload).
    await page.getByRole('option', { name: '陈初诊（待初诊 0）' }).click();
    await shot(page, 'lab-distribution-prompt-zh-CN');
    const assigned = answer(page, /\/distribute$/);
    await prompt.getByTestId('prompt-confirm').click();
    expect((await assigned).status()).toBe(200);
    await prompt.waitFor({ state: 'detached' });
    await statusIs(pages, 'to_first');
    await closeAll(pages);
    const primary = await server.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow();
    const row = await server.db.selectFrom('cases').select(['first_doctor', 'main_phase', 'sub_phase']).where('id', '=', caseId).executeTakeFirstOrThrow();
    expect(row).toEqual({ first_doctor: primary.id, main_phase: 'diagnosis', sub_phase: 'to_first' });
  });

  it('the detail timeline shows every step, who and when, in both languages', async () => {
    const steps = ['register', 'receive', 'sample', 'dehydration', 'embeded', 'cut', 'stain', 'cover', 'print_labels', 'distribute'];
    const who = ['王登记', '王登记', '李取材', '张技术', '张技术', '张技术', '张技术', '张技术', '张技术', '孙分配'];
    for (const lang of LANGS) {
      const page = await open('admin', lang);
      await detail(page);
      const rows = page.getByTestId('timeline').locator('tbody tr');
      await poll(() => rows.count()).toBe(steps.length);
      for (const [i, step] of steps.entries()) {
        const cells = rows.nth(i).locator('td');
        expect(await cells.nth(2).textContent()).toBe(actionWord(step, lang));
        expect(await cells.nth(1).textContent()).toBe(who[i]);
        expect(await cells.nth(0).textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      }
      expect(await page.getByTestId('case-status').textContent()).toBe(statusWord('to_first', lang));
      await shot(page, `lab-detail-timeline-${lang}`);
      await page.close();
    }
  });

  it('the other lab pages render as schema pages in both languages', async () => {
    for (const lang of LANGS) {
      const page = await open('admin', lang);
      for (const [alias, uri] of [['SlideApply', 'case/slide-apply'], ['MissCaseSearch', 'case/miss'], ['SettingPathological', 'setting/pathological'], ['CaseDistribution', 'case/distribution']]) {
        await page.goto(`${server.url}/manage/${uri}`);
        await page.getByTestId('list-page').waitFor();
        await shot(page, `lab-page-${alias}-${lang}`);
      }
      // The numbering rule of the default library exists since the first registration (P + year + 5 digits).
      await page.goto(`${server.url}/manage/setting/pathological`);
      await page.getByTestId('data-table').locator('tbody tr[data-row-key]').first().waitFor();
      await page.close();
    }
    expect(pageErrors).toEqual([]);
  });
});
