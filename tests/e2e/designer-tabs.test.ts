import { beforeAll, describe, expect, it } from 'vitest';
import { designer, en, openCaseList, openDesigner, openView, pickOption, shot, store, useDesignerSession, useLanguage, zh } from './designer-setup.js';

/**
 * Issue 13, the designer's search, tabs and actions (en-US, screenshots in zh-CN too): search items placed and
 * relabelled with the operators the hospital's search-operators rules offer, a tab whose filter is built in the rule
 * builder, and an action shown to one role only; the registrar's CaseList follows at once.
 */
describe('page designer: search items, tabs and actions', () => {
  const s = useDesignerSession();
  beforeAll(async () => {
    // Two frozen cases the tab must list, and a routine one it must not.
    for (const [number, type] of [['DZ-API-2', 'routine'], ['DZ-API-3', 'frozen'], ['DZ-API-5', 'frozen']]) {
      expect((await store(s.registrar, { pathology_number: number, case_type: type })).status).toBe(200);
    }
  });

  it('search items, a tab whose filter is built in the builder, and an action hidden per role reach the registrar (en-US)', async () => {
    await useLanguage(s.admin, 'en-US');
    await openDesigner(s);
    await openView(s, en.search);
    const search = designer(s).getByTestId('designer-search');
    await search.waitFor();
    // The operators each item offers come from the hospital's search-operators rules (select: =, !=, in, not in).
    expect(await search.getByTestId('search-offered-case_type').textContent()).toBe(en.operatorsOffered.replace('{{list}}', 'equals · not equal · is one of · is none of'));
    await search.getByTestId('search-place-main_phase').selectOption('bar');
    await search.getByTestId('search-label-patient_name-zh-CN').fill('患者（搜索）');
    await search.getByTestId('search-label-patient_name-en-US').fill('Patient (search)');
    await search.getByTestId('search-operator-pathology_number').selectOption('=');
    await shot(s.admin, 'designer-search-en-US');

    // A tab "DZ frozen": pathology number contains DZ-API and type is frozen, built in the rule builder.
    await openView(s, en.tabsActions);
    const tabs = designer(s).getByTestId('designer-tabs');
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
    await pickOption(s.admin, designer(s).getByTestId('action-roles-toolbar-quick_register'), /\(sampler\)/);
    await shot(s.admin, 'designer-tabs-en-US');

    await designer(s).getByTestId('designer-note').fill('DZ tab, search items, quick registration for samplers');
    const pageSaved = s.admin.waitForResponse((r) => r.url().endsWith('/api/schemas/CaseList') && r.request().method() === 'PUT');
    await designer(s).getByTestId('designer-save').click();
    const saved = await pageSaved;
    expect(saved.status()).toBe(200);
    const override = saved.request().postDataJSON().override;
    const tab = override.list.tabs.find((x: { key: string }) => x.key === 'dzapi');
    expect(tab.filter).toEqual([{ field: 'pathology_number', operator: 'like', value: 'DZ-API' }, { field: 'case_type', operator: '=', value: 'frozen', condition: 'and' }]);
    expect(override.list.toolbar.find((a: { key: string }) => a.key === 'quick_register').roles).toEqual(['sampler']);

    // The registrar: the phase on the bar, the relabelled item, the tab filtering the list, no quick registration.
    const { registrar } = s;
    await openCaseList(registrar, s.url);
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
    await useLanguage(s.admin, 'zh-CN');
    await openDesigner(s);
    await openView(s, zh.search);
    await designer(s).getByTestId('designer-search').waitFor();
    await shot(s.admin, 'designer-search-zh-CN');
    await openView(s, zh.tabsActions);
    await designer(s).getByTestId('tab-filter-dzapi').click();
    await designer(s).getByTestId('tab-builder-dzapi').locator('.rule').nth(1).waitFor();
    await shot(s.admin, 'designer-tabs-zh-CN');
    expect(s.errors).toEqual([]);
  });
});
