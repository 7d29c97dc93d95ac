import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, seal, startApp, tokenFor, type Harness } from './harness.js';

/**
 * Subspecialty directories (spec §6) everywhere a case shows beyond its own pages: statistics and the dashboard,
 * label counts, lookups by pathology number, reading meetings, messages, shares, collections and the section log.
 * As in subspecialties.test.ts, the general hospital's P2026-00002 is filed under Breast (A), P2026-00001 under
 * Gastrointestinal (B) and F2026-00001 under none; each has a slide. A reader limited to Breast (a role holding every
 * permission these places need) sees the Breast and the unfiled case there and nothing of the GI one, while an
 * administrator sees all three.
 */
describe.each(databases)('subspecialty directories reach every place a case shows [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let reader: string;
  let readerId: number;
  let general: number;
  const dir: Record<string, number> = {};
  const kase: Record<string, number> = {};
  const slideOf: Record<string, number> = {};
  const number: Record<string, string> = { gi: 'P2026-00001', breast: 'P2026-00002', unfiled: 'F2026-00001' };
  const DAY = '2020-01-15';
  const AT = `${DAY}T12:00:00.000Z`;
  const KEYS = ['gi', 'breast', 'unfiled'];

  const roleId = async (identification: string) => (await h.db.selectFrom('roles').select('id').where('identification', '=', identification).executeTakeFirstOrThrow()).id;
  const get = (token: string, url: string) => call(h.app, 'GET', url, { token, lang: 'en-US' });
  const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
  /** Moves a case to another directory behind the API's back (as an administrator's re-filing would). */
  const file = (key: string, directory: number | null) => h.db.updateTable('cases').set({ subspecialty_id: directory }).where('id', '=', kase[key]).execute();

  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
    general = (await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    for (const d of await h.db.selectFrom('subspecialties').select(['id', 'code']).where('hospital_id', '=', general).execute()) dir[d.code!] = d.id;
    const now = new Date().toISOString();
    for (const k of KEYS) {
      kase[k] = (await h.db.selectFrom('cases').select('id').where('hospital_id', '=', general).where('pathology_number', '=', number[k]).executeTakeFirstOrThrow()).id;
      // Registered on a day of their own, open and unsigned: the statistics below count exactly these three.
      await h.db.updateTable('cases').set({ registration_at: AT, sample_at: null, sign_at: null }).where('id', '=', kase[k]).execute();
      slideOf[k] = (await h.db.insertInto('slides').values({
        hospital_id: general, case_id: kase[k], name: `REACH-${k}`, file_path: `slides/x/REACH-${k}.tiff`, file_size: 0, md5: null, vendor: 'generic',
        width: 10_000, height: 8_000, levels: 6, mpp: 0.25, objective_power: 40, scan_at: null, tile_size: 256, status: 'ready', has_label: 0, has_macro: 0,
        format_note: null, uploaded_by: null, created_at: AT, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow()).id;
      await h.db.insertInto('section_logs').values({ slide_id: slideOf[k], slide_name: `REACH-${k}`, case_id: kase[k], user_id: null, username: 'someone', action: 'view', detail: null, created_at: AT }).execute();
      await h.db.insertInto('slide_qc').values({
        hospital_id: general, slide_id: slideOf[k], blur_share: null, focus_status: 'done', grade: 'qualified', reasons: null, suggested_reasons: null,
        judge: null, remark: null, qc_by: null, qc_at: AT, version: 1, created_at: AT, updated_at: AT,
      }).execute();
      await h.db.insertInto('case_charges').values({
        hospital_id: general, case_id: kase[k], order_id: null, charge_key: `reach-${k}`, item: 'Reach', kind: 'case', quantity: 1, unit_price_cents: 1000, amount_cents: 1000, charged_by: null, charged_at: AT,
      }).execute();
    }
    // Every permission the places under test ask for, and no administrator's identification.
    await h.db.insertInto('roles').values({
      name: '目录读者', en_name: 'Directory reader', identification: 'directory_reader', description: null, created_at: now,
      extra: JSON.stringify(['case_view', 'slide_view', 'slide_collect', 'slide_upload', 'slide_label', 'scan_access', 'income_view', 'log_view', 'label_manage', 'meeting_manage']),
    }).execute();
    const made = await call(h.app, 'POST', '/api/system_management/users/store', { token: admin, payload: {
      name: 'reachreader', realname: 'Reach Reader', password: await seal(h.app, 'dsms-demo'), password_confirmation: await seal(h.app, 'dsms-demo'),
      status: 1, hospital_ids: [general], role_ids: [await roleId('directory_reader'), await roleId('primary_doctor')], subspecialty_ids: [dir.breast],
    } });
    expect(made.statusCode, made.body).toBe(200);
    readerId = made.json().data.id;
    reader = await tokenFor(h.app, 'reachreader');
  }, 60_000);
  afterAll(async () => h?.close());

  it('statistics count only the reader’s directories and unfiled cases: cases, timeouts, slides, views, QC grades, income', async () => {
    const asks: [kind: string, series: string, each: number][] = [
      ['workload', 'registered', 1], ['timeout', 'registered', 1], ['slides', 'ready', 1], ['slide_views', 'views', 1], ['scan_access', 'qualified', 1], ['income', 'income_total', 10],
    ];
    for (const [stat, series, each] of asks) {
      const url = `/api/statistic/${stat}?from=${DAY}&to=${DAY}&hospital_id=${general}`;
      const all = await get(admin, url);
      const mine = await get(reader, url);
      expect(all.statusCode, all.body).toBe(200);
      expect(mine.statusCode, mine.body).toBe(200);
      expect(all.json().data.totals[series], stat).toBe(3 * each);
      expect(mine.json().data.totals[series], stat).toBe(2 * each);
    }
    // Filed under Breast, the GI case counts for the reader too: it was left out for its directory, nothing else.
    await file('gi', dir.breast);
    expect((await get(reader, `/api/statistic/workload?from=${DAY}&to=${DAY}&hospital_id=${general}`)).json().data.totals.registered).toBe(3);
    await file('gi', dir.gi);
  });

  it('the dashboard’s case tiles count only the reader’s cases', async () => {
    const over = async (token: string) => {
      const res = await get(token, '/api/statistic/dashboard');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.timeouts.over as number;
    };
    const [readerBefore, adminBefore] = [await over(reader), await over(admin)];
    // All three were registered in 2020 and are open: overdue. The GI one joins the reader's count only once it is theirs.
    await file('gi', dir.breast);
    expect(await over(reader)).toBe(readerBefore + 1);
    await file('gi', dir.gi);
    expect(await over(reader)).toBe(readerBefore);
    expect(await over(admin)).toBe(adminBefore);
  });

  it('label counts, the labelling record and labelling a slide leave the GI case’s slide out', async () => {
    const label = (await h.db.insertInto('labels').values({ name: '覆盖标签', en_name: 'Reach label', parent_id: null, color: null, description: null, rank: 0, created_at: AT, updated_at: AT })
      .returning('id').executeTakeFirstOrThrow()).id;
    await h.db.insertInto('slide_labels').values(KEYS.map((k) => ({ hospital_id: general, slide_id: slideOf[k], label_id: label, source: 'manual' as const, created_by: null, created_at: AT }))).execute();
    const percent = async (token: string) => {
      const res = await call(h.app, 'POST', '/api/config/labels/searchLabelPercent', { token, payload: { from: DAY, to: DAY } });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.data as { id: number; count: number }[]).find((l) => l.id === label)!.count;
    };
    expect(await percent(admin)).toBe(3);
    expect(await percent(reader)).toBe(2);
    const record = (await get(reader, '/api/config/labels/maintenance_record?page_size=200')).json().data;
    const recorded = (record.data as { slide_id: number }[]).map((r) => r.slide_id);
    expect(recorded).toEqual(expect.arrayContaining([slideOf.breast, slideOf.unfiled]));
    expect(recorded).not.toContain(slideOf.gi);
    expect(record.total).toBe(record.data.length);
    const auto = await get(reader, `/api/config/labels/auto_label/${slideOf.gi}`);
    expect(auto.statusCode).toBe(404);
    expect(auto.json().message).toBe((await get(reader, '/api/config/labels/auto_label/99999999')).json().message);
    expect((await get(reader, `/api/config/labels/auto_label/${slideOf.breast}`)).statusCode).toBe(200);
    const put = await call(h.app, 'POST', '/api/config/labels/slides/put', { token: reader, payload: { ids: [slideOf.breast, slideOf.gi], label_id: label } });
    expect(put.statusCode).toBe(404);
    expect((await call(h.app, 'POST', '/api/config/labels/slides/put', { token: reader, payload: { ids: [slideOf.breast, slideOf.unfiled], label_id: label } })).statusCode).toBe(200);
  });

  it('a pathology number of the GI case finds nothing: quick open, binding and moving slides', async () => {
    const found = async (n: string) => get(reader, `/api/pathology/get_id_by_number/${n}`);
    const gi = await found(number.gi);
    expect(gi.statusCode).toBe(404);
    // Exactly what an unknown number answers: no id, no hint that the case exists.
    expect(gi.json()).toEqual({ message: (await found('P2026-99999')).json().message.replace('P2026-99999', number.gi) });
    expect((await found(number.breast)).json().data.id).toBe(kase.breast);
    expect((await found(number.unfiled)).json().data.id).toBe(kase.unfiled);
    expect((await get(admin, `/api/pathology/get_id_by_number/${number.gi}`)).json().data.id).toBe(kase.gi);
    // Moving the unfiled case's slide to the GI case by its number, or moving the GI case's slide: as if neither existed.
    const toGi = await call(h.app, 'POST', '/api/data/kfb/move', { token: reader, lang: 'en-US', payload: { ids: [slideOf.unfiled], pathology_number: number.gi } });
    expect(toGi.statusCode, toGi.body).toBe(404);
    const giSlide = await call(h.app, 'POST', '/api/data/kfb/move', { token: reader, payload: { ids: [slideOf.gi], pathology_number: number.breast } });
    expect(giSlide.statusCode).toBe(404);
    const cases = await h.db.selectFrom('slides').select(['id', 'case_id']).where('id', 'in', [slideOf.unfiled, slideOf.gi]).orderBy('id').execute();
    expect(cases.map((s) => s.case_id).sort()).toEqual([kase.gi, kase.unfiled].sort());
    // Binding an uploaded file to the GI case, by its number, its id or a glass slide made from it: the same 404s.
    const section = (await h.db.insertInto('slide_sections').values({
      hospital_id: general, case_id: kase.gi, block_number: 'A1', section_number: 1, stain: 'HE', label: null, slide_id: null, created_by: null, created_at: AT,
    }).returning('id').executeTakeFirstOrThrow()).id;
    const bind = (body: object) => call(h.app, 'POST', '/api/data/kfb/bind', { token: reader, lang: 'en-US', payload: { path: 'uploads/complete/none.tiff', ...body } });
    expect((await bind({ pathology_number: number.gi })).statusCode).toBe(404);
    const byId = await bind({ case_id: kase.gi });
    expect(byId.statusCode).toBe(404);
    expect(byId.json().message).toBe((await bind({ case_id: 99_999_999 })).json().message);
    const bySection = await bind({ section_id: section });
    expect(bySection.statusCode).toBe(404);
    expect(bySection.json().message).toBe((await bind({ section_id: 99_999_999 })).json().message);
    // The Breast case is found: what is refused then is the made-up upload (not the reader's), not the case.
    const breast = await bind({ pathology_number: number.breast });
    expect(breast.statusCode).toBe(403);
    expect(breast.json().message).not.toMatch(/case/i);
  });

  it('a reading meeting lists to the reader only the slides of their cases; they cannot put the GI slide in one', async () => {
    const made = await call(h.app, 'POST', '/api/meetings', { token: admin, payload: { name: 'Reach tumour board', slide_ids: KEYS.map((k) => slideOf[k]) } });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().data.id as number;
    expect(ids(made.json().data.slides)).toEqual(KEYS.map((k) => slideOf[k]));
    const seen = await get(reader, `/api/meetings/${id}`);
    expect(seen.statusCode).toBe(200);
    expect(ids(seen.json().data.slides)).toEqual([slideOf.breast, slideOf.unfiled]);
    expect(seen.body).not.toContain('REACH-gi');
    const joined = await call(h.app, 'POST', `/api/meetings/${id}/join`, { token: reader });
    expect(ids(joined.json().data.slides)).toEqual([slideOf.breast, slideOf.unfiled]);
    const refused = await call(h.app, 'POST', '/api/meetings', { token: reader, lang: 'en-US', payload: { name: 'Reach GI', slide_ids: [slideOf.breast, slideOf.gi] } });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().message).toContain(String(slideOf.gi));
    expect(await h.db.selectFrom('meetings').select('id').where('name', '=', 'Reach GI').execute()).toEqual([]);
    expect((await call(h.app, 'POST', '/api/meetings', { token: reader, payload: { name: 'Reach Breast', slide_ids: [slideOf.breast, slideOf.unfiled] } })).statusCode).toBe(200);
    // The reader edits the slides they were shown: the GI slide they never saw stays in the meeting.
    const edited = await call(h.app, 'PATCH', `/api/meetings/${id}`, { token: reader, payload: { slide_ids: [slideOf.unfiled] } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(ids(edited.json().data.slides)).toEqual([slideOf.unfiled]);
    const kept = await h.db.selectFrom('meeting_slides').select('slide_id').where('meeting_id', '=', id).orderBy('rank').execute();
    expect(kept.map((r) => Number(r.slide_id))).toEqual([slideOf.unfiled, slideOf.gi]);
  });

  it('shares: my list leaves out a share of the GI case; a need-login link of it does not open for the reader', async () => {
    const share = async (token: string, slide: number, needLogin: boolean) => {
      const res = await call(h.app, 'POST', '/api/shares', { token, payload: { slide_id: slide, permissions: { need_login: needLogin, diagnosis: true } } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { id: number; token: string };
    };
    const breast = await share(reader, slideOf.breast, true);
    const unfiled = await share(reader, slideOf.unfiled, true);
    expect((await call(h.app, 'POST', '/api/shares', { token: reader, payload: { slide_id: slideOf.gi } })).statusCode).toBe(404);
    // A share the reader made of the GI case's slide before it was filed there.
    await file('gi', dir.breast);
    const old = await share(reader, slideOf.gi, true);
    await file('gi', dir.gi);
    const mine = ((await get(reader, '/api/shares/mine')).json().data as { id: number; slide_id: number }[]);
    expect(ids(mine)).toEqual(expect.arrayContaining([breast.id, unfiled.id]));
    expect(ids(mine)).not.toContain(old.id);
    expect(mine.map((s) => s.slide_id)).not.toContain(slideOf.gi);
    const view = (token: string, who?: string) => call(h.app, 'GET', `/api/share/view?token=${token}`, { token: who, lang: 'en-US' });
    const giNeedsLogin = await share(admin, slideOf.gi, true);
    const refused = await view(giNeedsLogin.token, reader);
    expect(refused.statusCode).toBe(401);
    expect(refused.body).not.toContain(number.gi);
    expect((await view(giNeedsLogin.token, admin)).statusCode).toBe(200);
    expect((await view(old.token, reader)).statusCode).toBe(401);
    expect((await view(breast.token, reader)).json().data.slide.diagnosis.pathology_number).toBe(number.breast);
    expect((await view(unfiled.token, reader)).statusCode).toBe(200);
    // A link without need-login is its own grant: it opens for anyone holding it, signed in or not.
    const giOpen = await share(admin, slideOf.gi, false);
    expect((await view(giOpen.token, reader)).statusCode).toBe(200);
    expect((await view(giOpen.token)).statusCode).toBe(200);
  });

  it('collections: the GI case’s slide cannot be collected, and one collected before is left out', async () => {
    const items = '/api/collection/items';
    expect((await call(h.app, 'POST', `${items}/collect/${slideOf.breast}`, { token: reader })).statusCode).toBe(200);
    expect((await call(h.app, 'POST', `${items}/collect/${slideOf.unfiled}`, { token: reader })).statusCode).toBe(200);
    const refused = await call(h.app, 'POST', `${items}/collect/${slideOf.gi}`, { token: reader, lang: 'en-US' });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe((await call(h.app, 'POST', `${items}/collect/99999999`, { token: reader, lang: 'en-US' })).json().message);
    const before = (await h.db.insertInto('collections').values({ user_id: readerId, category_id: null, slide_id: slideOf.gi, remark: null, created_at: AT })
      .returning('id').executeTakeFirstOrThrow()).id;
    const list = (await get(reader, `${items}/lists?page_size=100`)).json().data;
    const slides = (list.data as { slide_id: number }[]).map((r) => r.slide_id);
    expect(slides).toEqual(expect.arrayContaining([slideOf.breast, slideOf.unfiled]));
    expect(slides).not.toContain(slideOf.gi);
    expect(list.total).toBe(list.data.length);
    expect(JSON.stringify(list)).not.toContain(number.gi);
    expect((await get(reader, `${items}/item/${before}`)).statusCode).toBe(404);
  });

  it('the section log lists only the reader’s cases’ slides', async () => {
    const rows = async (token: string) => {
      const res = await get(token, '/api/logs/section/lists?page_size=200');
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.data as { slide_id: number }[]).map((r) => r.slide_id);
    };
    const mine = await rows(reader);
    expect(mine).toEqual(expect.arrayContaining([slideOf.breast, slideOf.unfiled]));
    expect(mine).not.toContain(slideOf.gi);
    expect(await rows(admin)).toContain(slideOf.gi);
  });

  it('messages: one about a case outside the reader’s directories is not in their inbox nor counted unread', async () => {
    const allocator = await tokenFor(h.app, 'allocator');
    await h.db.updateTable('cases').set({ main_phase: 'diagnosis', sub_phase: 'to_allot' }).where('id', 'in', [kase.breast, kase.unfiled]).execute();
    for (const k of ['breast', 'unfiled']) {
      const given = await call(h.app, 'POST', `/api/pathology/${kase[k]}/distribute`, { token: allocator, payload: { doctor_id: readerId } });
      expect(given.statusCode, given.body).toBe(200);
    }
    const inbox = async () => {
      const list = (await get(reader, '/api/messages/lists?page_size=100')).json().data;
      const unread = (await get(reader, '/api/messages/unread-to-me')).json().data;
      return { links: (list.data as { link: string }[]).map((m) => m.link), total: list.total as number, body: JSON.stringify(list) + JSON.stringify(unread), unread: unread.count as number };
    };
    const both = await inbox();
    expect(both.links).toEqual(expect.arrayContaining([`/case/${kase.breast}`, `/case/${kase.unfiled}`]));
    expect(both.body).toContain(number.breast);
    // The Breast case is re-filed under GI: its message goes from the reader's inbox with its number and patient.
    await file('breast', dir.gi);
    const after = await inbox();
    expect(after.links).toContain(`/case/${kase.unfiled}`);
    expect(after.links).not.toContain(`/case/${kase.breast}`);
    expect(after.total).toBe(both.total - 1);
    expect(after.unread).toBe(both.unread - 1);
    expect(after.body).not.toContain(number.breast);
    await file('breast', dir.breast);
    expect((await inbox()).links).toContain(`/case/${kase.breast}`);
  });
});
