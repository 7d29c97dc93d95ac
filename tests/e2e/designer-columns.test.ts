import { describe, expect, it } from 'vitest';
import {
  addWardField, columnOrder, confirm, designer, en, headers, openCaseList, openDesigner, openView, register, saveDesign, shot, useDesignerSession, useLanguage, zh,
} from './designer-setup.js';

/**
 * Issue 13, the page designer's columns in Chromium: an administrator who never sees JSON (zh-CN) hides and
 * reorders two CaseList columns, relabels one, adds the field "Referring ward" (three options, kept in the case's
 * extra) and shows it as a column, all in one save with a note; a registrar sees the list as designed, the added
 * column with the option's word in their language (en-US, then zh-CN); the administrator (en-US) finds the saved
 * design, the history diffs the effective page, and rolling back removes it.
 */
describe('page designer: CaseList columns, with a field the hospital added', () => {
  const s = useDesignerSession();
  const BASE = ['pathology_number', 'patient_name', 'case_status', 'markers', 'case_type', 'subspecialty', 'expedite_status'];
  const DESIGNED = ['pathology_number', 'patient_name', 'case_status', 'markers', 'specimen_name', 'case_type', 'subspecialty'];
  const cell = (number: string, field: string) => s.registrar.getByTestId('data-table').locator('tbody tr', { hasText: number }).locator(`[data-column="${field}"]`);
  const headerText = (field: string) => s.registrar.getByTestId('data-table').locator(`thead th[data-column="${field}"]`).textContent();

  it('an administrator hides, reorders and relabels columns and adds the added field as a column, saved with a note (zh-CN)', async () => {
    await openDesigner(s);
    expect((await columnOrder(s)).slice(0, 7)).toEqual(BASE);
    await designer(s).getByTestId('col-visible-gender').uncheck();
    await designer(s).getByTestId('col-visible-age').uncheck();
    // "specimen" up to where the case type stands, dragged with the mouse (dnd-kit); "patient name" relabelled.
    const from = (await designer(s).getByTestId('drag-specimen_name').boundingBox())!;
    const to = (await designer(s).getByTestId('drag-case_type').boundingBox())!;
    await s.admin.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await s.admin.mouse.down();
    await s.admin.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
    await s.admin.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 4, { steps: 10 });
    await s.admin.mouse.up();
    await expect.poll(async () => (await columnOrder(s)).slice(0, 7)).toEqual(DESIGNED);
    await designer(s).getByTestId('col-label-patient_name-zh-CN').fill('患者');
    await designer(s).getByTestId('col-label-patient_name-en-US').fill('Patient');

    // The picker offers no added field yet; once "Referring ward" is added in the form view (not saved), it does,
    // among the hospital's own fields, and its column sorts (by its value in extra) as a resource column does.
    const picker = designer(s).getByTestId('col-add-field');
    expect(await picker.locator('option[value="referring_ward"]').count()).toBe(0);
    await openView(s, zh.form);
    await addWardField(s);
    await openView(s, zh.columns);
    expect(await picker.locator(`optgroup[label="${zh.ownFields}"] option[value="referring_ward"]`).textContent()).toBe('转诊病区');
    await picker.selectOption('referring_ward');
    await designer(s).getByRole('button', { name: zh.addColumn }).click();
    await expect.poll(async () => (await columnOrder(s)).at(-1)).toBe('referring_ward');
    expect(await designer(s).getByTestId('col-sortable-referring_ward').isDisabled()).toBe(false);
    expect(await designer(s).getByTestId('col-sortable-referring_ward').isChecked()).toBe(true);
    expect(await designer(s).getByTestId('sortable-referring_ward').textContent()).toContain(zh.addedField);
    await designer(s).getByTestId('sortable-referring_ward').scrollIntoViewIfNeeded();
    await shot(s.admin, 'designer-columns-zh-CN');

    // A note is required; the field goes first (the contract), then the page that shows it.
    expect(await designer(s).getByTestId('designer-save').isDisabled()).toBe(true);
    const saved = await saveDesign(s, '转诊病区列，患者列前移', { contract: true, page: true });
    expect(Object.keys(saved.contract!.request().postDataJSON().override.fields)).toEqual(['referring_ward']);
    const page = saved.page!.request().postDataJSON();
    expect(page.note).toBe('转诊病区列，患者列前移');
    expect(page.override.list.columns.at(-1)).toEqual({ field: 'referring_ward' });
  });

  it('a registrar sees the list as designed and the added column with the option\'s word, in en-US and zh-CN', async () => {
    const res = await register(s.registrar, { case_type: 'routine', referring_ward: 'er', specimens: [{ name: 'Biopsy' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const number = res.body.data.pathology_number as string;

    await openCaseList(s.registrar, s.url);
    await expect.poll(async () => (await headers(s.registrar)).slice(0, 5)).toEqual(DESIGNED.slice(0, 5));
    const shown = await headers(s.registrar);
    expect(shown).not.toContain('gender');
    expect(shown).not.toContain('age');
    expect(shown.at(-1)).toBe('referring_ward');
    expect(await headerText('patient_name')).toContain('Patient');
    expect(await headerText('referring_ward')).toContain('Referring ward');
    // The stored code is "er"; the cell shows the option's word.
    await expect.poll(() => cell(number, 'referring_ward').textContent()).toBe('Emergency');
    // The table scrolls sideways: the added column, last, is brought into view for the screenshot.
    await cell(number, 'referring_ward').scrollIntoViewIfNeeded();
    await shot(s.registrar, 'designer-registrar-list-en-US');

    await useLanguage(s.registrar, 'zh-CN');
    await openCaseList(s.registrar, s.url);
    await expect.poll(() => headerText('referring_ward')).toContain('转诊病区');
    expect((await headers(s.registrar)).slice(0, 5)).toEqual(DESIGNED.slice(0, 5));
    expect(await headerText('patient_name')).toContain('患者');
    await expect.poll(() => cell(number, 'referring_ward').textContent()).toBe('急诊');
    await cell(number, 'referring_ward').scrollIntoViewIfNeeded();
    await shot(s.registrar, 'designer-registrar-list-zh-CN');
    await useLanguage(s.registrar, 'en-US');
  });

  it('the administrator (en-US) finds the saved columns, the history diffs the effective page, and rolling back removes it', async () => {
    await useLanguage(s.admin, 'en-US');
    await openDesigner(s);
    expect((await columnOrder(s)).slice(0, 7)).toEqual(DESIGNED);
    expect((await columnOrder(s)).at(-1)).toBe('referring_ward');
    expect(await designer(s).getByTestId('col-visible-gender').isChecked()).toBe(false);
    expect(await designer(s).getByTestId('col-label-patient_name-en-US').inputValue()).toBe('Patient');
    expect(await designer(s).getByTestId('col-sortable-referring_ward').isChecked()).toBe(true);
    await designer(s).getByTestId('sortable-referring_ward').scrollIntoViewIfNeeded();
    await shot(s.admin, 'designer-columns-en-US');

    await openView(s, en.history);
    const history = designer(s).getByTestId('page-history');
    expect(await history.locator('[data-version="1"]').textContent()).toContain('转诊病区列，患者列前移');
    expect(await history.locator('[data-version="1"]').textContent()).toContain('admin');
    const diff = await history.getByTestId('page-diff').textContent();
    expect(diff).toContain('+ ');
    expect(diff).toMatch(/\+\s+"hidden": true/);
    expect(diff).toContain('患者');
    expect(diff).toMatch(/\+\s+"field": "referring_ward"/);
    expect(await designer(s).getByTestId('fields-diff').textContent()).toContain('referring_ward');
    await shot(s.admin, 'designer-diff-en-US');

    // The fields rolled back first: the page still names referring_ward, which no longer exists. The registrar's
    // list leaves that column out (not a code over empty cells), and the designer marks it to be removed.
    await designer(s).getByTestId('fields-history').getByTestId('fields-rollback-0').click();
    const rolled = s.admin.waitForResponse((r) => r.url().endsWith('/api/contracts/cases/rollback'));
    await confirm(s, 'en-US');
    expect((await rolled).status()).toBe(200);
    await openCaseList(s.registrar, s.url);
    await expect.poll(async () => (await headers(s.registrar)).slice(0, 5)).toEqual(DESIGNED.slice(0, 5));
    expect(await headers(s.registrar)).not.toContain('referring_ward');
    await openDesigner(s);
    const gone = designer(s).getByTestId('col-gone-referring_ward');
    expect(await gone.textContent()).toBe(en.fieldGone);
    await gone.scrollIntoViewIfNeeded();
    await shot(s.admin, 'designer-column-gone-en-US');
    await useLanguage(s.admin, 'zh-CN');
    await openDesigner(s);
    expect(await designer(s).getByTestId('col-gone-referring_ward').textContent()).toBe(zh.fieldGone);
    await designer(s).getByTestId('col-gone-referring_ward').scrollIntoViewIfNeeded();
    await shot(s.admin, 'designer-column-gone-zh-CN');
    await useLanguage(s.admin, 'en-US');
    await openDesigner(s);

    // Then the page too: the registrar's list is the repository's again.
    await openView(s, en.history);
    await designer(s).getByTestId('page-history').getByTestId('page-rollback-0').click();
    await confirm(s, 'en-US');
    await expect.poll(() => designer(s).getByTestId('page-history').locator('[data-version="2"]').count()).toBe(1);
    await openCaseList(s.registrar, s.url);
    await expect.poll(async () => (await headers(s.registrar)).slice(0, 7)).toEqual(BASE);
    expect(await headers(s.registrar)).toContain('gender');
    expect(await headers(s.registrar)).not.toContain('referring_ward');
    expect(s.errors).toEqual([]);
  });
});
