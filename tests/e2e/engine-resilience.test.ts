import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import systemUser from '../../schemas/pages/SystemUser.json';
import { RULE_LIMITS } from '../../src/core/ruleBudget.js';
import { animationsDone, e2eApp, evidence } from './harness.js';

/**
 * A bad hospital override breaks one part of one page, not the app: the form of SystemUser with a widget
 * rjsf does not know shows the engine's error panel (alias and schema path) in place of the form, while
 * the list, the menu and the other pages keep working; a hospital rule the browser stops at its work limit says so
 * in the user's language in place of the part it broke. And the client caches follow this browser's writes:
 * a role created on the role page is in the user form's role select without a page reload.
 */
describe('engine resilience in Chromium', () => {
  let page: Page;

  const app = e2eApp();
  beforeAll(async () => {
    page = await app.page('zh-CN', 'admin');
  });

  const shot = (name: string) => evidence(page, `${name}.png`);
  /** Saves the working hospital's override of a page through the schema API, as the schema editor does. */
  const saveOverride = (alias: string, override: Record<string, unknown>) => page.evaluate(async ({ alias, override }) => {
    const res = await fetch(`/api/schemas/${alias}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${sessionStorage.getItem('access_token')}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ override }),
    });
    return res.status;
  }, { alias, override });
  // The shell keeps list pages left through the menu drawn but hidden (KeptOutlet): locators name the page.
  const listPage = (alias: string) => page.locator(`[data-testid="list-page"][data-alias="${alias}"]`);
  const createIn = (alias: string) => listPage(alias).locator('button[data-action="create"]');
  const listShowsRows = async (alias: string) => {
    const list = listPage(alias);
    await list.waitFor();
    await expect.poll(() => list.locator('tbody tr[data-row-key]').count()).toBeGreaterThan(0);
  };
  /** A click in the side menu, as a person makes it: the menu opened and the page's group unfolded first. */
  const menuLink = async (alias: string) => {
    if ((await page.getByTestId('menu-toggle').getAttribute('aria-expanded')) === 'false') await page.getByTestId('menu-toggle').click();
    const link = page.locator(`[data-testid="side-menu"] a[data-alias="${alias}"]`);
    if (!(await link.isVisible())) {
      await page.locator('[data-testid="side-menu"] button[aria-expanded="false"]', { hasText: '系统管理' }).click();
      // The group opens with a motion: a click on its link while it moves may land on nothing.
      await animationsDone(page);
    }
    await link.waitFor({ state: 'visible' });
    return link;
  };

  it('shows the error panel in place of a form a hospital override broke, and keeps the menu and other pages working', async () => {
    // The schema API refuses such an override (the meta-schema knows the widgets), so it is put in the store as a
    // version an older release saved, or a hand-edited row, would be: the page must survive what is stored.
    const broken = { form: { fields: [{ field: 'name', widget: 'no-such-widget' }, 'realname'] } };
    expect(await saveOverride('SystemUser', broken)).toBe(422);
    await app.db.insertInto('page_schema_versions').values({
      kind: 'page', alias: 'SystemUser', hospital_id: 1, version: 1, override: JSON.stringify(broken), note: 'broken', created_by: 'test', created_at: new Date().toISOString(),
    }).execute();
    await page.goto(`${app.url}/manage/system/user`);
    await listShowsRows('SystemUser');

    await createIn('SystemUser').click();
    const panel = page.getByTestId('schema-error');
    await panel.waitFor();
    expect(await panel.getAttribute('data-alias')).toBe('SystemUser');
    expect(await panel.getAttribute('data-path')).toBe('/form');
    const text = await panel.textContent();
    expect(text).toContain('SystemUser');
    expect(text).toContain('/form');
    // The page stays (the app's own boundary would have gone to /error), and its list still shows its rows.
    expect(new URL(page.url()).pathname).toBe('/manage/system/user');
    expect(await listPage('SystemUser').locator('tbody tr[data-row-key]').count()).toBeGreaterThan(0);
    await shot('engine-broken-form-zh-CN');

    // The menu still works: another page opens and draws its rows. Leaving closes the broken form (the page is kept,
    // hidden, with its form closed), so coming back shows the list, not the error panel.
    await (await menuLink('SystemRole')).click();
    await listShowsRows('SystemRole');
    await expect.poll(() => page.getByTestId('schema-error').count()).toBe(0);
    await (await menuLink('SystemUser')).click();
    await listShowsRows('SystemUser');
    expect(await page.getByTestId('schema-error').count()).toBe(0);

    // In English too.
    await page.evaluate(() => localStorage.setItem('lang', 'en-US'));
    await page.reload();
    await listShowsRows('SystemUser');
    await createIn('SystemUser').click();
    await page.getByTestId('schema-error').waitFor();
    expect(await page.getByTestId('schema-error').textContent()).toContain('Page SystemUser');
    await shot('engine-broken-form-en-US');
    await page.evaluate(() => localStorage.setItem('lang', 'zh-CN'));

    // Without the override, the form is back.
    expect(await saveOverride('SystemUser', {})).toBe(200);
    await page.goto(`${app.url}/manage/system/user`);
    await listShowsRows('SystemUser');
    await createIn('SystemUser').click();
    await page.getByTestId('form-drawer').locator('#root_name').waitFor();
    expect(await page.getByTestId('schema-error').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByTestId('form-drawer').waitFor({ state: 'detached' });
    expect(app.pageErrors).toEqual([]);
  });

  it('says in the user’s language that a rule was stopped at its work limit, in place of the list it broke', async () => {
    // A row action shown by a runaway rule (a list doubled 40 times): the browser evaluates it for every row.
    const range = (n: number) => Array.from({ length: n }, (_, i) => i);
    const runaway = { some: [{ reduce: [range(40), { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [0]] }, { '==': [{ var: '' }, 1] }] };
    const rowActions = systemUser.list.rowActions.map((a) => (a.key === 'disable' ? { ...a, visibleIf: runaway } : a));
    expect(await saveOverride('SystemUser', { list: { rowActions } })).toBe(200);
    await page.goto(`${app.url}/manage/system/user`);
    const panel = page.locator('[data-testid="schema-error"][data-alias="SystemUser"]');
    await panel.waitFor();
    expect(await panel.textContent()).toContain(`本院配置的一条规则计算量超出上限（生成的列表长度超过 ${RULE_LIMITS.items}），已中止。`);
    await shot('engine-rule-too-costly-zh-CN');
    // The page stays, and the menu leads to the other pages.
    expect(new URL(page.url()).pathname).toBe('/manage/system/user');
    await (await menuLink('SystemRole')).click();
    await listShowsRows('SystemRole');

    await page.evaluate(() => localStorage.setItem('lang', 'en-US'));
    await page.goto(`${app.url}/manage/system/user`);
    await panel.waitFor();
    expect(await panel.textContent()).toContain(`A rule configured for this hospital needed more work than allowed (more than ${RULE_LIMITS.items} items in a list it builds) and was stopped.`);
    await page.evaluate(() => localStorage.setItem('lang', 'zh-CN'));

    expect(await saveOverride('SystemUser', {})).toBe(200);
    await page.goto(`${app.url}/manage/system/user`);
    await listShowsRows('SystemUser');
    expect(await page.getByTestId('schema-error').count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });

  it('lists a role created a moment ago in the user form\'s role select, without a reload', async () => {
    // The user form's role select loads (and caches) the roles first.
    await page.goto(`${app.url}/manage/system/user`);
    await listShowsRows('SystemUser');
    const openRoleSelect = async () => {
      await createIn('SystemUser').click();
      const drawer = page.getByTestId('form-drawer');
      await drawer.locator('#root_role_ids').click();
      return drawer;
    };
    let drawer = await openRoleSelect();
    await expect.poll(() => page.getByRole('menuitemcheckbox').count()).toBeGreaterThan(1);
    expect(await page.getByRole('menuitemcheckbox', { name: '夜班质控', exact: true }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    // A new role through the role page's form (the engine's data provider), then back through the menu.
    await (await menuLink('SystemRole')).click();
    await listShowsRows('SystemRole');
    await createIn('SystemRole').click();
    drawer = page.getByTestId('form-drawer');
    await drawer.locator('#root_name').fill('夜班质控');
    await drawer.locator('#root_identification').fill('night_qc');
    const created = page.waitForResponse((r) => r.url().endsWith('/store'));
    await drawer.getByTestId('form-save').click();
    expect((await created).status()).toBe(200);
    await drawer.waitFor({ state: 'detached' });

    await (await menuLink('SystemUser')).click();
    await listShowsRows('SystemUser');
    await openRoleSelect();
    await expect.poll(() => page.getByRole('menuitemcheckbox', { name: '夜班质控', exact: true }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    expect(app.pageErrors).toEqual([]);
  });
});
