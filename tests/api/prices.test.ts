import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftDayBounds } from '../../src/core/statPeriods.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * The price list and income statistics (issue 16, spec §2): price_manage edits a hospital's prices (bad prices and
 * items refused in words, duplicates 409 even when sent at once, another hospital's list out of reach); a case and
 * its orders are charged at the price of that moment, so a later price change leaves earlier charges alone; income
 * per shift day equals a SQL sum over the same range, on the page and in the .xlsx read back.
 */
describe.each(databases)('prices and income [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  let hospital: number;
  let foreign: number;

  const post = (who: string, url: string, payload: object, lang = 'en-US') => call(h.app, 'POST', url, { token: t[who], lang, payload });
  const get = (who: string, url: string, lang = 'en-US') => call(h.app, 'GET', url, { token: t[who], lang });
  const priceRow = (item: string) => h.db.selectFrom('price_items').selectAll().where('hospital_id', '=', hospital).where('item', '=', item).executeTakeFirst();
  const chargesOf = (caseId: number) => h.db.selectFrom('case_charges').select(['item', 'kind', 'quantity', 'unit_price_cents', 'amount_cents'])
    .where('case_id', '=', caseId).orderBy('id').execute();
  /** What the income route must say: the test's own sum over the same half-open range. */
  const sqlSum = async (from: string, to: string, extra: { kind?: string; by?: number; type?: string } = {}) => {
    const { start, end } = shiftDayBounds(from, to, 0);
    const row = await h.db.selectFrom('case_charges as c').innerJoin('cases', 'cases.id', 'c.case_id')
      .select(sql<number>`coalesce(sum(c.amount_cents), 0)`.as('cents'))
      .where('c.hospital_id', '=', hospital).where('c.charged_at', '>=', start).where('c.charged_at', '<', end)
      .$if(extra.kind !== undefined, (q) => q.where('c.kind', '=', extra.kind as 'case'))
      .$if(extra.by !== undefined, (q) => q.where('c.charged_by', '=', extra.by!))
      .$if(extra.type !== undefined, (q) => q.where('cases.case_type', '=', extra.type!))
      .executeTakeFirstOrThrow();
    return Number(row.cents) / 100;
  };

  beforeAll(async () => {
    h = await startApp(kind);
    for (const u of ['admin', 'registrar', 'sampler', 'primary', 'qc']) t[u] = await tokenFor(h.app, u);
    const reg = await userId(h.db, 'registrar');
    hospital = (await h.db.selectFrom('user_hospitals').select('hospital_id').where('user_id', '=', reg).orderBy('hospital_id').executeTakeFirstOrThrow()).hospital_id;
    await call(h.app, 'POST', '/api/auth/switch_hospital', { token: t.admin, payload: { hospital_id: hospital } });
    // From an empty price list (the demo seeds one) and no charges: every number below is this test's own.
    await h.db.deleteFrom('case_charges').execute();
    await h.db.deleteFrom('price_items').execute();
    const now = new Date().toISOString();
    foreign = (await h.db.insertInto('hospitals').values({ name: '外院', en_name: 'Elsewhere', code: 'HP99', logo: null, created_at: now }).returning('id').executeTakeFirstOrThrow()).id;
  }, 60_000);
  afterAll(async () => h?.close());

  it('price_manage keeps the price list: bad prices and items refused in words, nothing written', async () => {
    const menu = async (who: string) => JSON.stringify((await get(who, '/api/system_management/users/menu')).json().data);
    expect(await menu('admin')).toContain('SettingPrice');
    expect(await menu('registrar')).not.toContain('SettingPrice');
    expect((await get('registrar', '/api/setting/prices/lists')).statusCode).toBe(403);
    expect((await post('registrar', '/api/setting/prices/store', { item: 'case:routine', price: 1 })).statusCode).toBe(403);

    const bad = await post('admin', '/api/setting/prices/store', { item: 'case:routine', price: 1.005 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.price[0]).toContain('at most two decimals');
    const zh = await post('admin', '/api/setting/prices/store', { item: 'case:routine', price: -3 }, 'zh-CN');
    expect(zh.statusCode).toBe(422);
    expect(JSON.stringify(zh.json())).toMatch(/[\u4e00-\u9fff]/);
    expect((await post('admin', '/api/setting/prices/store', { item: 'case:nothing', price: 3 })).statusCode).toBe(422);
    expect(await priceRow('case:routine')).toBeUndefined();
    // A hospital named in the body is not the writer's to choose: the row is the working hospital's.
    expect((await post('admin', '/api/setting/prices/store', { item: 'additional:other', price: 3, hospital_id: foreign })).statusCode).toBe(200);
    expect(await h.db.selectFrom('price_items').select('hospital_id').where('item', '=', 'additional:other').execute()).toEqual([{ hospital_id: hospital }]);

    const made = await post('admin', '/api/setting/prices/store', { item: 'case:routine', price: '120.50' });
    expect(made.statusCode, made.body).toBe(200);
    expect(await priceRow('case:routine')).toMatchObject({ price: 120.5, status: 1 });
    for (const [item, price] of [['special:immunohistochemisty', 85], ['additional:deep_cut', 19.99], ['case:frozen', 200]] as const) {
      expect((await post('admin', '/api/setting/prices/store', { item, price })).statusCode).toBe(200);
    }
    // The same item twice at once: one row, the other a translated 409 (checked before, the unique index behind).
    const [a, b] = await Promise.all([
      post('admin', '/api/setting/prices/store', { item: 'special:special_stain', price: 40 }),
      post('admin', '/api/setting/prices/store', { item: 'special:special_stain', price: 41 }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect((a.statusCode === 409 ? a : b).json().message).toContain('already exists');
    expect(await h.db.selectFrom('price_items').select('id').where('item', '=', 'special:special_stain').execute()).toHaveLength(1);
    // Another hospital's list is another hospital's: its row answers as missing.
    const now = new Date().toISOString();
    const theirs = (await h.db.insertInto('price_items').values({ hospital_id: foreign, item: 'case:routine', price: 1, status: 1, remark: null, created_at: now, updated_at: now })
      .returning('id').executeTakeFirstOrThrow()).id;
    expect((await call(h.app, 'PATCH', `/api/setting/prices/update/${theirs}`, { token: t.admin, payload: { price: 2 } })).statusCode).toBe(404);
    const listed = (await get('admin', '/api/setting/prices/lists')).json().data.data as { hospital_id: number }[];
    expect(listed.every((r) => r.hospital_id === hospital)).toBe(true);
    const logged = await h.db.selectFrom('operation_logs').select('id').where('path', 'like', '/api/setting/prices/store%').execute();
    expect(logged.length).toBeGreaterThan(0);
  });

  it('charges a case and its orders at the price of that moment; a later price change rewrites nothing', async () => {
    const reagent = (await h.db.insertInto('reagents').values({ name: 'CK7', type: 'ihc', clone_no: null, manufacturer: null, specification: null, status: 1, rank: 1, remark: null, created_at: new Date().toISOString(), updated_at: new Date().toISOString() })
      .returning('id').executeTakeFirstOrThrow()).id;
    const reg = await post('registrar', '/api/pathology/register', { case_type: 'routine', specimens: [{ name: 'Stomach' }] });
    expect(reg.statusCode, reg.body).toBe(200);
    const caseId = reg.json().data.id;
    expect(await chargesOf(caseId)).toEqual([{ item: 'case:routine', kind: 'case', quantity: 1, unit_price_cents: 12050, amount_cents: 12050 }]);

    const lab = async () => (await get('registrar', `/api/pathology/${caseId}/lab`)).json().data;
    const [specimen] = (await lab()).specimens;
    expect((await post('registrar', `/api/pathology/${caseId}/receive`, { specimen_ids: [specimen.id] })).statusCode).toBe(200);
    expect((await post('sampler', `/api/pathology/${caseId}/sample`, { blocks: [{ specimen_id: specimen.id }] })).statusCode).toBe(200);
    const [block] = (await lab()).blocks;
    const ordered = await post('primary', `/api/pathology/${caseId}/orders`, { orders: [
      { category: 'special', order_type: 'immunohistochemisty', block_id: block.id, reagent_id: reagent, quantity: 3 },
      { category: 'additional', order_type: 'deep_cut', block_id: block.id },
      { category: 'additional', order_type: 'thin_cut', block_id: block.id },
    ] });
    expect(ordered.statusCode, ordered.body).toBe(200);
    // thin_cut has no price: not charged.
    expect((await chargesOf(caseId)).slice(1)).toEqual([
      { item: 'special:immunohistochemisty', kind: 'special', quantity: 3, unit_price_cents: 8500, amount_cents: 25500 },
      { item: 'additional:deep_cut', kind: 'additional', quantity: 1, unit_price_cents: 1999, amount_cents: 1999 },
    ]);

    const row = (await priceRow('case:routine'))!;
    expect((await call(h.app, 'PATCH', `/api/setting/prices/update/${row.id}`, { token: t.admin, payload: { price: 150 } })).statusCode).toBe(200);
    expect((await chargesOf(caseId))[0]).toMatchObject({ unit_price_cents: 12050 });
    const next = (await post('registrar', '/api/pathology/register', { case_type: 'routine', specimens: [{ name: 'Skin' }] })).json().data.id;
    expect((await chargesOf(next))[0]).toMatchObject({ unit_price_cents: 15000, amount_cents: 15000 });
    // A disabled price charges nothing.
    const frozen = (await priceRow('case:frozen'))!;
    await call(h.app, 'PATCH', `/api/setting/prices/update/${frozen.id}`, { token: t.admin, payload: { status: 0 } });
    const unpriced = (await post('registrar', '/api/pathology/register', { case_type: 'frozen', specimens: [{ name: 'Node' }] })).json().data.id;
    expect(await chargesOf(unpriced)).toEqual([]);
    // A case made in CaseList's form is charged too.
    const viaForm = await post('admin', '/api/pathology/store', { pathology_number: 'PR-FORM-1', case_type: 'routine', patient_name: 'Form' });
    expect(viaForm.statusCode, viaForm.body).toBe(200);
    expect((await chargesOf(viaForm.json().data.id))[0]).toMatchObject({ item: 'case:routine', amount_cents: 15000 });
  });

  it('sums income per shift day in SQL, equal to the test\'s own sum; filters; xlsx read back; permissions', async () => {
    const reg = await userId(h.db, 'registrar');
    const primary = await userId(h.db, 'primary');
    const now = new Date().toISOString();
    const caseOf = async (n: string, type: string) => (await h.db.insertInto('cases').values({
      hospital_id: hospital, pathology_number: n, case_type: type, main_phase: 'registration', expedite_status: 0, extra: '{}', created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow()).id;
    const routine = await caseOf('PR-2025-1', 'routine');
    const cell = await caseOf('PR-2025-2', 'cell');
    const charges: [caseId: number, key: string, kind: 'case' | 'special' | 'additional', cents: number, by: number, at: string][] = [
      [routine, 'a', 'case', 12050, reg, '2025-03-10T05:59:59Z'], // shift day 03-09
      [routine, 'b', 'special', 25500, primary, '2025-03-10T06:00:00Z'], // 03-10
      [cell, 'c', 'case', 8000, reg, '2025-03-10T23:00:00Z'], // 03-10
      [cell, 'd', 'additional', 1999, primary, '2025-03-12T12:00:00Z'], // 03-12
      [routine, 'e', 'case', 100, reg, '2025-03-13T06:00:00Z'], // outside
    ];
    for (const [caseId, key, k, cents, by, at] of charges) {
      await h.db.insertInto('case_charges').values({
        hospital_id: hospital, case_id: caseId, order_id: null, charge_key: `test:${key}`, item: `${k}:x`, kind: k, quantity: 1,
        unit_price_cents: cents, amount_cents: cents, charged_by: by, charged_at: new Date(at).toISOString(),
      }).execute();
    }
    const res = await get('admin', '/api/statistic/income?from=2025-03-09&to=2025-03-12&utc_offset=0');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.series).toEqual(['income_case', 'income_special', 'income_additional', 'income_total']);
    expect(data.rows.map((r: Record<string, unknown>) => [r.bucket, r.income_total])).toEqual([
      ['2025-03-09', 120.5], ['2025-03-10', 335], ['2025-03-11', 0], ['2025-03-12', 19.99],
    ]);
    expect(data.totals.income_total).toBe(await sqlSum('2025-03-09', '2025-03-12'));
    for (const k of ['case', 'special', 'additional']) expect(data.totals[`income_${k}`]).toBe(await sqlSum('2025-03-09', '2025-03-12', { kind: k }));
    const byDoctor = (await get('admin', `/api/statistic/income?from=2025-03-09&to=2025-03-12&utc_offset=0&doctor_id=${primary}`)).json().data;
    expect(byDoctor.totals.income_total).toBe(await sqlSum('2025-03-09', '2025-03-12', { by: primary }));
    const byType = (await get('admin', '/api/statistic/income?from=2025-03-09&to=2025-03-12&utc_offset=0&case_type=cell')).json().data;
    expect(byType.totals.income_total).toBe(await sqlSum('2025-03-09', '2025-03-12', { type: 'cell' }));
    expect(byType.totals.income_total).toBe(99.99);
    // Beijing: 06:00 local is 22:00 UTC, so the 23:00 UTC charge opens 03-11 there.
    const east = (await get('admin', '/api/statistic/income?from=2025-03-10&to=2025-03-11&utc_offset=480')).json().data;
    expect(east.rows.map((r: Record<string, unknown>) => [r.bucket, r.income_total])).toEqual([['2025-03-10', 375.5], ['2025-03-11', 80]]);

    const xlsx = await call(h.app, 'POST', '/api/statistic/income/export', { token: t.admin, lang: 'zh-CN', payload: { from: '2025-03-09', to: '2025-03-12', utc_offset: 0 } });
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['日期', '病例收入（元）', '特检收入（元）', '技术医嘱收入（元）', '总收入（元）']);
    const read = [];
    for (let i = 2; i <= sheet.rowCount; i++) read.push((sheet.getRow(i).values as unknown[]).slice(1));
    expect(read).toEqual([
      ...data.rows.map((r: Record<string, unknown>) => [r.bucket, r.income_case, r.income_special, r.income_additional, r.income_total]),
      ['合计', data.totals.income_case, data.totals.income_special, data.totals.income_additional, data.totals.income_total],
    ]);

    // income_view to read; export_data_role besides to export; one of the user's hospitals only.
    expect((await get('registrar', '/api/statistic/income?period=thisMonth')).statusCode).toBe(403);
    expect((await get('qc', '/api/statistic/income?period=thisMonth')).statusCode).toBe(403);
    expect((await call(h.app, 'POST', '/api/statistic/income/export', { token: t.registrar, payload: { period: 'thisMonth' } })).statusCode).toBe(403);
    expect((await get('admin', `/api/statistic/income?period=thisMonth&hospital_id=${foreign}`)).statusCode).toBe(403);
  });
});
