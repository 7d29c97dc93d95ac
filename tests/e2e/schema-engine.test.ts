import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import enUS from '../../src/i18n/locales/en-US.json';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import { afterConfirmThrottle, animationsDone, codeOf, e2eApp, evidence, pickDateTime, setCode } from './harness.js';

/**
 * The schema engine in Chromium on SystemUser (schemas/pages/SystemUser.json), as the administrator:
 * column preferences that survive a reload, a custom search with except and between kept in the
 * address, a round trip to a user's page and back to the same filtered list, and the form with the
 * server's 422 on its field. Screenshots of the list, the drawer and the form in both languages.
 */
describe('schema engine in Chromium', () => {
  let page: Page;

  const app = e2eApp();
  beforeAll(async () => {
    page = await app.page('zh-CN', 'admin');
  });

  const shot = (name: string) => evidence(page, `${name}.png`);
  const table = () => page.getByTestId('data-table');
  const headers = () => table().locator('thead th[data-column]').evaluateAll((ths) => ths.map((th) => th.getAttribute('data-column')));
  const rowKeys = () => table().locator('tbody tr[data-row-key]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-key')));
  const query = () => new URL(page.url()).searchParams;
  /** Fluent's Dropdown lists options; with multiselect they are menu item checkboxes. */
  const pick = async (dropdown: Locator, option: string, multiple = false) => {
    await dropdown.click();
    await page.getByRole(multiple ? 'menuitemcheckbox' : 'option', { name: option, exact: true }).click();
  };
  const openList = async () => {
    await page.goto(`${app.url}/manage/system/user`);
    await page.getByTestId('list-page').waitFor();
    await expect.poll(async () => (await rowKeys()).length).toBeGreaterThan(5);
  };

  it('renders the user list from its schema, its state in the address', async () => {
    await openList();
    await expect.poll(() => query().get('page')).toBe('1');
    expect(JSON.parse(query().get('sort_by')!)).toEqual({ id: 'desc' });
    expect(await headers()).toEqual(['id', 'name', 'realname', 'roles', 'hospitals', 'email', 'status', 'locked', 'expires_at', 'created_at']);
    await shot('engine-list-zh-CN');
  });

  it('hides and reorders a column, and finds it so after a reload', async () => {
    await page.getByTestId('column-settings').click();
    const panel = page.getByTestId('column-settings-panel');
    await panel.locator('[data-column="email"] input[type=checkbox]').uncheck();
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/schemas/SystemUser/columns') && r.request().method() === 'PUT');
    await panel.locator('[data-column="realname"]').dragTo(panel.locator('[data-column="name"]'));
    expect((await saved).status()).toBe(200);
    await page.keyboard.press('Escape');
    const expected = ['id', 'realname', 'name', 'roles', 'hospitals', 'status', 'locked', 'expires_at', 'created_at'];
    await expect.poll(headers).toEqual(expected);

    await page.reload();
    await page.getByTestId('list-page').waitFor();
    await expect.poll(headers).toEqual(expected);
    // Kept on the server too, so it follows the user to another browser.
    const stored = await page.evaluate(async () => {
      const res = await fetch('/api/schemas/SystemUser/columns', { headers: { Authorization: `Bearer ${sessionStorage.getItem('access_token')}` } });
      return (await res.json()).data.columns as { prop: string; hidden?: boolean }[];
    });
    expect(stored.slice(0, 3).map((c) => c.prop)).toEqual(['id', 'realname', 'name']);
    expect(stored.find((c) => c.prop === 'email')?.hidden).toBe(true);
  });

  it('searches with a custom condition using except and between, and keeps it in the address', async () => {
    await page.getByTestId('search-more').click();
    const drawer = page.getByTestId('search-drawer');
    await drawer.waitFor();
    await drawer.getByRole('tab', { name: zhCN.search.custom }).click();
    const rows = drawer.getByTestId('custom-condition');
    await pick(rows.nth(0).getByRole('combobox', { name: zhCN.search.combinator }), zhCN.search.combinators.except);
    await pick(rows.nth(0).getByRole('combobox', { name: zhCN.search.field }), '账号');
    await pick(rows.nth(0).getByRole('combobox', { name: zhCN.search.operator }), zhCN.search.operators.like);
    await rows.nth(0).getByRole('textbox', { name: zhCN.search.value }).fill('admin');

    await drawer.getByRole('button', { name: zhCN.search.addCondition }).click();
    await pick(rows.nth(1).getByRole('combobox', { name: zhCN.search.field }), '创建时间');
    await pick(rows.nth(1).getByRole('combobox', { name: zhCN.search.operator }), zhCN.search.operators.between);
    await pickDateTime(rows.nth(1).getByTestId('date-range-start'), '2000-01-01', '00:00:00');
    await pickDateTime(rows.nth(1).getByTestId('date-range-end'), '2099-12-31', '23:59:59');
    await shot('engine-drawer-zh-CN');

    await drawer.getByTestId('search-confirm').click();
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(() => query().get('filter')).not.toBeNull();
    const filter = JSON.parse(query().get('filter')!);
    expect(filter).toEqual([
      { column: 'name', operator: 'like', value: 'admin', condition: 'except' },
      { column: 'created_at', operator: 'between', value: ['2000-01-01 00:00:00', '2099-12-31 23:59:59'], condition: 'and' },
    ]);
    // Every seeded user but admin (id 1).
    await expect.poll(rowKeys).toEqual(['11', '10', '9', '8', '7', '6', '5', '4', '3', '2']);
    await expect.poll(() => page.getByTestId('search-more').textContent()).toBe(zhCN.search.moreActive);
  });

  it('opens a user and comes back to the same filtered list', async () => {
    const before = page.url();
    await table().getByRole('link', { name: 'registrar', exact: true }).click();
    await page.waitForURL(/\/manage\/system\/user\/2$/);
    const detail = page.getByTestId('detail-page');
    await detail.waitFor();
    await expect.poll(() => detail.locator('[data-field="realname"]').textContent()).toContain('王登记');
    await shot('engine-detail-zh-CN');

    await page.getByTestId('detail-back').click();
    await page.waitForURL(/\/manage\/system\/user\?/);
    expect(new URL(page.url()).searchParams.get('filter')).toBe(new URL(before).searchParams.get('filter'));
    await expect.poll(rowKeys).toEqual(['11', '10', '9', '8', '7', '6', '5', '4', '3', '2']);

    // An address without list keys (the menu entry, or typed) takes the stored copy for the route.
    await page.goto(`${app.url}/manage/system/user`);
    await expect.poll(() => query().get('filter')).toBe(new URL(before).searchParams.get('filter'));
    await expect.poll(rowKeys).toEqual(['11', '10', '9', '8', '7', '6', '5', '4', '3', '2']);
  });

  it('creates a user through the form, with the server\'s field errors shown on their field', async () => {
    await openList();
    await page.getByRole('button', { name: '新增用户' }).click();
    const drawer = page.getByTestId('form-drawer');
    await drawer.locator('#root_name').waitFor();
    await drawer.getByTestId('form-save').click();
    await expect.poll(() => drawer.getByText(zhCN.validation.required).count()).toBeGreaterThan(1);
    await shot('engine-form-zh-CN');

    await drawer.locator('#root_name').fill('registrar');
    await drawer.locator('#root_realname').fill('新同事');
    await drawer.locator('#root_password').fill('new-secret-1');
    await drawer.locator('#root_password_confirmation').fill('different');
    await pick(drawer.locator('#root_role_ids'), '登记员', true);
    await page.keyboard.press('Escape');
    await pick(drawer.locator('#root_hospital_ids'), '示范医院总院', true);
    await page.keyboard.press('Escape');
    await drawer.getByTestId('form-save').click();
    // The check of the page schema: the two passwords must match.
    await drawer.getByText('两次输入的密码不一致').first().waitFor();

    await drawer.locator('#root_password_confirmation').fill('new-secret-1');
    const saved = page.waitForResponse((r) => r.url().endsWith('/store'));
    await drawer.getByTestId('form-save').click();
    // The account name is taken (409 with errors keyed by field): the server's message stands on the name field.
    const conflict = await saved;
    expect(conflict.status()).toBe(409);
    const message = ((await conflict.json()) as { errors: Record<string, string[]> }).errors.name[0];
    await expect.poll(() => drawer.locator('[data-field="root_name"]').textContent()).toContain(message);

    await drawer.locator('#root_name').fill('newcomer');
    const created = page.waitForResponse((r) => r.url().endsWith('/store'));
    await drawer.getByTestId('form-save').click();
    expect((await created).status()).toBe(200);
    await drawer.waitFor({ state: 'detached' });
  });

  it('adds a field to the SystemUser form in the schema editor: checked as typed, previewed, saved, seen in the form, rolled back', async () => {
    await page.goto(`${app.url}/manage/system/schema`);
    await page.getByTestId('schema-kind-page').click(); // the merge-patch editor (the designer opens first)
    const editor = page.getByTestId('schema-editor');
    await editor.waitFor();
    await pick(editor.getByRole('combobox', { name: zhCN.schemaEditor.page }), 'SystemUser');
    const text = editor.getByTestId('schema-override');
    await expect.poll(() => text.inputValue()).toBe('{}');

    // A patch the meta-schema refuses: shown inline with its JSON path, and Save stays disabled.
    await text.fill('{ "list": { "selectable": "yes" } }');
    await expect.poll(() => editor.getByTestId('schema-problems').textContent()).toContain('/list/selectable');
    expect(await editor.getByTestId('schema-save').isDisabled()).toBe(true);

    // A valid one: the preview renders the merged page at once.
    await text.fill(JSON.stringify({
      title: { 'zh-CN': '账号管理', 'en-US': 'Accounts' },
      list: { toolbar: [{ key: 'create', label: { 'zh-CN': '添加账号', 'en-US': 'Add account' }, kind: 'create', appearance: 'primary' }] },
    }, null, 2));
    const preview = editor.getByTestId('list-page');
    await expect.poll(() => preview.getByRole('button', { name: '添加账号' }).count()).toBe(1);
    await shot('engine-schema-editor-zh-CN');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/schemas/SystemUser') && r.request().method() === 'PUT');
    await editor.getByTestId('schema-save').click();
    expect((await saved).status()).toBe(200);
    await expect.poll(() => editor.getByTestId('schema-versions').locator('[data-version]').count()).toBe(1);

    // The new field goes to the users resource (every form of it shows it; the server checks it), in the
    // resource-field half: an extension that would redefine a field of the resource is refused as typed.
    await editor.getByTestId('schema-kind').getByRole('tab', { name: zhCN.schemaEditor.kindContracts }).click();
    const fields = page.getByTestId('contract-editor');
    await pick(fields.getByRole('combobox', { name: zhCN.schemaEditor.resource }), 'users');
    const ext = fields.getByTestId('contract-override');
    await expect.poll(() => codeOf(ext)).toBe('{}');
    await setCode(page, ext, JSON.stringify({ fields: { name: { type: 'string', maxLength: 500 } } }));
    await expect.poll(() => fields.getByTestId('contract-problems').textContent()).toContain('/fields/name');
    expect(await fields.getByTestId('contract-save').isDisabled()).toBe(true);
    await setCode(page, ext, JSON.stringify({ fields: { badge_no: { type: 'string', maxLength: 20, label: { 'zh-CN': '工牌号', 'en-US': 'Badge no.' } } } }, null, 2));
    await fields.getByTestId('contract-note').fill('工牌号');
    await expect.poll(() => fields.getByTestId('contract-merged').textContent()).toContain('badge_no');
    await shot('engine-contract-editor-zh-CN');
    const extended = page.waitForResponse((r) => r.url().endsWith('/api/contracts/users') && r.request().method() === 'PUT');
    await fields.getByTestId('contract-save').click();
    expect((await extended).status()).toBe(200);

    // The list page now reads the override, and its form has the new field: no restart, no deploy.
    await openList();
    await page.getByRole('button', { name: '添加账号' }).click();
    const form = page.getByTestId('form-drawer');
    await form.locator('#root_badge_no').waitFor();
    await expect.poll(() => form.getByText('工牌号').count()).toBeGreaterThan(0);
    await shot('engine-form-added-field-zh-CN');
    await page.keyboard.press('Escape');

    // Roll back to the base: a new version whose override is empty.
    await page.goto(`${app.url}/manage/system/schema`);
    await page.getByTestId('schema-kind-page').click(); // the merge-patch editor (the designer opens first)
    await pick(editor.getByRole('combobox', { name: zhCN.schemaEditor.page }), 'SystemUser');
    await editor.getByTestId('schema-versions').getByRole('row').filter({ hasText: zhCN.schemaEditor.baseVersion }).getByRole('button', { name: zhCN.schemaEditor.rollback }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: zhCN.common.confirm }).click();
    await expect.poll(() => editor.getByTestId('schema-versions').locator('[data-version]').count()).toBe(2);
    await expect.poll(() => text.inputValue()).toBe('{}');
    await editor.getByTestId('schema-kind').getByRole('tab', { name: zhCN.schemaEditor.kindContracts }).click();
    await pick(page.getByTestId('contract-editor').getByRole('combobox', { name: zhCN.schemaEditor.resource }), 'users');
    await page.getByTestId('contract-editor').getByTestId('contract-versions-rollback-0').click();
    const removed = page.waitForResponse((r) => r.url().endsWith('/api/contracts/users/rollback'));
    await page.getByTestId('confirm-dialog').getByRole('button', { name: zhCN.common.confirm }).click();
    expect((await removed).status()).toBe(200);
    await openList();
    await page.getByRole('button', { name: '新增用户' }).click();
    await page.getByTestId('form-drawer').locator('#root_name').waitFor();
    expect(await page.getByTestId('form-drawer').locator('#root_badge_no').count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('renders every administration page that has a schema, tree lists expanding all at once', async () => {
    const routes: [string, string][] = [
      ['/manage/label/manage', 'list-page'], ['/manage/log/login', 'list-page'], ['/manage/log/operate', 'list-page'], ['/manage/log/section', 'list-page'],
      ['/manage/log/error', 'list-page'], ['/manage/setting/reagent', 'list-page'], ['/manage/setting/hospital', 'list-page'], ['/manage/setting/other', 'form-page'],
      ['/manage/setting/iframe?url=%2Fapi%2Fdocs', 'iframe-page'], ['/manage/system/menu', 'list-page'], ['/manage/system/permission', 'list-page'],
      ['/manage/system/role', 'list-page'], ['/manage/system/account', 'form-page'],
    ];
    for (const [route, testId] of routes) {
      await page.goto(`${app.url}${route}`);
      await page.getByTestId(testId).waitFor();
      expect(await page.getByTestId('engine-error').count(), route).toBe(0);
    }
    // The account form loads the signed-in user's own profile.
    await page.goto(`${app.url}/manage/system/account`);
    await expect.poll(() => page.locator('#root_realname').inputValue()).toBe('系统管理员');
    await shot('engine-account-form-zh-CN');

    // The menu tree: collapsed to its roots, then everything at once.
    await page.goto(`${app.url}/manage/system/menu`);
    await expect.poll(async () => (await rowKeys()).length).toBeGreaterThan(3);
    const roots = (await rowKeys()).length;
    await table().getByRole('button', { name: zhCN.table.expandAll }).click();
    await expect.poll(async () => (await rowKeys()).length).toBeGreaterThan(roots);
    await shot('engine-tree-zh-CN');

    // Drag "诊断列表" onto "病例列表" (siblings): the new ranks are saved and the order comes back changed.
    // (First let the layout settle: the click collapsed the side menu, which slides away.)
    await animationsDone(page);
    const keyOf = (text: string) => table().locator('tbody tr', { hasText: text }).first().getAttribute('data-row-key');
    const [caseList, diagnosis] = [await keyOf('病例列表'), await keyOf('诊断列表')];
    const position = async (key: string | null) => (await rowKeys()).indexOf(key!);
    expect(await position(caseList)).toBeLessThan(await position(diagnosis));
    const patched = page.waitForResponse((r) => r.url().includes('/update/') && r.request().method() === 'PATCH');
    await table().locator(`tbody tr[data-row-key="${diagnosis}"] [draggable="true"]`).dragTo(table().locator(`tbody tr[data-row-key="${caseList}"]`));
    expect((await patched).status()).toBe(200);
    await expect.poll(async () => (await position(diagnosis)) < (await position(caseList))).toBe(true);
    // The dragged row settles into its place first.
    await animationsDone(page);
    await table().getByRole('button', { name: zhCN.table.collapseAll }).click();
    await expect.poll(async () => (await rowKeys()).length).toBe(roots);
    expect(app.pageErrors).toEqual([]);
  });

  it('shows the list, the drawer and the form in English', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'en-US'));
    await openList();
    await expect.poll(() => page.getByRole('button', { name: 'New user' }).count()).toBe(1);
    await shot('engine-list-en-US');

    await page.getByTestId('search-more').click();
    const drawer = page.getByTestId('search-drawer');
    await drawer.getByRole('tab', { name: enUS.search.custom }).click();
    await drawer.getByTestId('custom-condition').first().waitFor();
    await shot('engine-drawer-en-US');
    await drawer.getByTestId('search-reset').click();
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(() => query().get('filter')).toBeNull();
    await expect.poll(async () => (await rowKeys()).length).toBe(12);

    await table().locator('tbody tr[data-row-key="2"]').getByRole('button', { name: 'Edit' }).click();
    const form = page.getByTestId('form-drawer');
    await form.locator('#root_realname').waitFor();
    expect(await form.locator('#root_password').count()).toBe(0);
    await expect.poll(() => form.locator('#root_realname').inputValue()).toBe('王登记');
    await shot('engine-form-en-US');
    await form.getByRole('button', { name: enUS.common.cancel }).click();
    await form.waitFor({ state: 'detached' });
  });

  it('selects with shift-click and a ctrl-drag box, and deletes after the password box', async () => {
    const row = (key: string) => table().locator(`tbody tr[data-row-key="${key}"]`);
    const selected = () => table().locator('tbody tr[aria-selected="true"]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-key')));
    await row('12').getByRole('checkbox').click();
    await row('9').getByRole('checkbox').click({ modifiers: ['Shift'] });
    await expect.poll(selected).toEqual(['12', '11', '10', '9']);
    await expect.poll(() => page.getByText('4 selected').count()).toBe(1);

    // A box drawn with Ctrl held from row 8 down to row 6 selects exactly those rows.
    const from = (await row('8').locator('td[data-column="id"]').boundingBox())!;
    const to = (await row('6').locator('td[data-column="id"]').boundingBox())!;
    await page.keyboard.down('Control');
    await page.mouse.move(from.x + 10, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + 10, to.y + to.height / 2, { steps: 6 });
    await page.mouse.up();
    await page.keyboard.up('Control');
    await expect.poll(selected).toEqual(['8', '7', '6']);

    // Only the newcomer, then the batch delete asks for the password first (spec §5).
    await row('12').getByRole('checkbox').click();
    for (const key of ['8', '7', '6']) await row(key).getByRole('checkbox').click();
    await expect.poll(selected).toEqual(['12']);
    await page.getByRole('button', { name: 'Delete selected' }).click();
    const box = page.getByTestId('password-confirm');
    await box.locator('input[type=password]').fill('not-my-password');
    await box.locator('input[type=password]').press('Enter');
    const refusedAt = Date.now();
    await box.getByText(enUS.lock.wrongPassword).waitFor();
    // The confirm is throttled at 500 ms (spec §9); a person retyping takes longer than that.
    await afterConfirmThrottle(refusedAt);
    const deleted = page.waitForResponse((r) => r.url().endsWith('/destroy'));
    await box.locator('input[type=password]').fill('dsms-admin');
    await box.locator('input[type=password]').press('Enter');
    expect((await deleted).status()).toBe(200);
    await expect.poll(rowKeys).toEqual(['11', '10', '9', '8', '7', '6', '5', '4', '3', '2', '1']);
  });

  it('parses a deep link, jumps from an empty page to the last one, pages, filters by tab and by keyword', async () => {
    // Page 9 of 5-row pages does not exist (11 users): the list jumps to the last page, 3.
    await page.goto(`${app.url}/manage/system/user?page=9&page_size=5&sort_by=%7B%22id%22%3A%22asc%22%7D&keep=me`);
    await expect.poll(() => query().get('page')).toBe('3');
    expect(query().get('keep')).toBe('me');
    await expect.poll(rowKeys).toEqual(['11']);
    const pager = page.getByTestId('pager');
    await expect.poll(() => pager.textContent()).toContain('11 in total');
    expect(await pager.getByRole('button', { name: /^\d+$/ }).evaluateAll((bs) => bs.map((b) => b.textContent))).toEqual(['1', '2', '3']);
    await pager.getByRole('button', { name: '1', exact: true }).click();
    await expect.poll(rowKeys).toEqual(['1', '2', '3', '4', '5']);
    await shot('engine-pager-en-US');

    await page.getByRole('tab', { name: /Disabled/ }).click();
    await expect.poll(() => query().get('tab')).toBe('disabled');
    await expect.poll(() => table().getByText(enUS.table.empty).count()).toBe(1);
    expect(await page.getByTestId('pager').count()).toBe(0);
    await page.getByRole('tab', { name: /All/ }).click();
    // The tab is taken before a search is typed (as a person sees it switch first).
    await expect.poll(() => query().get('tab') ?? 'all').toBe('all');

    const box = page.getByTestId('keyword-box');
    await box.fill('sign');
    await box.press('Enter');
    await expect.poll(() => query().get('search')).toBe('sign');
    await expect.poll(rowKeys).toEqual(['7']);
    // The search is remembered for this search type and suggested when the box is empty again.
    await box.fill('');
    await box.press('Enter');
    await expect.poll(() => query().get('search')).toBeNull();
    await box.click();
    await expect.poll(() => page.getByRole('option', { name: 'sign', exact: true }).count()).toBe(1);
    expect(app.pageErrors).toEqual([]);
  });
});
