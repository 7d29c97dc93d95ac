import type { Kysely } from 'kysely';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import menus from '../../schemas/menus.json';
import enums from '../../schemas/enums/department.json';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import enUS from '../../src/i18n/locales/en-US.json';
import { e2eApp, evidence, openMenuPage, type Lang } from './harness.js';

const core = { 'zh-CN': zhCN, 'en-US': enUS };
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const group = menus.find((m) => m.route_name === 'DepartmentGroup')!;
const word = (set: 'stock_order_type' | 'stock_alert', v: string, lang: Lang) => enums[set].find((o) => o.value === v)!.label[lang];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * Consumables (issue 32), a module of schemas and rule files only, in Chromium in both languages: the technician opens
 * Stock in and out from the Department group and records an inbound order of a batch through the create drawer, then
 * takes from the batch with its row's action on the stock page; a take the batch cannot cover is refused in the
 * language's words; Consumables then shows the stock below its minimum as the alert.
 */
describe('consumables in Chromium', () => {
  const app = e2eApp({
    // The catalogue is the administrator's (its own pages are plain create forms): one consumable per language.
    setup: async (server) => {
      const db = server.db as unknown as Kysely<any>;
      const { id: hospital } = await db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      const { id: warehouse } = await db.insertInto('warehouses').values({ hospital_id: hospital, name: '试剂库', volume: 12, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
      for (const [code, name] of [['XY-zh', '二甲苯'], ['XY-en', 'Xylene']]) {
        await db.insertInto('consumables').values({ hospital_id: hospital, code, name, unit: 'L', warehouse_id: warehouse, min_stock: 5, max_stock: 50, created_at: now, updated_at: now }).execute();
      }
    },
  });

  const open = (p: Page, lang: Lang, alias: string) => openMenuPage(p, lang, group, alias);

  // A row's cell under the header of `field`.
  const cell = async (list: Locator, row: Locator, field: string) => {
    const at = await list.locator('thead th').evaluateAll((ths, f) => ths.findIndex((th) => th.getAttribute('data-column') === f), field);
    return row.locator('td').nth(at);
  };

  it.each(['zh-CN', 'en-US'] as const)('inbound → outbound → refused → low-stock alert (%s)', async (lang) => {
    const errors: string[] = [];
    const name = lang === 'zh-CN' ? '二甲苯' : 'Xylene';
    const tech = await app.page(lang, 'technician', { errors });
    const orders = await open(tech, lang, 'StockOrders');
    expect(new URL(tech.url()).pathname).toBe('/manage/department/stock-orders');

    const record = async (type: 'in', number: string, quantity: number) => {
      await orders.locator('button[data-action="create"]').click();
      const drawer = tech.getByTestId('form-drawer');
      await drawer.locator('#root_order_type').click();
      await tech.getByRole('option', { name: word('stock_order_type', type, lang), exact: true }).click();
      await drawer.locator('#root_order_number').fill(number);
      await drawer.locator('#root_consumable_id').click();
      await tech.getByRole('option', { name, exact: true }).click();
      await drawer.locator('#root_batch_number').fill(`LOT-${lang}`);
      await drawer.locator('#root_quantity').fill(String(quantity));
      await drawer.locator('#root_unit_price').fill('36');
      await drawer.locator('#root_produced_on').fill(day(-20));
      await drawer.locator('#root_produced_on').press('Tab');
      await drawer.locator('#root_validity_days').fill('720');
      const saved = tech.waitForResponse((r) => r.url().endsWith('/api/department/stock-orders/store'));
      await drawer.getByTestId('form-save').click();
      return { status: (await saved).status(), drawer };
    };

    const inbound = await record('in', `RK-${lang}`, 10);
    expect(inbound.status).toBe(200);
    await inbound.drawer.waitFor({ state: 'detached' });
    const shown = orders.locator('tbody tr[data-row-key]', { hasText: `RK-${lang}` });
    await poll(() => shown.textContent()).toContain(word('stock_order_type', 'in', lang));
    // The consumable column names the consumable (its resource's label), not its id.
    await poll(() => shown.textContent()).toContain(name);

    // Outbound from the batch's row on the stock page: the order names its consumable and batch by itself.
    const stock = await open(tech, lang, 'ConsumableStock');
    const batch = stock.locator('tbody tr[data-row-key]', { hasText: `LOT-${lang}` });
    const take = async (number: string, quantity: number) => {
      await batch.locator('[data-action="take"]').click();
      const form = tech.getByTestId('form-dialog');
      await form.getByTestId('form-field-order_number').fill(number);
      await form.getByTestId('form-field-quantity').fill(String(quantity));
      const saved = tech.waitForResponse((r) => r.url().endsWith('/api/department/stock-orders/store'));
      await form.getByTestId('form-confirm').click();
      return { status: (await saved).status(), form };
    };
    const taken = await take(`CK-${lang}-1`, 7);
    expect(taken.status).toBe(200);
    const held = await cell(stock, batch, 'stock');
    await poll(() => held.textContent()).toBe('3');

    const refused = await take(`CK-${lang}-2`, 5);
    expect(refused.status).toBe(422);
    const message = lang === 'zh-CN' ? '库存不足：该批次仅剩 3，不能出库 5' : 'Not enough stock: 3 left of this batch, 5 cannot be taken';
    await poll(() => tech.getByText(message).first().isVisible()).toBe(true);
    await refused.form.getByRole('button', { name: core[lang].common.cancel, exact: true }).click();
    await refused.form.waitFor({ state: 'detached' });

    const consumables = await open(tech, lang, 'Consumables');
    const row = consumables.locator('tbody tr[data-row-key]', { hasText: name });
    await poll(() => row.textContent()).toContain(word('stock_alert', 'low', lang));
    expect(await (await cell(consumables, row, 'stock')).textContent()).toBe('3');
    const left = await (app.db as unknown as Kysely<any>).selectFrom('consumable_batches').select('stock').where('batch_number', '=', `LOT-${lang}`).executeTakeFirstOrThrow();
    expect(Number(left.stock)).toBe(3);
    await evidence(tech, `consumables-${lang}.png`);
    expect(errors).toEqual([]);
    await tech.close();
  });
});
