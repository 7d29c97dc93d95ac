import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slideShareToken } from '../../server/modules/consultations/queries.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Consultations (issue 32): a resource with its states in schemas/rules/consultations.json. In the department the
 * colleague asked answers (role and state by the rule file, 422 in words otherwise; of two steps at once one wins);
 * remotely an outside expert answers through a link without an account (the token and its expiry checked on every
 * call, only that case's slides reachable, the opinion's length limited, a single-use link closed once answered);
 * another hospital's consultations are out of reach; no doctor orders on outside slides (spec §5).
 */
describe.each(databases)('department consultation [%s]', (kind) => {
  let h: Harness;
  let db: Kysely<any>;
  const t: Record<string, string> = {};
  const BASE = '/api/department/consultations';
  let number = '';
  let caseId = 0;
  let otherSlide = 0;
  let primaryId = 0;
  const post = (who: string | null, url: string, payload: object, lang = 'en-US') => call(h.app, 'POST', url, { ...(who ? { token: t[who] } : {}), lang, payload });
  const step = (who: string, id: number, transition: string, extra: object = {}, lang = 'en-US') => post(who, `${BASE}/transition/${id}`, { transition, ...extra }, lang);
  const ask = async (over: object) => {
    const res = await post('signer', `${BASE}/store`, { pathology_number: number, question: 'Borderline lesion?', ...over });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: number; status: string; case_id: number };
  };
  const remote = async (over: object = {}) => {
    const c = await ask({ mode: 'remote', expert_name: 'Prof. Li', expert_unit: 'Peking Union', ...over });
    const link = await call(h.app, 'POST', `${BASE}/link/${c.id}`, { token: t.signer });
    expect(link.statusCode, link.body).toBe(200);
    return { id: c.id, token: new URL(link.json().data.link).searchParams.get('token')! };
  };
  const view = (token: string, lang = 'en-US') => call(h.app, 'GET', `/api/consultation/view?token=${token}`, { lang });
  const answer = (token: string, opinion: string, lang = 'en-US') => post(null, '/api/consultation/opinion', { token, opinion }, lang);

  beforeAll(async () => {
    h = await startApp(kind);
    db = h.db as unknown as Kysely<any>;
    for (const u of ['admin', 'signer', 'primary', 'auditor', 'technician', 'registrar']) t[u] = await tokenFor(h.app, u);
    t.signerBranch = await tokenFor(h.app, 'signer');
    const branch = await db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow();
    expect((await call(h.app, 'POST', '/api/auth/switch_hospital', { token: t.signerBranch, payload: { hospital_id: branch.id } })).statusCode).toBe(200);
    const [h1] = await db.selectFrom('hospitals').select('id').orderBy('id').execute();
    const register = async (n: string) => {
      const res = await post('registrar', '/api/pathology/register', { case_type: 'routine', pathology_number: n, specimens: [{ name: 'Skin' }] });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.id as number;
    };
    const now = new Date().toISOString();
    const slide = async (of: number, name: string) => (await db.insertInto('slides').values({
      hospital_id: h1.id, case_id: of, name, file_path: `consult/${name}.tiff`, file_size: 0, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow()).id as number;
    number = `CS-${kind}-1`;
    caseId = await register(number);
    await slide(caseId, 'CS-1-HE');
    otherSlide = await slide(await register(`CS-${kind}-2`), 'CS-2-HE');
    primaryId = await userId(h.db, 'primary');
  }, 60_000);
  afterAll(async () => h?.close());

  it('the menu and codes reach the doctors; a role without them is refused; a case of no hospital of mine is a 422', async () => {
    const menu = async (who: string) => JSON.stringify((await call(h.app, 'GET', '/api/system_management/users/menu', { token: t[who] })).json().data);
    expect(await menu('primary')).toMatch(/DepartmentGroup[\s\S]*Consultations/);
    expect(await menu('technician')).not.toContain('Consultations');
    expect((await call(h.app, 'GET', `${BASE}/lists`, { token: t.technician })).statusCode).toBe(403);
    expect((await post('technician', `${BASE}/store`, { pathology_number: number, mode: 'in_department', consultant_id: primaryId })).statusCode).toBe(403);
    const unknown = await post('signer', `${BASE}/store`, { pathology_number: 'NO-SUCH-CASE', mode: 'in_department', consultant_id: primaryId }, 'zh-CN');
    expect([unknown.statusCode, unknown.json().errors.pathology_number[0]]).toEqual([422, '本院没有该病理号的病例']);
    expect((await post('signer', `${BASE}/store`, { pathology_number: number, mode: 'in_department' })).statusCode).toBe(422);
    const colleagues = (await call(h.app, 'GET', `${BASE}/colleagues`, { token: t.signer })).json().data as { id: number }[];
    expect(colleagues.map((c) => c.id)).toContain(primaryId);
  });

  it('in the department: only the colleague asked answers, from "requested" only, in words; an edit cannot write the opinion', async () => {
    const c = await ask({ mode: 'in_department', consultant_id: primaryId, status: 'answered' });
    expect([c.status, c.case_id]).toEqual(['requested', caseId]);
    const role = await step('auditor', c.id, 'answer', { opinion: 'Benign' });
    expect([role.statusCode, role.json().message]).toEqual([422, 'Your role may not take the step "Give opinion"']);
    expect((await step('auditor', c.id, 'answer', { opinion: 'Benign' }, 'zh-CN')).json().message).toBe('您的角色不能执行“填写会诊意见”');
    const empty = await step('primary', c.id, 'answer', {});
    expect([empty.statusCode, empty.json().message]).toEqual([422, 'The step "Give opinion" cannot be taken: Write the opinion']);
    const edit = await call(h.app, 'PATCH', `${BASE}/update/${c.id}`, { token: t.signer, payload: { opinion: 'forged' } });
    expect(edit.statusCode).toBe(422);
    const done = await step('primary', c.id, 'answer', { opinion: 'Reactive hyperplasia, benign.' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ status: 'answered', opinion: 'Reactive hyperplasia, benign.', answered_by: primaryId, author: expect.any(String) });
    const late = await call(h.app, 'PATCH', `${BASE}/update/${c.id}`, { token: t.signer, lang: 'en-US', payload: { question: 'Another question' } });
    expect([late.statusCode, late.json().message]).toEqual([422, 'An answered or withdrawn consultation can no longer be edited']);
    const again = await step('primary', c.id, 'answer', { opinion: 'Changed' });
    expect([again.statusCode, again.json().message]).toEqual([422, 'The record is "Answered"; the step "Give opinion" cannot be taken now']);
    // The case's opinions are a list of the resource by case (the diagnosis editor's panel).
    const onCase = (await call(h.app, 'GET', `${BASE}/lists?params=${encodeURIComponent(JSON.stringify({ case_id: caseId }))}`, { token: t.auditor })).json().data.data as { id: number; opinion: string }[];
    expect(onCase.find((r) => r.id === c.id)?.opinion).toBe('Reactive hyperplasia, benign.');
    const logged = await db.selectFrom('operation_logs').select('status_code').where('route', '=', `${BASE}/transition/:id`).where('path', 'like', `%/${c.id}`).execute();
    expect(logged.map((l) => Number(l.status_code))).toEqual([422, 422, 422, 200, 422]);
  });

  it('two steps at once on one consultation: exactly one wins', async () => {
    const c = await ask({ mode: 'in_department', consultant_id: primaryId });
    const answers = await Promise.all([step('primary', c.id, 'answer', { opinion: 'Malignant' }), step('signer', c.id, 'withdraw')]);
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((x) => x === 200)).toHaveLength(1);
    expect([409, 422]).toContain(codes.find((x) => x !== 200));
    const row = await db.selectFrom('consultations').select(['status', 'opinion']).where('id', '=', c.id).executeTakeFirstOrThrow();
    expect(row).toEqual(answers[0].statusCode === 200 ? { status: 'answered', opinion: 'Malignant' } : { status: 'withdrawn', opinion: null });
  });

  it('remote: the expert opens the link signed out, sees the case and its slides only, answers once; the opinion is on the case', async () => {
    const { id, token } = await remote();
    const seen = await view(token);
    expect(seen.statusCode, seen.body).toBe(200);
    const body = seen.json().data;
    expect(body).toMatchObject({ question: 'Borderline lesion?', expert_name: 'Prof. Li', case: { pathology_number: number } });
    expect(JSON.stringify(body)).not.toMatch(/patient_name|token_hash/);
    expect(body.slides.length).toBeGreaterThan(0);
    // Each slide through its share link; a slide of another case is not reachable with the same token.
    expect((await call(h.app, 'GET', body.slides[0].path.replace('/share/view', '/api/share/view'))).statusCode).toBe(200);
    expect((await call(h.app, 'GET', `/api/share/view?token=${slideShareToken(token, otherSlide)}`)).statusCode).toBe(404);

    const long = await answer(token, 'x'.repeat(4001));
    expect(long.statusCode).toBe(422);
    expect((await answer(token, 'x'.repeat(4001), 'zh-CN')).json().message).toMatch(/[\u4e00-\u9fff]/);
    expect((await answer('A'.repeat(32), 'Benign')).statusCode).toBe(404);
    const ok = await answer(token, 'Low-grade dysplasia; no invasion.');
    expect(ok.statusCode, ok.body).toBe(200);
    const row = (await call(h.app, 'GET', `${BASE}/item/${id}`, { token: t.primary })).json().data;
    expect(row).toMatchObject({ status: 'answered', opinion: 'Low-grade dysplasia; no invasion.', answered_by: null, author: 'Prof. Li · Peking Union' });
    // Single use: once answered, the link and its slides' share links are closed.
    const twice = await answer(token, 'Changed my mind', 'zh-CN');
    expect([twice.statusCode, twice.json().message]).toEqual([410, '该会诊已答复或已撤回，链接不再可用']);
    expect((await view(token)).statusCode).toBe(410);
    expect((await call(h.app, 'GET', body.slides[0].path.replace('/share/view', '/api/share/view'))).statusCode).toBe(403);
    const logged = await db.selectFrom('operation_logs').select(['status_code', 'payload']).where('route', '=', '/api/consultation/opinion').execute();
    expect(logged.length).toBeGreaterThanOrEqual(4);
    expect(logged.map((l) => String(l.payload)).join()).not.toContain(token);
  });

  it('remote: an expired link is refused; a link that is not single-use takes a revised opinion; withdrawn closes it', async () => {
    const expired = await remote();
    await db.updateTable('consultations').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', expired.id).execute();
    const late = await view(expired.token);
    expect([late.statusCode, late.json().message]).toEqual([410, 'This consultation link has expired']);
    expect((await answer(expired.token, 'Benign')).statusCode).toBe(410);

    const open = await remote({ single_use: 0 });
    expect((await answer(open.token, 'First reading')).statusCode).toBe(200);
    expect((await answer(open.token, 'Second reading')).statusCode).toBe(200);
    expect((await view(open.token)).json().data.opinion).toBe('Second reading');

    const taken = await remote();
    expect((await step('signer', taken.id, 'withdraw')).json().data.status).toBe('withdrawn');
    expect((await view(taken.token)).statusCode).toBe(410);
    // A link is issued only for a remote consultation awaiting its answer.
    const local = await ask({ mode: 'in_department', consultant_id: primaryId });
    expect((await call(h.app, 'POST', `${BASE}/link/${local.id}?expires_in_days=3`, { token: t.signer })).statusCode).toBe(422);
    expect((await call(h.app, 'POST', `${BASE}/link/${local.id}?expires_in_days=90`, { token: t.signer })).statusCode).toBe(422);
  });

  it('another hospital\'s consultations are out of reach', async () => {
    const c = await ask({ mode: 'in_department', consultant_id: primaryId });
    expect((await call(h.app, 'GET', `${BASE}/item/${c.id}`, { token: t.signerBranch })).statusCode).toBe(404);
    expect((await step('signerBranch', c.id, 'withdraw')).statusCode).toBe(404);
    expect((await call(h.app, 'POST', `${BASE}/link/${c.id}`, { token: t.signerBranch })).statusCode).toBe(404);
    const rows = (await call(h.app, 'GET', `${BASE}/lists?page_size=500`, { token: t.signerBranch })).json().data.data as { id: number }[];
    expect(rows.map((r) => r.id)).not.toContain(c.id);
    // A case of the other hospital cannot be consulted on from here.
    const theirs = await post('signerBranch', `${BASE}/store`, { pathology_number: number, mode: 'in_department', consultant_id: primaryId });
    expect(theirs.statusCode).toBe(422);
  });

  it('outside-hospital slides (ex_slide) receive no doctor orders: a translated 422, nothing written', async () => {
    const reg = await post('registrar', '/api/pathology/register', { case_type: 'ex_slide', pathology_number: `EXS-${kind}-1`, specimens: [{ name: 'Outside slides' }] });
    expect(reg.statusCode, reg.body).toBe(200);
    const id = reg.json().data.id as number;
    expect((await post('registrar', `/api/pathology/${id}/receive`, {})).statusCode).toBe(200);
    const before = await db.selectFrom('technical_orders').select('id').where('case_id', '=', id).execute();
    const order = await post('primary', `/api/pathology/${id}/orders`, { orders: [{ category: 'additional', order_type: 'other' }] });
    expect([order.statusCode, order.json().message]).toEqual([422, 'Outside-hospital wax blocks or slides cannot receive doctor orders']);
    expect((await post('primary', `/api/pathology/${id}/orders`, { orders: [{ category: 'additional', order_type: 'other' }] }, 'zh-CN')).json().message).toBe('外院蜡块或切片不能开医嘱');
    expect(await db.selectFrom('technical_orders').select('id').where('case_id', '=', id).execute()).toEqual(before);
  });
});
