import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enDesigner from '../../src/i18n/locales/en-US/pages/designer.json';
import zhDesigner from '../../src/i18n/locales/zh-CN/pages/designer.json';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import { launchBrowser, SHOTS, signIn, startServer } from './harness.js';

/**
 * Issue 13, the page designer in Chromium. An administrator who never sees JSON (zh-CN) hides and reorders two
 * CaseList columns, relabels one, adds the form field "Referring ward" (both labels, three options) required
 * only when the case type is frozen (built in the rule builder), and saves with a note; a registrar (en-US) sees
 * it at once in the list and the case form, the rule holds in the browser and on the server; the diff shows
 * the change and rolling back removes it. Then the JSON view: an invalid property refused at its line with
 * the meta-schema's message, and a fix in JSON shown in the visual view. Screenshots in both languages.
 */
describe('page designer in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let adminContext: BrowserContext;
  let admin: Page;
  let registrar: Page;
  const errors: string[] = [];
  const zh = zhDesigner.designer;
  const en = enDesigner.designer;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    adminContext = await browser.newContext({ viewport: { width: 1500, height: 1000 }, locale: 'zh-CN' });
    admin = await adminContext.newPage();
    admin.on('pageerror', (e) => errors.push(e.message));
    await signIn(admin, server.url, 'admin', 'dsms-admin');
    await admin.getByTestId('dashboard').waitFor();
    const regContext = await browser.newContext({ viewport: { width: 1500, height: 1000 }, locale: 'en-US' });
    registrar = await regContext.newPage();
    registrar.on('pageerror', (e) => errors.push(e.message));
    await registrar.goto(`${server.url}/login`);
    await registrar.evaluate(() => localStorage.setItem('lang', 'en-US'));
    await signIn(registrar, server.url, 'registrar', 'dsms-demo');
    await registrar.getByTestId('dashboard').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const designer = () => admin.getByTestId('page-designer');
  const openDesigner = async () => {
    await admin.goto(`${server.url}/manage/system/schema?page=CaseList`);
    await designer().getByTestId('designer-columns').waitFor();
  };
  const columnOrder = () => designer().locator('[data-testid^="sortable-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')!.slice('sortable-'.length)));
  const headers = (page: Page) => page.getByTestId('data-table').locator('thead th[data-column]').evaluateAll((ths) => ths.map((th) => th.getAttribute('data-column')));
  const confirm = async () => admin.getByTestId('confirm-dialog').getByRole('button', { name: zhCN.common.confirm }).click();
  const openCaseForm = async () => {
    await registrar.goto(`${server.url}/manage/case/list`);
    await registrar.getByTestId('list-page').waitFor();
    await registrar.getByRole('button', { name: 'Register case' }).click();
    const form = registrar.getByTestId('form-drawer');
    await form.locator('#root_pathology_number').waitFor();
    return form;
  };
  const store = (page: Page, body: object) => page.evaluate(async (payload) => {
    const res = await fetch('/api/pathology/store', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en-US', Authorization: `Bearer ${sessionStorage.getItem('access_token')}` },
      body: JSON.stringify(payload),
    });
    return { status: res.status, body: await res.json() };
  }, body);

  it('an administrator changes CaseList without JSON; a registrar sees it at once; the rule holds in the browser and on the server', async () => {
    await openDesigner();
    const base = await columnOrder();
    expect(base.slice(0, 5)).toEqual(['pathology_number', 'case_status', 'case_type', 'expedite_status', 'patient_name']);

    // Hide two columns, move "patient name" up two places with the keyboard (dnd-kit), relabel it.
    await designer().getByTestId('col-visible-gender').uncheck();
    await designer().getByTestId('col-visible-age').uncheck();
    const from = (await designer().getByTestId('drag-patient_name').boundingBox())!;
    const to = (await designer().getByTestId('drag-case_type').boundingBox())!;
    await admin.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await admin.mouse.down();
    await admin.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
    await admin.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 4, { steps: 10 });
    await admin.mouse.up();
    await expect.poll(async () => (await columnOrder()).slice(0, 5)).toEqual(['pathology_number', 'case_status', 'patient_name', 'case_type', 'expedite_status']);
    await designer().getByTestId('col-label-patient_name-zh-CN').fill('患者');
    await designer().getByTestId('col-label-patient_name-en-US').fill('Patient');
    await shot(admin, 'designer-columns-zh-CN');

    // The form: a new field with both labels and three options, required only when the case type is frozen.
    await designer().getByTestId('designer-views').getByRole('tab', { name: zh.form }).click();
    const add = designer().getByTestId('new-field');
    await add.getByTestId('new-field-name').fill('referring_ward');
    await add.getByTestId('new-field-label-zh-CN').fill('转诊病区');
    await add.getByTestId('new-field-label-en-US').fill('Referring ward');
    await add.getByTestId('new-field-options').selectOption('inline');
    const options = [['icu', '重症监护', 'ICU'], ['ward3', '三病区', 'Ward 3'], ['er', '急诊', 'Emergency']];
    for (const [i, [value, zhLabel, enLabel]] of options.entries()) {
      await add.getByTestId('new-field-add-option').click();
      await add.getByTestId(`new-field-option-${i}-value`).fill(value);
      await add.getByTestId(`new-field-option-${i}-label-zh-CN`).fill(zhLabel);
      await add.getByTestId(`new-field-option-${i}-label-en-US`).fill(enLabel);
    }
    await add.getByTestId('new-field-add').click();
    await designer().getByTestId('own-field-referring_ward').waitFor();
    const rule = designer().getByTestId('rule-requiredIf-referring_ward');
    await rule.getByRole('button', { name: zh.addCondition, exact: true }).click();
    await rule.locator('select.rule-fields').selectOption('case_type');
    await rule.locator('select.rule-operators').selectOption('=');
    await rule.locator('select.rule-value').selectOption('frozen');
    await shot(admin, 'designer-form-rule-builder-zh-CN');

    // Save with a note (required: Save stays off without one).
    expect(await designer().getByTestId('designer-save').isDisabled()).toBe(true);
    await designer().getByTestId('designer-note').fill('转诊病区（冰冻必填），患者列前移');
    const contractSaved = admin.waitForResponse((r) => r.url().endsWith('/api/contracts/cases') && r.request().method() === 'PUT');
    const pageSaved = admin.waitForResponse((r) => r.url().endsWith('/api/schemas/CaseList') && r.request().method() === 'PUT');
    await designer().getByTestId('designer-save').click();
    const [c, p] = await Promise.all([contractSaved, pageSaved]);
    expect(c.status()).toBe(200);
    expect(p.status()).toBe(200);
    expect(c.request().postDataJSON().override.rules.requiredIf.referring_ward).toEqual({ '==': [{ var: 'case_type' }, 'frozen'] });
    expect(p.request().postDataJSON().note).toBe('转诊病区（冰冻必填），患者列前移');

    // The registrar's list: two columns gone, the moved one second and relabelled.
    await registrar.goto(`${server.url}/manage/case/list`);
    await registrar.getByTestId('list-page').waitFor();
    await expect.poll(async () => (await headers(registrar)).slice(0, 4)).toEqual(['pathology_number', 'case_status', 'patient_name', 'case_type']);
    const shown = await headers(registrar);
    expect(shown).not.toContain('gender');
    expect(shown).not.toContain('age');
    expect(await registrar.getByTestId('data-table').locator('thead th[data-column="patient_name"]').textContent()).toContain('Patient');

    // The case form: the new select with its three options; required only once the case type is frozen.
    const form = await openCaseForm();
    await form.locator('#root_referring_ward').waitFor();
    expect(await form.getByText('Referring ward').count()).toBeGreaterThan(0);
    await form.locator('#root_referring_ward').click();
    for (const label of ['ICU', 'Ward 3', 'Emergency']) await registrar.getByRole('option', { name: label, exact: true }).waitFor();
    await registrar.keyboard.press('Escape');
    await form.locator('#root_pathology_number').fill('DZ-E2E-1');
    await form.locator('#root_case_type').click();
    await registrar.getByRole('option', { name: 'Frozen', exact: true }).click();
    let posted = 0;
    registrar.on('request', (r) => { if (r.url().endsWith('/api/pathology/store')) posted++; });
    await form.getByTestId('form-save').click();
    await expect.poll(() => form.textContent()).toMatch(/Referring ward.*(required|must)/i);
    expect(posted).toBe(0);
    await shot(registrar, 'designer-registrar-form-en-US');
    await registrar.keyboard.press('Escape');

    // The server holds the same rule: frozen without a ward is refused, routine without one and frozen with one are stored.
    const refused = await store(registrar, { pathology_number: 'DZ-API-1', case_type: 'frozen' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(Object.keys(refused.body.errors)).toContain('referring_ward');
    expect((await store(registrar, { pathology_number: 'DZ-API-2', case_type: 'routine' })).status).toBe(200);
    const stored = await store(registrar, { pathology_number: 'DZ-API-3', case_type: 'frozen', referring_ward: 'icu' });
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    expect(stored.body.data.referring_ward).toBe('icu');
    expect((await store(registrar, { pathology_number: 'DZ-API-4', case_type: 'frozen', referring_ward: 'nowhere' })).status).toBe(422);
  });

  it('the history shows who saved what, the diff of the effective page, and rolling back removes the change', async () => {
    await openDesigner();
    await designer().getByTestId('designer-views').getByRole('tab', { name: zh.history }).click();
    const history = designer().getByTestId('page-history');
    await history.waitFor();
    expect(await history.locator('[data-version="1"]').textContent()).toContain('转诊病区（冰冻必填），患者列前移');
    expect(await history.locator('[data-version="1"]').textContent()).toContain('admin');
    const diff = await history.getByTestId('page-diff').textContent();
    expect(diff).toContain('+ ');
    expect(diff).toMatch(/\+\s+"hidden": true/);
    expect(diff).toContain('患者');
    expect(await designer().getByTestId('fields-diff').textContent()).toContain('referring_ward');
    await shot(admin, 'designer-diff-zh-CN');

    // Roll both back to the base: the registrar's list and form lose the change.
    await history.getByTestId('page-rollback-0').click();
    await confirm();
    await expect.poll(() => designer().getByTestId('page-history').locator('[data-version="2"]').count()).toBe(1);
    await designer().getByTestId('fields-history').getByTestId('fields-rollback-0').click();
    const rolled = admin.waitForResponse((r) => r.url().endsWith('/api/contracts/cases/rollback'));
    await confirm();
    expect((await rolled).status()).toBe(200);

    await registrar.goto(`${server.url}/manage/case/list`);
    await registrar.getByTestId('list-page').waitFor();
    await expect.poll(async () => (await headers(registrar)).slice(0, 5)).toEqual(['pathology_number', 'case_status', 'case_type', 'expedite_status', 'patient_name']);
    expect(await headers(registrar)).toContain('gender');
    const form = await openCaseForm();
    await form.locator('#root_patient_name').waitFor();
    expect(await form.locator('#root_referring_ward').count()).toBe(0);
    await registrar.keyboard.press('Escape');
    expect((await store(registrar, { pathology_number: 'DZ-API-5', case_type: 'frozen' })).status).toBe(200);
  });

  it('the JSON view refuses an invalid property at its line with the meta-schema message; a fix shows in the visual view (en-US)', async () => {
    await admin.evaluate(() => localStorage.setItem('lang', 'en-US'));
    await openDesigner();
    await shot(admin, 'designer-columns-en-US');
    await designer().getByTestId('designer-views').getByRole('tab', { name: en.json }).click();
    const editor = designer().getByTestId('designer-json').locator('.cm-content');
    await editor.waitFor();
    // The page as the hospital has it now (the text the editor opened with), with an unknown property on the second column.
    const page = await admin.evaluate(async () => {
      const res = await fetch('/api/schemas/CaseList', { headers: { Authorization: `Bearer ${sessionStorage.getItem('access_token')}` } });
      return (await res.json()).data.schema;
    }) as { list: { columns: Record<string, unknown>[] } };
    const replaceText = async (doc: string) => {
      await editor.click();
      await admin.keyboard.press('Control+A');
      await admin.keyboard.insertText(doc);
    };
    page.list.columns[1] = { ...page.list.columns[1], colour: 'red' };
    const bad = JSON.stringify(page, null, 2);
    const line = bad.split('\n').findIndex((l) => l.includes('"colour"')) + 1;
    await replaceText(bad);
    const problems = designer().getByTestId('designer-json-problems');
    await expect.poll(() => problems.textContent(), { timeout: 15_000 }).toContain(`Line ${line}:`);
    expect(await problems.textContent()).toMatch(/colour/);
    await shot(admin, 'designer-json-error-en-US');

    // Fix it in JSON: drop the property, and relabel the column; the visual view shows the label.
    delete page.list.columns[1].colour;
    page.list.columns[1].label = { 'zh-CN': '类型', 'en-US': 'Kind of case' };
    await replaceText(JSON.stringify(page, null, 2));
    await expect.poll(() => designer().getByTestId('designer-json-problems').count(), { timeout: 15_000 }).toBe(0);
    await admin.waitForTimeout(500);
    await designer().getByTestId('designer-views').getByRole('tab', { name: en.columns }).click();
    await expect.poll(() => designer().getByTestId(`col-label-${String(page.list.columns[1].field)}-en-US`).inputValue()).toBe('Kind of case');

    // The other views in English, for the screenshots.
    await designer().getByTestId('designer-views').getByRole('tab', { name: en.form }).click();
    await designer().getByTestId('form-rules-case_type').click();
    await shot(admin, 'designer-form-rule-builder-en-US');
    await designer().getByTestId('designer-views').getByRole('tab', { name: en.history }).click();
    await designer().getByTestId('page-history').getByRole('button', { name: en.showChange }).first().click();
    await shot(admin, 'designer-diff-en-US');
    expect(errors).toEqual([]);
  });
});
