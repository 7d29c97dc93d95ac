import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * SlideApply's lifecycle (issue 10, spec §4 states 0 applied → 1 dispatched → 2 received → 3 registered, -1 rejected):
 * each step from its one starting state, by the roles of schemas/rules/case-transitions.json; each refusal is
 * translated and changes nothing; registration copies the application's steps onto the case's timeline. Both databases.
 */
describe.each(databases)('slide applications: dispatch and receive [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  let seq = 0;

  const post = (who: string, url: string, payload?: object, lang = 'en-US') => call(h.app, 'POST', url, { token: t[who], lang, payload: payload ?? {} });
  const row = (id: number) => h.db.selectFrom('case_applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const applied = async () => {
    const res = await post('clinician', '/api/pathology/applications/apply', { apply_number: `SQ-A${++seq}`, patient_name: '林芳', specimen_name: '甲状腺' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as number;
  };
  const refused = async (res: { statusCode: number; json(): { message: string } }, status: number, message: string, id: number, before: unknown) => {
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
    expect(await row(id)).toEqual(before);
  };

  beforeAll(async () => {
    h = await startApp(kind);
    for (const u of ['admin', 'registrar', 'clinician', 'technician']) t[u] = await tokenFor(h.app, u);
  });
  afterAll(async () => h?.close());

  it('the clinic dispatches (0 → 1), the lab receives (1 → 2), registration closes it (3) and the case timeline starts with all three', async () => {
    const id = await applied();
    const sent = await post('clinician', `/api/pathology/applications/${id}/dispatch`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({ id, status: 1, dispatched_at: expect.any(String), received_at: null });
    const got = await post('registrar', `/api/pathology/applications/${id}/receive`);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().data).toMatchObject({ id, status: 2, received_at: expect.any(String) });
    const reg = await post('registrar', '/api/pathology/register', { application_id: id, specimens: [{ name: '甲状腺' }] });
    expect(reg.statusCode, reg.body).toBe(200);
    expect(await row(id)).toMatchObject({ status: 3, case_id: reg.json().data.id });
    const lab = (await call(h.app, 'GET', `/api/pathology/${reg.json().data.id}/lab`, { token: t.registrar })).json().data;
    expect(lab.timeline.map((e: { action: string }) => e.action)).toEqual(['apply', 'dispatch_application', 'receive_application', 'register']);
    // Each at its own time, by its own actor: the clinician applied and dispatched, the registrar received.
    const [apply, dispatch, receive] = lab.timeline;
    const app = await row(id);
    expect([apply.created_at, dispatch.created_at, receive.created_at]).toEqual([app.created_at, app.dispatched_at, app.received_at]);
    expect([apply.actor_id, dispatch.actor_id, receive.actor_id]).toEqual([app.applied_by, app.dispatched_by, app.received_by]);
    expect(dispatch.actor_id).not.toBe(receive.actor_id);
    expect(receive.actor_name).toBeTruthy();
    // The operation log records each step's request.
    const logged = await h.db.selectFrom('operation_logs').select('path').where('path', 'like', `/api/pathology/applications/${id}/%`).execute();
    expect(logged.map((l) => l.path).sort()).toEqual([`/api/pathology/applications/${id}/dispatch`, `/api/pathology/applications/${id}/receive`]);
  });

  it('refuses a step from the wrong state with the state named in the user\'s language; nothing changes', async () => {
    const id = await applied();
    let before = await row(id);
    // Receive before dispatch.
    await refused(await post('registrar', `/api/pathology/applications/${id}/receive`), 409, 'The application is "Applied"; only a dispatched one can be received', id, before);
    await refused(await post('registrar', `/api/pathology/applications/${id}/receive`, {}, 'zh-CN'), 409, '申请单处于“已申请”状态，只有已派送的申请单可以接收', id, before);
    expect((await post('clinician', `/api/pathology/applications/${id}/dispatch`)).statusCode).toBe(200);
    before = await row(id);
    // Dispatch twice.
    await refused(await post('clinician', `/api/pathology/applications/${id}/dispatch`), 409, 'The application is "Dispatched"; only an applied one can be dispatched', id, before);
    await refused(await post('clinician', `/api/pathology/applications/${id}/dispatch`, {}, 'zh-CN'), 409, '申请单处于“已派送”状态，只有已申请的申请单可以派送', id, before);
    expect((await post('registrar', `/api/pathology/applications/${id}/receive`)).statusCode).toBe(200);
    before = await row(id);
    await refused(await post('registrar', `/api/pathology/applications/${id}/receive`), 409, 'The application is "Received"; only a dispatched one can be received', id, before);
    // A rejected application takes neither step.
    expect((await post('registrar', `/api/pathology/applications/${id}/reject`, { reason: '标本溶血' })).statusCode).toBe(200);
    before = await row(id);
    await refused(await post('clinician', `/api/pathology/applications/${id}/dispatch`, {}, 'zh-CN'), 409, '申请单处于“已拒收”状态，只有已申请的申请单可以派送', id, before);
    await refused(await post('registrar', `/api/pathology/applications/${id}/receive`), 409, 'The application is "Rejected"; only a dispatched one can be received', id, before);
  });

  it('refuses roles without the permission or the rule, another hospital\'s application and an unknown one; nothing changes', async () => {
    const id = await applied();
    const before = await row(id);
    // The technician holds neither case_apply nor case_register; the clinician may dispatch but not receive.
    expect((await post('technician', `/api/pathology/applications/${id}/dispatch`)).statusCode).toBe(403);
    expect((await post('clinician', `/api/pathology/applications/${id}/dispatch`)).statusCode).toBe(200);
    const dispatched = await row(id);
    expect((await post('clinician', `/api/pathology/applications/${id}/receive`)).statusCode).toBe(403);
    expect(await row(id)).toEqual(dispatched);
    expect(before.status).toBe(0);
    // The hospital's rule decides the role: an override that allows only the administrator refuses the registrar.
    const hospitalId = before.hospital_id;
    const override = await call(h.app, 'PUT', '/api/rules/case-transitions', { token: t.admin, payload: { override: { rules: { receive_application: { in: ['admin', { var: 'roles' }] } } } } });
    expect(override.statusCode, override.body).toBe(200);
    const res = await post('registrar', `/api/pathology/applications/${id}/receive`);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your role may not run this step (receive_application)');
    expect(await row(id)).toEqual(dispatched);
    await call(h.app, 'POST', '/api/rules/case-transitions/rollback', { token: t.admin, payload: { version: 0 } });
    // Another hospital's application is not there.
    const other = (await h.db.selectFrom('hospitals').select('id').where('id', '<>', hospitalId).orderBy('id').executeTakeFirstOrThrow()).id;
    await h.db.updateTable('case_applications').set({ hospital_id: other }).where('id', '=', id).execute();
    const away = await post('registrar', `/api/pathology/applications/${id}/receive`, {}, 'zh-CN');
    expect(away.statusCode).toBe(404);
    expect(away.json().message).toBe('申请单不存在或不属于当前医院');
    await h.db.updateTable('case_applications').set({ hospital_id: hospitalId }).where('id', '=', id).execute();
    expect(await row(id)).toEqual(dispatched);
    expect((await post('registrar', '/api/pathology/applications/999999/dispatch')).statusCode).toBe(404);
  });

  it('two receipts at once: one goes through, the other is refused', async () => {
    const id = await applied();
    expect((await post('clinician', `/api/pathology/applications/${id}/dispatch`)).statusCode).toBe(200);
    const codes = (await Promise.all([1, 2].map(() => post('registrar', `/api/pathology/applications/${id}/receive`)))).map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409]);
    expect((await row(id)).status).toBe(2);
  });
});
