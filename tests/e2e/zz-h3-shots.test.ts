import type { Kysely } from 'kysely';
import { describe, it } from 'vitest';
import { e2eApp } from './harness.js';

// Temporary: screenshots of the module's pages in both languages (not committed).
describe('shots', () => {
  const app = e2eApp({
    setup: async (server) => {
      const db = server.db as unknown as Kysely<any>;
      const { id: h } = await db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      const day = (o: number) => new Date(Date.now() + o * 86_400_000).toISOString().slice(0, 10);
      const s = { hospital_id: h, created_at: now, updated_at: now };
      const { id: w } = await db.insertInto('warehouses').values({ ...s, name: '试剂库 A', volume: 12, location: '3F-302' }).returning('id').executeTakeFirstOrThrow();
      const { id: c1 } = await db.insertInto('consumables').values({ ...s, code: 'XY-01', name: '二甲苯 Xylene', unit: 'L', warehouse_id: w, min_stock: 5, max_stock: 50 }).returning('id').executeTakeFirstOrThrow();
      const { id: c2 } = await db.insertInto('consumables').values({ ...s, code: 'SL-02', name: '载玻片 Slides', unit: '盒', warehouse_id: w, min_stock: 10, max_stock: 40 }).returning('id').executeTakeFirstOrThrow();
      await db.insertInto('consumable_batches').values([
        { ...s, consumable_id: c1, batch_number: 'L2401', stock: 3, unit_price: 36, produced_on: day(-350), validity_days: 365 },
        { ...s, consumable_id: c2, batch_number: 'S2402', stock: 30, unit_price: 12, produced_on: day(-20), validity_days: 720 },
        { ...s, consumable_id: c2, batch_number: 'S2301', stock: 2, unit_price: 11, produced_on: day(-800), validity_days: 720 },
      ]).execute();
      await db.insertInto('assets').values([
        { ...s, asset_number: 'SC-001', name: 'KF-PRO-120', category: 'scanner', model: 'KF-PRO-120', location: '扫描室', status: 'in_use' },
        { ...s, asset_number: 'MS-002', name: 'Olympus BX53', category: 'microscope', model: 'BX53', location: '诊断室', status: 'under_repair', repair_note: '光源故障' },
        { ...s, asset_number: 'ST-003', name: '染色机', category: 'stainer', status: 'scrapped', scrap_reason: '主板损坏' },
      ]).execute();
    },
  });
  it.each(['zh-CN', 'en-US'] as const)('%s', async (lang) => {
    const p = await app.page(lang, 'admin');
    for (const [uri, name] of [['assets', 'assets'], ['stock', 'stock'], ['warehouses', 'warehouses'], ['consumables', 'consumables']]) {
      await p.goto(`${app.url}/manage/department/${uri}`);
      await p.locator('[data-testid="list-page"] tbody tr[data-row-key]').first().waitFor();
      await p.waitForTimeout(1500);
      await p.screenshot({ path: `test-results/h3-${name}-${lang}.png` });
    }
    await p.goto(`${app.url}/manage/department/stock-orders`);
    await p.locator('[data-testid="list-page"] button[data-action="create"]').click();
    await p.getByTestId('form-drawer').waitFor();
    await p.waitForTimeout(1000);
    await p.screenshot({ path: `test-results/h3-orderform-${lang}.png` });
    await p.close();
  });
});
