import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';
import slideRead from '../../schemas/pages/SlideRead.json';

/**
 * SlideRead (spec §2): the signed-in doctor's reading list, the slides of the cases allotted to them. The page's
 * tab filters say `"$me"`; the server puts the signed-in user there, so each doctor gets their own list.
 */
describe.each(databases)('slide reading list [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let primary: string;
  let auditor: string;
  const names = { mine: 'READ-MINE', done: 'READ-DONE', theirs: 'READ-THEIRS', none: 'READ-NONE' };

  beforeAll(async () => {
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir: '/nonexistent-data' });
    await app.ready();
    [primary, auditor] = await Promise.all(['primary', 'auditor'].map((u) => tokenFor(app, u)));
    const hospital = (await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const cases = await h.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital).orderBy('id').limit(4).execute();
    const [me, them] = [await userId(h.db, 'primary'), await userId(h.db, 'auditor')];
    const allot = (id: number, doctor: number | null, phase: string) => h.db.updateTable('cases').set({ first_doctor: doctor, main_phase: phase }).where('id', '=', id).execute();
    await allot(cases[0]!.id, me, 'diagnosis');
    await allot(cases[1]!.id, me, 'archive');
    await allot(cases[2]!.id, them, 'diagnosis');
    await allot(cases[3]!.id, null, 'diagnosis');
    const now = new Date().toISOString();
    const rows = [[names.mine, cases[0]!.id], [names.done, cases[1]!.id], [names.theirs, cases[2]!.id], [names.none, cases[3]!.id]] as const;
    await h.db.insertInto('slides').values(rows.map(([name, caseId]) => ({
      hospital_id: hospital, case_id: caseId, name, file_path: `slides/${name}.tiff`, file_size: 1, md5: null, vendor: null, width: 10, height: 10,
      levels: 1, mpp: 0.25, objective_power: 40, scan_at: null, tile_size: 256, status: 'ready' as const, has_label: 0, has_macro: 0,
      format_note: null, progress: null, uploaded_by: null, created_at: now, updated_at: now,
    }))).execute();
  });
  afterAll(async () => {
    await app.close();
    await h.close();
  });

  /** The page's own tab filters, as the engine sends them (`field` is the wire's `column`). */
  const tabFilter = (key: string) => slideRead.list.tabs.find((t) => t.key === key)!.filter.map(({ field, ...c }) => ({ column: field, ...c }));
  const listed = async (token: string, tab: string) => {
    const res = await call(app, 'GET', `/api/data/kfb/lists?filter=${encodeURIComponent(JSON.stringify(tabFilter(tab)))}&page_size=100`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.data as { name: string }[]).map((r) => r.name).filter((n) => n.startsWith('READ-')).sort();
  };

  it('lists the slides of the cases allotted to the signed-in doctor, those in diagnosis under "To read"', async () => {
    expect(await listed(primary, 'reading')).toEqual([names.mine]);
    expect(await listed(primary, 'mine')).toEqual([names.done, names.mine].sort());
    expect(await listed(auditor, 'reading')).toEqual([names.theirs]);
  });

  it('counts each tab per doctor', async () => {
    const tabs = JSON.stringify(slideRead.list.tabs.map((t) => ({ key: t.key, filter: tabFilter(t.key) })));
    const res = await call(app, 'GET', `/api/data/kfb/count?tabs=${encodeURIComponent(tabs)}&search=READ-`, { token: primary });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ reading: 1, mine: 2 });
  });

  it('answers a non-number in place of a user with a 422 that lists nothing', async () => {
    const bad = JSON.stringify([{ column: 'reader', operator: '=', value: '$you' }]);
    const res = await call(app, 'GET', `/api/data/kfb/lists?filter=${encodeURIComponent(bad)}`, { token: primary, lang: 'en-US' });
    expect(res.statusCode).toBe(422);
  });
});
