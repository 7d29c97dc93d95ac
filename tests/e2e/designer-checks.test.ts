import { describe, expect, it } from 'vitest';
import { chosen, designer, en, openDesigner, openRegistration, openView, register, saveDesign, shot, useDesignerSession, useLanguage, zh } from './designer-setup.js';

/**
 * Issue 13, form checks without JSON: an administrator (zh-CN) adds the check "an age given in days is under 31"
 * on the registration fields age and age unit, its condition built in the rule builder and its message typed in
 * both languages; a half-built check keeps Save off with the designer's own words. A registrar's registration form
 * shows the message (en-US, zh-CN) and the server refuses the same input with the same message. The administrator
 * (en-US) finds the check and its diff, edits its message, and deletes it.
 */
describe('page designer: form checks', () => {
  const s = useDesignerSession();
  const RULE = { or: [{ '!=': [{ var: 'age_unit' }, 'day'] }, { '<': [{ var: 'age' }, 31] }] };
  const MESSAGE = { 'zh-CN': '按天计的年龄应小于 31', 'en-US': 'An age in days is under 31' };
  const input = { case_type: 'routine', age: 40, age_unit: 'day', specimens: [{ name: 'Biopsy' }] };

  it('an administrator builds a check in the rule builder with its message in both languages, saved with a note (zh-CN)', async () => {
    await openDesigner(s);
    await openView(s, zh.form);
    const checks = designer(s).getByTestId('designer-checks');
    expect(await checks.textContent()).toContain(zh.noChecks);
    await checks.getByTestId('check-add').click();
    await checks.getByTestId('check-field-0').selectOption('age');
    const builder = checks.getByTestId('check-rule-0');
    await builder.getByRole('button', { name: zh.addCondition, exact: true }).click();
    await builder.getByRole('button', { name: zh.addCondition, exact: true }).click();
    await builder.locator('select.ruleGroup-combinators').selectOption('or');
    const [unit, age] = [builder.locator('.rule').nth(0), builder.locator('.rule').nth(1)];
    await unit.locator('select.rule-fields').selectOption('age_unit');
    await unit.locator('select.rule-operators').selectOption('!=');
    await unit.locator('select.rule-value').selectOption('day');
    await age.locator('select.rule-fields').selectOption('age');
    await age.locator('select.rule-operators').selectOption('<');
    await age.locator('input.rule-value').fill('31');
    // Without its message the check cannot be saved; the designer says why in its own words.
    await designer(s).getByTestId('designer-note').fill('按天计的年龄小于 31');
    await expect.poll(() => designer(s).getByTestId('designer-problems').textContent()).toContain(zh.checkProblem.message);
    expect(await designer(s).getByTestId('designer-save').isDisabled()).toBe(true);
    await checks.getByTestId('check-message-0-zh-CN').fill(MESSAGE['zh-CN']);
    await checks.getByTestId('check-message-0-en-US').fill(MESSAGE['en-US']);
    await expect.poll(() => designer(s).getByTestId('designer-problems').count()).toBe(0);
    await checks.scrollIntoViewIfNeeded();
    await shot(s.admin, 'designer-checks-zh-CN');

    const { contract } = await saveDesign(s, '按天计的年龄小于 31', { contract: true });
    expect(contract!.request().postDataJSON().override).toEqual({ rules: { checks: [{ field: 'age', rule: RULE, message: MESSAGE }] } });
  });

  it('a registrar\'s registration form shows the message, and the server refuses the same input with it (en-US, zh-CN)', async () => {
    const { registrar } = s;
    let posted = 0;
    registrar.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/pathology/register')) posted++; });
    for (const [lang, days] of [['en-US', 'days'], ['zh-CN', '天']] as const) {
      await useLanguage(registrar, lang);
      posted = 0;
      const reg = await openRegistration(registrar, s.url);
      await reg.getByTestId('specimen-0-name').fill('Biopsy');
      await reg.locator('#root_age').fill('40');
      await reg.locator('#root_age_unit').click();
      await registrar.getByRole('option', { name: days, exact: true }).click();
      await chosen(registrar, reg, 'age_unit', days);
      await reg.getByTestId('form-save').click();
      await expect.poll(() => reg.textContent()).toContain(MESSAGE[lang]);
      expect(posted).toBe(0);
      await shot(registrar, `designer-registrar-check-${lang}`);

      const refused = await register(registrar, input, lang);
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body.errors.age).toEqual([MESSAGE[lang]]);
    }
    await useLanguage(registrar, 'en-US');
    // The check holds only what it says: 40 years, or 20 days, are registered.
    expect((await register(registrar, { ...input, age_unit: 'year' })).status).toBe(200);
    expect((await register(registrar, { ...input, age: 20 })).status).toBe(200);
  });

  it('the administrator (en-US) finds the check and its diff, edits its message, then deletes it', async () => {
    await useLanguage(s.admin, 'en-US');
    await openDesigner(s);
    await openView(s, en.form);
    const checks = designer(s).getByTestId('designer-checks');
    expect(await checks.getByTestId('check-field-0').inputValue()).toBe('age');
    expect(await checks.getByTestId('check-message-0-en-US').inputValue()).toBe(MESSAGE['en-US']);
    expect(await checks.getByTestId('check-rule-0').locator('input.rule-value').inputValue()).toBe('31');
    await checks.scrollIntoViewIfNeeded();
    await shot(s.admin, 'designer-checks-en-US');
    await openView(s, en.history);
    expect(await designer(s).getByTestId('fields-diff').textContent()).toContain(MESSAGE['en-US']);
    await designer(s).getByTestId('fields-diff').scrollIntoViewIfNeeded();
    await shot(s.admin, 'designer-checks-diff-en-US');

    // Edited: the server answers with the new words.
    await openView(s, en.form);
    await checks.getByTestId('check-message-0-en-US').fill('An age in days must be under 31');
    await saveDesign(s, 'Clearer message', { contract: true });
    const edited = await register(s.registrar, input);
    expect(edited.body.errors.age).toEqual(['An age in days must be under 31']);

    // Deleted: nothing left of the check, and the same input is registered.
    await openView(s, en.form);
    await checks.getByTestId('check-remove-0').click();
    expect(await checks.textContent()).toContain(en.noChecks);
    const { contract } = await saveDesign(s, 'No age check', { contract: true });
    expect(contract!.request().postDataJSON().override).toEqual({});
    expect((await register(s.registrar, input)).status).toBe(200);
    expect(s.errors).toEqual([]);
  });
});
