import { describe, expect, it } from 'vitest';
import {
  addWardField, chosen, confirm, designer, en, fieldText, listRow, openCaseForm, openCaseList, openDesigner, openRegistration, openView, register, saveDesign, shot, store,
  useDesignerSession, useLanguage, zh,
} from './designer-setup.js';

/**
 * Issue 13, the page designer's form in Chromium: an administrator who never sees JSON (zh-CN) adds the form field
 * "Referring ward" (both labels, three options) required only when the case type is frozen (built in the rule
 * builder) and saves with a note; a registrar (en-US) sees it at once in the case form and the full registration
 * form, and the rule holds in the browser and on the server (the generic write and POST /api/pathology/register).
 * Then the languages swap; the history diffs the fields, and rolling back removes the field.
 */
describe('page designer: a new form field and its rule', () => {
  const s = useDesignerSession();

  it('an administrator adds a field required only for frozen cases, built in the rule builder, saved with a note (zh-CN)', async () => {
    await openDesigner(s);
    await openView(s, zh.form);
    await addWardField(s);
    const rule = designer(s).getByTestId('rule-requiredIf-referring_ward');
    await rule.getByRole('button', { name: zh.addCondition, exact: true }).click();
    await rule.locator('select.rule-fields').selectOption('case_type');
    await rule.locator('select.rule-operators').selectOption('=');
    await rule.locator('select.rule-value').selectOption('frozen');
    await shot(s.admin, 'designer-form-rule-builder-zh-CN');

    expect(await designer(s).getByTestId('designer-save').isDisabled()).toBe(true);
    const { contract } = await saveDesign(s, '转诊病区（冰冻必填）', { contract: true });
    const sent = contract!.request().postDataJSON();
    expect(sent.note).toBe('转诊病区（冰冻必填）');
    expect(sent.override.rules.requiredIf.referring_ward).toEqual({ '==': [{ var: 'case_type' }, 'frozen'] });
  });

  it('a registrar (en-US) sees the field at once; the rule holds in the case form, the registration form and on the server', async () => {
    const { registrar } = s;
    // The case form: the new select with its three options; required only once the case type is frozen.
    const form = await openCaseForm(s);
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

    // The full registration form (its own contract, extending cases): frozen without the field is refused in the
    // browser (nothing posted) and by POST /api/pathology/register; with it the case is registered.
    const reg = await openRegistration(registrar, s.url);
    await reg.locator('#root_referring_ward').waitFor();
    await reg.getByTestId('specimen-0-name').fill('Frozen section');
    await reg.locator('#root_case_type').click();
    await registrar.getByRole('option', { name: 'Frozen', exact: true }).click();
    let registered = 0;
    registrar.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/pathology/register')) registered++; });
    await chosen(registrar, reg, 'case_type', 'Frozen');
    await reg.getByTestId('form-save').click();
    await expect.poll(() => fieldText(reg, 'referring_ward')).toContain('Required');
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
    await openCaseList(registrar, s.url);
    await expect.poll(() => registrar.getByTestId('data-table').locator('tbody').textContent()).toContain(created.pathology_number);
    expect((await listRow(registrar, created.pathology_number)).referring_ward).toBe('er');
  });

  it('in the other languages: the administrator (en-US) finds the rule and the fields diff, the registrar (zh-CN) the Chinese options and rule', async () => {
    await useLanguage(s.admin, 'en-US');
    await openDesigner(s);
    await openView(s, en.form);
    await designer(s).getByTestId('form-rules-referring_ward').click();
    const rule = designer(s).getByTestId('rule-requiredIf-referring_ward');
    await expect.poll(() => rule.locator('select.rule-value').inputValue()).toBe('frozen');
    await shot(s.admin, 'designer-form-rule-builder-en-US');
    await openView(s, en.history);
    expect(await designer(s).getByTestId('fields-history').locator('[data-version="1"]').textContent()).toContain('转诊病区（冰冻必填）');
    expect(await designer(s).getByTestId('fields-diff').textContent()).toContain('referring_ward');

    const { registrar } = s;
    await useLanguage(registrar, 'zh-CN');
    const reg = await openRegistration(registrar, s.url);
    await reg.locator('#root_referring_ward').click();
    for (const label of ['重症监护', '三病区', '急诊']) await registrar.getByRole('option', { name: label, exact: true }).waitFor();
    await registrar.keyboard.press('Escape');
    await reg.getByTestId('specimen-0-name').fill('冰冻组织');
    await reg.locator('#root_case_type').click();
    await registrar.getByRole('option', { name: '冰冻', exact: true }).click();
    await chosen(registrar, reg, 'case_type', '冰冻');
    await reg.getByTestId('form-save').click();
    await expect.poll(() => fieldText(reg, 'referring_ward')).toContain('必填项');
    await shot(registrar, 'designer-registrar-registration-zh-CN');
    await useLanguage(registrar, 'en-US');
    await useLanguage(s.admin, 'zh-CN');
  });

  it('the fields history diffs the contract, and rolling back removes the field from the form and the server (zh-CN)', async () => {
    await openDesigner(s);
    await openView(s, zh.history);
    expect(await designer(s).getByTestId('fields-diff').textContent()).toContain('referring_ward');
    await shot(s.admin, 'designer-diff-zh-CN');
    await designer(s).getByTestId('fields-history').getByTestId('fields-rollback-0').click();
    const rolled = s.admin.waitForResponse((r) => r.url().endsWith('/api/contracts/cases/rollback'));
    await confirm(s, 'zh-CN');
    expect((await rolled).status()).toBe(200);

    const form = await openCaseForm(s);
    await form.locator('#root_patient_name').waitFor();
    expect(await form.locator('#root_referring_ward').count()).toBe(0);
    await s.registrar.keyboard.press('Escape');
    expect((await store(s.registrar, { pathology_number: 'DZ-API-5', case_type: 'frozen' })).status).toBe(200);
    expect(s.errors).toEqual([]);
  });
});
