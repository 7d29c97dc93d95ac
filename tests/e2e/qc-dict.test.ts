import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsDone, e2eApp, evidence } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const WORDS = {
  'zh-CN': { group: '配置中心', list: '特殊医嘱', entry: '加做特殊染色', title: '质控字典' },
  'en-US': { group: 'Configuration', list: 'Special advice', entry: 'Extra special stain', title: 'QC dictionary' },
} as const;

/**
 * The QC dictionary page (SettingQcDict, issue 16) in Chromium, in both languages: the quality controller opens it
 * from the side menu under the configuration group, adds an entry through the create drawer and sees it listed;
 * the row is the working hospital's and is what spec §7's `config/dict/qc/lists` answers.
 */
describe('QC dictionary page in Chromium', () => {
  const app = e2eApp();

  const menuLink = async (page: Page, lang: Lang) => {
    if ((await page.getByTestId('menu-toggle').getAttribute('aria-expanded')) === 'false') await page.getByTestId('menu-toggle').click();
    const link = page.locator('[data-testid="side-menu"] a[data-alias="SettingQcDict"]');
    if (!(await link.isVisible())) {
      await page.locator('[data-testid="side-menu"] button[aria-expanded="false"]', { hasText: WORDS[lang].group }).click();
      // The group opens with a motion: a click on its link while it moves may land on nothing.
      await animationsDone(page);
    }
    await link.waitFor({ state: 'visible' });
    return link;
  };

  it.each(['zh-CN', 'en-US'] as const)('opens from the menu, adds an entry and lists it (%s)', async (lang) => {
    const errors: string[] = [];
    const page = await app.page(lang, 'qc', { errors });
    const w = WORDS[lang];
    const link = await menuLink(page, lang);
    await link.click();
    const list = page.locator('[data-testid="list-page"][data-alias="SettingQcDict"]');
    await list.waitFor();
    expect(new URL(page.url()).pathname).toBe('/manage/setting/qc-dict');
    // The quality controller's only configuration entry: the shell folds the one-child group into it (the link reads
    // as the group), and the window's title names the page.
    await expect.poll(() => page.title()).toContain(w.title);

    await list.locator('button[data-action="create"]').click();
    const drawer = page.getByTestId('form-drawer');
    await drawer.locator('#root_type').click();
    await page.getByRole('option', { name: w.list, exact: true }).click();
    await drawer.locator('#root_name').fill(w.entry);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/config/dict/qc/entries/store'));
    await drawer.getByTestId('form-save').click();
    expect((await created).status()).toBe(200);
    await drawer.waitFor({ state: 'detached' });

    const row = list.locator('tbody tr[data-row-key]', { hasText: w.entry });
    await row.waitFor();
    expect(await row.textContent()).toContain(w.list);
    const stored = await app.db.selectFrom('qc_dict').select(['type', 'enabled']).where('name', '=', w.entry).execute();
    expect(stored).toEqual([{ type: 'special_advice', enabled: 1 }]);
    const spec = await page.evaluate(async () => {
      const res = await fetch('/api/config/dict/qc/lists?type=special_advice', { headers: { Authorization: `Bearer ${sessionStorage.getItem('access_token')}` } });
      return ((await res.json()).data as { name: string }[]).map((r) => r.name);
    });
    expect(spec).toContain(w.entry);
    await evidence(page, `qc-dict-${lang}.png`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
