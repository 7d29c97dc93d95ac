import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * The QC dictionary (spec §7 config/dict/qc, issue 16) on both databases: lists by type in rank order, store_many,
 * update_many (all or nothing) and rank (PATCH as the spec has them, POST kept); qc_manage to change, anyone in the hospital to read; another hospital's entries
 * as absent as missing ones; duplicates and bad input refused in both languages, changing nothing.
 */
describe.each(databases)('QC dictionary [%s]', (kind) => {
  let h: Harness;
  let qc: string;
  let registrar: string;
  const base = '/api/config/dict/qc';

  beforeAll(async () => {
    h = await startApp(kind);
    qc = await tokenFor(h.app, 'qc');
    registrar = await tokenFor(h.app, 'registrar');
  });
  afterAll(async () => h?.close());

  const list = async (token: string, type: string) => (await call(h.app, 'GET', `${base}/lists?type=${type}`, { token })).json().data as { id: number; name: string; rank: number; enabled: number }[];

  it('stores a list, reads it in rank order, renames, disables and re-ranks, all in the working hospital', async () => {
    const made = await call(h.app, 'POST', `${base}/store_many`, { token: qc, payload: { type: 'specimen_rejection', items: [{ name: '标本量不足' }, { name: '固定液不足' }, { name: '标签不清', en_name: 'Label unreadable' }] } });
    expect(made.statusCode, made.body).toBe(200);
    const [a, b, c] = made.json().data.ids as number[];
    expect((await list(registrar, 'specimen_rejection')).map((r) => r.name)).toEqual(['标本量不足', '固定液不足', '标签不清']);
    expect((await call(h.app, 'PATCH', `${base}/rank/${c}`, { token: qc, payload: { rank: 0 } })).statusCode).toBe(200);
    const updated = await call(h.app, 'PATCH', `${base}/update_many`, { token: qc, payload: { items: [{ id: a, name: '标本量过少' }, { id: b, enabled: 0 }] } });
    expect(updated.statusCode, updated.body).toBe(200);
    const rows = await list(registrar, 'specimen_rejection');
    expect(rows.map((r) => [r.name, r.enabled])).toEqual([['标签不清', 1], ['标本量过少', 1], ['固定液不足', 0]]);
    expect(await list(registrar, 'timeout_reason')).toEqual([]);
  });

  it('refuses duplicates, other hospitals’ entries, readers and bad input, changing nothing', async () => {
    const dup = await call(h.app, 'POST', `${base}/store_many`, { token: qc, lang: 'en-US', payload: { type: 'specimen_rejection', items: [{ name: '新原因' }, { name: '标签不清' }] } });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().message).toBe('The “specimen_rejection” list already has: 标签不清');
    expect((await list(qc, 'specimen_rejection')).map((r) => r.name)).not.toContain('新原因');

    const [general, branch] = (await h.db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id);
    expect(general).toBeLessThan(branch!);
    const now = new Date().toISOString();
    const foreign = await h.db.insertInto('qc_dict').values({ hospital_id: branch!, type: 'specimen_rejection', name: '分院原因', en_name: null, code: null, rank: 1, enabled: 1, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    const mine = (await list(qc, 'specimen_rejection'))[0]!;
    const cross = await call(h.app, 'PATCH', `${base}/update_many`, { token: qc, lang: 'zh-CN', payload: { items: [{ id: mine.id, name: '改了' }, { id: foreign.id, name: '越权' }] } });
    expect(cross.statusCode).toBe(404);
    expect(cross.json().message).toBe(`以下字典项不存在或不属于本院：${foreign.id}`);
    expect((await list(qc, 'specimen_rejection')).map((r) => r.name)).not.toContain('改了');
    expect((await call(h.app, 'PATCH', `${base}/rank/${foreign.id}`, { token: qc, payload: { rank: 3 } })).statusCode).toBe(404);
    expect((await list(qc, 'specimen_rejection')).map((r) => r.name)).not.toContain('分院原因');

    expect((await call(h.app, 'POST', `${base}/store_many`, { token: registrar, payload: { type: 'x', items: [{ name: 'y' }] } })).statusCode).toBe(403);
    for (const payload of [{ type: 'Bad Type', items: [{ name: 'y' }] }, { type: 'ok_type', items: [] }, { type: 'ok_type', items: [{ name: '' }] }, { type: 'ok_type', items: [{ name: 'y', extra: 1 }] }]) {
      expect((await call(h.app, 'POST', `${base}/store_many`, { token: qc, payload })).statusCode, JSON.stringify(payload)).toBe(422);
    }
    expect(await list(qc, 'ok_type')).toEqual([]);
  });

  it('changes with PATCH as spec §7 has it, and with POST for older callers; each change is logged, a reader is refused', async () => {
    const made = await call(h.app, 'POST', `${base}/store_many`, { token: qc, payload: { type: 'special_advice', items: [{ name: '加做免疫组化' }, { name: '深切' }] } });
    const [a, b] = made.json().data.ids as number[];
    const logged = (method: string) => h.db.selectFrom('operation_logs').select(['route', 'status_code']).where('method', '=', method)
      .where('route', 'in', [`${base}/update_many`, `${base}/rank/:id`]).orderBy('id').execute();
    for (const method of ['PATCH', 'POST'] as const) {
      const before = (await logged(method)).length;
      const renamed = await call(h.app, method, `${base}/update_many`, { token: qc, payload: { items: [{ id: a, name: `免疫组化 ${method}` }] } });
      expect(renamed.statusCode, renamed.body).toBe(200);
      const ranked = await call(h.app, method, `${base}/rank/${b}`, { token: qc, payload: { rank: method === 'PATCH' ? 0 : 5 } });
      expect(ranked.json().data).toEqual({ id: b, rank: method === 'PATCH' ? 0 : 5 });
      expect((await list(qc, 'special_advice')).map((r) => r.name)).toEqual(method === 'PATCH' ? ['深切', '免疫组化 PATCH'] : ['免疫组化 POST', '深切']);
      const after = await logged(method);
      expect(after.slice(before).map((l) => [l.route, l.status_code]).sort()).toEqual([[`${base}/rank/:id`, 200], [`${base}/update_many`, 200]]);
    }
    const refused = await call(h.app, 'PATCH', `${base}/update_many`, { token: registrar, payload: { items: [{ id: a, name: '无权' }] } });
    expect(refused.statusCode).toBe(403);
    const bad = await call(h.app, 'PATCH', `${base}/rank/${b}`, { token: qc, lang: 'en-US', payload: { rank: -1 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toMatch(/\S/);
    expect((await list(qc, 'special_advice')).map((r) => [r.name, r.rank])).toEqual([['免疫组化 POST', 1], ['深切', 5]]);
  });

  it('stores one of two parallel stores of the same name, refusing the other', async () => {
    const store = () => call(h.app, 'POST', `${base}/store_many`, { token: qc, payload: { type: 'fixation', items: [{ name: '10% 中性福尔马林' }] } });
    const codes = (await Promise.all([store(), store(), store()])).map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 422, 422]);
    expect((await list(qc, 'fixation')).map((r) => r.name)).toEqual(['10% 中性福尔马林']);
  });
});
