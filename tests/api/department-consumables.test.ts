import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSetting, putSetting } from '../../server/modules/settings/queries.js';
import { SEEDED_MENUS_KEY, seedMenus } from '../../server/db/seed/structure.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * The department's assets and consumables (issue 32), built from schemas and rule files only: an asset's states are
 * schemas/rules/assets.json's (a step by the rule file's roles and from its states, else a translated 422, nothing
 * written; two at once, one winner); a batch's stock moves only through stock orders, the ledger of
 * server/resources/ledger.ts (inbound adds, outbound takes, never below zero, parallel outbound never oversells); a
 * consumable's stock is the sum of its batches (aggregates.ts) and its alert the rule file's, as is a batch's end of
 * validity (add_days); another hospital's rows are out of reach, and cannot be pointed at.
 */
describe.each(databases)('department assets and consumables [%s]', (kind) => {
  let h: Harness;
  let db: Kysely<any>; // the module's tables are data (schemas/resources), not schema.ts's
  const t: Record<string, string> = {};
  const API = '/api/department';
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const post = (who: string, url: string, payload: object, lang = 'en-US') => call(h.app, 'POST', `${API}${url}`, { token: t[who], lang, payload });
  const get = async (who: string, url: string) => (await call(h.app, 'GET', `${API}${url}`, { token: t[who] })).json().data;
  let serial = 0;
  const made = async (who: string, url: string, payload: object) => {
    const res = await post(who, url, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Record<string, any>;
  };
  const consumable = (over: object = {}) => made('admin', '/consumables/store', { code: `C-${kind}-${++serial}`, name: '二甲苯', unit: '瓶', min_stock: 5, max_stock: 50, ...over });
  const order = (who: string, c: number, type: 'in' | 'out', quantity: number, batch = 'B1', over: object = {}, lang = 'en-US') => post(who, '/stock-orders/store', {
    order_number: `SO-${kind}-${++serial}`, order_type: type, consumable_id: c, batch_number: batch, quantity,
    ...(type === 'in' ? { unit_price: 12.5, produced_on: day(-10), validity_days: 365 } : {}), ...over,
  }, lang);
  const stockOf = async (c: number) => (await get('technician', `/consumables/item/${c}`)) as { stock: number; stock_alert: string };

  beforeAll(async () => {
    h = await startApp(kind);
    db = h.db as unknown as Kysely<any>;
    for (const u of ['admin', 'technician', 'scanner', 'registrar']) t[u] = await tokenFor(h.app, u);
    t.adminBranch = await tokenFor(h.app, 'admin');
    const branch = await db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow();
    expect((await call(h.app, 'POST', '/api/auth/switch_hospital', { token: t.adminBranch, payload: { hospital_id: branch.id } })).statusCode).toBe(200);
  }, 60_000);
  afterAll(async () => h?.close());

  it('the Department menu and codes reach the roles that hold them', async () => {
    const menu = async (who: string) => JSON.stringify((await call(h.app, 'GET', '/api/system_management/users/menu', { token: t[who] })).json().data);
    const tech = await menu('technician');
    for (const alias of ['DepartmentAssets', 'Consumables', 'ConsumableStock', 'StockOrders']) expect(tech).toContain(alias);
    expect(tech).not.toContain('Warehouses');
    expect(await menu('scanner')).toContain('DepartmentAssets');
    expect((await call(h.app, 'GET', `${API}/consumables/lists`, { token: t.registrar })).statusCode).toBe(403);
    // Warehouses and the catalogue are the administrator's; the technician records movements.
    expect((await post('technician', '/warehouses/store', { name: 'X' })).statusCode).toBe(403);
    expect((await post('technician', '/consumables/store', { code: 'X', name: 'X', unit: '瓶' })).statusCode).toBe(403);
  });

  it('an installation from before the module gets its menu entries under Department, granted as roles.json says', async () => {
    const ALIASES = ['DepartmentAssets', 'Consumables', 'ConsumableStock', 'StockOrders', 'Warehouses'];
    const ids = (await db.selectFrom('menus').select('id').where('alias', 'in', ALIASES).execute()).map((m) => m.id);
    expect(ids).toHaveLength(ALIASES.length);
    // The release before: no such entries, none delivered.
    await db.deleteFrom('role_menus').where('menu_id', 'in', ids).execute();
    await db.deleteFrom('menus').where('id', 'in', ids).execute();
    const delivered = JSON.parse((await getSetting(h.db, SEEDED_MENUS_KEY))!.value) as string[];
    await putSetting(h.db, SEEDED_MENUS_KEY, delivered.filter((k) => !ALIASES.includes(k)), false);
    await seedMenus(h.db);
    const rows = await db.selectFrom('menus as m').innerJoin('menus as p', 'p.id', 'm.parent_id').select(['m.alias', 'p.route_name']).where('m.alias', 'in', ALIASES).execute();
    expect(rows.map((r) => r.route_name)).toEqual(ALIASES.map(() => 'DepartmentGroup'));
    const menu = JSON.stringify((await call(h.app, 'GET', '/api/system_management/users/menu', { token: t.technician })).json().data);
    expect(menu).toContain('StockOrders');
    expect(menu).not.toContain('Warehouses');
  });

  it('an asset: report fault → back in use → scrap, by the rule file\'s roles and states, in both languages', async () => {
    const asset = await made('admin', '/assets/store', { asset_number: `A-${kind}-1`, name: 'KF-PRO-120', category: 'scanner', status: 'scrapped' });
    expect(asset.status).toBe('in_use');
    const step = (who: string, transition: string, extra: object = {}, lang = 'en-US') => post(who, `/assets/transition/${asset.id}`, { transition, ...extra }, lang);
    const guard = await step('scanner', 'repair', {}, 'zh-CN');
    expect([guard.statusCode, guard.json().message]).toEqual([422, '不能执行“报修”：报修时请填写故障说明']);
    const fault = await step('scanner', 'repair', { repair_note: '对焦失败' });
    expect(fault.statusCode, fault.body).toBe(200);
    expect(fault.json().data).toMatchObject({ status: 'under_repair', repair_note: '对焦失败', reported_by: await userId(h.db, 'scanner') });
    // The scanner operator reports faults; the technician, who keeps the equipment, puts it back in use.
    const role = await step('scanner', 'restore');
    expect([role.statusCode, role.json().message]).toEqual([422, 'Your role may not take the step "Back in use"']);
    expect((await step('scanner', 'restore', {}, 'zh-CN')).json().message).toBe('您的角色不能执行“修复启用”');
    expect((await step('registrar', 'repair', { repair_note: 'x' })).statusCode).toBe(403);
    expect((await step('technician', 'scrap', { scrap_reason: 'x' })).statusCode).toBe(403);
    expect((await step('technician', 'restore')).json().data).toMatchObject({ status: 'in_use', restored_by: await userId(h.db, 'technician') });
    const state = await step('technician', 'restore', {}, 'zh-CN');
    expect([state.statusCode, state.json().message]).toEqual([422, '当前状态为“在用”，不能执行“修复启用”']);
    expect((await step('admin', 'scrap', { scrap_reason: '主板损坏' })).json().data).toMatchObject({ status: 'scrapped', scrap_reason: '主板损坏' });
    expect((await step('technician', 'repair', { repair_note: 'x' })).json().message).toBe('The record is "Scrapped"; the step "Report fault" cannot be taken now');
  });

  it('two steps taken at once on one asset: exactly one wins', async () => {
    const asset = await made('admin', '/assets/store', { asset_number: `A-${kind}-2`, name: 'BX53', category: 'microscope' });
    // Both report the fault of an asset in use; only one report moves it, the other finds it under repair already.
    const answers = await Promise.all([
      post('technician', `/assets/transition/${asset.id}`, { transition: 'repair', repair_note: '灯泡' }),
      post('scanner', `/assets/transition/${asset.id}`, { transition: 'repair', repair_note: '镜头' }),
    ]);
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect([409, 422]).toContain(codes.find((c) => c !== 200));
    const row = await db.selectFrom('assets').select(['status', 'repair_note']).where('id', '=', asset.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'under_repair', repair_note: answers[0].statusCode === 200 ? '灯泡' : '镜头' });
  });

  it('stock is a ledger: inbound adds to its batch, outbound takes, and is refused below zero; the alert is the rule file\'s', async () => {
    const c = await consumable();
    expect(await stockOf(c.id)).toMatchObject({ stock: 0, stock_alert: 'low' });
    const first = await order('technician', c.id, 'in', 10);
    expect(first.statusCode, first.body).toBe(200);
    expect(await stockOf(c.id)).toMatchObject({ stock: 10, stock_alert: 'ok' });
    expect((await order('technician', c.id, 'in', 5)).statusCode).toBe(200);
    const batches = (await get('technician', `/consumable-batches/lists?filter=${encodeURIComponent(JSON.stringify([{ column: 'consumable_id', operator: '=', value: c.id }]))}`)).data;
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ batch_number: 'B1', stock: 15, unit_price: 12.5, validity_days: 365 });
    expect(first.json().data.batch_id).toBe(batches[0].id);

    expect((await order('technician', c.id, 'out', 12)).statusCode).toBe(200);
    expect(await stockOf(c.id)).toMatchObject({ stock: 3, stock_alert: 'low' });
    const over = await order('technician', c.id, 'out', 4);
    expect([over.statusCode, over.json().message]).toEqual([422, 'Not enough stock: 3 left of this batch, 4 cannot be taken']);
    expect((await order('technician', c.id, 'out', 4, 'B1', {}, 'zh-CN')).json().message).toBe('库存不足：该批次仅剩 3，不能出库 4');
    expect((await order('technician', c.id, 'out', 1, 'NO-SUCH')).json().message).toBe('There is no stock of this batch to take from');
    expect((await order('technician', c.id, 'out', 0)).statusCode).toBe(422);
    expect(await stockOf(c.id)).toMatchObject({ stock: 3 });
    // A refused movement writes no order; and a movement is never changed or deleted: a correction is a new one.
    expect(await db.selectFrom('stock_orders').select('id').where('consumable_id', '=', c.id).execute()).toHaveLength(3);
    expect((await call(h.app, 'PATCH', `${API}/stock-orders/update/${first.json().data.id}`, { token: t.admin, payload: { quantity: 99 } })).statusCode).toBe(404);
    expect((await call(h.app, 'DELETE', `${API}/stock-orders/destroy`, { token: t.admin, payload: { ids: [first.json().data.id] } })).statusCode).toBe(404);
    expect((await post('technician', '/consumable-batches/store', { stock: 100 })).statusCode).toBe(404);
    // Nor does the history go with its consumable: one with movements is in use.
    expect((await call(h.app, 'DELETE', `${API}/consumables/destroy`, { token: t.admin, payload: { ids: [c.id] } })).statusCode).toBe(409);

    expect((await order('technician', c.id, 'in', 60, 'B2')).statusCode).toBe(200);
    expect(await stockOf(c.id)).toMatchObject({ stock: 63, stock_alert: 'high' });
    const logged = await db.selectFrom('operation_logs').select('status_code').where('route', '=', `${API}/stock-orders/store`).execute();
    expect(logged.map((l) => Number(l.status_code))).toEqual(expect.arrayContaining([200, 422]));
  });

  it('parallel outbound orders never oversell', async () => {
    const c = await consumable();
    expect((await order('technician', c.id, 'in', 5, 'P1')).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 5 }, () => order('technician', c.id, 'out', 2, 'P1')));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 422, 422, 422]);
    expect(await stockOf(c.id)).toMatchObject({ stock: 1 });
    // Two first inbound movements of one batch at once make one batch holding both.
    await Promise.all([order('technician', c.id, 'in', 3, 'P2'), order('technician', c.id, 'in', 4, 'P2')]);
    const rows = await db.selectFrom('consumable_batches').select('stock').where('consumable_id', '=', c.id).where('batch_number', '=', 'P2').execute();
    expect(rows.map((r) => Number(r.stock))).toEqual([7]);
  });

  it('a batch nearing or past its validity end is flagged by the rule file', async () => {
    const c = await consumable();
    await order('technician', c.id, 'in', 1, 'FRESH', { produced_on: day(-10), validity_days: 365 });
    await order('technician', c.id, 'in', 1, 'NEAR', { produced_on: day(-350), validity_days: 365 });
    await order('technician', c.id, 'in', 1, 'OLD', { produced_on: day(-400), validity_days: 365 });
    const rows = (await get('technician', `/consumable-batches/lists?page_size=100`)).data as { batch_number: string; consumable_id: number; expires_on: string; expiry_alert: string }[];
    const of = (b: string) => rows.find((r) => r.consumable_id === c.id && r.batch_number === b);
    expect(of('FRESH')).toMatchObject({ expiry_alert: 'ok', expires_on: day(355) });
    expect(of('NEAR')).toMatchObject({ expiry_alert: 'expiring', expires_on: day(15) });
    expect(of('OLD')).toMatchObject({ expiry_alert: 'expired', expires_on: day(-35) });
    // Inbound needs what the validity is computed from.
    expect((await order('technician', c.id, 'in', 1, 'X', { produced_on: null })).statusCode).toBe(422);
  });

  it('another hospital\'s consumables, batches and orders are out of reach, and cannot be pointed at', async () => {
    const c = await consumable();
    await order('technician', c.id, 'in', 8, 'H1');
    expect((await call(h.app, 'GET', `${API}/consumables/item/${c.id}`, { token: t.adminBranch })).statusCode).toBe(404);
    for (const url of ['/consumables/lists', '/consumable-batches/lists', '/stock-orders/lists']) {
      const rows = (await get('adminBranch', `${url}?page_size=100`)).data as { consumable_id?: number; id: number }[];
      expect(rows.some((r) => r.id === c.id || r.consumable_id === c.id)).toBe(false);
    }
    const taken = await order('adminBranch', c.id, 'out', 1, 'H1');
    expect([taken.statusCode, taken.json().errors]).toEqual([422, { consumable_id: ['The chosen Consumable does not exist in this hospital'] }]);
    expect((await order('adminBranch', c.id, 'in', 1, 'H1')).statusCode).toBe(422);
    // The branch's own consumable of the same name has its own stock.
    const own = await made('adminBranch', '/consumables/store', { code: `C-${kind}-branch`, name: '二甲苯', unit: '瓶', min_stock: 1 });
    expect((await get('adminBranch', `/consumables/item/${own.id}`)).stock).toBe(0);
    expect(await stockOf(c.id)).toMatchObject({ stock: 8 });
  });
});
