import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import enUS from '../../src/i18n/locales/en-US.json';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import { e2eApp, evidence } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const text = { 'zh-CN': zhCN, 'en-US': enUS };

/**
 * Issue 9 in Chromium at 1440 px, both languages: the side menu shows the 38 px logo and the product name
 * ending in an ellipsis inside the drawer (full name in a tooltip); a date-time field is picked and shown as
 * YYYY-MM-DD and HH:mm:ss; a hospital select names hospitals in the UI language.
 */
describe('engine widgets in Chromium', () => {

  const app = e2eApp();

  async function open(lang: Lang): Promise<Page> {
    return app.page(lang, 'admin');
  }

  for (const lang of ['zh-CN', 'en-US'] as const) {
    it(`side menu: 38 px logo, the name inside the drawer with an ellipsis and a tooltip [${lang}]`, async () => {
      const page = await open(lang);
      const menu = page.getByTestId('side-menu');
      const name = page.getByTestId('product-name');
      await name.waitFor();
      expect(await name.textContent()).toBe(text[lang].app.name);
      const box = await menu.boundingBox();
      const nameBox = await name.boundingBox();
      // Inside the drawer on both sides: nothing cut at the left edge, nothing pushed past the right one.
      expect(nameBox!.x).toBeGreaterThanOrEqual(box!.x);
      expect(nameBox!.x + nameBox!.width).toBeLessThanOrEqual(box!.x + box!.width);
      expect(await name.evaluate((el) => getComputedStyle(el).textOverflow)).toBe('ellipsis');
      const logo = menu.locator('svg').first();
      expect((await logo.boundingBox())!.height).toBe(38);
      await name.hover();
      await expect.poll(() => page.getByRole('tooltip').textContent()).toBe(text[lang].app.name);
      await evidence(page, `engine-side-menu-${lang}.png`, { clip: { x: 0, y: 0, width: 560, height: 320 } });
      await page.close();
    });

    it(`date-time field: picked and shown as YYYY-MM-DD HH:mm:ss, hospitals named in the UI language [${lang}]`, async () => {
      const page = await open(lang);
      await page.goto(`${app.url}/manage/system/user`);
      await page.getByTestId('list-page').waitFor();
      await page.getByText(lang === 'zh-CN' ? '新增用户' : 'New user', { exact: true }).click();
      const hospitals = page.locator('[id$="hospital_ids"]').first();
      await hospitals.click();
      const option = lang === 'zh-CN' ? '示范医院总院' : 'Demo General Hospital';
      // The listbox is portalled outside the drawer's dialog, so it is found by Fluent's option class, not its role.
      await expect.poll(() => page.locator('.fui-Option', { hasText: option }).count()).toBe(1);
      await evidence(page, `engine-hospital-select-${lang}.png`);
      await hospitals.click();
      const date = page.locator(`input[aria-label="${text[lang].dateTime.date}"]`);
      const time = page.locator(`input[aria-label="${text[lang].dateTime.time}"]`);
      await date.waitFor();
      expect(await date.getAttribute('placeholder')).toBe('YYYY-MM-DD');
      expect(await time.isDisabled()).toBe(true);
      await date.click();
      await page.getByRole('dialog').last().getByText('15', { exact: true }).first().click();
      await expect.poll(() => date.inputValue()).toMatch(/^\d{4}-\d{2}-15$/);
      expect(await time.inputValue()).toBe('00:00:00');
      await time.fill('14:05:09');
      await time.press('Enter');
      await expect.poll(() => time.inputValue()).toBe('14:05:09');
      // A typed day is read as YYYY-MM-DD too.
      await date.fill('2031-02-03');
      await date.press('Enter');
      await expect.poll(() => date.inputValue()).toBe('2031-02-03');
      expect(await time.inputValue()).toBe('14:05:09');
      await evidence(page, `engine-date-time-${lang}.png`);

      await page.close();
    });
  }

  it('raised no page errors', () => {
    expect(app.pageErrors).toEqual([]);
  });
});
