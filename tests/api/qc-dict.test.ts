import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * The QC dictionary (spec §7 config/dict/qc, issue 16) on both databases: lists by type in rank order, store_many,
 * update_many (all or nothing), rank; qc_manage to change, anyone in the hospital to read; another hospital's entries
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
    expect((await call(h.app, 'POST', `${base}/rank/${c}`, { token: qc, payload: { rank: 0 } })).statusCode).toBe(200);
    const updated = await call(h.app, 'POST', `${base}/update_many`, { token: qc, payload: { items: [{ id: a, name: '标本量过少' }, { id: b, enabled: 0 }] } });
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
    const cross = await call(h.app, 'POST', `${base}/update_many`, { token: qc, lang: 'zh-CN', payload: { items: [{ id: mine.id, name: '改了' }, { id: foreign.id, name: '越权' }] } });
    expect(cross.statusCode).toBe(404);
    expect(cross.json().message).toBe(`以下字典项不存在或不属于本院：${foreign.id}`);
    expect((await list(qc, 'specimen_rejection')).map((r) => r.name)).not.toContain('改了');
    expect((await call(h.app, 'POST', `${base}/rank/${foreign.id}`, { token: qc, payload: { rank: 3 } })).statusCode).toBe(404);
    expect((await list(qc, 'specimen_rejection')).map((r) => r.name)).not.toContain('分院原因');

    expect((await call(h.app, 'POST', `${base}/store_many`, { token: registrar, payload: { type: 'x', items: [{ name: 'y' }] } })).statusCode).toBe(403);
    for (const payload of [{ type: 'Bad Type', items: [{ name: 'y' }] }, { type: 'ok_type', items: [] }, { type: 'ok_type', items: [{ name: '' }] }, { type: 'ok_type', items: [{ name: 'y', extra: 1 }] }]) {
      expect((await call(h.app, 'POST', `${base}/store_many`, { token: qc, payload })).statusCode, JSON.stringify(payload)).toBe(422);
    }
    expect(await list(qc, 'ok_type')).toEqual([]);
  });

  it('stores one of two parallel stores of the same name, refusing the other', async () => {
    const store = () => call(h.app, 'POST', `${base}/store_many`, { token: qc, payload: { type: 'fixation', items: [{ name: '10% 中性福尔马林' }] } });
    const codes = (await Promise.all([store(), store(), store()])).map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 422, 422]);
    expect((await list(qc, 'fixation')).map((r) => r.name)).toEqual(['10% 中性福尔马林']);
  });
});
