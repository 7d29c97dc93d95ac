import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import labEnums from '../../schemas/enums/lab.json';
import { enUSBundle as enUS, zhCNBundle as zhCN } from '../../src/i18n/bundles';
import { afterConfirmThrottle, e2eApp, evidence } from './harness.js';
import { startHisDouble } from '../api/his-double.js';

type Lang = 'zh-CN' | 'en-US';
const LANGS: Lang[] = ['zh-CN', 'en-US'];
const PATIENT = 'E2E 流程患者';
/** The patient the hospital's HIS (a loopback stand-in) knows by outpatient number. */
const HIS_PATIENT = {
  patient_name: PATIENT, gender: 'female', age: 56, age_unit: 'year', outpatient_number: 'MZ-E2E-1', admission_number: null,
  treat_type: 'clinic', inspection_department: '消化内科', inspection_doctor: '周医生', clinical_diagnosis: '胃窦炎',
};
/** Which CaseList status tab (schemas/pages/CaseList.json) holds a case of each status the walk passes. */
const TAB_OF: Record<string, string> = {
  to_receive: 'to_receive', to_sample: 'to_sample', dehydration: 'slide_making', embeded: 'slide_making', to_allot: 'to_allot', to_first: 'diagnosing',
};
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
  let his: Awaited<ReturnType<typeof startHisDouble>>;
  let caseId = 0;
  // The HIS double first: the server is configured with its address. It stops after the server.
  afterAll(async () => {
    await his?.close();
  });
  const app = e2eApp(async () => {
    his = await startHisDouble({ 'MZ-E2E-1': HIS_PATIENT });
    return {
      his: { adapter: 'http', url: his.url, token: 'his-secret' },
      async setup(server) {
        const now = new Date().toISOString();
        await server.db.insertInto('reagents').values({ name: 'Ki-67', type: 'ihc', clone_no: 'MIB-1', manufacturer: null, specification: null, status: 1, rank: 1, remark: null, created_at: now, updated_at: now }).execute();
      },
    };
  });

  const open = (user: string, lang: Lang): Promise<Page> => app.page(lang, user);
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { fullPage: true });
  const rowOf = (page: Page) => page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: PATIENT });
  const caseList = async (page: Page) => {
    // The "all" tab by name: the list remembers the last tab chosen on this route.
    await page.goto(`${app.url}/manage/case/list?tab=all`);
    await rowOf(page).waitFor();
  };
  const detail = async (page: Page) => {
    await page.goto(`${app.url}/case/${caseId}`);
    await page.getByTestId('case-detail').waitFor();
  };
  const answer = (page: Page, url: RegExp) => page.waitForResponse((r) => url.test(new URL(r.url()).pathname) && r.request().method() === 'POST');

  /** One signed-in page per language for `user`: each step is checked in both without signing in again. */
  async function both(user: string): Promise<Record<Lang, Page>> {
    return { 'zh-CN': await open(user, 'zh-CN'), 'en-US': await open(user, 'en-US') };
  }
  const closeAll = async (pages: Record<Lang, Page>) => { for (const lang of LANGS) await pages[lang].close(); };

  /**
   * CaseList shows the case's status in the spec's words, in Chinese and in English; the case is under its
   * status tab (counted) and not under the "sent" one.
   */
  async function statusIs(pages: Record<Lang, Page>, key: string) {
    for (const lang of LANGS) {
      const page = pages[lang];
      await caseList(page);
      await poll(() => rowOf(page).locator('td[data-column="case_status"]').textContent()).toBe(statusWord(key, lang));
      await shot(page, `lab-caselist-${key}-${lang}`);
      const tab = page.getByTestId('list-tabs').locator(`[data-tab="${TAB_OF[key]}"]`);
      await tab.click();
      await poll(() => page.url()).toContain(`tab=${TAB_OF[key]}`);
      await rowOf(page).waitFor();
      await poll(async () => Number(await tab.locator('[data-count]').getAttribute('data-count'))).toBeGreaterThanOrEqual(1);
      await shot(page, `lab-caselist-tab-${TAB_OF[key]}-${lang}`);
      await page.getByTestId('list-tabs').locator('[data-tab="sent"]').click();
      await poll(() => page.url()).toContain('tab=sent');
      await poll(() => rowOf(page).count()).toBe(0);
    }
  }

  it('registrar: registers a case through the quick form, then receives its specimens', async () => {
    const pages = await both('registrar');
    const page = pages['zh-CN'];
    // No row of the patient yet: the list is there once its table is.
    await page.goto(`${app.url}/manage/case/list?tab=all`);
    await page.getByTestId('data-table').waitFor();
    await page.locator('[data-action="quick_register"]').click();
    const form = page.getByTestId('form-dialog');
    await form.waitFor();
    // Required fields are asked for before anything is sent.
    await form.getByTestId('form-confirm').click();
    const refusedAt = Date.now();
    await form.getByText(zhCN.dialog.required).first().waitFor();
    // The outpatient number looks the patient up in the HIS (Enter, as a barcode scanner sends it).
    await form.getByTestId('form-field-outpatient_number').fill('MZ-UNKNOWN');
    await form.getByTestId('form-field-outpatient_number').press('Enter');
    await form.getByText('HIS 中没有此门诊号或住院号的病人').waitFor();
    await form.getByTestId('form-field-outpatient_number').fill('MZ-E2E-1');
    await form.getByTestId('form-field-outpatient_number').press('Enter');
    await poll(() => form.getByTestId('form-field-patient_name').inputValue()).toBe(PATIENT);
    expect(await form.getByTestId('form-field-age').inputValue()).toBe('56');
    expect(await form.getByTestId('form-field-inspection_department').inputValue()).toBe('消化内科');
    expect(await form.getByTestId('form-field-inspection_doctor').inputValue()).toBe('周医生');
    expect(his.requests.map((r) => r.path)).toEqual(['/his/patient?outpatient_number=MZ-UNKNOWN', '/his/patient?outpatient_number=MZ-E2E-1']);
    await shot(page, 'lab-register-his-zh-CN');
    await form.getByTestId('form-field-specimens-0-name').fill('胃窦');
    await form.getByTestId('form-field-specimens-1-name').fill('胃体');
    await shot(page, 'lab-register-form-zh-CN');
    await afterConfirmThrottle(refusedAt); // the confirm is throttled (spec §9)
    const registered = answer(page, /\/api\/pathology\/register$/);
    await form.getByTestId('form-confirm').click();
    const res = await registered;
    expect(res.status()).toBe(200);
    caseId = (await res.json()).data.id;
    await form.waitFor({ state: 'detached' });
    await statusIs(pages, 'to_receive');

    const en = pages['en-US'];
    // In English the lookup button does the same and says what it filled.
    await caseList(en);
    await en.locator('[data-action="quick_register"]').click();
    const enForm = en.getByTestId('form-dialog');
    await enForm.getByTestId('form-field-outpatient_number').fill('MZ-E2E-1');
    await enForm.getByTestId('form-field-outpatient_number-lookup').click();
    await enForm.getByText('Filled 5 fields from the lookup').waitFor();
    expect(await enForm.getByTestId('form-field-patient_name').inputValue()).toBe(PATIENT);
    await shot(en, 'lab-register-his-en-US');
    await enForm.getByRole('button', { name: enUS.common.cancel }).click();
    await enForm.waitFor({ state: 'detached' });
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
    await page.goto(`${app.url}/manage/case/distribution`);
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
    const primary = await app.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow();
    const row = await app.db.selectFrom('cases').select(['first_doctor', 'main_phase', 'sub_phase']).where('id', '=', caseId).executeTakeFirstOrThrow();
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

  it('primary: places technical orders from the case page; a repeated one is refused in the spec\'s words; the diagnosis editor shows them', async () => {
    const pages = await both('primary');
    const en = pages['en-US'];
    await detail(en);
    const panel = en.getByTestId('orders-panel');
    await panel.getByTestId('orders-form').waitFor();
    // A special examination: immunohistochemistry on block 1 with Ki-67.
    await panel.getByTestId('orders-block').click();
    await en.getByRole('option', { name: '1', exact: true }).click();
    await panel.getByTestId('orders-reagent').click();
    await en.getByRole('option', { name: 'Ki-67 (MIB-1)' }).click();
    await panel.getByTestId('orders-add').click();
    // An additional request: a deep cut on block 2.
    await panel.getByTestId('orders-category').click();
    await en.getByRole('option', { name: 'Additional request' }).click();
    await panel.getByTestId('orders-type').click();
    await en.getByRole('option', { name: 'Deep cut' }).click();
    await panel.getByTestId('orders-block').click();
    await en.getByRole('option', { name: '2', exact: true }).click();
    await panel.getByTestId('orders-add').click();
    await panel.getByTestId('orders-batch').getByText('2. Additional request · Deep cut · Block 2 · × 1').waitFor();
    await shot(en, 'lab-detail-orders-batch-en-US');
    const placed = answer(en, /\/orders$/);
    await panel.getByTestId('orders-submit').click();
    expect((await placed).status()).toBe(200);
    const rows = panel.getByTestId('orders').locator('tbody tr');
    await poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).locator('td').nth(0).textContent()).toBe('Immunohistochemistry');
    expect(await rows.nth(0).locator('td').nth(2).textContent()).toBe('Ki-67');
    expect(await rows.nth(1).locator('td').nth(0).textContent()).toBe('Deep cut');
    expect(await rows.nth(1).locator('td').nth(4).textContent()).toBe('Open');
    await shot(en, 'lab-detail-orders-en-US');

    // The same examination again, in Chinese: refused with spec §5's words, nothing added.
    const zh = pages['zh-CN'];
    await detail(zh);
    const zhPanel = zh.getByTestId('orders-panel');
    await zhPanel.getByTestId('orders-block').click();
    await zh.getByRole('option', { name: '1', exact: true }).click();
    await zhPanel.getByTestId('orders-reagent').click();
    await zh.getByRole('option', { name: 'Ki-67 (MIB-1)' }).click();
    await zhPanel.getByTestId('orders-add').click();
    const refused = answer(zh, /\/orders$/);
    await zhPanel.getByTestId('orders-submit').click();
    expect((await refused).status()).toBe(409);
    await poll(() => zhPanel.getByTestId('orders-error').textContent()).toBe('不能添加重复的医嘱');
    expect(await zhPanel.getByTestId('orders').locator('tbody tr').count()).toBe(2);
    expect(await zhPanel.getByTestId('orders').locator('tbody tr').nth(0).locator('td').nth(0).textContent()).toBe('免疫组化');
    await shot(zh, 'lab-detail-orders-refused-zh-CN');

    // The diagnosis side: the editor lists the same orders, in each language.
    for (const lang of LANGS) {
      const page = pages[lang];
      await page.goto(`${app.url}/diagnosis/${caseId}`);
      const orders = page.getByTestId('diagnosis-editor').getByTestId('orders');
      await poll(() => orders.locator('[data-order]').count()).toBe(2);
      expect(await orders.locator('[data-order]').nth(1).textContent()).toBe(lang === 'zh-CN' ? '深切 · 蜡块 2 · × 1 · 待执行' : 'Deep cut · Block 2 · × 1 · Open');
      await shot(page, `lab-diagnosis-orders-${lang}`);
    }
    // CaseList marks the case with its order markers (case-status.markers), in each language's words.
    for (const lang of LANGS) {
      await caseList(pages[lang]);
      await poll(() => rowOf(pages[lang]).locator('td[data-column="markers"]').textContent())
        .toBe(lang === 'zh-CN' ? '技特' : 'Technical orderSpecial exam');
    }
    await closeAll(pages);
    const timeline = await app.db.selectFrom('case_timeline').select('action').where('case_id', '=', caseId).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(timeline.action).toBe('order');
  });

  it('the other lab pages render as schema pages in both languages', async () => {
    for (const lang of LANGS) {
      const page = await open('admin', lang);
      for (const [alias, uri] of [['SlideApply', 'case/slide-apply'], ['MissCaseSearch', 'case/miss'], ['SettingPathological', 'setting/pathological'], ['CaseDistribution', 'case/distribution']]) {
        await page.goto(`${app.url}/manage/${uri}`);
        await page.getByTestId('list-page').waitFor();
        await shot(page, `lab-page-${alias}-${lang}`);
      }
      // CaseList: the urgent toggle marks the case, the export gives the cases as .xlsx.
      await caseList(page);
      await rowOf(page).locator('[data-action="urgent"]').click();
      await poll(() => rowOf(page).locator('td[data-column="markers"]').textContent()).toContain(lang === 'zh-CN' ? '急' : 'Urgent');
      await shot(page, `lab-caselist-urgent-${lang}`);
      await rowOf(page).locator('[data-action="not_urgent"]').click();
      await poll(() => rowOf(page).locator('[data-action="urgent"]').count()).toBe(1);
      const download = page.waitForEvent('download');
      await page.locator('[data-action="export"]').click();
      expect((await download).suggestedFilename()).toMatch(/^cases-\d{4}-\d{2}-\d{2}\.xlsx$/);
      // The numbering rule of the default library exists since the first registration (P + year + 5 digits).
      await page.goto(`${app.url}/manage/setting/pathological`);
      await page.getByTestId('data-table').locator('tbody tr[data-row-key]').first().waitFor();
      await page.close();
    }
    expect(app.pageErrors).toEqual([]);
  });
});
