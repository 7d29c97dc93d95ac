import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eApp } from './harness.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { messages } from '../../server/i18n/messages.js';
import { enUSBundle as enUS, zhCNBundle as zhCN } from '../../src/i18n/bundles';

const LANGS = [['zh-CN', zhCN], ['en-US', enUS]] as const;

/**
 * Issue 17, spec §2/§7: the header's change-account dialog goes through users/switch, so the account signed in
 * before is signed out on the server (its token answers 401), not merely forgotten by this tab. A wrong password
 * leaves the old session as it was.
 */
describe('change account in Chromium', () => {
  const app = e2eApp();

  const token = (page: Page) => page.evaluate(() => sessionStorage.getItem('access_token'));
  /** What the server answers this token on a plain signed-in call (200, or 401 once the session ended). */
  const statusWith = (page: Page, bearer: string) => page.evaluate(async (t) =>
    (await fetch('/api/system_management/users/permission', { headers: { Authorization: `Bearer ${t}` } })).status, bearer);
  const realname = async (name: string) =>
    (await app.db.selectFrom('users').select('realname').where('name', '=', name).executeTakeFirstOrThrow()).realname;

  async function openDialog(page: Page, bundle: typeof enUS) {
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: bundle.user.changeAccount }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    return dialog;
  }

  for (const [lang, bundle] of LANGS) {
    it(`switches from registrar to sampler, ending registrar's session on the server [${lang}]`, async () => {
      const page = await app.page(lang, 'registrar');
      const before = await token(page);
      expect(before).toBeTruthy();
      expect(await statusWith(page, before!)).toBe(200);

      // A wrong password: the server's words in the dialog, the old session untouched.
      let dialog = await openDialog(page, bundle);
      await dialog.getByLabel(bundle.login.username).fill('sampler');
      await dialog.getByLabel(bundle.login.password).fill('not-the-password');
      await dialog.getByRole('button', { name: bundle.common.confirm }).click();
      await dialog.getByText(messages['auth.wrong_credentials'][lang]).waitFor();
      expect(await token(page)).toBe(before);
      expect(await statusWith(page, before!)).toBe(200);
      await dialog.getByRole('button', { name: bundle.common.cancel }).click();
      await dialog.waitFor({ state: 'detached' });

      dialog = await openDialog(page, bundle);
      await dialog.getByLabel(bundle.login.username).fill('sampler');
      await dialog.getByLabel(bundle.login.password).fill(DEMO_PASSWORDS.others);
      await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: bundle.common.confirm }).click()]);
      await page.getByTestId('dashboard').waitFor();
      await expect.poll(() => page.getByTestId('user-menu').textContent()).toContain(await realname('sampler'));
      const after = await token(page);
      expect(after).toBeTruthy();
      expect(after).not.toBe(before);
      expect(await statusWith(page, after!)).toBe(200);
      expect(await statusWith(page, before!)).toBe(401);
      await page.close();
    });
  }
});
