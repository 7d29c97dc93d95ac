import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, seal, startApp, tokenFor, type Harness } from './harness.js';

/**
 * Subspecialty directories (spec §6, issue 17) on both databases. The demo hospitals each have six directories; the
 * general hospital's P2026-00002 is filed under Breast, P2026-00001 under Gastrointestinal, F2026-00001 under none.
 * A first-diagnosis doctor granted Breast sees, opens, diagnoses and views slides of the Breast case and the unfiled
 * one, and of the GI case nothing: a forged id answers exactly as a missing one. Administrators see all; a
 * sub-centre administrator grants only their own hospital's directories; distribution offers only covering doctors.
 */
describe.each(databases)('subspecialty directories [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let doctor: string;
  let doctorId: number;
  let general: number;
  let branch: number;
  const dir: Record<string, number> = {};
  const branchDir: Record<string, number> = {};
  const kase: Record<string, number> = {};
  const slideOf: Record<string, number> = {};
  const users = '/api/system_management/users';
  const cases = '/api/pathology';

  const roleId = async (identification: string) => (await h.db.selectFrom('roles').select('id').where('identification', '=', identification).executeTakeFirstOrThrow()).id;
  const caseId = async (hospitalId: number, number: string) =>
    (await h.db.selectFrom('cases').select('id').where('hospital_id', '=', hospitalId).where('pathology_number', '=', number).executeTakeFirstOrThrow()).id;
  const insertSlide = async (hospitalId: number, caseRef: number | null, name: string) => {
    const now = new Date().toISOString();
    return (await h.db.insertInto('slides').values({
      hospital_id: hospitalId, case_id: caseRef, name, file_path: `slides/x/${name}.tiff`, file_size: 0, md5: null, vendor: 'generic',
      width: 10_000, height: 8_000, levels: 6, mpp: 0.25, objective_power: 40, scan_at: null, tile_size: 256, status: 'ready', has_label: 0, has_macro: 0,
      format_note: null, uploaded_by: null, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow()).id;
  };
  const makeUser = async (token: string, name: string, role: string, hospitals: number[], directories: number[], lang = 'en-US') =>
    call(h.app, 'POST', `${users}/store`, { token, lang, payload: {
      name, realname: name, password: await seal(h.app, 'dsms-demo'), password_confirmation: await seal(h.app, 'dsms-demo'),
      status: 1, hospital_ids: hospitals, role_ids: [await roleId(role)], subspecialty_ids: directories,
    } });

  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
    [general, branch] = (await h.db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id);
    for (const d of await h.db.selectFrom('subspecialties').select(['id', 'code', 'hospital_id']).execute()) (d.hospital_id === general ? dir : branchDir)[d.code!] = d.id;
    kase.gi = await caseId(general, 'P2026-00001');
    kase.breast = await caseId(general, 'P2026-00002');
    kase.unfiled = await caseId(general, 'F2026-00001');
    for (const k of ['gi', 'breast', 'unfiled']) slideOf[k] = await insertSlide(general, kase[k], `SUB-${k}`);
    const made = await makeUser(admin, 'breastdoc', 'primary_doctor', [general], [dir.breast]);
    expect(made.statusCode, made.body).toBe(200);
    doctorId = made.json().data.id;
    expect(made.json().data.subspecialty_ids).toEqual([dir.breast]);
    doctor = await tokenFor(h.app, 'breastdoc');
  });
  afterAll(async () => h?.close());

  it('seeds each demo hospital’s directories in both languages and files the demo cases', async () => {
    const list = (await call(h.app, 'GET', '/api/config/dict/subspecialty/entries/lists?page_size=50', { token: admin })).json().data.data as { name: string; en_name: string }[];
    expect(list.map((d) => d.en_name)).toEqual(['Breast', 'Gastrointestinal', 'Gynaecological', 'Dermatopathology', 'Haematopathology', 'Head & neck']);
    expect(list[0].name).toBe('乳腺病理');
    const row = await h.db.selectFrom('cases').select('subspecialty_id').where('id', '=', kase.gi).executeTakeFirstOrThrow();
    expect(row.subspecialty_id).toBe(dir.gi);
  });

  it('manages the dictionary through the generic resource: a duplicate name is refused, translated, nothing added', async () => {
    const url = '/api/config/dict/subspecialty/entries';
    const dup = await call(h.app, 'POST', `${url}/store`, { token: admin, lang: 'zh-CN', payload: { name: '乳腺病理', en_name: 'Breast again' } });
    expect(dup.statusCode, dup.body).toBeGreaterThanOrEqual(400);
    expect(dup.json().message).toMatch(/[\u4e00-\u9fff]/);
    const made = await call(h.app, 'POST', `${url}/store`, { token: admin, payload: { name: '神经病理', en_name: 'Neuropathology', code: 'neuro' } });
    expect(made.statusCode, made.body).toBe(200);
    // Without subspecialty_manage (a first-diagnosis doctor): refused.
    expect((await call(h.app, 'POST', `${url}/store`, { token: doctor, payload: { name: '眼病理' } })).statusCode).toBe(403);
    expect(await h.db.selectFrom('subspecialties').select('id').where('name', 'in', ['眼病理']).execute()).toEqual([]);
    expect((await call(h.app, 'DELETE', `${url}/destroy`, { token: admin, payload: { ids: [made.json().data.id] } })).statusCode).toBe(200);
  });

  it('lists and counts only the doctor’s directories and unfiled cases; the administrator sees all', async () => {
    const mine = (await call(h.app, 'GET', `${cases}/lists?page_size=100`, { token: doctor })).json().data;
    const ids = (mine.data as { id: number }[]).map((c) => c.id);
    expect(ids).toContain(kase.breast);
    expect(ids).toContain(kase.unfiled);
    expect(ids).not.toContain(kase.gi);
    expect(mine.total).toBe(ids.length);
    const counted = (await call(h.app, 'GET', `${cases}/count`, { token: doctor })).json().data;
    expect(Object.values(counted)[0]).toBe(ids.length);
    // The status tabs' counts (CaseList's progress facet) are the doctor's cases' too, and so is the by-status page.
    const statuses = (await call(h.app, 'GET', `${cases}/status-counts`, { token: doctor })).json().data;
    expect(statuses.total).toBe(ids.length);
    const keys = Object.keys(statuses.counts).join(',');
    const byStatus = (await call(h.app, 'GET', `${cases}/by-status?status=${keys}`, { token: doctor })).json().data;
    expect((byStatus.data as { id: number }[]).map((c) => c.id)).not.toContain(kase.gi);
    const all = ((await call(h.app, 'GET', `${cases}/lists?page_size=100`, { token: admin })).json().data.data as { id: number }[]).map((c) => c.id);
    expect(all).toEqual(expect.arrayContaining([kase.gi, kase.breast, kase.unfiled]));
    // Filtering by directory (CaseList's filter) works within that.
    const filtered = await call(h.app, 'POST', `${cases}/lists`, { token: admin, payload: { filter: [{ column: 'subspecialty_id', operator: '=', value: dir.gi }] } });
    expect((filtered.json().data.data as { id: number }[]).map((c) => c.id)).toContain(kase.gi);
    const slides = ((await call(h.app, 'GET', '/api/data/kfb/lists?page_size=100', { token: doctor })).json().data.data as { id: number }[]).map((s) => s.id);
    expect(slides).toEqual(expect.arrayContaining([slideOf.breast, slideOf.unfiled]));
    expect(slides).not.toContain(slideOf.gi);
  });

  it('answers a forged GI id exactly as a missing one: case, diagnosis, slide, viewer, annotations', async () => {
    const missing = 99_999_999;
    const pairs: [string, string, string][] = [
      ['GET', `${cases}/item/${kase.gi}`, `${cases}/item/${missing}`],
      ['GET', `/api/diagnosis/${kase.gi}`, `/api/diagnosis/${missing}`],
      ['POST', `/api/data/kfb/open/${slideOf.gi}`, `/api/data/kfb/open/${missing}`],
      ['GET', `/api/slide/annotations/${slideOf.gi}`, `/api/slide/annotations/${missing}`],
      ['GET', `/api/data/kfb/item/${slideOf.gi}`, `/api/data/kfb/item/${missing}`],
      ['GET', `/api/cases/${kase.gi}/images`, `/api/cases/${missing}/images`],
      ['GET', `${cases}/${kase.gi}/lab`, `${cases}/${missing}/lab`],
    ];
    for (const [method, forged, absent] of pairs) {
      const a = await call(h.app, method as 'GET', forged, { token: doctor, lang: 'en-US' });
      const b = await call(h.app, method as 'GET', absent, { token: doctor, lang: 'en-US' });
      expect(a.statusCode, `${forged}: ${a.body}`).toBe(404);
      expect(a.json().message, forged).toBe(b.json().message);
      expect(a.body).not.toContain('P2026-00001');
    }
    const urgent = await call(h.app, 'POST', `/api/diagnosis/${kase.gi}/urgent`, { token: doctor, payload: { urgent: 1 } });
    expect([404, 422]).toContain(urgent.statusCode);
    const patched = await call(h.app, 'PATCH', `${cases}/update/${kase.gi}`, { token: doctor, payload: { patient_name: 'x' } });
    expect(patched.statusCode).not.toBe(200);
    // The Breast case and the unfiled one open.
    expect((await call(h.app, 'GET', `${cases}/item/${kase.breast}`, { token: doctor })).statusCode).toBe(200);
    expect((await call(h.app, 'GET', `/api/diagnosis/${kase.breast}`, { token: doctor })).statusCode).toBe(200);
    expect((await call(h.app, 'GET', `/api/diagnosis/${kase.unfiled}`, { token: doctor })).statusCode).toBe(200);
    expect((await call(h.app, 'POST', `/api/data/kfb/open/${slideOf.breast}`, { token: doctor })).statusCode).toBe(200);
    expect((await call(h.app, 'GET', `/api/slide/annotations/${slideOf.breast}`, { token: doctor })).statusCode).toBe(200);
    // The administrator opens the GI case.
    expect((await call(h.app, 'GET', `${cases}/item/${kase.gi}`, { token: admin })).statusCode).toBe(200);
  });

  it('a doctor with no directories works in all of them', async () => {
    const primary = await tokenFor(h.app, 'primary');
    expect((await call(h.app, 'GET', `${cases}/item/${kase.gi}`, { token: primary })).statusCode).toBe(200);
  });

  it('checks the directories granted: unknown, another hospital’s, translated, nothing changed', async () => {
    const unknown = await call(h.app, 'PATCH', `${users}/update/${doctorId}`, { token: admin, lang: 'en-US', payload: { subspecialty_ids: [9_999_999] } });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toContain('do not exist');
    const foreign = await call(h.app, 'PATCH', `${users}/update/${doctorId}`, { token: admin, lang: 'zh-CN', payload: { subspecialty_ids: [branchDir.breast] } });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().message).toContain('亚专科目录须属于');
    const held = await h.db.selectFrom('user_subspecialties').select('subspecialty_id').where('user_id', '=', doctorId).execute();
    expect(held.map((r) => r.subspecialty_id)).toEqual([dir.breast]);
  });

  it('a sub-centre administrator grants only their own hospital’s directories', async () => {
    expect((await makeUser(admin, 'subadmin2', 'sub_center_admin', [branch], [])).statusCode).toBe(200);
    const sub = await tokenFor(h.app, 'subadmin2');
    const theirs = await makeUser(sub, 'branchdoc', 'sub_center_user', [branch], [dir.breast], 'zh-CN');
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json().message).toContain('只能授予您所管理医院的亚专科目录');
    expect(await h.db.selectFrom('users').select('id').where('name', '=', 'branchdoc').execute()).toEqual([]);
    const ok = await makeUser(sub, 'branchdoc', 'sub_center_user', [branch], [branchDir.breast]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.subspecialty_ids).toEqual([branchDir.breast]);
    // The branch's GI case is not the branch Breast user's.
    const branchDoc = await tokenFor(h.app, 'branchdoc');
    const branchGi = await caseId(branch, 'P2026-00001');
    expect((await call(h.app, 'GET', `${cases}/item/${branchGi}`, { token: branchDoc })).statusCode).toBe(404);
  });

  it('registration and case edits take only an enabled directory of the case’s hospital', async () => {
    const before = (await h.db.selectFrom('cases').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n;
    const registrar = await tokenFor(h.app, 'registrar');
    const bad = await call(h.app, 'POST', `${cases}/register`, { token: registrar, lang: 'en-US', payload: {
      case_type: 'routine', patient_name: '周敏', subspecialty_id: branchDir.gi, specimens: [{ name: '乳腺肿物' }],
    } });
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json().message).toBe('The subspecialty directory does not exist or belongs to another hospital');
    expect((await h.db.selectFrom('cases').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n).toEqual(before);
    const good = await call(h.app, 'POST', `${cases}/register`, { token: registrar, payload: {
      case_type: 'routine', patient_name: '周敏', subspecialty_id: dir.breast, specimens: [{ name: '乳腺肿物' }],
    } });
    expect(good.statusCode, good.body).toBe(200);
    // A registrar limited to Breast files new cases only under Breast.
    const registrarId = (await h.db.selectFrom('users').select('id').where('name', '=', 'registrar').executeTakeFirstOrThrow()).id;
    await h.db.insertInto('user_subspecialties').values({ user_id: registrarId, subspecialty_id: dir.breast }).execute();
    const notTheirs = await call(h.app, 'POST', `${cases}/register`, { token: registrar, lang: 'en-US', payload: {
      case_type: 'routine', patient_name: '吴霞', subspecialty_id: dir.gi, specimens: [{ name: '胃窦活检' }],
    } });
    expect(notTheirs.statusCode, notTheirs.body).toBe(403);
    expect(notTheirs.json().message).toBe('You can only file cases under your own subspecialty directories');
    expect(await h.db.selectFrom('cases').select('id').where('patient_name', '=', '吴霞').execute()).toEqual([]);
    await h.db.deleteFrom('user_subspecialties').where('user_id', '=', registrarId).execute();
    const edit = await call(h.app, 'PATCH', `${cases}/update/${kase.unfiled}`, { token: admin, payload: { subspecialty_id: branchDir.gi } });
    expect(edit.statusCode).toBe(422);
    const moved = await call(h.app, 'PATCH', `${cases}/update/${kase.unfiled}`, { token: admin, payload: { subspecialty_id: dir.head_neck } });
    expect(moved.statusCode, moved.body).toBe(200);
    // A user limited to Breast files only under Breast (else the write would answer "not found" afterwards).
    const elsewhere = await call(h.app, 'PATCH', `${cases}/update/${kase.breast}`, { token: doctor, lang: 'en-US', payload: { subspecialty_id: dir.gi } });
    expect([403, 404]).toContain(elsewhere.statusCode);
    expect((await h.db.selectFrom('cases').select('subspecialty_id').where('id', '=', kase.breast).executeTakeFirstOrThrow()).subspecialty_id).toBe(dir.breast);
    // Now filed under Head & neck: out of the Breast doctor's sight.
    expect((await call(h.app, 'GET', `${cases}/item/${kase.unfiled}`, { token: doctor })).statusCode).toBe(404);
    expect((await call(h.app, 'PATCH', `${cases}/update/${kase.unfiled}`, { token: admin, payload: { subspecialty_id: null } })).statusCode).toBe(200);
  });

  it('distribution offers and accepts only doctors whose directories include the case’s', async () => {
    const allocator = await tokenFor(h.app, 'allocator');
    await h.db.updateTable('cases').set({ main_phase: 'diagnosis', sub_phase: 'to_allot' }).where('id', 'in', [kase.gi, kase.breast]).execute();
    const offered = async (id: number) => ((await call(h.app, 'GET', `${cases}/doctors/workload?case_id=${id}`, { token: allocator })).json().data as { id: number }[]).map((d) => d.id);
    expect(await offered(kase.breast)).toContain(doctorId);
    expect(await offered(kase.gi)).not.toContain(doctorId);
    const refused = await call(h.app, 'POST', `${cases}/${kase.gi}/distribute`, { token: allocator, lang: 'en-US', payload: { doctor_id: doctorId } });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().message).toBe('The chosen doctor does not work in this case’s subspecialty directory');
    expect((await h.db.selectFrom('cases').select('sub_phase').where('id', '=', kase.gi).executeTakeFirstOrThrow()).sub_phase).toBe('to_allot');
    const given = await call(h.app, 'POST', `${cases}/${kase.breast}/distribute`, { token: allocator, payload: { doctor_id: doctorId } });
    expect(given.statusCode, given.body).toBe(200);
  });
});
