import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Labels put on slides by hand (issue 16): slide_label puts one label on chosen slides and takes it off; another
 * role is refused, another hospital's slide and an unknown label answer 404 with nothing written, parallel puts keep
 * one row; the slide list shows the labels; LabelStatistics (searchLabelPercent) and the labelling record reflect
 * each change; the operation log has every call.
 */
describe.each(databases)('labels on slides by hand [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  let hospital: number;
  let slides: number[];
  let theirs: number;
  let breast: number;
  let node: number;

  const post = (who: string, url: string, payload: object, lang = 'en-US') => call(h.app, 'POST', url, { token: t[who], lang, payload });
  const rowsOf = () => h.db.selectFrom('slide_labels').select(['slide_id', 'label_id', 'source']).orderBy('slide_id').orderBy('label_id').execute();
  const percent = async () => {
    const res = await post('admin', '/api/config/labels/searchLabelPercent', { period: 'thisMonth' });
    expect(res.statusCode, res.body).toBe(200);
    return Object.fromEntries((res.json().data.data as { id: number; count: number; percent: number }[]).map((r) => [r.id, [r.count, r.percent]]));
  };

  beforeAll(async () => {
    h = await startApp(kind);
    for (const u of ['admin', 'primary', 'registrar', 'qc']) t[u] = await tokenFor(h.app, u);
    const primary = await userId(h.db, 'primary');
    hospital = (await h.db.selectFrom('user_hospitals').select('hospital_id').where('user_id', '=', primary).orderBy('hospital_id').executeTakeFirstOrThrow()).hospital_id;
    await call(h.app, 'POST', '/api/auth/switch_hospital', { token: t.admin, payload: { hospital_id: hospital } });
    const now = new Date().toISOString();
    const foreign = (await h.db.insertInto('hospitals').values({ name: '外院', en_name: 'Elsewhere', code: 'HL99', logo: null, created_at: now }).returning('id').executeTakeFirstOrThrow()).id;
    const slide = (hid: number, name: string) => h.db.insertInto('slides').values({
      hospital_id: hid, case_id: null, name, file_path: name, file_size: 1, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
    } as never).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
    slides = [await slide(hospital, 'ML-1.svs'), await slide(hospital, 'ML-2.svs')];
    theirs = await slide(foreign, 'ML-X.svs');
    const label = (name: string, en: string) => h.db.insertInto('labels').values({ name, en_name: en, parent_id: null, color: null, description: null, rank: 0, created_at: now, updated_at: now })
      .returning('id').executeTakeFirstOrThrow().then((r) => r.id);
    breast = await label('乳腺', 'Breast');
    node = await label('淋巴结', 'Lymph node');
  }, 60_000);
  afterAll(async () => h?.close());

  it('a doctor puts a label on slides; the list, LabelStatistics and the record show it; a repeat adds nothing', async () => {
    const choices = await call(h.app, 'GET', '/api/config/labels/choices', { token: t.primary });
    expect(choices.statusCode).toBe(200);
    expect(choices.json().data.map((l: { id: number }) => l.id)).toEqual(expect.arrayContaining([breast, node]));

    const put = await post('primary', '/api/config/labels/slides/put', { ids: slides, label_id: breast });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.added).toEqual(slides);
    await post('primary', '/api/config/labels/slides/put', { ids: [slides[0]], label_id: node });
    expect(await rowsOf()).toEqual([
      { slide_id: slides[0], label_id: breast, source: 'manual' }, { slide_id: slides[0], label_id: node, source: 'manual' },
      { slide_id: slides[1], label_id: breast, source: 'manual' },
    ]);
    const again = await post('primary', '/api/config/labels/slides/put', { ids: slides, label_id: breast });
    expect(again.json().data.added).toEqual([]);
    expect(await rowsOf()).toHaveLength(3);

    const listed = await call(h.app, 'GET', `/api/data/kfb/lists?params=${encodeURIComponent(JSON.stringify({ name: 'ML-1.svs' }))}`, { token: t.primary });
    const row = (listed.json().data.data as { id: number; labels: { id: number; en_name: string }[] }[]).find((r) => r.id === slides[0]);
    expect(row?.labels.map((l) => l.en_name)).toEqual(['Breast', 'Lymph node']);

    expect(await percent()).toMatchObject({ [breast]: [2, 66.7], [node]: [1, 33.3] });
    const record = (await call(h.app, 'GET', '/api/config/labels/maintenance_record', { token: t.admin })).json().data;
    expect(record.data[0]).toMatchObject({ slide_id: slides[0], label_id: node, source: 'manual' });
    const logged = await h.db.selectFrom('operation_logs').select('route').where('route', '=', '/api/config/labels/slides/put').execute();
    expect(logged.length).toBe(3);
  });

  it('takes a label off: the statistics drop it', async () => {
    const res = await post('qc', '/api/config/labels/slides/remove', { ids: slides, label_id: breast });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.removed).toBe(2);
    expect(await rowsOf()).toEqual([{ slide_id: slides[0], label_id: node, source: 'manual' }]);
    expect(await percent()).toMatchObject({ [breast]: [0, 0], [node]: [1, 100] });
    expect(await h.db.selectFrom('operation_logs').select('route').where('route', '=', '/api/config/labels/slides/remove').execute()).toHaveLength(1);
  });

  it('refuses another role, another hospital\'s slide, an unknown label and a bad body, changing nothing', async () => {
    const before = await rowsOf();
    const role = await post('registrar', '/api/config/labels/slides/put', { ids: [slides[1]], label_id: breast });
    expect(role.statusCode).toBe(403);
    expect((await call(h.app, 'GET', '/api/config/labels/choices', { token: t.registrar })).statusCode).toBe(403);
    const foreign = await post('primary', '/api/config/labels/slides/put', { ids: [slides[1], theirs], label_id: breast }, 'zh-CN');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('切片信息未找到');
    expect((await post('primary', '/api/config/labels/slides/remove', { ids: [theirs], label_id: node })).statusCode).toBe(404);
    const unknown = await post('primary', '/api/config/labels/slides/put', { ids: [slides[1]], label_id: 999999 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('The label does not exist');
    expect((await post('primary', '/api/config/labels/slides/put', { ids: [], label_id: breast })).statusCode).toBe(422);
    expect((await post('primary', '/api/config/labels/slides/put', { ids: Array.from({ length: 501 }, (_, i) => i + 1), label_id: breast })).statusCode).toBe(422);
    expect((await post('primary', '/api/config/labels/slides/put', { ids: [slides[1]], label_id: breast, source: 'auto' })).statusCode).toBe(422);
    expect(await rowsOf()).toEqual(before);
  });

  it('parallel puts of one label on one slide keep one row', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => post('primary', '/api/config/labels/slides/put', { ids: [slides[1]], label_id: node })));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect((await rowsOf()).filter((r) => r.slide_id === slides[1])).toEqual([{ slide_id: slides[1], label_id: node, source: 'manual' }]);
  });
});
