import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  addWardField, designer, en, openDesigner, openView, pickOption, register, saveDesign, shot, useDesignerSession, useLanguage, zh,
} from './designer-setup.js';

/**
 * Issue 31 item 5 in Chromium: a field the hospital adds ("Referring ward", kept in each case's extra) is offered by
 * the designer as a search item and as a sortable column, with its label (zh-CN, then en-US); the registrar's CaseList
 * filters by it from the search bar and sorts by its column, in en-US and zh-CN.
 */
describe('page designer: a field the hospital added, searched and sorted by', () => {
  const s = useDesignerSession();
  const numbers: Record<string, string> = {};
  const rows = (page: Page) => page.getByTestId('data-table').locator('tbody tr[data-row-key]');
  /** Our cases' numbers in the order the list shows them. */
  const ours = async (page: Page) => (await rows(page).allTextContents()).map((t) => Object.values(numbers).find((n) => t.includes(n))).filter(Boolean);
  /** The list's answer to the request whose address names every one of `parts`. */
  const listAnswer = (page: Page, ...parts: string[]) => page.waitForResponse((r) => r.url().includes('/api/pathology/lists') && parts.every((p) => decodeURIComponent(r.url()).includes(p)));

  it('the designer offers the added field for search and sort, with its label (zh-CN, en-US)', async () => {
    await openDesigner(s);
    await openView(s, zh.form);
    await addWardField(s);
    await openView(s, zh.columns);
    const picker = designer(s).getByTestId('col-add-field');
    await picker.selectOption('referring_ward');
    await designer(s).getByRole('button', { name: zh.addColumn }).click();
    const sortable = designer(s).getByTestId('col-sortable-referring_ward');
    expect(await sortable.isDisabled()).toBe(false);
    expect(await sortable.isChecked()).toBe(true);

    await openView(s, zh.search);
    const search = designer(s).getByTestId('designer-search');
    const add = search.getByTestId('search-add-field');
    expect(await add.locator(`optgroup[label="${zh.ownFields}"] option[value="referring_ward"]`).textContent()).toBe('转诊病区');
    await add.selectOption('referring_ward');
    await search.getByTestId('search-add').click();
    await search.getByTestId('search-place-referring_ward').waitFor();
    expect(await search.getByTestId('sortable-referring_ward').textContent()).toContain(`转诊病区referring_ward · ${zh.addedField}`);
    await search.getByTestId('sortable-referring_ward').scrollIntoViewIfNeeded();
    await shot(s.admin, 'designer-added-search-zh-CN');

    const saved = await saveDesign(s, '转诊病区可搜索、可排序', { contract: true, page: true });
    const page = saved.page!.request().postDataJSON().override;
    expect(page.search.items.at(-1)).toEqual({ field: 'referring_ward' });
    expect(page.list.columns.at(-1)).toEqual({ field: 'referring_ward' });

    await useLanguage(s.admin, 'en-US');
    await openDesigner(s);
    expect(await designer(s).getByTestId('col-sortable-referring_ward').isChecked()).toBe(true);
    await openView(s, en.search);
    const item = designer(s).getByTestId('designer-search').getByTestId('sortable-referring_ward');
    expect(await item.textContent()).toContain(`Referring wardreferring_ward · ${en.addedField}`);
    await item.scrollIntoViewIfNeeded();
    await shot(s.admin, 'designer-added-search-en-US');
  });

  it('the registrar filters the list by it from the search bar and sorts by its column (en-US, zh-CN)', async () => {
    for (const ward of ['er', 'icu']) {
      const res = await register(s.registrar, { case_type: 'routine', referring_ward: ward, specimens: [{ name: 'Biopsy' }] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      numbers[ward] = res.body.data.pathology_number as string;
    }
    const { registrar } = s;
    for (const [lang, label, word] of [['en-US', 'Referring ward', 'Emergency'], ['zh-CN', '转诊病区', '急诊']] as const) {
      await useLanguage(registrar, lang);
      // An address with the list's keys: not the stored copy of the last visit (its filter and sort).
      await registrar.goto(`${s.url}/manage/case/list?page=1&page_size=100&tab=all`);
      await registrar.getByTestId('list-page').waitFor();
      // Sorted by its column: descending puts the cases that have a value first (on SQLite, NULL sorts lowest).
      const header = registrar.getByTestId('data-table').locator('thead th[data-column="referring_ward"]');
      await header.scrollIntoViewIfNeeded();
      // The second language asks what the first did: the engine's list cache may answer it, with no request.
      const first = lang === 'en-US';
      for (const dir of ['asc', 'desc']) {
        const answered = first ? listAnswer(registrar, `"referring_ward":"${dir}"`) : undefined;
        await header.click();
        if (answered) expect((await answered).status()).toBe(200);
        await expect.poll(() => header.getAttribute('aria-sort')).toBe(dir === 'asc' ? 'ascending' : 'descending');
      }
      await expect.poll(async () => (await ours(registrar)).slice(0, 2)).toEqual([numbers.icu, numbers.er]);
      await header.scrollIntoViewIfNeeded();
      await shot(registrar, `designer-added-sorted-${lang}`);

      // Filtered from the search bar: only the case from the emergency department.
      const filtered = first ? listAnswer(registrar, 'referring_ward', '"er"') : undefined;
      await pickOption(registrar, registrar.getByTestId('search-bar').getByRole('combobox', { name: label }), word);
      if (filtered) expect((await filtered).status()).toBe(200);
      await expect.poll(() => ours(registrar)).toEqual([numbers.er]);
      await expect.poll(() => rows(registrar).count()).toBe(1);
      await registrar.getByTestId('data-table').locator('tbody tr', { hasText: numbers.er }).locator('[data-column="referring_ward"]').scrollIntoViewIfNeeded();
      await shot(registrar, `designer-added-filtered-${lang}`);
    }
    await useLanguage(registrar, 'en-US');
    expect(s.errors).toEqual([]);
  });
});
