import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { SCHEMAS_DIR } from '../../server/modules/schemas/repository.js';
import { loadResources } from '../../server/resources/definition.js';
import { updateRow } from '../../server/resources/queries.js';
import type { WriteContext } from '../../server/resources/hooks/types.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * The department's borrowing and archive (issue 32), built from schemas and rule files only, and the generic state
 * machine under them (src/core/stateMachine.ts, server/resources/transitions.ts): a step is taken only by the roles
 * and from the states schemas/rules/borrow-orders.json names (422 in words otherwise, nothing written), writes its
 * who/when, is operation-logged; of two steps taken at once on one order exactly one wins; "overdue" is the rule
 * file's; another hospital's orders are out of reach (the row scope).
 */
describe.each(databases)('department borrowing and archive [%s]', (kind) => {
  let h: Harness;
  let db: Kysely<any>; // the module's tables are data (schemas/resources), not schema.ts's
  const t: Record<string, string> = {};
  const ORDERS = '/api/department/borrow-orders';
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const post = (who: string, url: string, payload: object, lang = 'en-US') => call(h.app, 'POST', url, { token: t[who], lang, payload });
  const step = (who: string, id: number, transition: string, extra: object = {}, lang = 'en-US') => post(who, `${ORDERS}/transition/${id}`, { transition, ...extra }, lang);
  const statusOf = async (id: number) => (await db.selectFrom('borrow_orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status as string;
  let serial = 0;
  const newOrder = async (over: object = {}) => {
    const res = await post('registrar', `${ORDERS}/store`, { order_number: `JY-${kind}-${++serial}`, borrow_type: 'slide', borrower: '王医生', deposit: 100, due_date: day(30), ...over });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: number; status: string };
  };

  beforeAll(async () => {
    h = await startApp(kind);
    db = h.db as unknown as Kysely<any>;
    for (const u of ['admin', 'registrar', 'signer', 'technician', 'sampler']) t[u] = await tokenFor(h.app, u);
    t.signerBranch = await tokenFor(h.app, 'signer');
    const branch = await db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow();
    expect((await call(h.app, 'POST', '/api/auth/switch_hospital', { token: t.signerBranch, payload: { hospital_id: branch.id } })).statusCode).toBe(200);
  }, 60_000);
  afterAll(async () => h?.close());

  it('the Department menu and codes reach the roles that hold them', async () => {
    const menu = async (who: string) => JSON.stringify((await call(h.app, 'GET', '/api/system_management/users/menu', { token: t[who] })).json().data);
    expect(await menu('registrar')).toMatch(/DepartmentGroup[\s\S]*BorrowOrders/);
    expect(await menu('technician')).toContain('ArchiveItems');
    expect(await menu('technician')).not.toContain('BorrowOrders');
    expect((await call(h.app, 'GET', `${ORDERS}/lists`, { token: t.sampler })).statusCode).toBe(403);
  });

  it('borrow → check → lend → return by the rule file\'s roles, each step\'s who/when written and logged', async () => {
    const made = await newOrder({ status: 'returned' });
    expect(made.status).toBe('checking');
    const passed = await step('signer', made.id, 'pass', { check_note: '同意' });
    expect(passed.statusCode, passed.body).toBe(200);
    expect(passed.json().data).toMatchObject({ status: 'checked_pass', checked_by: await userId(h.db, 'signer'), check_note: '同意' });
    expect(passed.json().data.checked_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await step('registrar', made.id, 'lend')).json().data).toMatchObject({ status: 'borrowing', lent_by: await userId(h.db, 'registrar'), overdue: 0 });
    const back = await step('registrar', made.id, 'return', { compensation: '20', return_note: '一张切片破损' });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data).toMatchObject({ status: 'returned', compensation: 20, returned_by: await userId(h.db, 'registrar') });
    const logged = await db.selectFrom('operation_logs').select(['route', 'status_code']).where('route', '=', `${ORDERS}/transition/:id`).where('path', 'like', `%/${made.id}`).execute();
    expect(logged.map((l) => Number(l.status_code))).toEqual([200, 200, 200]);
  });

  it('a step refused by permission, role, state, guard or an input it does not take: in both languages, nothing written', async () => {
    const { id } = await newOrder();
    const role = await step('registrar', id, 'pass');
    expect(role.statusCode).toBe(422);
    expect(role.json().message).toBe('Your role may not take the step "Approve"');
    expect((await step('registrar', id, 'pass', {}, 'zh-CN')).json().message).toBe('您的角色不能执行“审核通过”');
    expect((await step('signer', id, 'lend')).statusCode).toBe(403);
    const guard = await step('signer', id, 'refuse', {}, 'zh-CN');
    expect([guard.statusCode, guard.json().message]).toEqual([422, '不能执行“审核不通过”：审核不通过时请填写原因']);
    expect((await step('signer', id, 'pass', { deposit: 0 })).statusCode).toBe(422);
    // The state is the machine's: an update that names it leaves it as it is.
    expect((await call(h.app, 'PATCH', `${ORDERS}/update/${id}`, { token: t.registrar, payload: { status: 'returned' } })).statusCode).toBe(200);
    expect(await statusOf(id)).toBe('checking');

    expect((await step('signer', id, 'pass')).statusCode).toBe(200);
    const state = await step('signer', id, 'pass');
    expect([state.statusCode, state.json().message]).toEqual([422, 'The record is "Checked: pass"; the step "Approve" cannot be taken now']);
    expect((await step('signer', id, 'pass', {}, 'zh-CN')).json().message).toBe('当前状态为“审核通过”，不能执行“审核通过”');
    expect((await step('registrar', id, 'frobnicate')).statusCode).toBe(422);
    expect(await statusOf(id)).toBe('checked_pass');
  });

  it('two steps taken at once on one order: exactly one wins', async () => {
    const { id } = await newOrder();
    const answers = await Promise.all([step('signer', id, 'pass'), step('admin', id, 'refuse', { check_note: 'no' })]);
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect([409, 422]).toContain(codes.find((c) => c !== 200));
    expect(await statusOf(id)).toBe(answers[0].statusCode === 200 ? 'checked_pass' : 'checked_not_pass');
    // Whichever way the two interleaved, the write itself is conditional: a step from a state the row left writes nothing.
    const def = loadResources(path.join(SCHEMAS_DIR, 'resources')).find((r) => r.name === 'borrow_orders')!;
    const stale = updateRow(h.db, def, undefined, id, {}, { creating: false, id } as WriteContext, { set: { status: 'returned' }, expect: { column: 'status', value: 'checking' } });
    await expect(stale).rejects.toMatchObject({ status: 409, key: 'resource.changed' });
    expect(await statusOf(id)).not.toBe('returned');
  });

  it('overdue: borrowing past the due date, by the rule file, in lists and items', async () => {
    const late = await newOrder();
    const onTime = await newOrder();
    for (const o of [late, onTime]) {
      await step('signer', o.id, 'pass');
      expect((await step('registrar', o.id, 'lend')).statusCode).toBe(200);
    }
    await db.updateTable('borrow_orders').set({ due_date: day(-2) }).where('id', '=', late.id).execute();
    const rows = (await call(h.app, 'GET', `${ORDERS}/lists?page_size=100`, { token: t.registrar })).json().data.data as { id: number; overdue: number }[];
    expect(rows.find((r) => r.id === late.id)?.overdue).toBe(1);
    expect(rows.find((r) => r.id === onTime.id)?.overdue).toBe(0);
    expect((await call(h.app, 'GET', `${ORDERS}/item/${late.id}`, { token: t.registrar })).json().data.overdue).toBe(1);
    // The same rule refuses lending an order whose due date has passed.
    const stale = await newOrder({ due_date: day(-1) });
    await step('signer', stale.id, 'pass');
    expect((await step('registrar', stale.id, 'lend')).json().message).toBe('The step "Lend" cannot be taken: The due date has passed; change it before lending');
  });

  it('another hospital\'s orders are out of reach; the archive files, packs, and keeps its location', async () => {
    const { id } = await newOrder();
    expect((await step('signerBranch', id, 'pass')).statusCode).toBe(404);
    const branchRows = (await call(h.app, 'GET', `${ORDERS}/lists`, { token: t.signerBranch })).json().data.data as { id: number }[];
    expect(branchRows.map((r) => r.id)).not.toContain(id);

    const item = await post('technician', '/api/department/archive-items/store', { kind: 'block', code: `B-${kind}-1`, pathology_number: 'P2026-00001' });
    expect(item.json().data.archive_status).toBe('not_filed');
    const url = `/api/department/archive-items/transition/${item.json().data.id}`;
    expect((await post('technician', url, { transition: 'file' })).json().message).toBe('The step "File" cannot be taken: Give the location when filing');
    expect((await post('registrar', url, { transition: 'file', location: 'A-01' })).statusCode).toBe(403);
    expect((await post('technician', url, { transition: 'file', location: 'A-01' })).json().data).toMatchObject({ archive_status: 'filed', location: 'A-01', filed_by: await userId(h.db, 'technician') });
    expect((await post('technician', url, { transition: 'pack', box: 'X7' })).json().data).toMatchObject({ archive_status: 'packed', box: 'X7' });
    expect((await post('technician', url, { transition: 'unpack' })).json().data).toMatchObject({ archive_status: 'filed', box: null, packed_at: null });
  });
});
