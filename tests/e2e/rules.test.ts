import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, e2eApp, evidence, setCode } from './harness.js';
import { enUSBundle as enUS, zhCNBundle as zhCN } from '../../src/i18n/bundles';

/**
 * Rules as data in Chromium, as the administrator: the system configuration form shows its ftp fields by
 * the named rule forms.upload-via-ftp (schemas/rules/forms.json), the custom search offers the operators of
 * schemas/rules/search-operators.json; a hospital override of each, saved in the schema editor's rule-set
 * half, changes the page and the search at once, and a rollback to the base puts both back.
 */
describe('rule sets in Chromium', () => {
  const app = e2eApp();
  let page: Page;

  beforeAll(async () => {
    page = await app.page('zh-CN', 'admin');
  });
  afterAll(() => {
    expect(app.pageErrors).toEqual([]);
  });

  const shot = (name: string) => evidence(page, `${name}.png`);
  const pick = async (dropdown: Locator, option: string) => {
    await dropdown.click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  /** The system configuration form (SettingOther): is the ftp account field shown? */
  const ftpShown = async () => {
    await page.goto(`${app.url}/manage/setting/other`);
    await page.getByTestId('form-page').locator('#root_upload_protocol').waitFor();
    return page.locator('#root_ftpname').count();
  };
  /** The operators the user list's custom search offers for the account name (a text item). */
  const nameOperators = async (t: typeof zhCN) => {
    await page.goto(`${app.url}/manage/system/user`);
    await page.getByTestId('list-page').waitFor();
    await page.getByTestId('search-more').click();
    const drawer = page.getByTestId('search-drawer');
    await drawer.getByRole('tab', { name: t.search.custom }).click();
    const row = drawer.getByTestId('custom-condition').nth(0);
    await pick(row.getByRole('combobox', { name: t.search.field }), t === zhCN ? '账号' : 'Account');
    await row.getByRole('combobox', { name: t.search.operator }).click();
    const options = await page.getByRole('listbox').getByRole('option').allTextContents();
    await page.keyboard.press('Escape');
    return options;
  };
  const editor = () => page.getByTestId('rule-editor');
  const openRuleSet = async (name: string, t: typeof zhCN = zhCN) => {
    await page.goto(`${app.url}/manage/system/schema`);
    await page.getByTestId('schema-kind-page').click(); // the merge-patch editor (the designer opens first)
    await page.getByTestId('schema-editor').waitFor();
    await page.getByTestId('schema-kind').getByRole('tab', { name: t.schemaEditor.kindRules }).click();
    await editor().waitFor();
    await pick(editor().getByRole('combobox', { name: t.schemaEditor.ruleSet }), name);
    // The rule builder opens first; these tests type the override as JSON.
    await editor().getByTestId('rule-modes').getByRole('tab', { name: 'JSON' }).click();
    await expect.poll(() => editor().getByTestId('rule-merged').textContent()).toBeTruthy();
  };
  const saveOverride = async (name: string, override: object) => {
    await openRuleSet(name);
    await setCode(page, editor().getByTestId('rule-override'), JSON.stringify(override, null, 2));
    // A note is required, as for page saves: Save stays off without one.
    await expect.poll(() => editor().getByTestId('rule-save').isDisabled()).toBe(true);
    await editor().getByTestId('rule-note').fill(`${name}: e2e override`);
    const saved = page.waitForResponse((r) => r.url().endsWith(`/api/rules/${name}`) && r.request().method() === 'PUT');
    await editor().getByTestId('rule-save').click();
    const res = await saved;
    expect(res.status()).toBe(200);
    expect(res.request().postDataJSON().note).toBe(`${name}: e2e override`);
  };
  const rollBackToBase = async (name: string) => {
    await openRuleSet(name);
    await editor().getByTestId('rule-versions-rollback-0').click();
    const done = page.waitForResponse((r) => r.url().endsWith(`/api/rules/${name}/rollback`));
    await page.getByTestId('confirm-dialog').getByRole('button', { name: zhCN.common.confirm }).click();
    expect((await done).status()).toBe(200);
    await expect.poll(() => codeOf(editor().getByTestId('rule-override'))).toBe('{}');
  };

  const allText = ['=', '!=', 'like', 'not like', 'in', 'not in'].map((op) => zhCN.search.operators[op as keyof typeof zhCN.search.operators]);

  it('the base rules: ftp fields hidden until ftp is chosen, six operators for a text field', async () => {
    expect(await ftpShown()).toBe(0);
    await pick(page.locator('#root_upload_protocol'), 'FTP');
    await page.locator('#root_ftpname').waitFor();
    await shot('rules-setting-ftp-zh-CN');
    expect(await nameOperators(zhCN)).toEqual(allText);
  });

  it('the editor checks a rule-set override as typed and refuses an operator the server cannot run', async () => {
    await openRuleSet('search-operators');
    const text = editor().getByTestId('rule-override');
    await setCode(page, text, '{ "rules": { "input": ["like", "regex"] } }');
    await expect.poll(() => editor().getByTestId('rule-problems').textContent()).toContain('/rules/input');
    expect(await editor().getByTestId('rule-save').isDisabled()).toBe(true);
    await setCode(page, text, '{ "rules": { "input": { "nope": 1 } } }');
    await expect.poll(() => editor().getByTestId('rule-problems').textContent()).toContain('unknown operation "nope"');
    // The code editor checks the text against the rule-set meta-schema as typed, at the error's line.
    await setCode(page, text, '{\n  "rules": {},\n  "colour": "red"\n}');
    await expect.poll(() => editor().getByTestId('rule-override-problems').textContent(), { timeout: 15_000 }).toMatch(/第 3 行：.*colour/);
    await shot('rules-editor-problems-zh-CN');
  });

  it('a hospital override of each rule set changes the form and the custom search at once', async () => {
    await saveOverride('forms', { rules: { 'upload-via-ftp': true } });
    await saveOverride('search-operators', { rules: { input: { if: [{ '==': [{ var: 'field' }, 'name'] }, ['like'], ['=', 'like']] } } });
    // The history: the base and the saved version, with its note and who saved it.
    await expect.poll(() => editor().getByTestId('rule-versions-history').locator('[data-version]').count()).toBe(2);
    expect(await editor().getByTestId('rule-versions-history').locator('[data-version="1"]').textContent()).toMatch(/search-operators: e2e override.*admin|admin.*search-operators: e2e override/);
    await shot('rules-editor-zh-CN');

    expect(await ftpShown()).toBe(1);
    await shot('rules-setting-override-zh-CN');
    expect(await nameOperators(zhCN)).toEqual([zhCN.search.operators.like]);
  });

  it('rolls both back to the base: the ftp field hides again and the operators come back', async () => {
    await rollBackToBase('forms');
    await rollBackToBase('search-operators');
    expect(await ftpShown()).toBe(0);
    expect(await nameOperators(zhCN)).toEqual(allText);
  });

  it('shows the rule-set editor in English', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'en-US'));
    await openRuleSet('search-operators', enUS as unknown as typeof zhCN);
    await expect.poll(() => page.getByText(enUS.schemaEditor.mergedRules).count()).toBe(1);
    await shot('rules-editor-en-US');
    expect(await nameOperators(enUS as unknown as typeof zhCN)).toEqual(['=', '!=', 'like', 'not like', 'in', 'not in'].map((op) => enUS.search.operators[op as keyof typeof enUS.search.operators]));
  });
});
