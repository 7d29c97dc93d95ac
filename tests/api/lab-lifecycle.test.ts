import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';
import { HIS_PATIENTS, startHisDouble } from './his-double.js';

/**
 * Issue 10: a case walked from application to slides ready for diagnosis and allocated, on both databases;
 * each refused transition is refused with its spec §5 message and changes nothing; another hospital's case is
 * not there (404); a role the permission or the rule file does not allow is refused (403).
 */
describe.each(databases)('the case lifecycle in the lab [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  let caseId: number;
  let specimenIds: number[];
  let reagentId: number;

  const post = (who: string, url: string, payload: object, lang = 'en-US') => call(h.app, 'POST', url, { token: t[who], lang, payload });
  const lab = async (id = caseId) => {
    const res = await call(h.app, 'GET', `/api/pathology/${id}/lab`, { token: t.registrar });
    if (res.statusCode !== 200) throw new Error(res.body);
    return res.json().data;
  };
  /** Everything a refused transition must leave as it was. */
  const snapshot = async (id = caseId) => {
    const d = await lab(id);
    return { case: d.case, specimens: d.specimens, blocks: d.blocks, sections: d.sections, orders: d.orders, timeline: d.timeline.length };
  };
  const refused = async (res: { statusCode: number; json(): { message: string } }, status: number, message: string, before: unknown) => {
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
    expect(await snapshot()).toEqual(before);
  };

  beforeAll(async () => {
    h = await startApp(kind);
    for (const u of ['admin', 'registrar', 'sampler', 'technician', 'allocator', 'primary', 'clinician']) t[u] = await tokenFor(h.app, u);
    const now = new Date().toISOString();
    reagentId = (await h.db.insertInto('reagents').values({ name: 'Ki-67', type: 'ihc', clone_no: 'MIB-1', manufacturer: null, specification: null, status: 1, rank: 1, remark: null, created_at: now, updated_at: now })
      .returning('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => h?.close());

  it('application → registration: the case gets the library\'s next free number, its specimens and a timeline entry', async () => {
    const applied = await post('clinician', '/api/pathology/applications/apply', { apply_number: 'SQ-0001', patient_name: '周敏', gender: 'female', age: 52, age_unit: 'year', specimen_name: '胃窦' });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().data.status).toBe(0);
    // Quick form: the patient comes from the application, the specimens are typed in.
    const noSpecimen = await post('registrar', '/api/pathology/register', { application_id: applied.json().data.id, specimens: [] }, 'zh-CN');
    expect(noSpecimen.statusCode).toBe(422);
    expect(noSpecimen.json().message).toBe('请至少登记一个标本');
    const res = await post('registrar', '/api/pathology/register', {
      application_id: applied.json().data.id,
      specimens: [{ name: 'Gastric antrum', specimen_type: 0, fixative: '10% NBF' }, { name: 'Gastric body', fixative: '10% NBF' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json().data;
    caseId = created.id;
    // The demo seed holds P<year>-00001…3 in this hospital already: the allocator passes over them.
    expect(created.pathology_number).toBe(`P${new Date().getFullYear()}-00004`);
    expect(created).toMatchObject({ patient_name: '周敏', main_phase: 'registration', sub_phase: 'to_receive', case_status: 'to_receive', number_colour: 'red', status_colour: 'gold' });
    const app = await h.db.selectFrom('case_applications').selectAll().where('id', '=', applied.json().data.id).executeTakeFirstOrThrow();
    expect(app).toMatchObject({ status: 3, case_id: caseId });
    // SlideApply lists applications (read-only resource; the commands write them).
    const listed = await call(h.app, 'GET', '/api/pathology/applications/lists', { token: t.registrar });
    expect(listed.json().data.data.map((a: { apply_number: string; status: number }) => [a.apply_number, a.status])).toEqual([['SQ-0001', 3]]);
    expect((await call(h.app, 'POST', '/api/pathology/applications/store', { token: t.admin, payload: { apply_number: 'X' } })).statusCode).toBe(404);
    // An application registers once.
    const again = await post('registrar', '/api/pathology/register', { application_id: app.id, specimens: [{ name: 'x' }] });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This application was already registered or rejected');
    specimenIds = (await lab()).specimens.map((s: { id: number }) => s.id);
    expect(specimenIds).toHaveLength(2);
  });

  it('registration looks the patient up in the HIS by outpatient or admission number (demo adapter)', async () => {
    const look = (q: string, who = 'registrar') => call(h.app, 'GET', `/api/pathology/his/lookup?${q}`, { token: t[who], lang: 'en-US' });
    expect((await look('outpatient_number=MZ20260001')).json().data).toMatchObject({ patient_name: '孙丽', treat_type: 'clinic' });
    expect((await look('admission_number=ZY20260002')).json().data).toMatchObject({ patient_name: '周强', bed_number: '12-3' });
    const missing = await look('admission_number=NOPE');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('The HIS has no patient with this outpatient or admission number');
    expect((await look('')).statusCode).toBe(422);
    expect((await look('outpatient_number=MZ20260001', 'sampler')).statusCode).toBe(403);
  });

  it('registration asks the hospital\'s HIS over HTTP (HIS_ADAPTER=http): the patient\'s fields only, within bounds; unknown 404, a failing or silent HIS 502', async () => {
    const his = await startHisDouble();
    const app = await testApp(h.db, { his: { adapter: 'http', url: his.url, token: 'his-secret', timeoutMs: 1000 } });
    await app.ready();
    try {
      const look = (q: string, who = 'registrar', lang = 'en-US') => call(app, 'GET', `/api/pathology/his/lookup?${q}`, { token: t[who], lang });
      const found = await look('outpatient_number=MZ7001');
      expect(found.statusCode, found.body).toBe(200);
      const { internal_ward_code: _noise, ...fields } = HIS_PATIENTS.MZ7001;
      expect(found.json().data).toEqual(fields);
      expect(his.requests.at(-1)).toEqual({ path: '/his/patient?outpatient_number=MZ7001', auth: 'Bearer his-secret' });
      expect((await look('admission_number=ZY7002')).json().data).toMatchObject({ patient_name: 'Li Wei', bed_number: '5-12', treat_type: 'hospital' });
      // An outpatient number is not an admission number.
      expect((await look('admission_number=MZ7001')).statusCode).toBe(404);
      const unknown = await look('outpatient_number=MZ0000', 'registrar', 'zh-CN');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe('HIS 中没有此门诊号或住院号的病人');
      for (const q of ['outpatient_number=FAIL500', 'outpatient_number=SLOW']) {
        const failed = await look(q);
        expect(failed.statusCode, q).toBe(502);
        expect(failed.json().message).toBe('The HIS cannot be reached just now; try again later or type the patient\'s details in');
      }
      const asked = his.requests.length;
      expect((await look('outpatient_number=MZ7001', 'sampler')).statusCode).toBe(403);
      expect((await look('outpatient_number=' + 'x'.repeat(65))).statusCode).toBe(422);
      expect(his.requests.length, 'a refused lookup never reaches the HIS').toBe(asked);
    } finally {
      await app.close();
      await his.close();
    }
  });

  it('wrong role → 403 (permission code, then the rule file); another hospital → 404; wrong phase → 409; nothing changes', async () => {
    const before = await snapshot();
    await refused(await post('sampler', `/api/pathology/${caseId}/receive`, {}), 403, 'You do not have permission for this action (requires: case_register)', before);
    await refused(await post('registrar', `/api/pathology/${caseId}/sample`, { blocks: [] }), 403, 'You do not have permission for this action (requires: case_sample)', before);
    // The rule file decides by role: this hospital lets nobody but registrars receive, not even the administrator.
    const rule = await call(h.app, 'PUT', '/api/rules/case-transitions', { token: t.admin, payload: { override: { rules: { receive: { in: ['registrar', { var: 'roles' }] } } } } });
    expect(rule.statusCode, rule.body).toBe(200);
    await refused(await post('admin', `/api/pathology/${caseId}/receive`, {}), 403, 'Your role may not run this step (receive)', before);
    await call(h.app, 'POST', '/api/rules/case-transitions/rollback', { token: t.admin, payload: { version: 0 } });
    const hospitals = await h.db.selectFrom('hospitals').select(['id', 'code']).orderBy('id').execute();
    await call(h.app, 'POST', '/api/auth/switch_hospital', { token: t.admin, payload: { hospital_id: hospitals[1].id } });
    await refused(await post('admin', `/api/pathology/${caseId}/receive`, {}), 404, 'The case does not exist or belongs to another hospital', before);
    await call(h.app, 'POST', '/api/auth/switch_hospital', { token: t.admin, payload: { hospital_id: hospitals[0].id } });
    await refused(await post('technician', `/api/pathology/${caseId}/make-slides`, { step: 'dehydration' }), 409, 'The case is at the "To receive" stage; this step cannot run now', before);
  });

  it('receipt and rejection of specimens, then sampling with at least one block per specimen', async () => {
    const received = await post('registrar', `/api/pathology/${caseId}/receive`, { specimen_ids: [specimenIds[0], specimenIds[1]] });
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json().data).toMatchObject({ main_phase: 'sample', sub_phase: 'to_sample', case_status: 'to_sample' });
    const before = await snapshot();
    await refused(await post('registrar', `/api/pathology/${caseId}/reject`, { specimen_ids: [specimenIds[0]], reason: 'late' }), 409, 'The case is at the "To sample" stage; this step cannot run now', before);
    await refused(await post('sampler', `/api/pathology/${caseId}/sample`, { blocks: [{ specimen_id: specimenIds[0] }] }), 422,
      'Each specimen needs at least one material block entry (missing: Gastric body)', before);
    await refused(await post('sampler', `/api/pathology/${caseId}/sample`, { blocks: [{ specimen_id: specimenIds[0] }, { specimen_id: specimenIds[1] }, { specimen_id: 999999 }] }), 422,
      'A block names a specimen that was not received or is not this case\'s', before);
    const sampled = await post('sampler', `/api/pathology/${caseId}/sample`, {
      blocks: [{ specimen_id: specimenIds[0], tissue_count: 2 }, { specimen_id: specimenIds[0] }, { specimen_id: specimenIds[1], description: 'all embedded' }],
      used_up_specimen_ids: [specimenIds[1]],
    });
    expect(sampled.statusCode, sampled.body).toBe(200);
    expect(sampled.json().data).toMatchObject({ main_phase: 'slide_making', sub_phase: 'dehydration', number_colour: 'blue' });
    const d = await lab();
    expect(d.blocks.map((b: { block_number: string }) => b.block_number)).toEqual(['1', '2', '3']);
    expect(d.specimens.map((s: { status: string }) => s.status)).toEqual(['received', 'used_up']);
  });

  it('rejecting a specimen names the reason; all rejected stops the case', async () => {
    const res = await post('registrar', '/api/pathology/register', { specimens: [{ name: 'Skin' }] });
    const id = res.json().data.id;
    const [specimen] = (await lab(id)).specimens;
    const noReason = await post('registrar', `/api/pathology/${id}/reject`, { specimen_ids: [specimen.id], reason: '' });
    expect(noReason.statusCode).toBe(422);
    const rejected = await post('registrar', `/api/pathology/${id}/reject`, { specimen_ids: [specimen.id], reason: 'Not fixed' });
    expect(rejected.json().data).toMatchObject({ main_phase: 'registration', sub_phase: 'rejected', case_status: 'rejected' });
    expect((await lab(id)).specimens[0]).toMatchObject({ status: 'rejected', rejection_reason: 'Not fixed' });
  });

  it('slide making runs its steps in order; cutting makes one HE slide per block; two technicians at once: one wins, one gets 409', async () => {
    const before = await snapshot();
    await refused(await post('technician', `/api/pathology/${caseId}/make-slides`, { step: 'cut' }), 409, 'The case is at the "Dehydration" stage; this step cannot run now', before);
    const [a, b] = await Promise.all([
      post('technician', `/api/pathology/${caseId}/make-slides`, { step: 'dehydration' }),
      post('admin', `/api/pathology/${caseId}/make-slides`, { step: 'dehydration' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(loser.json().message).toMatch(/Someone else changed this case just now|"Embedding" stage/);
    expect((await lab()).timeline.filter((e: { action: string }) => e.action === 'dehydration')).toHaveLength(1);
    for (const step of ['embeded', 'cut', 'stain']) {
      const res = await post('technician', `/api/pathology/${caseId}/make-slides`, { step });
      expect(res.statusCode, res.body).toBe(200);
    }
    const d = await lab();
    expect(d.sections.map((s: { label: string; stain: string }) => `${s.label} ${s.stain}`)).toEqual(
      [1, 2, 3].map((n) => `${d.case.pathology_number}-${n}-1 HE`),
    );
    const covered = await post('technician', `/api/pathology/${caseId}/make-slides`, { step: 'cover' });
    expect(covered.json().data).toMatchObject({ main_phase: 'diagnosis', sub_phase: 'to_allot', case_status: 'to_allot' });
    expect(covered.json().data.slide_ready_at).toBeTruthy();
  });

  it('allocation to a first-diagnosis doctor of the hospital, with their workload shown first', async () => {
    const before = await snapshot();
    await refused(await post('allocator', `/api/pathology/${caseId}/distribute`, { doctor_id: await userId(h.db, 'registrar') }), 422,
      'The chosen doctor is not a first-diagnosis doctor of this hospital', before);
    const primary = await userId(h.db, 'primary');
    const load = async () => (await call(h.app, 'GET', '/api/pathology/doctors/workload', { token: t.allocator })).json().data.find((d: { id: number }) => d.id === primary).workload;
    expect(await load()).toBe(0);
    const res = await post('allocator', `/api/pathology/${caseId}/distribute`, { doctor_id: primary });
    expect(res.json().data).toMatchObject({ sub_phase: 'to_first', first_doctor: primary, case_status: 'to_first' });
    expect(await load()).toBe(1);
  });

  it('technical orders: refused empty, incomplete, on a used-up specimen, repeated; accepted ones mark the case', async () => {
    const { blocks } = await lab();
    const ihc = { category: 'special', order_type: 'immunohistochemisty', block_id: blocks[0].id, reagent_id: reagentId };
    const before = await snapshot();
    await refused(await post('primary', `/api/pathology/${caseId}/orders`, { orders: [] }), 422, 'The order is empty and cannot be submitted', before);
    await refused(await post('primary', `/api/pathology/${caseId}/orders`, { orders: [{ ...ihc, reagent_id: undefined }] }), 422, 'Incomplete technical order (item 1)', before);
    await refused(await post('primary', `/api/pathology/${caseId}/orders`, { orders: [{ ...ihc, reagent_id: 999999 }] }), 422, 'Incomplete technical order (item 1)', before);
    await refused(await post('primary', `/api/pathology/${caseId}/orders`, { orders: [{ category: 'additional', order_type: 're_sample', specimen_id: specimenIds[1] }] }), 422,
      'A used-up specimen cannot be re-sampled', before);
    await refused(await post('primary', `/api/pathology/${caseId}/orders`, { orders: [ihc, ihc] }), 409, 'Repeated orders cannot be added', before);
    await refused(await post('technician', `/api/pathology/${caseId}/orders`, { orders: [ihc] }), 403, 'You do not have permission for this action (requires: case_order)', before);

    const ok = await post('primary', `/api/pathology/${caseId}/orders`, { orders: [ihc, { category: 'additional', order_type: 'deep_cut', block_id: blocks[1].id }] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ has_spec_advice: 1, has_technology_advice: 1, markers: ['technical_advice', 'special_check'] });
    const afterOk = await snapshot();
    await refused(await post('primary', `/api/pathology/${caseId}/orders`, { orders: [ihc] }), 409, 'Repeated orders cannot be added', afterOk);
    // In Chinese too (spec §5 wording).
    const zh = await post('primary', `/api/pathology/${caseId}/orders`, { orders: [ihc] }, 'zh-CN');
    expect(zh.json().message).toBe('不能添加重复的医嘱');
    // What the order lists show: the reagent by name, who ordered.
    const primaryName = (await h.db.selectFrom('users').select('realname').where('name', '=', 'primary').executeTakeFirstOrThrow()).realname;
    expect((await lab()).orders.map((o: Record<string, unknown>) => [o.order_type, o.reagent_name, o.ordered_by_realname, o.status]))
      .toEqual([['immunohistochemisty', 'Ki-67', primaryName, 'open'], ['deep_cut', null, primaryName, 'open']]);
  });

  it('the order form\'s reagents: enabled ones, for whoever may order (without reagent_manage); others 403', async () => {
    const now = new Date().toISOString();
    await h.db.insertInto('reagents').values({ name: 'Retired', type: 'ihc', clone_no: null, manufacturer: null, specification: null, status: 0, rank: 0, remark: null, created_at: now, updated_at: now }).execute();
    const res = await call(h.app, 'GET', '/api/pathology/order-reagents', { token: t.primary });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([{ id: reagentId, name: 'Ki-67', type: 'ihc', clone_no: 'MIB-1' }]);
    expect((await call(h.app, 'GET', '/api/pathology/order-reagents', { token: t.registrar })).statusCode).toBe(403);
  });

  it('outside-hospital wax blocks cannot receive doctor orders', async () => {
    const res = await post('registrar', '/api/pathology/register', { case_type: 'ex_paraffin_block', pathology_number: 'WB-0001', specimens: [{ name: 'Outside block' }] });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id;
    await post('registrar', `/api/pathology/${id}/receive`, {});
    const [specimen] = (await lab(id)).specimens;
    expect((await post('sampler', `/api/pathology/${id}/sample`, { blocks: [{ specimen_id: specimen.id }] })).statusCode).toBe(200);
    const [block] = (await lab(id)).blocks;
    expect(block.outside).toBe(1);
    const before = await snapshot(id);
    const order = await post('primary', `/api/pathology/${id}/orders`, { orders: [{ category: 'additional', order_type: 're_cut', block_id: block.id }] });
    expect(order.statusCode).toBe(422);
    expect(order.json().message).toBe('Outside-hospital wax blocks or slides cannot receive doctor orders');
    expect(await snapshot(id)).toEqual(before);
  });

  it('a new case ID must differ from the old one, follow the rule and be free', async () => {
    const { case: c } = await lab();
    const before = await snapshot();
    await refused(await post('admin', `/api/pathology/${caseId}/number`, { new_number: c.pathology_number }), 422, 'The new case ID must differ from the old one', before);
    await refused(await post('admin', `/api/pathology/${caseId}/number`, { new_number: 'P2026-00001' }), 409, 'The pathology number P2026-00001 is already in use', before);
    const changed = await post('admin', `/api/pathology/${caseId}/number`, { new_number: 'P2026-90000' });
    expect(changed.json().data.pathology_number).toBe('P2026-90000');
  });

  it('the timeline shows every step: who, when, what; CaseList rows carry the derived status', async () => {
    const { timeline } = await lab();
    expect(timeline.map((e: { action: string }) => e.action)).toEqual(['apply', 'register', 'receive', 'sample', 'dehydration', 'embeded', 'cut', 'stain', 'cover', 'distribute', 'order', 'change_number']);
    // The application's step comes first (applications.ts applicationHistory), then registration.
    expect(timeline[0]).toMatchObject({ action: 'apply', actor_name: expect.any(String), detail: { apply_number: 'SQ-0001' } });
    expect(timeline[1]).toMatchObject({ actor_name: expect.any(String), to_phase: 'registration', to_sub_phase: 'to_receive' });
    expect(timeline.find((e: { action: string }) => e.action === 'sample')).toMatchObject({ from_phase: 'sample', to_phase: 'slide_making', detail: { blocks: ['1', '2', '3'], used_up: 1 } });
    const list = await call(h.app, 'GET', `/api/pathology/lists?params=${encodeURIComponent(JSON.stringify({ id: caseId }))}`, { token: t.registrar });
    const row = list.json().data.data.find((r: { id: number }) => r.id === caseId);
    expect(row).toMatchObject({ case_status: 'to_first', number_colour: 'purple', markers: ['technical_advice', 'special_check'] });
    // Every command left its operation-log row.
    const logged = await h.db.selectFrom('operation_logs').select('route').where('route', 'like', '/api/pathology/:id/%').execute();
    expect(new Set(logged.map((l) => l.route))).toEqual(new Set(['/api/pathology/:id/receive', '/api/pathology/:id/reject', '/api/pathology/:id/sample', '/api/pathology/:id/make-slides', '/api/pathology/:id/distribute', '/api/pathology/:id/orders', '/api/pathology/:id/number']));
  });

  it('labels: cassettes and slides with Code128 or DataMatrix barcodes; prints and reprints on the timeline', async () => {
    const get = (q: string, who = 'technician') => call(h.app, 'GET', `/api/pathology/${caseId}/labels?${q}`, { token: t[who] });
    const cassettes = (await get('kind=cassette')).json().data;
    expect(cassettes.map((l: { code: string }) => l.code)).toEqual(['P2026-90000-1', 'P2026-90000-2', 'P2026-90000-3']);
    expect(cassettes[0].svg).toMatch(/^<svg /);
    const slides = (await get('kind=slide&symbology=datamatrix')).json().data;
    expect(slides).toHaveLength(3);
    expect(slides[0].lines).toContain('HE');
    expect((await get('kind=other')).statusCode).toBe(422);
    expect((await get('kind=slide', 'clinician')).statusCode).toBe(403);
    const print = (who: string, payload: object) => post(who, `/api/pathology/${caseId}/labels/print`, payload);
    expect((await print('technician', { kind: 'slide', ids: slides.map((l: { id: number }) => l.id) })).statusCode).toBe(200);
    expect((await print('technician', { kind: 'slide', ids: [slides[0].id], reprint: true })).statusCode).toBe(200);
    const unknown = await print('technician', { kind: 'cassette', ids: [slides[0].id + 100000] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe('A chosen label is not this case\'s');
    expect((await print('allocator', { kind: 'slide', ids: [slides[0].id] })).statusCode).toBe(403);
    const { timeline } = await lab();
    expect(timeline.slice(-2).map((e: { action: string; detail: { ids: number[] } }) => [e.action, e.detail.ids.length])).toEqual([['print_labels', 3], ['reprint_labels', 1]]);
  });
});
