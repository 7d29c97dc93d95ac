import { describe, expect, it } from 'vitest';
import { designer, en, openDesigner, openView, shot, useDesignerSession, useLanguage } from './designer-setup.js';

/**
 * Issue 13, the designer's JSON view for experts (en-US): a real code editor checked against the page meta-schema,
 * which refuses an invalid property at its line with the meta-schema's message; a fix made in JSON shows in the
 * visual view.
 */
describe('page designer: the JSON view', () => {
  const s = useDesignerSession();

  it('refuses an invalid property at its line with the meta-schema message; a fix shows in the visual view', async () => {
    await useLanguage(s.admin, 'en-US');
    await openDesigner(s);
    await openView(s, en.json);
    const editor = designer(s).getByTestId('designer-json').locator('.cm-content');
    await editor.waitFor();
    // The page as the hospital has it now (the text the editor opened with), with an unknown property on the second column.
    const page = await s.admin.evaluate(async () => {
      const res = await fetch('/api/schemas/CaseList', { headers: { Authorization: `Bearer ${sessionStorage.getItem('access_token')}` } });
      return (await res.json()).data.schema;
    }) as { list: { columns: Record<string, unknown>[] } };
    const replaceText = async (doc: string) => {
      await editor.click();
      await s.admin.keyboard.press('Control+A');
      await s.admin.keyboard.insertText(doc);
    };
    page.list.columns[1] = { ...page.list.columns[1], colour: 'red' };
    const bad = JSON.stringify(page, null, 2);
    const line = bad.split('\n').findIndex((l) => l.includes('"colour"')) + 1;
    await replaceText(bad);
    const problems = designer(s).getByTestId('designer-json-problems');
    await expect.poll(() => problems.textContent(), { timeout: 15_000 }).toContain(`Line ${line}:`);
    expect(await problems.textContent()).toMatch(/colour/);
    await shot(s.admin, 'designer-json-error-en-US');

    // Fix it in JSON: drop the property, and relabel the column; the visual view shows the label.
    delete page.list.columns[1].colour;
    page.list.columns[1].label = { 'zh-CN': '类型', 'en-US': 'Kind of case' };
    await replaceText(JSON.stringify(page, null, 2));
    await expect.poll(() => designer(s).getByTestId('designer-json-problems').count(), { timeout: 15_000 }).toBe(0);
    // The text becomes the draft 300 ms after the last change (JsonView): the designer then asks for a note to save it.
    await designer(s).getByText(en.noteRequired).waitFor();
    await openView(s, en.columns);
    await expect.poll(() => designer(s).getByTestId(`col-label-${String(page.list.columns[1].field)}-en-US`).inputValue()).toBe('Kind of case');
    expect(s.errors).toEqual([]);
  });
});
