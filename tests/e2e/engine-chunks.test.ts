import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import enUS from '../../src/i18n/locales/en-US.json';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import { e2eApp, evidence } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const texts = { 'zh-CN': zhCN, 'en-US': enUS };

/**
 * Spec §8/§9 for code chunks: a page's chunk that does not arrive reloads the page once; when it fails again the
 * page shows a translated error with a retry (the menu and header keep working), and the retry loads it.
 * Spec §9 page sizes: the generic list starts at 100 rows.
 */
describe('code chunks and list page size in Chromium', () => {
  const app = e2eApp();

  async function open(lang: Lang): Promise<Page> {
    return app.page(lang, 'admin');
  }

  for (const lang of ['zh-CN', 'en-US'] as const) {
    it(`a list page whose chunk fails shows a translated error with a retry that loads it (${lang})`, async () => {
      const page = await open(lang);
      let blocked = 0;
      await page.route(/\/assets\/ListPage-[^/]+\.js$/, (route) => {
        blocked += 1;
        return route.abort('connectionfailed');
      });
      await page.goto(`${app.url}/manage/system/user`);
      // One reload (spec §8), so the chunk is asked for on two page loads; then the panel, not /error.
      await expect.poll(() => page.evaluate(() => sessionStorage.getItem('dsms-chunk-reload'))).toBe('1');
      const panel = page.getByTestId('engine-error');
      await expect.poll(() => panel.textContent()).toContain(texts[lang].chunk.failed);
      expect(blocked).toBeGreaterThanOrEqual(2);
      expect(new URL(page.url()).pathname).toBe('/manage/system/user');
      await expect.poll(() => page.getByTestId('side-menu').isVisible()).toBe(true);
      await evidence(page, `engine-chunk-failed-${lang}.png`);

      await page.unroute(/\/assets\/ListPage-[^/]+\.js$/);
      // The retry loads the chunk; the list asks for the generic list's first page size, 100 (spec §9).
      const listed = page.waitForRequest((r) => r.url().includes('/api/system_management/users/lists'));
      await panel.getByRole('button', { name: texts[lang].engine.retry }).click();
      await page.getByTestId('list-page').waitFor();
      expect(new URL((await listed).url()).searchParams.get('page_size')).toBe('100');
      expect(await panel.count()).toBe(0);
      await evidence(page, `engine-chunk-retried-${lang}.png`);
      await page.close();
    });
  }
});
