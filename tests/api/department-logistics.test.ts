import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * The department's logistics, report delivery and follow-up (issue 32), built from schemas and rule files only on the
 * generic state machine (src/core/stateMachine.ts, server/resources/transitions.ts): each step only by the roles, the
 * hospital and from the states its rule file names (422 in words, nothing written), with its who/when; of two steps
 * at once exactly one wins; a transport is read by its sending and its receiving hospital (scoped-tables.ts
 * `sharedWith`), signed by the receiver only and edited by the sender only; any other hospital sees none of them.
 */
describe.each(databases)('department logistics, delivery and follow-up [%s]', (kind) => {
  let h: Harness;
  let db: Kysely<any>; // the module's tables are data (schemas/resources), not schema.ts's
  const t: Record<string, string> = {};
  const hospital: Record<string, number> = {};
  const LOGISTICS = '/api/department/logistics-orders';
  const DELIVERIES = '/api/department/report-deliveries';
  const FOLLOW = '/api/department/follow-ups';
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const post = (who: string, url: string, payload: object, lang = 'en-US') => call(h.app, 'POST', url, { token: t[who], lang, payload });
  const step = (who: string, route: string, id: number, transition: string, extra: object = {}, lang = 'en-US') =>
    post(who, `${route}/transition/${id}`, { transition, ...extra }, lang);
  const ids = async (who: string, route: string) => ((await call(h.app, 'GET', `${route}/lists?page_size=100`, { token: t[who] })).json().data.data as { id: number }[]).map((r) => r.id);
  let serial = 0;
  const made = async (who: string, route: string, body: object) => {
    const res = await post(who, `${route}/store`, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Record<string, any>;
  };
  const transport = (over: object = {}) => made('registrar', LOGISTICS, { order_number: `WL-${kind}-${++serial}`, to_hospital_id: hospital.H002, specimen_count: 3, contents: '冰冻标本', ...over });
  const switchTo = async (who: string, code: string) =>
    expect((await call(h.app, 'POST', '/api/auth/switch_hospital', { token: t[who], payload: { hospital_id: hospital[code] } })).statusCode).toBe(200);

  beforeAll(async () => {
    h = await startApp(kind);
    db = h.db as unknown as Kysely<any>;
    const [third] = await db.insertInto('hospitals').values({ code: 'H003', name: '第三医院', en_name: 'Third Hospital', logo: null, created_at: new Date().toISOString() }).returning('id').execute();
    for (const row of await db.selectFrom('hospitals').select(['id', 'code']).execute()) hospital[row.code] = Number(row.id);
    expect(Number(third.id)).toBe(hospital.H003);
    // The registrar keeps the desk of the general hospital and of the branch: the hospital they work in decides the side.
    const registrar = await userId(h.db, 'registrar');
    await db.insertInto('user_hospitals').values([{ user_id: registrar, hospital_id: hospital.H002 }, { user_id: registrar, hospital_id: hospital.H003 }]).execute();
    for (const u of ['admin', 'registrar', 'signer', 'primary', 'technician', 'sampler']) t[u] = await tokenFor(h.app, u);
    t.registrarBranch = await tokenFor(h.app, 'registrar');
    t.registrarThird = await tokenFor(h.app, 'registrar');
    t.signerBranch = await tokenFor(h.app, 'signer');
    await switchTo('registrarBranch', 'H002');
    await switchTo('registrarThird', 'H003');
    await switchTo('signerBranch', 'H002');
  }, 60_000);
  afterAll(async () => h?.close());

  it('the Department menu entries and codes reach the roles that hold them', async () => {
    const menu = async (who: string) => JSON.stringify((await call(h.app, 'GET', '/api/system_management/users/menu', { token: t[who] })).json().data);
    expect(await menu('registrar')).toMatch(/DepartmentGroup[\s\S]*LogisticsOrders[\s\S]*ReportDeliveries/);
    expect(await menu('signer')).toContain('FollowUps');
    expect(await menu('signer')).not.toContain('LogisticsOrders');
    expect((await call(h.app, 'GET', `${LOGISTICS}/lists`, { token: t.sampler })).statusCode).toBe(403);
    expect((await call(h.app, 'GET', `${FOLLOW}/lists`, { token: t.registrar })).statusCode).toBe(403);
    const hospitals = (await call(h.app, 'GET', '/api/common/hospitals', { token: t.sampler })).json().data as { id: number; en_name: string }[];
    expect(hospitals.find((x) => x.id === hospital.H002)?.en_name).toBe('Demo Branch Hospital');
  });

  it('a transport: distributed by the sender, shipped by the sender, signed by the receiver, each with who and when', async () => {
    const me = await userId(h.db, 'registrar');
    const order = await transport({ status: 'signed', hospital_id: hospital.H003 });
    expect(order).toMatchObject({ status: 'distributed', hospital_id: hospital.H001, to_hospital_id: hospital.H002, distributed_by: me });
    expect(order.distributed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The receiver reads it, but it is the sender's to ship, edit and delete.
    expect(await ids('registrarBranch', LOGISTICS)).toContain(order.id);
    const early = await step('registrarBranch', LOGISTICS, order.id, 'ship');
    expect([early.statusCode, early.json().message]).toEqual([422, 'Your role may not take the step "Ship"']);
    expect((await call(h.app, 'PATCH', `${LOGISTICS}/update/${order.id}`, { token: t.registrarBranch, payload: { courier: 'x' } })).statusCode).toBe(404);
    expect((await call(h.app, 'DELETE', `${LOGISTICS}/destroy`, { token: t.registrarBranch, payload: { ids: [order.id] } })).statusCode).toBe(404);

    const shipped = await step('registrar', LOGISTICS, order.id, 'ship', { courier: '张师傅' });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json().data).toMatchObject({ status: 'in_transit', courier: '张师傅', shipped_by: me });
    const senderSigns = await step('registrar', LOGISTICS, order.id, 'sign', {}, 'zh-CN');
    expect([senderSigns.statusCode, senderSigns.json().message]).toEqual([422, '您的角色不能执行“签收”']);
    const signed = await step('registrarBranch', LOGISTICS, order.id, 'sign', { sign_note: '完好' });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().data).toMatchObject({ status: 'signed', signed_by: me, sign_note: '完好', shipped_by: me });
    expect(signed.json().data.signed_at >= signed.json().data.shipped_at).toBe(true);
    const again = await step('registrarBranch', LOGISTICS, order.id, 'sign');
    expect([again.statusCode, again.json().message]).toEqual([422, 'The record is "Signed"; the step "Sign for" cannot be taken now']);
    const logged = await db.selectFrom('operation_logs').select('status_code').where('route', '=', `${LOGISTICS}/transition/:id`).where('path', 'like', `%/${order.id}`).execute();
    expect(logged.map((l) => Number(l.status_code))).toEqual([422, 200, 422, 200, 422]);
  });

  it('a transport: permission, guard and inputs refused, a third hospital sees none, two steps at once one winner', async () => {
    const order = await transport();
    expect((await step('signer', LOGISTICS, order.id, 'ship')).statusCode).toBe(403);
    expect((await step('registrar', LOGISTICS, order.id, 'ship', { sign_note: 'x' })).statusCode).toBe(422);
    expect(await ids('registrarThird', LOGISTICS)).not.toContain(order.id);
    expect((await step('registrarThird', LOGISTICS, order.id, 'sign')).statusCode).toBe(404);
    const toSelf = await transport({ to_hospital_id: hospital.H001 });
    expect((await step('registrar', LOGISTICS, toSelf.id, 'ship')).json().message).toBe('The step "Ship" cannot be taken: The receiving hospital must be another hospital');

    const race = await Promise.all([step('registrar', LOGISTICS, order.id, 'ship', { courier: 'a' }), step('admin', LOGISTICS, order.id, 'ship', { courier: 'b' })]);
    const codes = race.map((a) => a.statusCode).sort();
    expect(codes[0]).toBe(200);
    expect([409, 422]).toContain(codes[1]);
    const row = await db.selectFrom('logistics_orders').select(['status', 'courier']).where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('in_transit');
    expect(row.courier).toBe(race[0].statusCode === 200 ? 'a' : 'b');
  });

  it('a report delivery: pending → in delivery → delivered with who and when; refused by role, state and guard; another hospital sees none', async () => {
    const me = await userId(h.db, 'registrar');
    const d = await made('registrar', DELIVERIES, { delivery_number: `PS-${kind}-1`, pathology_number: 'P2026-00001', recipient: '胃肠外科', copies: 2, status: 'delivered' });
    expect(d.status).toBe('pending');
    expect((await step('signer', DELIVERIES, d.id, 'dispatch')).statusCode).toBe(403);
    const early = await step('registrar', DELIVERIES, d.id, 'deliver', { receiver: '李护士' }, 'zh-CN');
    expect([early.statusCode, early.json().message]).toEqual([422, '当前状态为“待配送”，不能执行“确认送达”']);
    expect((await step('registrar', DELIVERIES, d.id, 'dispatch', { courier: '王' })).json().data).toMatchObject({ status: 'in_delivery', dispatched_by: me, courier: '王' });
    expect((await step('registrar', DELIVERIES, d.id, 'deliver')).json().message).toBe('The step "Delivered" cannot be taken: Give the name of who received it');
    expect(await ids('registrarBranch', DELIVERIES)).not.toContain(d.id);
    expect((await step('registrarBranch', DELIVERIES, d.id, 'deliver', { receiver: 'x' })).statusCode).toBe(404);
    const race = await Promise.all([step('registrar', DELIVERIES, d.id, 'deliver', { receiver: '李护士' }), step('admin', DELIVERIES, d.id, 'deliver', { receiver: '赵护士' })]);
    expect(race.map((r) => r.statusCode).filter((c) => c === 200)).toHaveLength(1);
    const row = await db.selectFrom('report_deliveries').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'delivered', receiver: race[0].statusCode === 200 ? '李护士' : '赵护士' });
    expect(row.delivered_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('a follow-up: started, ended with its result, followed again; due and overdue by the rule file; refused by role, state and guard', async () => {
    const primary = await userId(h.db, 'primary');
    const c = await db.selectFrom('cases').select('id').where('hospital_id', '=', hospital.H001).orderBy('id').executeTakeFirstOrThrow();
    const f = await made('primary', FOLLOW, { case_id: c.id, follow_date: day(0), method: 'phone', content: '复查肠镜' });
    expect(f).toMatchObject({ status: 'following', started_by: primary, due: 1 });
    expect((await step('technician', FOLLOW, f.id, 'end')).statusCode).toBe(403);
    expect((await step('primary', FOLLOW, f.id, 'end', {}, 'zh-CN')).json().message).toBe('不能执行“结束随访”：结束随访时请填写随访结果');
    const ended = await step('primary', FOLLOW, f.id, 'end', { result: '无复发' });
    expect(ended.json().data).toMatchObject({ status: 'ended', ended_by: primary, result: '无复发', due: 0 });
    expect((await step('primary', FOLLOW, f.id, 'end', { result: 'x' })).json().message).toBe('The record is "Ended"; the step "End follow-up" cannot be taken now');
    expect((await step('signer', FOLLOW, f.id, 'refollow', { follow_date: day(-1) })).json().message).toBe('The step "Follow again" cannot be taken: Give a next follow-up date from today on');
    const again = await step('signer', FOLLOW, f.id, 'refollow', { follow_date: day(7) });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ status: 'following', refollowed_by: await userId(h.db, 'signer'), ended_by: null, ended_at: null, follow_date: day(7), due: 0 });

    await db.updateTable('follow_ups').set({ follow_date: day(-3) }).where('id', '=', f.id).execute();
    const listed = (await call(h.app, 'GET', `${FOLLOW}/lists?page_size=100`, { token: t.primary })).json().data.data as { id: number; due: number; case_id: number }[];
    expect(listed.find((r) => r.id === f.id)).toMatchObject({ due: 2, case_id: c.id });
    // The case's follow-ups, as its page asks for them; the branch sees none of them.
    const ofCase = (await call(h.app, 'GET', `${FOLLOW}/lists?case_id=${c.id}`, { token: t.signer })).json().data.data as { id: number }[];
    expect(ofCase.map((r) => r.id)).toContain(f.id);
    expect(await ids('signerBranch', FOLLOW)).not.toContain(f.id);
    const race = await Promise.all([step('primary', FOLLOW, f.id, 'end', { result: 'a' }), step('signer', FOLLOW, f.id, 'end', { result: 'b' })]);
    expect(race.map((r) => r.statusCode).filter((s) => s === 200)).toHaveLength(1);
  });
});
