import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, loginAs, seal, startApp, tokenFor, type Harness } from './harness.js';

const USERS = '/api/system_management/users';
const q = (params: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();

describe.each(databases)('generic resource API [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let registrar: string;
  let roles: Record<string, number>;
  let hospitalId: number;
  beforeAll(async () => {
    h = await startApp(kind);
    [admin, registrar] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar')]);
    roles = Object.fromEntries((await h.db.selectFrom('roles').select(['id', 'identification']).execute()).map((r) => [r.identification, r.id]));
    hospitalId = (await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => { await h.close(); });

  const list = async (params: Record<string, unknown>, token = admin) => call(h.app, 'GET', `${USERS}/lists?${q(params)}`, { token, lang: 'en-US' });
  const names = async (params: Record<string, unknown>) => {
    const res = await list({ page_size: 100, sort_by: { name: 'asc' }, ...params });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.data as { name: string }[]).map((u) => u.name);
  };

  it('lists in the envelope with page info, and never sends password hashes', async () => {
    const res = await list({ page: 1, page_size: 5 });
    expect(res.statusCode).toBe(200);
    const body = res.json().data;
    expect(body).toMatchObject({ total: 11, current_page: 1, per_page: 5, total_pages: 3 });
    expect(body.data).toHaveLength(5);
    expect(body.data[0]).not.toHaveProperty('password_hash');
    expect(body.data[0].roles[0]).toHaveProperty('identification');
  });

  it('filters with like, in, between, or-groups and except (operator inversion), and keyword search', async () => {
    expect(await names({ filter: [{ column: 'name', operator: 'like', value: 'SCAN' }] })).toEqual(['scanner']);
    expect(await names({ filter: [{ column: 'name', operator: 'in', value: ['qc', 'admin', 'nobody'] }] })).toEqual(['admin', 'qc']);
    const all = await names({});
    const idOf = async (n: string) => (await h.db.selectFrom('users').select('id').where('name', '=', n).executeTakeFirstOrThrow()).id;
    const [lo, hi] = [await idOf('registrar'), await idOf('technician')];
    expect(await names({ filter: [{ column: 'id', operator: 'between', value: [lo, hi] }] })).toEqual(['registrar', 'sampler', 'technician']);
    // except: "and not" — everyone but the three in that id range.
    expect(await names({ filter: [{ column: 'id', operator: 'between', value: [lo, hi], condition: 'except' }] }))
      .toEqual(all.filter((n) => !['registrar', 'sampler', 'technician'].includes(n)));
    expect(await names({ filter: [
      { column: 'name', operator: '=', value: 'qc' },
      { condition: 'or', child: [{ column: 'name', operator: 'like', value: 'sign' }, { column: 'status', operator: '=', value: 1, condition: 'and' }] },
      { column: 'name', operator: 'like', value: 'er', condition: 'except' },
    ] })).toEqual(['qc']);
    expect(await names({ search: '质控' })).toEqual(['qc']);
  });

  it('filters through join tables (role) and by params; except on a join-table field means "has none"', async () => {
    expect(await names({ params: { role_id: roles.registrar } })).toEqual(['registrar']);
    const notAdmin = await names({ filter: [{ column: 'role_id', operator: '=', value: roles.admin, condition: 'except' }] });
    expect(notAdmin).not.toContain('admin');
    expect(notAdmin).toHaveLength(10);
  });

  it('drops empty filter values instead of matching nothing', async () => {
    expect(await names({ filter: [{ column: 'name', operator: 'like', value: '' }, { column: 'id', operator: 'between', value: [1, ''] }] })).toHaveLength(11);
  });

  it('takes the same parameters in a POST body, without logging the read', async () => {
    const before = await h.db.selectFrom('operation_logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const res = await call(h.app, 'POST', `${USERS}/lists`, { token: admin, payload: { page_size: 2, filter: [{ column: 'status', operator: '=', value: 1 }] } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.data).toHaveLength(2);
    const after = await h.db.selectFrom('operation_logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('counts per tab under the same filters', async () => {
    await h.db.updateTable('users').set({ status: 0 }).where('name', '=', 'clinician').execute();
    const res = await call(h.app, 'GET', `${USERS}/count?${q({ tabs: [{ key: 'all' }, { key: 'disabled', filter: [{ column: 'status', operator: '=', value: 0 }] }], filter: [{ column: 'name', operator: 'like', value: 'c' }] })}`, { token: admin });
    expect(res.json().data).toEqual({ all: 5, disabled: 1 }); // allocator, clinician, qc, scanner, technician
    await h.db.updateTable('users').set({ status: 1 }).where('name', '=', 'clinician').execute();
  });

  it('refuses what it cannot vouch for with a translated 422', async () => {
    for (const [params, fragment] of [
      [{ filter: [{ column: 'password_hash', operator: '=', value: 'x' }] }, 'Cannot filter by password_hash'],
      [{ filter: [{ column: 'name', operator: 'regexp', value: 'x' }] }, 'Unsupported operator'],
      [{ filter: [{ column: 'name', operator: '=', value: 'x', condition: 'xor' }] }, 'Unsupported combinator'],
      [{ sort_by: { password_hash: 'asc' } }, 'Cannot sort by'],
      [{ filter: [{ column: 'id', operator: '=', value: 'abc' }] }, 'expected an integer'],
      [{ filter: '{not json' }, 'not valid JSON'],
      [{ page_size: 100000 }, 'Page or page size'],
    ] as const) {
      const res = await list(params as Record<string, unknown>);
      expect(res.statusCode, JSON.stringify(params)).toBe(422);
      expect(res.json().message).toContain(fragment);
    }
    const zh = await call(h.app, 'GET', `${USERS}/lists?${q({ filter: [{ column: 'nope', value: 1 }] })}`, { token: admin, lang: 'zh-CN' });
    expect(zh.json().message).toBe('不能按字段 nope 筛选');
  });

  it('checks permissions: a registrar may not list or write users', async () => {
    expect((await list({}, registrar)).statusCode).toBe(403);
    expect((await call(h.app, 'POST', `${USERS}/store`, { token: registrar, payload: {} })).statusCode).toBe(403);
  });

  describe('writes', () => {
    /** Passwords are sealed with the server's key, as the form sends them (form.seal). */
    const newUser = async (over: Record<string, unknown> = {}, confirm = 'secret-123') => ({
      name: 'newdoc', realname: '新医生', password: await seal(h.app, 'secret-123'), password_confirmation: await seal(h.app, confirm),
      role_ids: [roles.primary_doctor], hospital_ids: [hospitalId], status: 1, locked: 0, ...over,
    });

    it('creates a user validated by the form schema, who can then log in', async () => {
      const res = await call(h.app, 'POST', `${USERS}/store`, { token: admin, payload: await newUser() });
      expect(res.statusCode, res.body).toBe(200);
      const user = res.json().data;
      expect(user).toMatchObject({ name: 'newdoc', realname: '新医生', role_ids: [roles.primary_doctor], hospital_ids: [hospitalId] });
      expect(user).not.toHaveProperty('password');
      expect(await tokenFor(h.app, 'newdoc').catch(() => null)).toBeNull(); // tokenFor uses the demo password
      expect((await loginAs(h.app, 'newdoc', 'secret-123')).statusCode).toBe(200);
    });

    it('answers field errors in the caller language: required, mismatched passwords, duplicate account', async () => {
      const missing = await call(h.app, 'POST', `${USERS}/store`, { token: admin, lang: 'en-US', payload: { name: 'x1' } });
      expect(missing.statusCode).toBe(422);
      expect(Object.keys(missing.json().errors)).toEqual(expect.arrayContaining(['realname', 'role_ids', 'hospital_ids', 'password']));
      expect(missing.json().errors.realname[0]).toBe('Name is required');

      const mismatch = await call(h.app, 'POST', `${USERS}/store`, { token: admin, lang: 'zh-CN', payload: await newUser({ name: 'x2' }, 'other-123') });
      expect(mismatch.statusCode).toBe(422);
      expect(mismatch.json().errors.password_confirmation).toEqual(['两次输入的密码不一致']);

      const dup = await call(h.app, 'POST', `${USERS}/store`, { token: admin, lang: 'en-US', payload: await newUser() });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().errors.name[0]).toBe('name already exists: newdoc');
    });

    it('refuses a password sent in clear text', async () => {
      const res = await call(h.app, 'POST', `${USERS}/store`, { token: admin, lang: 'en-US', payload: { ...(await newUser({ name: 'clear' })), password: 'secret-123' } });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.password).toEqual(['password must be sent encrypted; reload the page and try again']);
      expect(await h.db.selectFrom('users').select('id').where('name', '=', 'clear').executeTakeFirst()).toBeUndefined();
    });

    it('updates partially (disable, lock, expiry), keeps the rest, and logs the write', async () => {
      const id = (await h.db.selectFrom('users').select('id').where('name', '=', 'newdoc').executeTakeFirstOrThrow()).id;
      const res = await call(h.app, 'PATCH', `${USERS}/update/${id}`, { token: admin, payload: { status: 0, expires_at: '2030-01-01 00:00:00' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ status: 0, realname: '新医生', role_ids: [roles.primary_doctor] });
      expect(res.json().data.expires_at).toMatch(/^2029-12-3|^2030-01-01/);
      const log = await h.db.selectFrom('operation_logs').selectAll().where('route', '=', `${USERS}/update/:id`).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(log.status_code).toBe(200);
      expect((await call(h.app, 'PATCH', `${USERS}/update/${id}`, { token: admin, payload: { status: 7 } })).statusCode).toBe(422);
    });

    it('deletes by ids in the body, but never the caller', async () => {
      const id = (await h.db.selectFrom('users').select('id').where('name', '=', 'newdoc').executeTakeFirstOrThrow()).id;
      const self = (await h.db.selectFrom('users').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow()).id;
      expect((await call(h.app, 'DELETE', `${USERS}/destroy`, { token: admin, payload: { ids: [self] } })).statusCode).toBe(422);
      const res = await call(h.app, 'DELETE', `${USERS}/destroy`, { token: admin, payload: { ids: [id] } });
      expect(res.json().data).toEqual({ deleted: 1 });
      expect((await call(h.app, 'GET', `${USERS}/item/${id}`, { token: admin })).statusCode).toBe(404);
    });
  });
});
