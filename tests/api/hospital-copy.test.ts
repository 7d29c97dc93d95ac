import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * Issue 31 item 6: a new hospital copies report templates, numbering rules, the price list and the QC dictionaries
 * from another hospital its administrator belongs to: only what it lacks, all in one transaction, logged; the source
 * must be one of the caller's hospitals and not the one they work in; each part asks its own permission.
 */
describe.each(databases)('copy configuration from another hospital [%s]', (kind) => {
  let h: Harness;
  let branch: string;
  let registrar: string;
  let main: number;
  let other: number;
  const now = new Date().toISOString();
  const URL = '/api/hospital-config/copy';
  const countIn = async (table: 'report_templates' | 'numbering_rules' | 'price_items' | 'qc_dict', hospital: number) =>
    Number((await h.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('hospital_id', '=', hospital).executeTakeFirst())?.n ?? 0);

  beforeAll(async () => {
    h = await startApp(kind);
    const hospitals = await h.db.selectFrom('hospitals').select(['id', 'code']).execute();
    main = hospitals.find((x) => x.code === 'H001')!.id;
    other = hospitals.find((x) => x.code === 'H002')!.id;
    [branch, registrar] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar')]);
    expect((await call(h.app, 'POST', '/api/auth/switch_hospital', { token: branch, payload: { hospital_id: other } })).statusCode).toBe(200);
    // The main hospital's configuration, as its own setting pages would have stored it.
    await h.db.deleteFrom('report_templates').where('hospital_id', 'in', [main, other]).execute();
    await h.db.insertInto('report_templates').values([
      { hospital_id: main, template_name: '常规报告', type: 'routine', sub_type: null, is_word_template: 0, layout: '{"blocks":[]}', word_file: null, word_file_name: null, key_words_list: null, is_default: 1, created_at: now, updated_at: now },
      { hospital_id: main, template_name: '冰冻报告', type: 'frozen', sub_type: null, is_word_template: 0, layout: '{"blocks":[]}', word_file: null, word_file_name: null, key_words_list: null, is_default: 0, created_at: now, updated_at: now },
    ]).execute();
    await h.db.deleteFrom('numbering_rules').where('hospital_id', 'in', [main, other]).execute();
    await h.db.insertInto('numbering_rules').values({ hospital_id: main, library: 'routine', name: '常规', prefix: 'P', middle: 'YYYY', connector: '-', length: 5, regex: null, created_at: now, updated_at: now }).execute();
    await h.db.deleteFrom('qc_dict').where('hospital_id', 'in', [main, other]).execute();
    await h.db.insertInto('qc_dict').values([
      { hospital_id: main, type: 'specimen_rejection', name: '标本过少', en_name: 'Too little tissue', code: null, rank: 0, enabled: 1, created_at: now, updated_at: now },
      { hospital_id: other, type: 'specimen_rejection', name: '标本过少', en_name: 'Too little', code: null, rank: 0, enabled: 1, created_at: now, updated_at: now },
    ]).execute();
  });
  afterAll(async () => { await h.close(); });

  it('names the hospitals to copy from, with what they have', async () => {
    const res = await call(h.app, 'GET', URL, { token: branch });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.hospital_id).toBe(other);
    expect(data.parts).toEqual(['report_templates', 'numbering_rules', 'price_items', 'qc_dict']);
    expect(data.here).toMatchObject({ report_templates: 0, numbering_rules: 0, qc_dict: 1 });
    expect(data.sources.find((s: { id: number }) => s.id === main).counts).toMatchObject({ report_templates: 2, numbering_rules: 1, qc_dict: 1 });
  });

  it('copies what the hospital lacks, keeps what it has, and logs the copy', async () => {
    const prices = await countIn('price_items', main);
    await h.db.deleteFrom('price_items').where('hospital_id', '=', other).execute();
    const last = await h.db.selectFrom('operation_logs').select('id').orderBy('id', 'desc').executeTakeFirst();
    const res = await call(h.app, 'POST', URL, { token: branch, payload: { from: main, parts: ['report_templates', 'numbering_rules', 'price_items', 'qc_dict'] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.result).toEqual({
      report_templates: { copied: 2, skipped: 0 }, numbering_rules: { copied: 1, skipped: 0 }, price_items: { copied: prices, skipped: 0 }, qc_dict: { copied: 0, skipped: 1 },
    });
    const logged = await h.db.selectFrom('operation_logs').select(['route', 'hospital_id']).where('id', '>', last?.id ?? 0).execute();
    expect(logged.some((r) => String(r.route).startsWith(URL))).toBe(true);

    const templates = await h.db.selectFrom('report_templates').select(['template_name', 'type', 'is_default', 'layout']).where('hospital_id', '=', other).orderBy('id').execute();
    expect(templates).toEqual([
      { template_name: '常规报告', type: 'routine', is_default: 1, layout: '{"blocks":[]}' }, { template_name: '冰冻报告', type: 'frozen', is_default: 0, layout: '{"blocks":[]}' },
    ]);
    // The branch's own entry stays its own.
    expect((await h.db.selectFrom('qc_dict').select('en_name').where('hospital_id', '=', other).execute()).map((r) => r.en_name)).toEqual(['Too little']);
    // The source is unchanged; copying again copies nothing.
    expect(await countIn('report_templates', main)).toBe(2);
    const again = await call(h.app, 'POST', URL, { token: branch, payload: { from: main, parts: ['report_templates', 'numbering_rules'] } });
    expect(again.json().data.result).toEqual({ report_templates: { copied: 0, skipped: 2 }, numbering_rules: { copied: 0, skipped: 1 } });
  });

  it('refuses its own hospital, a hospital the caller does not belong to, bad parts, and those without the permission', async () => {
    const before = await countIn('report_templates', other);
    const same = await call(h.app, 'POST', URL, { token: branch, lang: 'en-US', payload: { from: other, parts: ['report_templates'] } });
    expect(same.statusCode).toBe(422);
    expect(same.json().message).toMatch(/to itself/);
    const stranger = await h.db.insertInto('hospitals').values({ code: 'H-COPY', name: '外院', en_name: 'Elsewhere', logo: null, created_at: now }).returning('id').executeTakeFirstOrThrow();
    const outside = await call(h.app, 'POST', URL, { token: branch, lang: 'en-US', payload: { from: stranger.id, parts: ['report_templates'] } });
    expect(outside.statusCode, outside.body).toBe(403);
    expect((await call(h.app, 'POST', URL, { token: branch, payload: { from: main, parts: ['users'] } })).statusCode).toBe(422);
    expect((await call(h.app, 'POST', URL, { token: branch, payload: { from: main, parts: [] } })).statusCode).toBe(422);
    expect((await call(h.app, 'POST', URL, { token: registrar, payload: { from: other, parts: ['report_templates'] } })).statusCode).toBe(403);
    expect((await call(h.app, 'GET', URL, { token: registrar })).statusCode).toBe(403);
    expect(await countIn('report_templates', other)).toBe(before);
  });
});
