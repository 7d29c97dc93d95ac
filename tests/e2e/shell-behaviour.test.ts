import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eApp } from './harness.js';
import { zhCNBundle as zhCN } from '../../src/i18n/bundles';

/** Side menu and header rules of spec §2, at a 1280 px window (below the 1440 px collapse width). */
describe('shell behaviour in Chromium', () => {
  let page: Page;
  const app = e2eApp();
  beforeAll(async () => {
    page = await app.page('zh-CN', 'admin', { options: { viewport: { width: 1280, height: 800 } } });
  });

  const menu = () => page.getByTestId('side-menu');

  it('offers "open in new tab" on right-click of a menu entry, and opens it there', async () => {
    await menu().getByText('首页', { exact: true }).click({ button: 'right' });
    const [popup] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('menuitem', { name: zhCN.menu.openInNewTab }).click(),
    ]);
    await popup.waitForLoadState();
    expect(new URL(popup.url()).pathname).toBe('/manage/dashboard');
    await popup.close();
  });

  it('opens an external_link entry in a new window', async () => {
    const [popup] = await Promise.all([page.context().waitForEvent('page'), menu().getByText('OpenAPI 文档（新窗口）').click()]);
    await popup.waitForLoadState();
    expect(new URL(popup.url()).pathname).toMatch(/^\/api\/docs/);
    await popup.close();
  });

  it('collapses the menu on an outside click at 1440 px or less, and the hamburger brings it back', async () => {
    await expect.poll(() => menu().isVisible()).toBe(true);
    await page.getByTestId('dashboard').click({ position: { x: 5, y: 5 } });
    await expect.poll(() => menu().isVisible()).toBe(false);
    await page.getByTestId('menu-toggle').click();
    await expect.poll(() => menu().isVisible()).toBe(true);
  });

  it('switches the hospital and keeps the choice', async () => {
    await page.getByTestId('hospital-switcher').click();
    await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: '示范医院分院' }).click()]);
    await page.getByTestId('dashboard').waitFor();
    await expect.poll(() => page.getByTestId('hospital-switcher').textContent()).toContain('示范医院分院');
    expect(await page.evaluate(() => localStorage.getItem('HB'))).not.toBeNull();
  });

  it('hides the header on scanner detail and shows it elsewhere', async () => {
    await page.goto(`${app.url}/manage/scanner/detail`);
    await page.getByTestId('detail-page').waitFor();
    expect(await page.getByTestId('header').count()).toBe(0);
    await page.goto(`${app.url}/manage/scanner/list`);
    await page.getByTestId('header').waitFor();
  });
});
