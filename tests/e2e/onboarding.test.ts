import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  WARD_LABEL, WARD_OPTIONS, call, designer, en, headers, openCaseList, openDesigner, openRegistration, openView, pickOption, register, saveDesign, shot, useLanguage, zh,
  type DesignerSession,
} from './designer-setup.js';
import { e2eApp } from './harness.js';

/**
 * Issue 31 item 6 in Chromium: a hospital is onboarded through the UI without typing JSON. In the demo hospital an
 * administrator (zh-CN) adds the registration field "Referring ward" in the field form (type, both labels, three
 * options, required), places it before the clinical diagnosis in CaseRegistration's layout, makes the clinical
 * diagnosis required for urgent cases in the rule builder, adds the field as a CaseList column and search item from
 * pickers that show labels and no internal fields, renames, hides and moves menu entries in the menu designer, and
 * exports the configuration. An administrator of the branch
 * hospital (en-US) imports the file in the import dialog, sees what it changes, confirms; the branch's registration
 * form, case list, menu and server then hold all of it; the branch also copies the demo hospital's report templates,
 * numbering rules, prices and dictionaries in the copy dialog.
 */
describe('onboarding a hospital without typing JSON', () => {
  // The demo hospital's own report template and numbering rule, as its setting pages would have stored them: the
  // new hospital has none and copies them.
  const TEMPLATE = 'Onboarding routine report';
  const app = e2eApp({
    setup: async ({ db }) => {
      const main = (await db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow()).id;
      const now = new Date().toISOString();
      await db.insertInto('report_templates').values({
        hospital_id: main, template_name: TEMPLATE, type: 'routine', sub_type: null, is_word_template: 0, layout: null, word_file: null, word_file_name: null, key_words_list: null, is_default: 1, created_at: now, updated_at: now,
      }).execute();
      await db.insertInto('numbering_rules').values({ hospital_id: main, library: 'onboarding', name: 'Onboarding', prefix: 'OB', middle: 'YYYY', connector: '-', length: 5, regex: null, created_at: now, updated_at: now }).execute();
    },
  });
  const errors: string[] = [];
  let a: DesignerSession;
  let b: DesignerSession;
  let exported = '';
  // The exported file as the administrator saved it, chosen again in the import dialog.
  const tmp = path.join(tmpdir(), `dsms-onboarding-${process.pid}.json`);

  beforeAll(async () => {
    const options = { viewport: { width: 1500, height: 1000 } };
    const [adminA, adminB] = await Promise.all([app.page('zh-CN', 'admin', { errors, options }), app.page('en-US', 'admin', { errors, options })]);
    a = { url: app.url, admin: adminA, registrar: adminA, errors };
    b = { url: app.url, admin: adminB, registrar: adminB, errors };
    // The second administrator works in the branch hospital, chosen in the header as anyone would.
    await adminB.getByTestId('hospital-switcher').click();
    await Promise.all([adminB.waitForEvent('load'), adminB.getByRole('menuitemradio', { name: 'Demo Branch Hospital' }).click()]);
    await adminB.getByTestId('dashboard').waitFor();
  });

  const savedPage = (page: Page, alias: string) => page.waitForResponse((r) => r.url().endsWith(`/api/schemas/${alias}`) && r.request().method() === 'PUT');
  const savedFields = (page: Page) => page.waitForResponse((r) => r.url().endsWith('/api/contracts/cases') && r.request().method() === 'PUT');
  const MENU_NAME = { 'zh-CN': '病例总览', 'en-US': 'All cases' };
  /** The case group's entries in the menu designer, in order. */
  const caseEntries = (menu: ReturnType<Page['getByTestId']>) => menu.getByTestId('menu-children-CaseGroup').locator('[data-testid^="sortable-"]')
    .evaluateAll((n) => n.map((x) => x.getAttribute('data-testid')!.slice('sortable-'.length)));
  /** The side menu's case entries (their page alias and text), in order; the case group is open on a case page. */
  const sideCases = async (page: Page) => {
    await page.getByTestId('side-menu').locator('a[data-alias="CaseList"]').waitFor();
    return page.getByTestId('side-menu').locator('a[data-alias^="Case"]').evaluateAll((n) => n.map((x) => [x.getAttribute('data-alias')!, x.textContent ?? '']));
  };
  /** The ids of the registration form's fields in the order the form draws them. */
  const formOrder = (page: Page) => page.getByTestId('form-page').locator('[id^="root_"]').evaluateAll((n) => n.map((x) => x.id));

  it('the field form, the layout and the rule builder set up the registration form (zh-CN)', async () => {
    const { admin } = a;
    await admin.goto(`${a.url}/manage/system/schema?page=CaseRegistration`);
    const form = designer(a).getByTestId('designer-form');
    await form.waitFor();

    // The field form: name, type, both labels, its options, required: no JSON anywhere.
    const add = designer(a).getByTestId('new-field');
    await add.getByTestId('new-field-name').fill('referring_ward');
    await add.getByTestId('new-field-type').selectOption('string');
    await add.getByTestId('new-field-label-zh-CN').fill(WARD_LABEL['zh-CN']);
    await add.getByTestId('new-field-label-en-US').fill(WARD_LABEL['en-US']);
    await add.getByTestId('new-field-options').selectOption('inline');
    for (const [i, [value, zhLabel, enLabel]] of WARD_OPTIONS.entries()) {
      await add.getByTestId('new-field-add-option').click();
      await add.getByTestId(`new-field-option-${i}-value`).fill(value);
      await add.getByTestId(`new-field-option-${i}-label-zh-CN`).fill(zhLabel);
      await add.getByTestId(`new-field-option-${i}-label-en-US`).fill(enLabel);
    }
    await add.getByTestId('new-field-required').click();
    await add.getByTestId('new-field-add').click();
    await form.getByTestId('own-field-referring_ward').waitFor();
    expect(await form.getByTestId('form-required-referring_ward').isChecked()).toBe(true);

    // The layout: the new field goes before the clinical diagnosis, not at the bottom under the specimens.
    await form.getByTestId('own-place-referring_ward').selectOption('clinical_diagnosis');
    await form.getByTestId('own-placed-referring_ward').waitFor();
    const rows = await form.locator('[data-testid^="sortable-"]').evaluateAll((n) => n.map((x) => x.getAttribute('data-testid')!.slice('sortable-'.length)));
    expect(rows.slice(rows.indexOf('referring_ward'), rows.indexOf('referring_ward') + 3)).toEqual(['referring_ward', 'clinical_diagnosis', 'specimens']);

    // A rule built in the rule builder: the clinical diagnosis is required for urgent cases.
    await form.getByTestId('form-rules-clinical_diagnosis').click();
    const rule = form.getByTestId('rule-requiredIf-clinical_diagnosis');
    await rule.getByRole('button', { name: zh.addCondition, exact: true }).click();
    await rule.locator('select.rule-fields').selectOption('expedite_status');
    await rule.locator('select.rule-operators').selectOption('=');
    await rule.locator('select.rule-value').selectOption('1');
    await form.getByTestId('sortable-referring_ward').scrollIntoViewIfNeeded();
    await shot(admin, 'onboarding-registration-designer-zh-CN');

    await designer(a).getByTestId('designer-note').fill('分院开通：转诊病区、加急必填临床诊断');
    const [fields, page] = [savedFields(admin), savedPage(admin, 'CaseRegistration')];
    await designer(a).getByTestId('designer-save').click();
    for (const r of [await fields, await page]) expect(r.status(), await r.text()).toBe(200);
    const ext = (await fields).request().postDataJSON().override;
    expect(ext.required).toEqual(['referring_ward']);
    expect(ext.fields.referring_ward).toMatchObject({ type: 'string', label: WARD_LABEL });
    expect(Object.keys(ext.rules.requiredIf)).toEqual(['clinical_diagnosis']);
  });

  it('the column and search pickers offer labels, not internal fields; the configuration is exported (zh-CN)', async () => {
    await openDesigner(a);
    const picker = designer(a).getByTestId('col-add-field');
    const offered = await picker.locator('option').evaluateAll((n) => n.map((o) => [(o as HTMLOptionElement).value, o.textContent ?? '']));
    const values = offered.map(([v]) => v);
    for (const internal of ['allocation_at', 'apply_id', 'version', 'id', 'hospital_id', 'created_at', 'updated_at']) expect(values).not.toContain(internal);
    // Each offered by its label alone, none by a raw name.
    for (const [value, text] of offered) if (value) expect(text, value).not.toMatch(/^[a-z_]+$/);
    expect(await picker.locator(`optgroup[label="${zh.ownFields}"] option[value="referring_ward"]`).textContent()).toBe(WARD_LABEL['zh-CN']);
    await picker.selectOption('referring_ward');
    await designer(a).getByTestId('designer-columns').getByRole('button', { name: zh.addColumn }).click();
    await designer(a).getByTestId('col-visible-referring_ward').waitFor();

    await openView(a, zh.search);
    const search = designer(a).getByTestId('designer-search');
    const searchValues = await search.getByTestId('search-add-field').locator('option').evaluateAll((n) => n.map((o) => (o as HTMLOptionElement).value));
    for (const internal of ['allocation_at', 'apply_id', 'id', 'created_at']) expect(searchValues).not.toContain(internal);
    await search.getByTestId('search-add-field').selectOption('referring_ward');
    await search.getByTestId('search-add').click();
    await search.getByTestId('search-place-referring_ward').waitFor();
    await shot(a.admin, 'onboarding-search-designer-zh-CN');
    await saveDesign(a, '分院开通：转诊病区列与筛选', { page: true });

    // The menu: CaseList renamed in both languages, the collection hidden, registration moved above the list.
    await a.admin.goto(`${a.url}/manage/system/schema`);
    await a.admin.getByTestId('schema-kind-menu').click();
    const menu = a.admin.getByTestId('menu-designer');
    await menu.getByTestId('menu-name-CaseList-zh-CN').fill(MENU_NAME['zh-CN']);
    await menu.getByTestId('menu-name-CaseList-en-US').fill(MENU_NAME['en-US']);
    await menu.getByTestId('menu-hidden-CaseCollection').click();
    await menu.getByTestId('menu-up-CaseRegistration').click();
    await expect.poll(() => caseEntries(menu)).toEqual(expect.arrayContaining(['CaseRegistration', 'CaseList']));
    expect((await caseEntries(menu)).slice(0, 2)).toEqual(['CaseRegistration', 'CaseList']);
    await menu.getByTestId('menu-children-CaseGroup').scrollIntoViewIfNeeded();
    await shot(a.admin, 'onboarding-menu-designer-zh-CN');
    await menu.getByTestId('menu-note').fill('分院开通：菜单');
    const savedMenu = a.admin.waitForResponse((r) => r.url().endsWith('/api/menu-config/menus') && r.request().method() === 'PUT');
    await menu.getByTestId('menu-save').click();
    expect((await savedMenu).status()).toBe(200);
    await openCaseList(a.admin, a.url);
    expect(await sideCases(a.admin)).toEqual(expect.arrayContaining([[`CaseRegistration`, expect.any(String)], ['CaseList', MENU_NAME['zh-CN']]]));
    expect((await sideCases(a.admin)).map(([alias]) => alias).slice(0, 2)).toEqual(['CaseRegistration', 'CaseList']);
    expect((await sideCases(a.admin)).map(([alias]) => alias)).not.toContain('CaseCollection');
    await shot(a.admin, 'onboarding-menu-zh-CN');

    await openDesigner(a);
    const [download] = await Promise.all([a.admin.waitForEvent('download'), designer(a).getByTestId('config-export').click()]);
    exported = await readFile((await download.path())!, 'utf8');
    const file = JSON.parse(exported);
    expect(Object.keys(file.documents.pages).sort()).toEqual(['CaseList', 'CaseRegistration']);
    expect(Object.keys(file.documents.contracts)).toEqual(['cases']);
    expect(Object.keys(file.documents.menus)).toEqual(['menus']);
  });

  it('the branch hospital imports the file in the import dialog, after seeing what it changes (en-US)', async () => {
    const { admin } = b;
    await openDesigner(b);
    await writeFile(tmp, exported);
    await designer(b).getByTestId('config-import-file').setInputFiles(tmp);
    const preview = admin.getByTestId('config-import-preview');
    await preview.waitFor();
    for (const id of ['config-import-pages-CaseList', 'config-import-pages-CaseRegistration', 'config-import-contracts-cases', 'config-import-menus-menus']) {
      expect(await preview.getByTestId(id).textContent()).toContain(en.importChange.set);
    }
    expect(await preview.textContent()).toContain(en.importKind.contracts);
    await shot(admin, 'onboarding-import-preview-en-US');
    // Nothing was written by looking: the branch still has the base registration form.
    expect((await call(admin, 'GET', '/api/schema-config/export')).body.data.documents.pages).toEqual({});

    const imported = admin.waitForResponse((r) => r.url().endsWith('/api/schema-config/import') && r.request().method() === 'POST');
    await admin.getByTestId('config-import-confirm').click();
    expect((await imported).status()).toBe(200);
    await preview.waitFor({ state: 'detached' });
    expect(Object.keys((await call(admin, 'GET', '/api/schema-config/export')).body.data.documents.pages).sort()).toEqual(['CaseList', 'CaseRegistration']);
    await admin.reload();
  });

  it('the branch copies report templates, numbering rules, prices and dictionaries from the demo hospital (en-US)', async () => {
    const { admin } = b;
    await openDesigner(b);
    await designer(b).getByTestId('config-copy').click();
    const dialog = admin.getByTestId('copy-dialog');
    await dialog.getByTestId('copy-source').waitFor();
    await dialog.getByTestId('copy-source').selectOption({ label: 'Demo General Hospital' });
    expect(await dialog.getByTestId('copy-row-report_templates').textContent()).toMatch(/Report templates · \d+ there, 0 here/);
    await shot(admin, 'onboarding-copy-en-US');
    const copied = admin.waitForResponse((r) => r.url().endsWith('/api/hospital-config/copy') && r.request().method() === 'POST');
    await admin.getByTestId('copy-confirm').click();
    expect((await copied).status()).toBe(200);
    await expect.poll(() => dialog.getByTestId('copy-result-report_templates').textContent()).toMatch(/^Report templates: [1-9]\d* copied/);
    await shot(admin, 'onboarding-copied-en-US');
    await admin.getByTestId('copy-close').click();
    // The template is the branch's now: its report settings list it.
    await admin.goto(`${b.url}/manage/setting/report`);
    await admin.getByTestId('list-page').getByText(TEMPLATE).waitFor();
  });

  it('the branch registers with the field where it was placed, its rule on the server, and lists and filters by it (en-US)', async () => {
    const { admin } = b;
    await openRegistration(admin, b.url);
    const order = await formOrder(admin);
    expect(order.indexOf('root_referring_ward')).toBeGreaterThan(-1);
    expect(order.indexOf('root_referring_ward')).toBeLessThan(order.indexOf('root_clinical_diagnosis'));
    expect(await admin.getByTestId('form-page').textContent()).toContain(WARD_LABEL['en-US']);
    await admin.getByTestId('form-page').locator('#root_referring_ward').scrollIntoViewIfNeeded();
    await shot(admin, 'onboarding-branch-registration-en-US');

    // The server holds what the branch imported: the field required, the diagnosis required when urgent.
    const missing = await register(admin, { case_type: 'routine', specimens: [{ name: 'Biopsy' }] });
    expect(missing.status, JSON.stringify(missing.body)).toBe(422);
    expect(Object.keys(missing.body.errors)).toContain('referring_ward');
    const urgent = await register(admin, { case_type: 'routine', expedite_status: 1, referring_ward: 'er', specimens: [{ name: 'Biopsy' }] });
    expect(urgent.status, JSON.stringify(urgent.body)).toBe(422);
    expect(Object.keys(urgent.body.errors)).toContain('clinical_diagnosis');
    const ok = await register(admin, { case_type: 'routine', expedite_status: 1, referring_ward: 'er', clinical_diagnosis: 'Polyp', specimens: [{ name: 'Biopsy' }] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);

    await admin.goto(`${b.url}/manage/case/list?page=1&page_size=100&tab=all`);
    await admin.getByTestId('list-page').waitFor();
    expect(await headers(admin)).toContain('referring_ward');
    // Filtered by the field from the search bar: the case just registered, from the emergency department.
    const number = ok.body.data.pathology_number as string;
    const filtered = admin.waitForResponse((r) => r.url().includes('/api/pathology/lists') && decodeURIComponent(r.url()).includes('referring_ward'));
    await pickOption(admin, admin.getByTestId('search-bar').getByRole('combobox', { name: WARD_LABEL['en-US'] }), 'Emergency');
    expect((await filtered).status()).toBe(200);
    await expect.poll(() => admin.getByTestId('data-table').locator('tbody tr[data-row-key]').allTextContents()).toEqual([expect.stringContaining(number)]);
    await shot(admin, 'onboarding-branch-caselist-en-US');
    // The branch's menu as the file had it, in English.
    expect((await sideCases(admin)).slice(0, 2)).toEqual([['CaseRegistration', 'Case registration'], ['CaseList', MENU_NAME['en-US']]]);
    expect((await sideCases(admin)).map(([alias]) => alias)).not.toContain('CaseCollection');
  });

  it('the import dialog in zh-CN: the same file changes nothing in the hospital it came from', async () => {
    const { admin } = a;
    await openDesigner(a);
    await designer(a).getByTestId('config-import-file').setInputFiles(tmp);
    const preview = admin.getByTestId('config-import-preview');
    await preview.getByTestId('config-import-nothing').waitFor();
    expect(await admin.getByTestId('config-import-confirm').isDisabled()).toBe(true);
    await shot(admin, 'onboarding-import-preview-zh-CN');
    await admin.getByTestId('config-import-cancel').click();
    await preview.waitFor({ state: 'detached' });
    // Copying in zh-CN: the demo hospital has what the branch has (the branch's own rows are left alone).
    await designer(a).getByTestId('config-copy').click();
    const dialog = admin.getByTestId('copy-dialog');
    await dialog.getByTestId('copy-source').selectOption({ label: '示范医院分院' });
    expect(await dialog.getByTestId('copy-row-report_templates').textContent()).toContain('报告模板');
    await shot(admin, 'onboarding-copy-zh-CN');
    await admin.getByTestId('copy-close').click();
    await useLanguage(admin, 'zh-CN');
    await openCaseList(admin, a.url);
    expect(await headers(admin)).toContain('referring_ward');
    expect(errors).toEqual([]);
  });
});
