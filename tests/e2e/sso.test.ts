import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { saveSsoConfig } from '../../server/modules/sso/config.js';
import { isSealed } from '../../server/security/sealed-secrets.js';
import { enUSBundle as enUS, zhCNBundle as zhCN } from '../../src/i18n/bundles';
import { startMessagingDouble } from '../api/messaging-double.js';
import { startOidcProvider } from '../api/oidc-provider.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { e2eApp, evidence, signIn } from './harness.js';

const LANGS = [['zh-CN', zhCN], ['en-US', enUS]] as const;

/**
 * Issue 17: single sign-on through a real OpenID Connect provider (oidc-provider on loopback, its development login
 * and consent pages): the login page's button, the provider's pages, and back into /manage as the mapped user; an
 * unknown user is refused with the configured words, or, where the hospital chose so, created with its role and
 * signed in. Both languages, with screenshots.
 */
describe('single sign-on in Chromium', () => {
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  let messaging: Awaited<ReturnType<typeof startMessagingDouble>>;
  let hospital: number;

  // The server's address is known before it starts (knownUrl): the provider is told where to send the browser back.
  const app = e2eApp({
    knownUrl: true,
    async setup(server) {
      provider = await startOidcProvider({
        redirectUri: `${app.url}/api/auth/sso/callback`, clientId: 'dsms', clientSecret: 'e2e-client-secret', postLogoutRedirectUri: `${app.url}/login`,
      });
      hospital = (await server.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
      // Set up as an administrator would in config/sso (the same checks; the API itself is covered by tests/api/sso.test.ts).
      messaging = await startMessagingDouble();
      await saveSsoConfig(server.db, hospital, {
        enabled: true, label: 'Hospital ID', issuer: provider.issuer, client_id: 'dsms', client_secret: 'e2e-client-secret', user_claim: 'preferred_username', create_unknown: false,
        im_enabled: true, im_kind: 'dingtalk', im_base_url: messaging.url, im_app_key: 'app-key', im_app_secret: 'app-secret', im_user_field: 'mobile',
        im_authorize_url: `${messaging.url}/oauth2/auth`,
      }, server.secrets);
      await server.db.updateTable('users').set({ phone: '13800000000' }).where('name', '=', 'signer').execute();
    },
  });
  afterAll(async () => {
    await provider?.close();
    await messaging?.close();
  });

  const pageIn = async (lang: string): Promise<Page> => {
    const context = await app.browser.newContext({ viewport: { width: 1366, height: 800 }, locale: lang });
    await context.addInitScript((l) => { if (location.port && !localStorage.getItem('lang')) localStorage.setItem('lang', l); }, lang);
    return context.newPage();
  };
  const hospitalName = async (lang: string) => {
    const row = await app.db.selectFrom('hospitals').select(['name', 'en_name']).orderBy('id').executeTakeFirstOrThrow();
    return lang === 'en-US' ? row.en_name || row.name : row.name;
  };
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { animations: 'disabled' });

  /** The provider's development pages: sign in as `login` (any password), then consent. */
  const signInAtProvider = async (page: Page, login: string, lang: string) => {
    await page.locator('input[name=login]').waitFor();
    await page.locator('input[name=login]').fill(login);
    await page.locator('input[name=password]').fill('any');
    await shot(page, `sso-provider-login-${lang}`);
    await page.locator('button[type=submit]').click();
    const consent = page.getByRole('button', { name: 'Continue' });
    // The provider asks for consent the first time a client asks for the scopes.
    await page.waitForURL((u) => u.port === new URL(app.url).port || u.pathname.startsWith('/interaction'));
    if (new URL(page.url()).pathname.startsWith('/interaction')) await consent.click();
  };

  for (const [lang, text] of LANGS) {
    it(`signs in with the hospital's provider and lands in /manage as the mapped user [${lang}]`, async () => {
      const page = await pageIn(lang);
      await page.goto(`${app.url}/login`);
      const button = page.getByTestId('sso-button');
      await expect.poll(() => button.textContent()).toBe(text.login.sso.button.replace('{{label}}', 'Hospital ID'));
      await shot(page, `sso-login-page-${lang}`);
      const trades: string[] = [];
      page.on('request', (r) => { if (r.url().endsWith('/api/auth/sso_login_v2')) trades.push(r.url()); });
      await button.click();
      await signInAtProvider(page, 'primary', lang);
      await page.waitForURL((u) => u.pathname.startsWith('/manage'));
      await expect.poll(() => page.getByTestId('user-menu').textContent()).toBe('陈初诊');
      // The one-time code is spent and out of the address bar.
      expect(page.url()).not.toContain('stoken');
      expect(trades.length).toBe(1);
      await shot(page, `sso-signed-in-${lang}`);

      // Logout ends the sign-in at the provider too: its sign-out page, then back to our login page; the next
      // "Sign in with …" asks for the provider's login again instead of passing on its old session.
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: text.user.logout }).click();
      await page.waitForURL((u) => u.origin === provider.issuer);
      await shot(page, `sso-provider-logout-${lang}`);
      await page.getByRole('button', { name: 'Yes, sign me out' }).click();
      await page.waitForURL((u) => u.origin === app.url && u.pathname === '/login');
      await page.getByTestId('sso-button').click();
      await page.locator('input[name=login]').waitFor();
      await page.context().close();
    });

    it(`refuses an unknown user with the configured words [${lang}]`, async () => {
      const page = await pageIn(lang);
      await page.goto(`${app.url}/login`);
      await page.getByTestId('sso-button').click();
      await signInAtProvider(page, 'stranger', lang);
      await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('sso_error') === 'unknown_user');
      await expect.poll(() => page.getByTestId('sso-error').textContent()).toBe(text.login.sso.errors.unknown_user);
      await shot(page, `sso-unknown-user-${lang}`);
      const stranger = await app.db.selectFrom('users').select('id').where('name', '=', 'stranger').executeTakeFirst();
      expect(stranger).toBeUndefined();
      await page.context().close();
    });
  }

  for (const [lang] of LANGS) {
    it(`creates an unknown user with the role the hospital chose, who lands in /manage signed in as that new user [${lang}]`, async () => {
      const name = `newcomer${lang === 'zh-CN' ? 'zh' : 'en'}`;
      const role = (await app.db.selectFrom('roles').select('id').where('identification', '=', 'clinician').executeTakeFirstOrThrow()).id;
      await saveSsoConfig(app.db, hospital, { create_unknown: true, default_role_id: role }, app.server.secrets);
      const page = await pageIn(lang);
      try {
        await page.goto(`${app.url}/login`);
        await page.getByTestId('sso-button').click();
        await signInAtProvider(page, name, lang);
        await page.waitForURL((u) => u.pathname.startsWith('/manage'));
        // The provider's `name` claim became the account's real name.
        // (The menu button also holds the avatar's initials, "DN".)
        await expect.poll(() => page.getByTestId('user-menu').textContent()).toMatch(new RegExp(`Dr\\. ${name}$`));
        expect(page.url()).not.toContain('stoken');
        await shot(page, `sso-created-user-${lang}`);
        const created = await app.db.selectFrom('users').select('id').where('name', '=', name).execute();
        expect(created).toHaveLength(1);
        expect(await app.db.selectFrom('user_roles').select('role_id').where('user_id', '=', created[0]!.id).execute()).toEqual([{ role_id: role }]);
        expect(await app.db.selectFrom('user_hospitals').select('hospital_id').where('user_id', '=', created[0]!.id).execute()).toEqual([{ hospital_id: hospital }]);
        // The page's session is that user's, with that role.
        const me = await page.evaluate(async () => (await fetch('/api/system_management/users/permission', { headers: { Authorization: `Bearer ${sessionStorage.getItem('access_token')}` } })).json());
        expect(me.data.identification).toEqual(['clinician']);
        expect(await page.evaluate(() => sessionStorage.getItem('user_id'))).toBe(String(created[0]!.id));
      } finally {
        await page.context().close();
        await saveSsoConfig(app.db, hospital, { create_unknown: false, default_role_id: null }, app.server.secrets);
      }
    });
  }

  for (const [lang] of LANGS) {
    it(`the administrator sets it up in System › Single sign-on: the secret shown masked and kept on save [${lang}]`, async () => {
      const page = await pageIn(lang);
      await signIn(page, app.url, 'admin', DEMO_PASSWORDS.admin);
      await page.waitForURL((u) => u.pathname.startsWith('/manage'));
      await page.goto(`${app.url}/manage/setting/sso`);
      const form = page.getByTestId('form-page');
      await expect.poll(() => form.locator('#root_issuer').inputValue()).toBe(provider.issuer);
      expect(await form.locator('#root_client_secret').inputValue()).toBe('***');
      await form.locator('#root_label').fill(`Hospital ID ${lang}`);
      const saved = page.waitForResponse((r) => r.url().endsWith('/api/config/sso') && r.request().method() === 'POST');
      await page.getByTestId('form-save').click();
      expect((await saved).status()).toBe(200);
      const row = await app.db.selectFrom('sso_configs').select(['label', 'client_secret']).executeTakeFirstOrThrow();
      // Kept as it was, and sealed at rest (server/security/sealed-secrets.ts): the row never holds the secret itself.
      expect(row.label).toBe(`Hospital ID ${lang}`);
      expect(isSealed(row.client_secret)).toBe(true);
      expect(row.client_secret).not.toContain('e2e-client-secret');
      expect(app.server.secrets.open(row.client_secret)).toBe('e2e-client-secret');
      await shot(page, `sso-settings-${lang}`);
      await page.context().close();
    });
  }

  for (const [lang, text] of LANGS) {
    it(`"Sign in with DingTalk" goes through the app's sign-in page (auth/auth_code) and lands in /manage as the user with that mobile [${lang}]`, async () => {
      const page = await pageIn(lang);
      await page.goto(`${app.url}/login`);
      const button = page.getByTestId('im-button');
      const vendor = text.login.sso.imKinds.dingtalk;
      await expect.poll(() => button.textContent()).toBe(text.login.sso.imButton.replace('{{app}}', vendor).replace('{{hospital}}', await hospitalName(lang)));
      await shot(page, `sso-messaging-button-${lang}`);
      await button.click();
      await page.waitForURL((u) => u.pathname.startsWith('/manage'));
      await expect.poll(() => page.getByTestId('user-menu').textContent()).toBe('赵签发');
      expect(page.url()).not.toContain('stoken');
      await page.context().close();
    });

    it(`the messaging app's ?code= signs in the user with that mobile; a forged code returns to the login page [${lang}]`, async () => {
      const page = await pageIn(lang);
      await page.goto(`${app.url}/?code=good-code-13800000000`);
      await page.waitForURL((u) => u.pathname.startsWith('/manage'));
      await expect.poll(() => page.getByTestId('user-menu').textContent()).toBe('赵签发');
      await shot(page, `sso-messaging-signed-in-${lang}`);
      await page.context().close();

      const other = await pageIn(lang);
      const tries: string[] = [];
      other.on('request', (r) => { if (r.url().includes('/api/auth/ulogin')) tries.push(r.url()); });
      await other.goto(`${app.url}/?code=forged`);
      await other.waitForURL((u) => u.pathname === '/login');
      // The server's refusal, in the page's language, raised as the route guard's toast over the login page.
      const refusal = lang === 'zh-CN' ? '身份提供方未通过此次登录' : 'The identity provider did not confirm this sign-in';
      await expect.poll(() => other.getByText(refusal).count()).toBeGreaterThan(0);
      await expect.poll(() => other.getByText(text.login.title, { exact: true }).count()).toBeGreaterThan(0);
      await shot(other, `sso-messaging-refused-${lang}`);
      // One try: the refused code is not sent again while the address still carries it.
      expect(tries.length).toBe(1);
      await other.context().close();
    });
  }
});
