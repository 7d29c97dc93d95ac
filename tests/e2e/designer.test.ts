import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enDesigner from '../../src/i18n/locales/en-US/pages/designer.json';
import zhDesigner from '../../src/i18n/locales/zh-CN/pages/designer.json';
import enUS from '../../src/i18n/locales/en-US.json';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import { launchBrowser, setCode, SHOTS, signIn, startServer } from './harness.js';

/**
 * Issue 13, the page designer in Chromium, each role in both languages. An administrator who never sees JSON
 * (zh-CN) hides and reorders two CaseList columns, relabels one, adds the form field "Referring ward" (both labels,
 * three options) required only when the case type is frozen (built in the rule builder), and saves with a note; a
 * registrar (en-US) sees it at once in the list, the case form and the full registration form, the rule holds in
 * the browser and on the server (the generic write and POST /api/pathology/register). Then the languages swap:
 * the administrator (en-US) finds the saved design in every view and its diff, the registrar (zh-CN) the list and
 * the registration form in Chinese; rolling back removes it. Then the JSON view: an invalid property refused at
 * its line with the meta-schema's message, and a fix in JSON shown in the visual view. Screenshots in both languages.
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
  const openRegistration = async (page: Page) => {
    await page.goto(`${server.url}/manage/case/register`);
    const form = page.getByTestId('form-page');
    await form.locator('#root_patient_name').waitFor();
    return form;
  };
  const register = (page: Page, body: object) => page.evaluate(async (payload) => {
    const res = await fetch('/api/pathology/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en-US', Authorization: `Bearer ${sessionStorage.getItem('access_token')}` },
      body: JSON.stringify(payload),
    });
    return { status: res.status, body: await res.json() };
  }, body);
  const useRegistrarLanguage = async (lang: 'zh-CN' | 'en-US') => registrar.evaluate((l) => localStorage.setItem('lang', l), lang);
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
    expect(base.slice(0, 6)).toEqual(['pathology_number', 'case_status', 'markers', 'case_type', 'expedite_status', 'patient_name']);

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
    await expect.poll(async () => (await columnOrder()).slice(0, 6)).toEqual(['pathology_number', 'case_status', 'markers', 'patient_name', 'case_type', 'expedite_status']);
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
    await expect.poll(async () => (await headers(registrar)).slice(0, 5)).toEqual(['pathology_number', 'case_status', 'markers', 'patient_name', 'case_type']);
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

    // The full registration form (its own contract, extending cases): the field is there; frozen without it is
    // refused in the browser (nothing posted) and by POST /api/pathology/register; with it the case is registered.
    const reg = await openRegistration(registrar);
    await reg.locator('#root_referring_ward').waitFor();
    await reg.getByTestId('specimen-0-name').fill('Frozen section');
    await reg.locator('#root_case_type').click();
    await registrar.getByRole('option', { name: 'Frozen', exact: true }).click();
    let registered = 0;
    registrar.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/pathology/register')) registered++; });
    await registrar.waitForTimeout(600);
    await reg.getByTestId('form-save').click();
    await expect.poll(() => reg.locator('#root_referring_ward').evaluate((n) => n.closest('[class*="fui-Field"]')?.textContent ?? '')).toContain('Required');
    expect(registered).toBe(0);
    await shot(registrar, 'designer-registrar-registration-en-US');
    const direct = await register(registrar, { case_type: 'frozen', specimens: [{ name: 'Frozen section' }] });
    expect(direct.status, JSON.stringify(direct.body)).toBe(422);
    expect(direct.body.errors.referring_ward).toEqual(['Referring ward is required']);
    expect((await register(registrar, { case_type: 'frozen', referring_ward: 'icu', colour: 'red', specimens: [{ name: 'x' }] })).status).toBe(422);
    await reg.locator('#root_referring_ward').click();
    await registrar.getByRole('option', { name: 'Emergency', exact: true }).click();
    const answer = registrar.waitForResponse((r) => r.url().endsWith('/api/pathology/register') && r.request().method() === 'POST');
    await reg.getByTestId('form-save').click();
    const res = await answer;
    expect(res.status()).toBe(200);
    const created = (await res.json()).data as { id: number; pathology_number: string };
    // The case detail shows the added field with its option's word; CaseList lists the case, with the value.
    await expect.poll(() => registrar.getByTestId('case-added-referring_ward').textContent()).toBe('Referring ward: Emergency');
    await shot(registrar, 'designer-registrar-case-detail-en-US');
    await registrar.goto(`${server.url}/manage/case/list`);
    await registrar.getByTestId('list-page').waitFor();
    await expect.poll(() => registrar.getByTestId('data-table').locator('tbody').textContent()).toContain(created.pathology_number);
    expect((await listRow(registrar, created.pathology_number)).referring_ward).toBe('er');
  });

  it('in the other languages: the administrator (en-US) finds the saved design and its diff, the registrar (zh-CN) sees it', async () => {
    await useLanguage('en-US');
    await openDesigner();
    expect((await columnOrder()).slice(0, 6)).toEqual(['pathology_number', 'case_status', 'markers', 'patient_name', 'case_type', 'expedite_status']);
    expect(await designer().getByTestId('col-visible-gender').isChecked()).toBe(false);
    expect(await designer().getByTestId('col-label-patient_name-en-US').inputValue()).toBe('Patient');
    await shot(admin, 'designer-columns-en-US');
    await designer().getByTestId('designer-views').getByRole('tab', { name: en.form }).click();
    await designer().getByTestId('form-rules-referring_ward').click();
    const rule = designer().getByTestId('rule-requiredIf-referring_ward');
    await expect.poll(() => rule.locator('select.rule-value').inputValue()).toBe('frozen');
    await shot(admin, 'designer-form-rule-builder-en-US');
    await designer().getByTestId('designer-views').getByRole('tab', { name: en.history }).click();
    const history = designer().getByTestId('page-history');
    expect(await history.locator('[data-version="1"]').textContent()).toContain('转诊病区（冰冻必填），患者列前移');
    expect(await history.getByTestId('page-diff').textContent()).toMatch(/\+\s+"hidden": true/);
    expect(await designer().getByTestId('fields-diff').textContent()).toContain('referring_ward');
    await shot(admin, 'designer-diff-en-US');

    // The registrar in Chinese: the list as designed, the registration form's field with its Chinese options and rule.
    await useRegistrarLanguage('zh-CN');
    await registrar.goto(`${server.url}/manage/case/list`);
    await registrar.getByTestId('list-page').waitFor();
    await expect.poll(async () => (await headers(registrar)).slice(0, 5)).toEqual(['pathology_number', 'case_status', 'markers', 'patient_name', 'case_type']);
    expect(await registrar.getByTestId('data-table').locator('thead th[data-column="patient_name"]').textContent()).toContain('患者');
    await shot(registrar, 'designer-registrar-list-zh-CN');
    const reg = await openRegistration(registrar);
    await reg.locator('#root_referring_ward').click();
    for (const label of ['重症监护', '三病区', '急诊']) await registrar.getByRole('option', { name: label, exact: true }).waitFor();
    await registrar.keyboard.press('Escape');
    await reg.getByTestId('specimen-0-name').fill('冰冻组织');
    await reg.locator('#root_case_type').click();
    await registrar.getByRole('option', { name: '冰冻', exact: true }).click();
    await registrar.waitForTimeout(600);
    await reg.getByTestId('form-save').click();
    await expect.poll(() => reg.locator('#root_referring_ward').evaluate((n) => n.closest('[class*="fui-Field"]')?.textContent ?? '')).toContain('必填项');
    await shot(registrar, 'designer-registrar-registration-zh-CN');
    await useRegistrarLanguage('en-US');
    await useLanguage('zh-CN');
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
    await expect.poll(async () => (await headers(registrar)).slice(0, 6)).toEqual(['pathology_number', 'case_status', 'markers', 'case_type', 'expedite_status', 'patient_name']);
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

    expect(errors).toEqual([]);
  });
  const useLanguage = async (lang: 'zh-CN' | 'en-US') => admin.evaluate((l) => localStorage.setItem('lang', l), lang);
  const pickOption = async (page: Page, combobox: ReturnType<Page['getByTestId']>, name: string | RegExp) => {
    await combobox.click();
    // Fluent's listbox options (a multiselect's are menuitemcheckboxes), not the rule builder's native <option>s.
    await page.locator('.fui-Listbox .fui-Option').filter({ hasText: name }).first().click();
    await page.keyboard.press('Escape');
  };
  const listRow = (page: Page, number: string) => page.evaluate(async (n) => {
    const res = await fetch(`/api/pathology/lists?page=1&page_size=5&search=${encodeURIComponent(n)}`, { headers: { Authorization: `Bearer ${sessionStorage.getItem('access_token')}` } });
    return ((await res.json()).data.data as Record<string, unknown>[]).find((r) => r.pathology_number === n)!;
  }, number);

  it('search items, a tab whose filter is built in the builder, and an action hidden per role reach the registrar (en-US)', async () => {
    await useLanguage('en-US');
    await openDesigner();
    await designer().getByTestId('designer-views').getByRole('tab', { name: en.search }).click();
    const search = designer().getByTestId('designer-search');
    await search.waitFor();
    // The operators each item offers come from the hospital's search-operators rules (select: =, !=, in, not in).
    expect(await search.getByTestId('search-offered-case_type').textContent()).toBe(en.operatorsOffered.replace('{{list}}', 'equals · not equal · is one of · is none of'));
    await search.getByTestId('search-place-main_phase').selectOption('bar');
    await search.getByTestId('search-label-patient_name-zh-CN').fill('患者（搜索）');
    await search.getByTestId('search-label-patient_name-en-US').fill('Patient (search)');
    await search.getByTestId('search-operator-pathology_number').selectOption('=');
    await shot(admin, 'designer-search-en-US');

    // A tab "DZ frozen": pathology number contains DZ-API and type is frozen, built in the rule builder.
    await designer().getByTestId('designer-views').getByRole('tab', { name: en.tabsActions }).click();
    const tabs = designer().getByTestId('designer-tabs');
    await tabs.getByTestId('tab-add-key').fill('dzapi');
    await tabs.getByTestId('tab-add').click();
    await tabs.getByTestId('tab-label-dzapi-zh-CN').fill('DZ 冰冻');
    await tabs.getByTestId('tab-label-dzapi-en-US').fill('DZ frozen');
    const builder = tabs.getByTestId('tab-builder-dzapi');
    await builder.getByRole('button', { name: en.addCondition, exact: true }).click();
    await builder.locator('.rule').nth(0).locator('select.rule-fields').selectOption('pathology_number');
    await builder.locator('.rule').nth(0).locator('select.rule-operators').selectOption('contains');
    await builder.locator('.rule').nth(0).locator('input.rule-value').fill('DZ-API');
    await builder.getByRole('button', { name: en.addCondition, exact: true }).click();
    await builder.locator('.rule').nth(1).locator('select.rule-fields').selectOption('case_type');
    await builder.locator('.rule').nth(1).locator('select.rule-operators').selectOption('=');
    await builder.locator('.rule').nth(1).locator('select.rule-value').selectOption('frozen');
    // Quick registration shown only to samplers (the registrar loses it; permission codes are untouched).
    await pickOption(admin, designer().getByTestId('action-roles-toolbar-quick_register'), /\(sampler\)/);
    await shot(admin, 'designer-tabs-en-US');

    await designer().getByTestId('designer-note').fill('DZ tab, search items, quick registration for samplers');
    const pageSaved = admin.waitForResponse((r) => r.url().endsWith('/api/schemas/CaseList') && r.request().method() === 'PUT');
    await designer().getByTestId('designer-save').click();
    const saved = await pageSaved;
    expect(saved.status()).toBe(200);
    const override = saved.request().postDataJSON().override;
    const tab = override.list.tabs.find((x: { key: string }) => x.key === 'dzapi');
    expect(tab.filter).toEqual([{ field: 'pathology_number', operator: 'like', value: 'DZ-API' }, { field: 'case_type', operator: '=', value: 'frozen', condition: 'and' }]);
    expect(override.list.toolbar.find((a: { key: string }) => a.key === 'quick_register').roles).toEqual(['sampler']);

    // The registrar: the phase on the bar, the relabelled item, the tab filtering the list, no quick registration.
    await registrar.goto(`${server.url}/manage/case/list`);
    await registrar.getByTestId('list-page').waitFor();
    const bar = registrar.getByTestId('search-bar');
    await expect.poll(() => bar.textContent()).toContain('Patient (search)');
    expect(await bar.textContent()).toContain('Phase');
    expect(await registrar.getByRole('button', { name: 'Register case' }).count()).toBe(1);
    expect(await registrar.getByRole('button', { name: 'Quick registration' }).count()).toBe(0);
    await registrar.getByTestId('list-tabs').getByRole('tab', { name: /DZ frozen/ }).click();
    const rows = registrar.getByTestId('data-table').locator('tbody tr[data-row-key]');
    await expect.poll(async () => (await rows.allTextContents()).map((r) => r.match(/DZ-API-\d/)?.[0]).sort()).toEqual(['DZ-API-3', 'DZ-API-5']);
    await shot(registrar, 'designer-registrar-tab-en-US');

    // The same views in Chinese, for the screenshots.
    await useLanguage('zh-CN');
    await openDesigner();
    await designer().getByTestId('designer-views').getByRole('tab', { name: zh.search }).click();
    await designer().getByTestId('designer-search').waitFor();
    await shot(admin, 'designer-search-zh-CN');
    await designer().getByTestId('designer-views').getByRole('tab', { name: zh.tabsActions }).click();
    await designer().getByTestId('tab-filter-dzapi').click();
    await designer().getByTestId('tab-builder-dzapi').locator('.rule').nth(1).waitFor();
    await shot(admin, 'designer-tabs-zh-CN');
  });

  it('a rule set edited in the builder answers for a real case in the test panel, as the server does (zh-CN, en-US)', async () => {
    const rules = () => admin.getByTestId('rule-editor');
    const openRules = async (name: string, words: typeof zhCN, firstRule: string) => {
      await admin.goto(`${server.url}/manage/system/schema`);
      await admin.getByTestId('schema-kind').getByRole('tab', { name: words.schemaEditor.kindRules }).click();
      await rules().waitFor();
      await pickOption(admin, rules().getByRole('combobox', { name: words.schemaEditor.ruleSet }), name);
      await rules().getByTestId('rule-designer').getByTestId(`rule-${firstRule}`).waitFor();
    };
    const tryCase = async (number: string) => {
      const panel = rules().getByTestId('rule-test-panel');
      await panel.getByTestId('rule-test-search').fill(number);
      await panel.getByTestId('rule-test-find').click();
      await expect.poll(async () => panel.getByTestId('rule-test-record').locator('option:checked').textContent()).toContain(number);
      return panel;
    };

    await useLanguage('zh-CN');
    await openRules('case-transitions', zhCN, 'register');
    const panel = await tryCase('DZ-API-3');
    await pickOption(admin, panel.getByTestId('rule-test-roles'), /\(technician\)/);
    await expect.poll(() => panel.getByTestId('rule-test-answer-register').textContent()).toBe('false');
    expect(await panel.getByTestId('rule-test-answer-make_slides').textContent()).toBe('true');

    // Technicians may register too: one more condition in the builder; the panel answers for the draft at once.
    const register = rules().getByTestId('rule-builder-register');
    await register.getByRole('button', { name: zh.addCondition, exact: true }).first().click();
    const added = register.locator('.rule').last();
    await added.locator('select.rule-fields').selectOption('roles');
    await added.locator('select.rule-operators').selectOption('contains');
    await added.locator('select.rule-value').selectOption('technician');
    await expect.poll(() => panel.getByTestId('rule-test-answer-register').textContent()).toBe('true');
    await shot(admin, 'designer-rules-test-zh-CN');
    // Saved with a note, like a page: the history says who saved what, and diffs the effective rule set.
    expect(await rules().getByTestId('rule-save').isDisabled()).toBe(true);
    await rules().getByTestId('rule-note').fill('技师也可登记');
    const saved = admin.waitForResponse((r) => r.url().endsWith('/api/rules/case-transitions') && r.request().method() === 'PUT');
    await rules().getByTestId('rule-save').click();
    const res = await saved;
    expect(res.status()).toBe(200);
    expect(res.request().postDataJSON().note).toBe('技师也可登记');
    expect(JSON.stringify(res.request().postDataJSON().override.rules.register)).toContain('{"in":["technician",{"var":"roles"}]}');
    const ruleHistory = rules().getByTestId('rule-versions-history');
    await expect.poll(() => ruleHistory.locator('[data-version="1"]').textContent()).toContain('技师也可登记');
    expect(await ruleHistory.locator('[data-version="1"]').textContent()).toContain('admin');
    expect(await rules().getByTestId('rule-versions-diff').textContent()).toMatch(/\+\s+"technician"/);
    await ruleHistory.scrollIntoViewIfNeeded();
    await shot(admin, 'designer-rules-history-zh-CN');
    // The JSON view is the code editor, checked against the rule-set meta-schema at the error's line.
    await rules().getByTestId('rule-modes').getByRole('tab', { name: 'JSON' }).click();
    await setCode(admin, rules().getByTestId('rule-override'), '{\n  "rules": {},\n  "colour": 1\n}');
    await expect.poll(() => rules().getByTestId('rule-override-problems').textContent(), { timeout: 15_000 }).toMatch(/第 3 行：.*colour/);
    await shot(admin, 'designer-rules-json-zh-CN');

    // The case status of a real case: the panel's answer is the one the server computed for the list.
    const row = await listRow(admin, 'DZ-API-3');
    await useLanguage('en-US');
    await openRules('case-status', enUS, 'status');
    const status = await tryCase('DZ-API-3');
    await expect.poll(() => status.getByTestId('rule-test-answer-status').textContent()).toBe(JSON.stringify(row.case_status));
    expect(await status.getByTestId('rule-test-answer-status-colour').textContent()).toBe(JSON.stringify(row.status_colour));
    await shot(admin, 'designer-rules-test-en-US');
    expect(errors).toEqual([]);
  });
});
