import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eApp, evidence } from './harness.js';

/**
 * A list page left for another through the side menu stays drawn, hidden (src/shell/KeptOutlet.tsx): coming back
 * shows the very same rows at once and asks the server again, so a row added meanwhile appears without a redraw of
 * the page; the hidden page is out of sight and out of the accessibility tree.
 */
describe.each(['zh-CN', 'en-US'] as const)('kept list pages [%s]', (lang) => {
  let page: Page;

  const app = e2eApp();
  beforeAll(async () => {
    page = await app.page(lang, 'admin');
  });

  const listOf = (alias: string) => page.locator(`[data-testid="list-page"][data-alias="${alias}"]`);
  const menuLink = (alias: string) => page.locator(`[data-testid="side-menu"] a[data-alias="${alias}"]`);

  it('shows a page again as it was left, with what changed meanwhile', async () => {
    await page.goto(`${app.url}/manage/system/role`);
    const roles = listOf('SystemRole');
    await roles.locator('[data-row-key]').first().waitFor();
    // A mark on a drawn row: found again after the round trip only if the page was kept, not drawn anew.
    await roles.locator('[data-row-key]').first().evaluate((row) => { (row as HTMLElement).dataset.keptMark = 'yes'; });

    await menuLink('SystemUser').click();
    await listOf('SystemUser').locator('[data-row-key]').first().waitFor();
    expect(await roles.count()).toBe(1);
    expect(await roles.isVisible()).toBe(false);
    // Hidden pages are out of the accessibility tree: one list page's table is there for a screen reader.
    expect(await page.getByRole('table').count()).toBe(1);

    // A role added while the page is hidden (the way the role form saves it).
    const identification = `kept_${lang.replace('-', '_').toLowerCase()}`;
    const status = await page.evaluate(async (code) => {
      const res = await fetch('/api/system_management/roles/store', {
        method: 'POST',
        headers: { 'content-type': 'application/json', Authorization: `Bearer ${sessionStorage.getItem('access_token')}` },
        body: JSON.stringify({ name: code, identification: code, extra: [], menu_ids: [] }),
      });
      return res.status;
    }, identification);
    expect(status).toBe(200);

    const asked = page.waitForRequest((r) => r.url().includes('/api/system_management/roles/lists'));
    await menuLink('SystemRole').click();
    await asked;
    await expect.poll(() => roles.isVisible()).toBe(true);
    expect(await listOf('SystemUser').isVisible()).toBe(false);
    await expect.poll(() => roles.getByText(identification, { exact: true }).count()).toBeGreaterThan(0);
    expect(await roles.locator('[data-kept-mark="yes"]').count()).toBe(1);
    await evidence(page, `kept-pages-${lang}.png`);
  });

  it('a full load starts afresh', async () => {
    await page.reload();
    await listOf('SystemRole').locator('[data-row-key]').first().waitFor();
    expect(await page.locator('[data-testid="list-page"]').count()).toBe(1);
    expect(await page.locator('[data-kept-mark]').count()).toBe(0);
  });
});
