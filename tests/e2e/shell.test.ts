import path from 'node:path';
import zlib from 'node:zlib';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIST, e2eApp, evidence, SHOTS, signIn } from './harness.js';
import menus from '../../schemas/menus.json';
import { enUSBundle as enUS, zhCNBundle as zhCN } from '../../src/i18n/bundles';

/** Spec §2 / issue budget: the JavaScript the login page and the shell load, gzipped. */
const JS_BUDGET_BYTES = 300 * 1024;

interface MenuEntry { alias?: string; uri: string; name: string; is_show: string; children?: MenuEntry[] }
/**
 * A shown menu page nobody has built yet (no base schema, no hand-written page), found afresh each run so the
 * test keeps measuring the shell alone as pages get built (it was SlideRead until that got its schema). Once every
 * menu page is built (issue 16 built the last ones), a probe entry without a page, added to this test's own
 * database, stands in.
 */
function pendingMenuEntry(): MenuEntry | undefined {
  const registry = fs.readFileSync('src/engine/pageRegistry.tsx', 'utf8');
  const built = (alias: string) => fs.existsSync(path.join('schemas/pages', `${alias}.json`)) || new RegExp(`^\\s+${alias}:`, 'm').test(registry);
  const all = (list: MenuEntry[]): MenuEntry[] => list.flatMap((m) => [m, ...all(m.children ?? [])]);
  const menus = JSON.parse(fs.readFileSync('schemas/menus.json', 'utf8')) as MenuEntry[];
  return all(menus).find((m) => m.alias && m.is_show === '1' && m.uri.startsWith('/manage/') && !m.uri.includes('?') && !built(m.alias));
}
const PROBE = {
  uri: '/manage/statistics/shell-probe', alias: 'ShellBudgetProbe', name: '外壳预算探针', en_name: 'Shell budget probe',
  is_show: '1', icon: 'chart', external_link: 0, children: [],
} as unknown as MenuEntry;
const PENDING = pendingMenuEntry() ?? PROBE;

describe('shell in Chromium', () => {
  let page: Page;
  const scripts = new Set<string>();
  const pageErrors: string[] = [];

  const app = e2eApp({
    async setup(server) {
      if (PENDING === PROBE) {
        const parent = await server.db.selectFrom('menus').select('id').where('route_name', '=', 'StatisticsGroup').executeTakeFirstOrThrow();
        await server.db.insertInto('menus').values({
          parent_id: parent.id, uri: '/manage/statistics/shell-probe', alias: 'ShellBudgetProbe', route_name: 'ShellBudgetProbe', name: '外壳预算探针', en_name: 'Shell budget probe',
          is_show: '1', icon: 'chart', external_link: 0, active_menu: null, rank: 999,
        }).execute();
      }
    },
  });
  beforeAll(async () => {
    page = await app.browser.newPage({ viewport: { width: 1366, height: 800 }, locale: 'zh-CN' });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.add(new URL(req.url()).pathname);
    });
  });

  // Animations finished first: a dialog caught mid fade-in shows the page behind it.
  const shot = (name: string) => evidence(page, `${name}.png`, { animations: 'disabled' });
  const sideMenu = () => page.getByTestId('side-menu');

  async function lockAndUnlock(lang: 'zh-CN' | 'en-US', text: typeof zhCN) {
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: text.user.lockScreen }).click();
    const lock = page.getByTestId('lock-screen');
    await expect.poll(() => lock.isVisible()).toBe(true);
    await shot(`lock-${lang}`);
    // The server locked the session too: its token reads nothing until the password unlocks it.
    const listStatus = () => page.evaluate(async () => (await fetch('/api/system_management/users/lists', {
      headers: { Authorization: `Bearer ${sessionStorage.getItem('access_token')}` },
    })).status);
    await expect.poll(listStatus).toBe(423);

    // The lock survives a reload.
    await page.reload();
    await lock.waitFor();

    await lock.getByRole('button', { name: text.lock.unlock }).click();
    await lock.getByText(text.lock.enterPassword).waitFor();
    await lock.locator('input[type=password]').fill('not-the-password');
    await lock.getByRole('button', { name: text.lock.unlock }).click();
    await lock.getByText(text.lock.wrongPassword).waitFor();

    await lock.locator('input[type=password]').fill('dsms-admin');
    await lock.getByRole('button', { name: text.lock.unlock }).click();
    await lock.waitFor({ state: 'detached' });
    expect(await listStatus()).toBe(200);
  }

  it('logs in as admin, sees the server menu in zh-CN, switches to en-US, locks and unlocks, logs out', async () => {
    // A menu entry that is still pending (no page yet), so the budget below measures the shell alone.
    await page.goto(`${app.url}${PENDING.uri}`);
    await page.waitForURL(/\/login\?redirect=/);
    await page.locator('input[name=username]').waitFor();
    await shot('login-zh-CN');

    await page.locator('input[name=username]').fill('admin');
    await page.locator('input[name=password]').fill('dsms-admin');
    await page.getByRole('button', { name: zhCN.login.submit }).click();
    await page.waitForURL((u) => u.pathname === PENDING.uri);
    await sideMenu().waitFor();

    // The side menu is the server's tree in Chinese, with the one-child "首页" group collapsed into Dashboard.
    for (const name of ['首页', '病例管理', '切片管理', '系统管理']) await expect.poll(() => sideMenu().getByText(name, { exact: true }).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('page-pending').textContent()).toContain(PENDING.alias);
    await expect.poll(() => page.title()).toBe(`${PENDING.name} - ${zhCN.app.titleSuffix}`);
    await page.goto(`${app.url}/manage`);
    await page.getByTestId('dashboard').waitFor();
    await shot('shell-zh-CN');

    // Sized from the build on disk, gzipped as a server would send them.
    const sizes = Object.fromEntries([...scripts].map((p) => [p, zlib.gzipSync(fs.readFileSync(path.join(DIST, p))).length]));
    const loaded = Object.values(sizes).reduce((a, b) => a + b, 0);
    fs.writeFileSync(path.join(SHOTS, 'js-budget.json'), JSON.stringify({ bytes_gzip: loaded, budget: JS_BUDGET_BYTES, files: sizes }, null, 2));
    console.log(`login + shell JavaScript: ${(loaded / 1024).toFixed(1)} KB gzipped (budget ${JS_BUDGET_BYTES / 1024} KB)`);
    expect(loaded).toBeLessThanOrEqual(JS_BUDGET_BYTES);

    await lockAndUnlock('zh-CN', zhCN);

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: zhCN.user.language }).click();
    await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: 'English' }).click()]);
    await sideMenu().waitFor();
    for (const name of ['Home', 'Cases', 'Slides', 'System']) await expect.poll(() => sideMenu().getByText(name, { exact: true }).count()).toBeGreaterThan(0);
    await page.getByTestId('dashboard').waitFor();
    await shot('shell-en-US');

    await lockAndUnlock('en-US', enUS);

    const token = await page.evaluate(() => sessionStorage.getItem('access_token'));
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: enUS.user.logout }).click();
    await page.waitForURL(/\/login$/);
    // The server ended the session too, not only the browser.
    expect((await fetch(`${app.url}/api/system_management/users/permission`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    await page.getByRole('button', { name: enUS.login.submit }).waitFor();
    await shot('login-en-US');

    // Logged out means the token is gone: the shell is not reachable any more.
    await page.goto(`${app.url}/manage/dashboard`);
    await page.waitForURL(/\/login\?redirect=/);
    expect(pageErrors).toEqual([]);
  });

  it("shows the server's login failure, and once signed in sends unknown paths to /404", async () => {
    await page.goto(`${app.url}/login`);
    const login = async (password: string) => {
      await page.locator('input[name=username]').fill('registrar');
      await page.locator('input[name=password]').fill(password);
      await page.getByRole('button', { name: enUS.login.submit }).click();
    };
    await login('wrong-password');
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('Wrong user name or password');

    await login('dsms-demo');
    await page.getByTestId('dashboard').waitFor();
    // A registrar's menu holds only its roles' entries: no slide library, no logs.
    await expect.poll(() => page.getByTestId('side-menu').getByText('Cases', { exact: true }).count()).toBe(1);
    for (const absent of ['Slides', 'Logs']) expect(await page.getByTestId('side-menu').getByText(absent, { exact: true }).count()).toBe(0);
    for (const unknown of ['/no/such/page', '/manage/not-a-menu-entry']) {
      await page.goto(`${app.url}${unknown}`);
      await page.waitForURL(/\/404$/);
      await page.getByTestId('not-found').waitFor();
    }
  });

  it('walks the lab menu pages: SlideApply, CaseDistribution, MissCaseSearch and SettingPathological are real pages', async () => {
    type Entry = { alias?: string; uri?: string; children?: Entry[] };
    const leaves = (entries: Entry[]): Entry[] => entries.flatMap((e) => (e.children?.length ? leaves(e.children) : [e]));
    const lab = ['SlideApply', 'CaseDistribution', 'MissCaseSearch', 'SettingPathological'];
    const entries = leaves(menus as Entry[]).filter((e) => lab.includes(e.alias ?? ''));
    expect(entries.map((e) => e.alias).sort()).toEqual([...lab].sort());
    const admin = await app.browser.newPage({ viewport: { width: 1366, height: 800 }, locale: 'en-US' });
    admin.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(admin, app.url, 'admin', 'dsms-admin');
    await admin.getByTestId('dashboard').waitFor();
    for (const e of entries) {
      await admin.goto(`${app.url}${e.uri}`);
      await admin.locator(`[data-testid="list-page"][data-alias="${e.alias}"]`).waitFor();
      expect(await admin.getByTestId('page-pending').count()).toBe(0);
    }
    await admin.close();
  });
});
