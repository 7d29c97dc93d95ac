import type { Locator, Page, Response } from 'playwright-core';
import { beforeAll, expect } from 'vitest';
import enDesigner from '../../src/i18n/locales/en-US/pages/designer.json';
import zhDesigner from '../../src/i18n/locales/zh-CN/pages/designer.json';
import enUS from '../../src/i18n/locales/en-US.json';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import { e2eApp, evidence } from './harness.js';

/**
 * What the page designer's e2e files share (issue 13): one server and browser per file, an administrator who starts
 * in zh-CN and a registrar who starts in en-US, each signed in through the login page, and the steps and reads the
 * files repeat. The page's uncaught errors are collected in `errors`; each file ends by expecting none.
 */
export const zh = zhDesigner.designer;
export const en = enDesigner.designer;
export const words = { 'zh-CN': zhCN, 'en-US': enUS } as const;
export type Lang = 'zh-CN' | 'en-US';

/** The field "Referring ward" with its three options: value, Chinese, English. */
export const WARD_OPTIONS = [['icu', '重症监护', 'ICU'], ['ward3', '三病区', 'Ward 3'], ['er', '急诊', 'Emergency']] as const;
export const WARD_LABEL = { 'zh-CN': '转诊病区', 'en-US': 'Referring ward' };

export interface DesignerSession {
  url: string;
  admin: Page;
  registrar: Page;
  errors: string[];
}

/** The file's server and browser (e2eApp), and both people signed in before its tests. */
export function useDesignerSession(): DesignerSession {
  const app = e2eApp();
  const s = { errors: [] as string[] } as DesignerSession;
  beforeAll(async () => {
    s.url = app.url;
    const options = { viewport: { width: 1500, height: 1000 } };
    [s.admin, s.registrar] = await Promise.all([
      app.page('zh-CN', 'admin', { errors: s.errors, options }),
      app.page('en-US', 'registrar', { errors: s.errors, options }),
    ]);
  });
  return s;
}

// Transitions finished first: a tab's selection indicator is caught where it ends, not on its way.
export const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { fullPage: true, animations: 'disabled' });
/** The language the page uses from its next load on. */
export const useLanguage = (page: Page, lang: Lang) => page.evaluate((l) => localStorage.setItem('lang', l), lang);

export const designer = (s: DesignerSession) => s.admin.getByTestId('page-designer');
/** The designer on CaseList, once its columns (the first view) are drawn. */
export async function openDesigner(s: DesignerSession): Promise<Locator> {
  await s.admin.goto(`${s.url}/manage/system/schema?page=CaseList`);
  await designer(s).getByTestId('designer-columns').waitFor();
  return designer(s);
}
export const openView = (s: DesignerSession, name: string) => designer(s).getByTestId('designer-views').getByRole('tab', { name }).click();
export const columnOrder = (s: DesignerSession) => designer(s).getByTestId('designer-columns').locator('[data-testid^="sortable-"]')
  .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')!.slice('sortable-'.length)));
export const headers = (page: Page) => page.getByTestId('data-table').locator('thead th[data-column]').evaluateAll((ths) => ths.map((th) => th.getAttribute('data-column')));
export const confirm = (s: DesignerSession, lang: Lang) => s.admin.getByTestId('confirm-dialog').getByRole('button', { name: words[lang].common.confirm }).click();

/** Fills the note and saves; answers the contract's and the page's PUT responses (undefined: not sent). */
export async function saveDesign(s: DesignerSession, note: string, sends: { contract?: boolean; page?: boolean }): Promise<{ contract?: Response; page?: Response }> {
  await designer(s).getByTestId('designer-note').fill(note);
  const contract = sends.contract ? s.admin.waitForResponse((r) => r.url().endsWith('/api/contracts/cases') && r.request().method() === 'PUT') : undefined;
  const page = sends.page ? s.admin.waitForResponse((r) => r.url().endsWith('/api/schemas/CaseList') && r.request().method() === 'PUT') : undefined;
  await designer(s).getByTestId('designer-save').click();
  const out = { contract: await contract, page: await page };
  for (const r of [out.contract, out.page]) if (r) expect(r.status(), await r.text()).toBe(200);
  return out;
}

/** In the form view: the new field "Referring ward" with both labels and its three options, added to the draft. */
export async function addWardField(s: DesignerSession): Promise<void> {
  const add = designer(s).getByTestId('new-field');
  await add.getByTestId('new-field-name').fill('referring_ward');
  await add.getByTestId('new-field-label-zh-CN').fill(WARD_LABEL['zh-CN']);
  await add.getByTestId('new-field-label-en-US').fill(WARD_LABEL['en-US']);
  await add.getByTestId('new-field-options').selectOption('inline');
  for (const [i, [value, zhLabel, enLabel]] of WARD_OPTIONS.entries()) {
    await add.getByTestId('new-field-add-option').click();
    await add.getByTestId(`new-field-option-${i}-value`).fill(value);
    await add.getByTestId(`new-field-option-${i}-label-zh-CN`).fill(zhLabel);
    await add.getByTestId(`new-field-option-${i}-label-en-US`).fill(enLabel);
  }
  await add.getByTestId('new-field-add').click();
  await designer(s).getByTestId('own-field-referring_ward').waitFor();
}

/** A JSON request from the page with its session (the API as the browser's user calls it), answers in `lang`. */
export const call = (page: Page, method: string, url: string, body?: object, lang: Lang = 'en-US') => page.evaluate(async ({ method, url, body, lang }) => {
  const res = await fetch(url, {
    method,
    headers: { 'Content-Type': 'application/json', 'Accept-Language': lang, Authorization: `Bearer ${sessionStorage.getItem('access_token')}` },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
}, { method, url, body, lang });
/** The generic case write (CaseList's case form) and the registration command. */
export const store = (page: Page, body: object) => call(page, 'POST', '/api/pathology/store', body);
export const register = (page: Page, body: object, lang: Lang = 'en-US') => call(page, 'POST', '/api/pathology/register', body, lang);
/** A case as CaseList's list route sends it. */
export const listRow = async (page: Page, number: string) => {
  const res = await call(page, 'GET', `/api/pathology/lists?page=1&page_size=5&search=${encodeURIComponent(number)}`);
  return (res.body.data.data as Record<string, unknown>[]).find((r) => r.pathology_number === number)!;
};

export async function openCaseForm(s: DesignerSession): Promise<Locator> {
  await s.registrar.goto(`${s.url}/manage/case/list`);
  await s.registrar.getByTestId('list-page').waitFor();
  await s.registrar.getByRole('button', { name: 'Register case' }).click();
  const form = s.registrar.getByTestId('form-drawer');
  await form.locator('#root_pathology_number').waitFor();
  return form;
}
export async function openRegistration(page: Page, url: string): Promise<Locator> {
  await page.goto(`${url}/manage/case/register`);
  const form = page.getByTestId('form-page');
  await form.locator('#root_patient_name').waitFor();
  return form;
}
export async function openCaseList(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/manage/case/list`);
  await page.getByTestId('list-page').waitFor();
}
/** A choice made in a form's select (a Fluent Dropdown): its list closed and the field shows `text`, so the form holds it. */
export async function chosen(page: Page, form: Locator, id: string, text: string): Promise<void> {
  await page.getByRole('listbox').waitFor({ state: 'detached' });
  await expect.poll(() => form.locator(`#root_${id}`).textContent()).toContain(text);
}
/** The text of a field's Fluent Field (its label, input and messages). */
export const fieldText = (form: Locator, id: string) => form.locator(`#root_${id}`).evaluate((n) => n.closest('[class*="fui-Field"]')?.textContent ?? '');

/** Picks a Fluent listbox option (a multiselect's are menuitemcheckboxes), not the rule builder's native <option>s. */
export async function pickOption(page: Page, combobox: Locator, name: string | RegExp): Promise<void> {
  await combobox.click();
  await page.locator('.fui-Listbox .fui-Option').filter({ hasText: name }).first().click();
  await page.keyboard.press('Escape');
}
