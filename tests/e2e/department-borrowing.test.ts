import type { Kysely } from 'kysely';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import menus from '../../schemas/menus.json';
import page from '../../schemas/pages/BorrowOrders.json';
import enums from '../../schemas/enums/department.json';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import enUS from '../../src/i18n/locales/en-US.json';
import { e2eApp, evidence, openMenuPage, type Lang } from './harness.js';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const core = { 'zh-CN': zhCN, 'en-US': enUS };
const group = menus.find((m) => m.route_name === 'DepartmentGroup')!;
const statusWord = (v: string, lang: Lang) => enums.borrow_status.find((o) => o.value === v)!.label[lang];
const actionWord = (key: string, lang: Lang) => page.list.rowActions.find((a) => a.key === key)!.label[lang];

/**
 * Borrowing (issue 32), a module of schemas and rule files only, in Chromium in both languages: the registrar opens
 * it from the Department group and files an order through the create drawer; the signing doctor approves it with the
 * row action the rule file shows them; the registrar lends it (confirmed) and takes it back with a compensation. Each
 * row shows only the steps its state and the user's role allow, and the state words are the language's.
 */
describe('borrowing in Chromium', () => {
  const app = e2eApp();

  const open = (p: Page, lang: Lang) => openMenuPage(p, lang, group, 'BorrowOrders');
  const actionsOf = (row: Locator) => row.locator('[data-action]').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
  // The module's tables are data (schemas/resources), not schema.ts's.
  const stateOf = async (number: string) => (await (app.db as unknown as Kysely<any>).selectFrom('borrow_orders').select('status').where('order_number', '=', number).executeTakeFirstOrThrow()).status;

  it.each(['zh-CN', 'en-US'] as const)('borrow → check → lend → return (%s)', async (lang) => {
    const errors: string[] = [];
    const number = `JY-E2E-${lang}`;
    const registrar = await app.page(lang, 'registrar', { errors });
    const list = await open(registrar, lang);
    expect(new URL(registrar.url()).pathname).toBe('/manage/department/borrow');

    await list.locator('button[data-action="create"]').click();
    const drawer = registrar.getByTestId('form-drawer');
    await drawer.locator('#root_order_number').fill(number);
    await drawer.locator('#root_borrow_type').click();
    await registrar.getByRole('option', { name: enums.borrow_type[0].label[lang], exact: true }).click();
    await drawer.locator('#root_borrower').fill(lang === 'zh-CN' ? '李医生' : 'Dr Li');
    await drawer.locator('#root_deposit').fill('100');
    await drawer.locator('#root_due_date').fill(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));
    await drawer.locator('#root_due_date').press('Tab');
    const created = registrar.waitForResponse((r) => r.url().endsWith('/api/department/borrow-orders/store'));
    await drawer.getByTestId('form-save').click();
    expect((await created).status()).toBe(200);
    await drawer.waitFor({ state: 'detached' });
    const row = list.locator('tbody tr[data-row-key]', { hasText: number });
    await poll(() => row.textContent()).toContain(statusWord('checking', lang));
    // Checking is the signing doctor's step: the registrar's row offers edit and delete only.
    expect(await actionsOf(row)).not.toContain('pass');

    const signer = await app.page(lang, 'signer', { errors });
    const signerRow = (await open(signer, lang)).locator('tbody tr[data-row-key]', { hasText: number });
    await signerRow.locator('[data-action="pass"]').click();
    const prompt = signer.getByTestId('prompt-dialog');
    await prompt.getByTestId('prompt-input').fill(lang === 'zh-CN' ? '同意借阅' : 'Agreed');
    await prompt.getByTestId('prompt-confirm').click();
    // The step's own label reads like the state it leads to (审核通过): the row is read again once its buttons are gone.
    await poll(() => actionsOf(signerRow)).toEqual([]);
    expect(await signerRow.textContent()).toContain(statusWord('checked_pass', lang));
    await signer.close();

    await registrar.reload();
    await poll(() => actionsOf(row)).toEqual(['lend']);
    expect(await row.textContent()).toContain(statusWord('checked_pass', lang));
    await row.locator('[data-action="lend"]').click();
    await registrar.getByTestId('confirm-dialog').getByRole('button', { name: core[lang].common.confirm }).click();
    await poll(() => row.textContent()).toContain(statusWord('borrowing', lang));
    expect(await row.locator('[data-action="return"]').textContent()).toBe(actionWord('return', lang));

    await row.locator('[data-action="return"]').click();
    const form = registrar.getByTestId('form-dialog');
    await form.getByTestId('form-field-compensation').fill('30');
    await form.getByTestId('form-field-return_note').fill(lang === 'zh-CN' ? '完好' : 'Intact');
    await form.getByTestId('form-confirm').click();
    await poll(() => row.textContent()).toContain(statusWord('returned', lang));
    expect(await stateOf(number)).toBe('returned');
    expect(await actionsOf(row)).toEqual([]);
    await evidence(registrar, `borrowing-${lang}.png`);
    expect(errors).toEqual([]);
    await registrar.close();
  });
});
