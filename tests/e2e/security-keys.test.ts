import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { putSetting } from '../../server/modules/settings/queries.js';
import { insertCredential } from '../../server/modules/webauthn/queries.js';
import { e2eApp, evidence, signIn } from './harness.js';
import enCore from '../../src/i18n/locales/en-US.json';
import zhCore from '../../src/i18n/locales/zh-CN.json';
import en from '../../src/i18n/locales/en-US/pages/security-keys.json';
import zh from '../../src/i18n/locales/zh-CN/pages/security-keys.json';

type Lang = 'zh-CN' | 'en-US';
const words = { 'zh-CN': { ...zh.securityKey, core: zhCore }, 'en-US': { ...en.securityKey, core: enCore } } as const;

/**
 * Hardware keys in Chromium (issue 17), with Chromium's virtual authenticator over the DevTools protocol: `primary`
 * registers a key in SystemAccount, signs out, and signs in with the key alone from the login page. In both
 * languages, once with a USB key and once with a built-in (platform) authenticator. The app is opened at
 * http://localhost:<port>: WebAuthn needs a host name (an IP address cannot be a relying party id).
 */
describe('security keys in Chromium', () => {
  const pageErrors: string[] = [];
  const app = e2eApp({
    async setup(server) {
      // What an administrator saves on System › Security keys: primary's role may sign in with a key.
      const roles = await server.db.selectFrom('user_roles').innerJoin('users', 'users.id', 'user_roles.user_id')
        .select('user_roles.role_id').where('users.name', '=', 'primary').execute();
      await putSetting(server.db, 'webauthn_login', { role_ids: roles.map((r) => r.role_id) }, true);
    },
  });
  /** WebAuthn needs a host name: the app as http://localhost:<port>. */
  const url = () => app.url.replace('127.0.0.1', 'localhost');

  async function fresh(lang: Lang): Promise<Page> {
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 860 }, locale: lang });
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${url()}/login`);
    await page.evaluate((l) => localStorage.setItem('lang', l), lang);
    await page.reload();
    return page;
  }

  const cases = [['zh-CN', 'usb'], ['en-US', 'internal']] as const;
  for (const [lang, transport] of cases) {
    it(`registers a ${transport} key in SystemAccount, signs out, signs in with the key (${lang})`, async () => {
      const w = words[lang];
      const page = await fresh(lang);
      // The virtual authenticator answers the page's WebAuthn calls: user present and verified (PIN/fingerprint).
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport, hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      });

      await signIn(page, url(), 'primary', 'dsms-demo');
      await page.getByTestId('dashboard').waitFor();
      await page.goto(`${url()}/manage/system/account`);
      const panel = page.getByTestId('security-keys');
      await panel.waitFor();
      expect(await panel.textContent()).toContain(w.title);
      // A name is needed first; the form says so.
      await page.getByTestId('security-key-add').click();
      await panel.getByText(w.nameRequired).waitFor();
      const name = lang === 'zh-CN' ? '蓝色 USB 密钥' : 'Built-in authenticator';
      await page.getByTestId('security-key-name').fill(name);
      await page.getByTestId('security-key-add').click();
      await page.getByTestId('security-key-row').first().waitFor();
      expect(await page.getByTestId('security-key-row').count()).toBe(1);
      expect(await page.getByTestId('security-key-row').first().textContent()).toContain(name);
      expect(await page.getByTestId('security-key-row').first().textContent()).toContain(w.never);
      await evidence(page, `security-keys-account-${lang}.png`, { fullPage: true });
      // The authenticator holds one discoverable credential for this app's host name.
      const held = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(held.credentials).toHaveLength(1);
      expect(held.credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: w.core.user.logout }).click();
      await page.waitForURL(/\/login$/);
      const button = page.getByTestId('security-key-login');
      await button.waitFor();
      expect(await button.textContent()).toBe(w.core.login.securityKey);
      await evidence(page, `security-keys-login-${lang}.png`);

      // No user name, no password: the key says whose it is.
      await button.click();
      await page.getByTestId('dashboard').waitFor();
      const primary = await app.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow();
      expect(Number(await page.evaluate(() => sessionStorage.getItem('user_id')))).toBe(primary.id);
      const log = await app.db.selectFrom('login_logs').select(['reason', 'success']).where('user_id', '=', primary.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(log).toEqual({ reason: 'webauthn', success: 1 });

      // The list now shows when the key was last used; deleting it (confirmed) leaves none.
      await page.goto(`${url()}/manage/system/account`);
      const row = page.getByTestId('security-key-row').first();
      await row.waitFor();
      expect(await row.textContent()).not.toContain(w.never);
      // The account form above the panel draws after its chunk and its record, pushing the panel down: a click sent
      // while it grows lands beside Delete (it did once in CI). Once its fields are there, the row stays put.
      await page.locator('form[id^="page-form"] input').first().waitFor();
      await row.getByTestId('security-key-delete').click();
      await page.getByTestId('confirm-dialog').getByRole('button', { name: w.core.common.confirm }).click();
      await panel.getByText(w.none).waitFor();
      expect(await app.db.selectFrom('webauthn_credentials').select('id').execute()).toEqual([]);
      await page.context().close();
    });
  }

  it('shows the administrator the roles that may use keys (System › Security keys)', async () => {
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const page = await fresh(lang);
      await signIn(page, url(), 'admin', 'dsms-admin');
      await page.getByTestId('dashboard').waitFor();
      await page.goto(`${url()}/manage/setting/security-keys`);
      await page.getByTestId('form-page').waitFor();
      await expect.poll(() => page.getByTestId('form-page').textContent()).toContain(lang === 'zh-CN' ? '可使用安全密钥登录的角色' : 'Roles that may sign in with a security key');
      await evidence(page, `security-keys-setting-${lang}.png`);
      await page.context().close();
    }
  });

  it('lets the administrator remove a user’s lost key on System › Security keys, in both languages', async () => {
    const registrar = await app.db.selectFrom('users').select(['id', 'realname']).where('name', '=', 'registrar').executeTakeFirstOrThrow();
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const m = words[lang].members;
      const name = lang === 'zh-CN' ? '登记台 USB 密钥' : 'Registration desk key';
      const id = (await insertCredential(app.db, {
        userId: registrar.id, credentialId: `e2e-member-${lang}`, publicKey: 'pk', counter: 0, userHandle: `e2e-${lang}`, transports: ['usb'], name,
      }))!;
      const page = await fresh(lang);
      await signIn(page, url(), 'admin', 'dsms-admin');
      await page.getByTestId('dashboard').waitFor();
      await page.goto(`${url()}/manage/setting/security-keys`);
      const panel = page.getByTestId('member-security-keys');
      await panel.waitFor();
      expect(await panel.textContent()).toContain(m.title);
      const row = panel.getByTestId('member-security-key-row').filter({ hasText: name });
      await row.waitFor();
      expect(await row.textContent()).toContain(registrar.realname);
      await row.scrollIntoViewIfNeeded();
      await evidence(page, `security-keys-members-${lang}.png`, { fullPage: true });
      await row.getByTestId('member-security-key-remove').click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.getByText(m.removeTitle).waitFor();
      await evidence(page, `security-keys-members-confirm-${lang}.png`);
      await dialog.getByRole('button', { name: words[lang].core.common.confirm }).click();
      await row.waitFor({ state: 'detached' });
      expect(await app.db.selectFrom('webauthn_credentials').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
      await page.context().close();
    }
  });

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
