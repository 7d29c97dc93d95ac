import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPermissions } from '../../server/db/seed/structure.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { call, databases, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';

const CATEGORIES = '/api/collection/categories';
const ITEMS = '/api/collection/items';

/**
 * Spec §3 collection categories and §5 favourites (CaseCollection): per-user rows through the generic
 * resource API's 'user' scope, categories with counts, what deleting a category or a slide does to the
 * favourites, and who may collect.
 */
describe.each(databases)('collections [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let primary: string;
  let auditor: string;
  let technician: string;
  let admin: string;
  let primaryId: number;
  /** Bound through the API in the first hospital: s1 to case P2026-00001, s2 without a case. */
  const slides: Record<'s1' | 's2' | 'foreign', number> = { s1: 0, s2: 0, foreign: 0 };
  let teaching: number;
  let auditorCategory: number;
  let auditorItem: number;

  const itemsOf = async (token: string, query = '') => (await call(app, 'GET', `${ITEMS}/lists?page_size=100${query}`, { token })).json().data;
  const categoriesOf = async (token: string) => (await call(app, 'GET', `${CATEGORIES}/lists?page_size=100`, { token })).json().data.data as { id: number; name: string; item_count: number; user_id: number }[];
  const collect = (token: string, payload: object, lang?: string) => call(app, 'POST', `${ITEMS}/store`, { token, lang, payload });

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-collections-'));
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir });
    await app.ready();
    [primary, auditor, technician, admin] = await Promise.all(['primary', 'auditor', 'technician', 'admin'].map((u) => tokenFor(app, u)));
    primaryId = await userId(h.db, 'primary');
    const tpl = path.join(dataDir, 'tpl.tiff');
    await generateDemoSlide({ out: tpl, width: 600, height: 400, tileSize: 256, seed: 7, slideId: 'COL-7' });
    for (const [key, number] of [['s1', 'P2026-00001'], ['s2', null]] as const) {
      const dir = path.join(dataDir, 'uploads', 'complete', key);
      fs.mkdirSync(dir, { recursive: true });
      fs.copyFileSync(tpl, path.join(dir, `${key}.tiff`));
      const res = await call(app, 'POST', '/api/data/kfb/bind', { token: technician, payload: { path: `uploads/complete/${key}/${key}.tiff`, pathology_number: number } });
      expect(res.statusCode, res.body).toBe(200);
      slides[key] = res.json().data.id;
    }
    // A third hospital none of the doctors works in, with a slide of its own.
    const now = new Date().toISOString();
    const other = await h.db.insertInto('hospitals').values({ code: 'H003', name: '外院', en_name: 'Outside Hospital', logo: null, created_at: now }).returning('id').executeTakeFirstOrThrow();
    const foreign = await h.db.insertInto('slides').values({
      hospital_id: other.id, case_id: null, name: 'FOREIGN-1', file_path: 'slides/elsewhere/foreign-1.tiff', file_size: 0, md5: null, vendor: 'generic',
      width: 10, height: 10, levels: 1, mpp: null, objective_power: null, scan_at: null, tile_size: 256, status: 'ready', has_label: 0, has_macro: 0,
      format_note: null, uploaded_by: null, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    slides.foreign = foreign.id;
  });
  afterAll(async () => {
    await app.close();
    await h.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a doctor\'s own categories: names trimmed, required and unique per user, in words (translated)', async () => {
    const res = await call(app, 'POST', `${CATEGORIES}/store`, { token: primary, payload: { name: '  教学病例  ', user_id: 999 } });
    expect(res.statusCode, res.body).toBe(200);
    // The server sets the owner: a body cannot give the row to someone else.
    expect(res.json().data).toMatchObject({ name: '教学病例', user_id: primaryId, item_count: 0 });
    teaching = res.json().data.id;

    const dup = await call(app, 'POST', `${CATEGORIES}/store`, { token: primary, lang: 'en-US', payload: { name: '教学病例' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('You already have a collection category named "教学病例"');
    expect(dup.json().errors.name).toEqual(['You already have a collection category named "教学病例"']);
    // Another doctor may have a category of the same name.
    const theirs = await call(app, 'POST', `${CATEGORIES}/store`, { token: auditor, payload: { name: '教学病例' } });
    expect(theirs.statusCode, theirs.body).toBe(200);
    auditorCategory = theirs.json().data.id;

    const empty = await call(app, 'POST', `${CATEGORIES}/store`, { token: primary, lang: 'en-US', payload: { name: '   ' } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.name).toEqual(['Category name is required']);
    const long = await call(app, 'POST', `${CATEGORIES}/store`, { token: primary, lang: 'zh-CN', payload: { name: 'x'.repeat(65) } });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.name).toEqual(['分类名称 最多 64 个字符']);
    // Renaming onto another of one's own names is refused too; onto its own name is fine.
    const other = (await call(app, 'POST', `${CATEGORIES}/store`, { token: primary, payload: { name: 'Rare' } })).json().data.id;
    expect((await call(app, 'PATCH', `${CATEGORIES}/update/${other}`, { token: primary, payload: { name: '教学病例' } })).statusCode).toBe(409);
    const renamed = await call(app, 'PATCH', `${CATEGORIES}/update/${other}`, { token: primary, payload: { name: 'Rare tumours' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data.name).toBe('Rare tumours');
    expect((await categoriesOf(primary)).map((c) => c.name)).toEqual(['教学病例', 'Rare tumours']);
  });

  it('collects a slide the user may see, once, into one of their own categories, with what the list shows of it', async () => {
    const res = await collect(primary, { slide_id: slides.s1, category_id: teaching, remark: ' 典型病例 ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      user_id: primaryId, slide_id: slides.s1, category_id: teaching, remark: '典型病例', category_name: '教学病例',
      slide_name: 's1', thumb_url: `/api/data/kfb/thumb/${slides.s1}`, pathology_number: 'P2026-00001', patient_name: '张伟',
    });
    expect(res.json().data.created_at).toBeTruthy();

    const again = await collect(primary, { slide_id: slides.s1 }, 'en-US');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This slide is already in your collection (教学病例)');
    const foreign = await collect(primary, { slide_id: slides.foreign }, 'zh-CN');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('切片不存在，或不属于您所在的医院');
    expect((await collect(primary, { slide_id: 999999 })).statusCode).toBe(404);
    const notMine = await collect(primary, { slide_id: slides.s2, category_id: auditorCategory }, 'en-US');
    expect(notMine.statusCode).toBe(422);
    expect(notMine.json().errors.category_id).toEqual(['The collection category does not exist']);
    const noSlide = await collect(primary, { category_id: teaching }, 'en-US');
    expect(noSlide.statusCode).toBe(422);
    expect(noSlide.json().errors.slide_id).toEqual(['Slide is required']);
    const badId = await collect(primary, { slide_id: 'abc' }, 'en-US');
    expect(badId.statusCode).toBe(422);
    // None of the refusals left a row behind.
    expect((await itemsOf(primary)).total).toBe(1);

    // A select sends ids as text; without a category the slide is uncategorised.
    const loose = await collect(primary, { slide_id: String(slides.s2), category_id: '' });
    expect(loose.statusCode, loose.body).toBe(200);
    expect(loose.json().data).toMatchObject({ slide_id: slides.s2, category_id: null, category_name: null, remark: null, pathology_number: null });
    const twice = await collect(primary, { slide_id: slides.s2 }, 'en-US');
    expect(twice.json().message).toBe('This slide is already in your collection (uncategorised)');
  });

  it('shows a user only their own favourites; another user\'s are not found, not changed and not deleted', async () => {
    const res = await collect(auditor, { slide_id: slides.s1, category_id: auditorCategory });
    expect(res.statusCode, res.body).toBe(200);
    auditorItem = res.json().data.id;

    const mine = await itemsOf(primary);
    expect(mine.total).toBe(2);
    expect(new Set(mine.data.map((r: { user_id: number }) => r.user_id))).toEqual(new Set([primaryId]));
    expect((await categoriesOf(primary)).map((c) => c.id)).not.toContain(auditorCategory);
    // Filtering cannot reach past the scope either.
    expect((await itemsOf(primary, `&params=${encodeURIComponent(JSON.stringify({ id: auditorItem }))}`)).total).toBe(0);

    expect((await call(app, 'GET', `${ITEMS}/item/${auditorItem}`, { token: primary })).statusCode).toBe(404);
    expect((await call(app, 'PATCH', `${ITEMS}/update/${auditorItem}`, { token: primary, payload: { remark: 'mine now' } })).statusCode).toBe(404);
    expect((await call(app, 'PATCH', `${CATEGORIES}/update/${auditorCategory}`, { token: primary, payload: { name: 'taken' } })).statusCode).toBe(404);
    const own = mine.data[0].id;
    const del = await call(app, 'DELETE', `${ITEMS}/destroy`, { token: primary, lang: 'en-US', payload: { ids: [own, auditorItem] } });
    expect(del.statusCode).toBe(404);
    expect(del.json().message).toBe('Record not found');
    expect((await call(app, 'DELETE', `${CATEGORIES}/destroy`, { token: primary, payload: { ids: [auditorCategory] } })).statusCode).toBe(404);
    const left = await h.db.selectFrom('collections').select('id').where('id', 'in', [own, auditorItem]).execute();
    expect(left).toHaveLength(2);
    const theirs = await h.db.selectFrom('collections').select('remark').where('id', '=', auditorItem).executeTakeFirstOrThrow();
    expect(theirs.remark).toBeNull();
    // The administrator's favourites are theirs alone too: admin sees none of the doctors'.
    expect((await itemsOf(admin)).total).toBe(0);
  });

  it('counts each category\'s favourites, and all and uncategorised through the count API; moves and remarks', async () => {
    expect((await categoriesOf(primary)).find((c) => c.id === teaching)?.item_count).toBe(1);
    const tabs = encodeURIComponent(JSON.stringify([{ key: 'all' }, { key: 'none', filter: [{ column: 'category_id', operator: 'empty' }] }]));
    const counts = async () => (await call(app, 'GET', `${ITEMS}/count?tabs=${tabs}`, { token: primary })).json().data;
    expect(await counts()).toEqual({ all: 2, none: 1 });

    const s2 = (await itemsOf(primary, `&params=${encodeURIComponent(JSON.stringify({ slide_id: slides.s2 }))}`)).data[0];
    const moved = await call(app, 'PATCH', `${ITEMS}/update/${s2.id}`, { token: primary, payload: { category_id: teaching, remark: '待复习' } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ category_id: teaching, category_name: '教学病例', remark: '待复习' });
    expect(await counts()).toEqual({ all: 2, none: 0 });
    expect((await categoriesOf(primary)).find((c) => c.id === teaching)?.item_count).toBe(2);
    const inTeaching = await itemsOf(primary, `&params=${encodeURIComponent(JSON.stringify({ category_id: teaching }))}`);
    expect(inTeaching.total).toBe(2);
    // The keyword box finds a favourite by its slide's name or its remark.
    expect((await itemsOf(primary, `&search=${encodeURIComponent('复习')}`)).total).toBe(1);
    expect((await itemsOf(primary, '&search=s1')).data.map((r: { slide_id: number }) => r.slide_id)).toEqual([slides.s1]);
    // ...and by its slide's case: pathology number and patient, two joins away.
    expect((await itemsOf(primary, '&search=P2026-00001')).data.map((r: { slide_id: number }) => r.slide_id)).toEqual([slides.s1]);
    expect((await itemsOf(primary, `&search=${encodeURIComponent('张伟')}`)).data.map((r: { slide_id: number }) => r.slide_id)).toEqual([slides.s1]);
    const byNumber = encodeURIComponent(JSON.stringify([{ column: 'pathology_number', operator: '=', value: 'P2026-00001', condition: 'except' }]));
    expect((await itemsOf(primary, `&filter=${byNumber}`)).data.map((r: { slide_id: number }) => r.slide_id)).toEqual([slides.s2]);

    const long = await call(app, 'PATCH', `${ITEMS}/update/${s2.id}`, { token: primary, lang: 'en-US', payload: { remark: 'x'.repeat(501) } });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.remark).toEqual(['Remark allows at most 500 characters']);
    const cleared = await call(app, 'PATCH', `${ITEMS}/update/${s2.id}`, { token: primary, payload: { remark: '  ', category_id: null } });
    expect(cleared.json().data).toMatchObject({ remark: null, category_id: null });
    expect(await counts()).toEqual({ all: 2, none: 1 });
  });

  it('deleting a category keeps its slides, now uncategorised', async () => {
    const temp = (await call(app, 'POST', `${CATEGORIES}/store`, { token: primary, payload: { name: 'Temporary' } })).json().data.id;
    const s2 = (await itemsOf(primary, `&params=${encodeURIComponent(JSON.stringify({ slide_id: slides.s2 }))}`)).data[0];
    await call(app, 'PATCH', `${ITEMS}/update/${s2.id}`, { token: primary, payload: { category_id: temp } });
    expect((await categoriesOf(primary)).find((c) => c.id === temp)?.item_count).toBe(1);
    const del = await call(app, 'DELETE', `${CATEGORIES}/destroy`, { token: primary, payload: { ids: [temp] } });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().data.deleted).toBe(1);
    const after = await call(app, 'GET', `${ITEMS}/item/${s2.id}`, { token: primary });
    expect(after.statusCode).toBe(200);
    expect(after.json().data).toMatchObject({ slide_id: slides.s2, category_id: null, category_name: null });
    expect((await itemsOf(primary)).total).toBe(2);
  });

  it('deleting a slide removes everyone\'s favourites of it', async () => {
    expect(await h.db.selectFrom('collections').select('user_id').where('slide_id', '=', slides.s1).execute()).toHaveLength(2);
    const res = await call(app, 'DELETE', '/api/data/kfb/destroy', { token: admin, payload: { ids: [slides.s1] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await h.db.selectFrom('collections').select('id').where('slide_id', '=', slides.s1).execute()).toHaveLength(0);
    expect((await itemsOf(primary)).data.map((r: { slide_id: number }) => r.slide_id)).toEqual([slides.s2]);
    expect((await itemsOf(auditor)).total).toBe(0);
    // The categories stay, emptied.
    expect((await categoriesOf(auditor)).map((c) => c.item_count)).toEqual([0]);
  });

  it('collects from a slide list\'s row action: the slide in the address, the category as the prompt sends it', async () => {
    const collectFrom = (token: string, slide: number, payload?: object, lang?: string) =>
      call(app, 'POST', `${ITEMS}/collect/${slide}`, { token, lang, ...(payload ? { payload } : {}) });
    // No prompt answer: uncategorised.
    const plain = await collectFrom(admin, slides.s2);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().data).toMatchObject({ slide_id: slides.s2, category_id: null, slide_name: 's2' });
    // A name typed into the select-or-type prompt finds or makes the user's category of that name.
    const typed = await collectFrom(auditor, slides.s2, { category_id: ' Neuropathology ', remark: 'glioma?' });
    expect(typed.statusCode, typed.body).toBe(200);
    expect(typed.json().data).toMatchObject({ category_name: 'Neuropathology', remark: 'glioma?' });
    const neuro = (await categoriesOf(auditor)).find((c) => c.name === 'Neuropathology');
    expect(neuro?.item_count).toBe(1);
    const again = await collectFrom(auditor, slides.s2, { category_id: 'Another' }, 'en-US');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This slide is already in your collection (Neuropathology)');
    // A refused collect makes no category out of the typed name.
    expect((await categoriesOf(auditor)).map((c) => c.name)).not.toContain('Another');
    expect((await collectFrom(auditor, slides.foreign, { category_id: 'Outside' })).statusCode).toBe(404);
    expect((await collectFrom(auditor, slides.s1, { category_id: 'Outside' })).statusCode).toBe(404);
    expect((await categoriesOf(auditor)).map((c) => c.name)).not.toContain('Outside');
    // An id as the prompt sends it (text) must be one of the user's own categories.
    await call(app, 'DELETE', `${ITEMS}/destroy`, { token: admin, payload: { ids: [plain.json().data.id] } });
    const foreignCategory = await collectFrom(admin, slides.s2, { category_id: String(neuro!.id) }, 'en-US');
    expect(foreignCategory.statusCode).toBe(422);
    expect(foreignCategory.json().errors.category_id).toEqual(['The collection category does not exist']);
    const own = (await call(app, 'POST', `${CATEGORIES}/store`, { token: admin, payload: { name: 'Admin picks' } })).json().data.id;
    const byId = await collectFrom(admin, slides.s2, { category_id: String(own) });
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json().data).toMatchObject({ category_id: own, category_name: 'Admin picks' });
    expect((await collectFrom(technician, slides.s2)).statusCode).toBe(403);
  });

  it('refuses a technician (no slide_collect), translated', async () => {
    const list = await call(app, 'GET', `${ITEMS}/lists`, { token: technician, lang: 'en-US' });
    expect(list.statusCode).toBe(403);
    expect(list.json().message).toBe('You do not have permission for this action (requires: slide_collect)');
    const store = await call(app, 'POST', `${CATEGORIES}/store`, { token: technician, lang: 'zh-CN', payload: { name: 'mine' } });
    expect(store.statusCode).toBe(403);
    expect(store.json().message).toBe('没有权限执行此操作（需要权限：slide_collect）');
    expect((await call(app, 'POST', `${ITEMS}/store`, { token: technician, payload: { slide_id: slides.s2 } })).statusCode).toBe(403);
    expect(await h.db.selectFrom('collection_categories').select('id').where('name', '=', 'mine').execute()).toHaveLength(0);
  });

  it('gives a new release\'s permission to the roles roles.json names, on an installation seeded before it', async () => {
    // As if slide_collect came with an upgrade: gone from the catalogue and from every role.
    await h.db.deleteFrom('permissions').where('code', '=', 'slide_collect').execute();
    for (const role of await h.db.selectFrom('roles').select(['id', 'extra']).execute()) {
      const held = (JSON.parse(role.extra) as string[]).filter((c) => c !== 'slide_collect');
      await h.db.updateTable('roles').set({ extra: JSON.stringify(held) }).where('id', '=', role.id).execute();
    }
    await seedPermissions(h.db);
    const holders = (await h.db.selectFrom('roles').select(['identification', 'extra']).execute())
      .filter((r) => (JSON.parse(r.extra) as string[]).includes('slide_collect')).map((r) => r.identification).sort();
    expect(holders).toEqual(['admin', 'auditing_doctor', 'follow_up_doctor', 'primary_doctor']);
  });
});
