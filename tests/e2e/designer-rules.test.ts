import { beforeAll, describe, expect, it } from 'vitest';
import { setCode } from './harness.js';
import { listRow, pickOption, shot, store, useDesignerSession, useLanguage, words, zh, type Lang } from './designer-setup.js';

/**
 * Issue 13, rule sets in the designer: a rule edited in the builder answers for a real case in the test panel as
 * the server does, is saved with a note into a history that diffs the effective rule set, and its JSON view is
 * checked against the rule-set meta-schema at the error's line (zh-CN, then en-US).
 */
describe('page designer: rule sets and their test panel', () => {
  const s = useDesignerSession();
  beforeAll(async () => {
    expect((await store(s.registrar, { pathology_number: 'DZ-API-3', case_type: 'frozen' })).status).toBe(200);
  });
  const rules = () => s.admin.getByTestId('rule-editor');
  const openRules = async (name: string, lang: Lang, firstRule: string) => {
    await s.admin.goto(`${s.url}/manage/system/schema`);
    await s.admin.getByTestId('schema-kind').getByRole('tab', { name: words[lang].schemaEditor.kindRules }).click();
    await rules().waitFor();
    await pickOption(s.admin, rules().getByRole('combobox', { name: words[lang].schemaEditor.ruleSet }), name);
    await rules().getByTestId('rule-designer').getByTestId(`rule-${firstRule}`).waitFor();
  };
  const tryCase = async (number: string) => {
    const panel = rules().getByTestId('rule-test-panel');
    await panel.getByTestId('rule-test-search').fill(number);
    await panel.getByTestId('rule-test-find').click();
    await expect.poll(async () => panel.getByTestId('rule-test-record').locator('option:checked').textContent()).toContain(number);
    return panel;
  };

  it('a rule set edited in the builder answers for a real case in the test panel, as the server does (zh-CN, en-US)', async () => {
    await useLanguage(s.admin, 'zh-CN');
    await openRules('case-transitions', 'zh-CN', 'register');
    const panel = await tryCase('DZ-API-3');
    await pickOption(s.admin, panel.getByTestId('rule-test-roles'), /\(technician\)/);
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
    await shot(s.admin, 'designer-rules-test-zh-CN');
    // Saved with a note, like a page: the history says who saved what, and diffs the effective rule set.
    expect(await rules().getByTestId('rule-save').isDisabled()).toBe(true);
    await rules().getByTestId('rule-note').fill('技师也可登记');
    const saved = s.admin.waitForResponse((r) => r.url().endsWith('/api/rules/case-transitions') && r.request().method() === 'PUT');
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
    await shot(s.admin, 'designer-rules-history-zh-CN');
    // The JSON view is the code editor, checked against the rule-set meta-schema at the error's line.
    await rules().getByTestId('rule-modes').getByRole('tab', { name: 'JSON' }).click();
    await setCode(s.admin, rules().getByTestId('rule-override'), '{\n  "rules": {},\n  "colour": 1\n}');
    await expect.poll(() => rules().getByTestId('rule-override-problems').textContent(), { timeout: 15_000 }).toMatch(/第 3 行：.*colour/);
    await shot(s.admin, 'designer-rules-json-zh-CN');

    // The case status of a real case: the panel's answer is the one the server computed for the list.
    const row = await listRow(s.admin, 'DZ-API-3');
    await useLanguage(s.admin, 'en-US');
    await openRules('case-status', 'en-US', 'status');
    const status = await tryCase('DZ-API-3');
    await expect.poll(() => status.getByTestId('rule-test-answer-status').textContent()).toBe(JSON.stringify(row.case_status));
    expect(await status.getByTestId('rule-test-answer-status-colour').textContent()).toBe(JSON.stringify(row.status_colour));
    await shot(s.admin, 'designer-rules-test-en-US');
    expect(s.errors).toEqual([]);
  });
});
