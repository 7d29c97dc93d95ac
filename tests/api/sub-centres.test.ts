import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, seal, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Sub-centres (spec §6, issue 17) on both databases: the branch hospital's administrator (`subadmin`) manages the
 * branch's users and the branch's hospital settings and nothing of the general hospital: other users are as absent
 * as missing ones (list, detail, update, delete, login-lock), new users only in the branch, no administrator role,
 * the system settings closed. The group administrator still reaches everyone.
 */
describe.each(databases)('sub-centres [%s]', (kind) => {
  let h: Harness;
  let sub: string;
  let admin: string;
  let general: number;
  let branch: number;
  const users = '/api/system_management/users';

  const roleId = async (identification: string) => (await h.db.selectFrom('roles').select('id').where('identification', '=', identification).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
    [general, branch] = (await h.db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id);
    // The group administrator sets the branch up as a sub-centre: its administrator and a user, in the branch only.
    for (const [name, role] of [['subadmin', 'sub_center_admin'], ['subuser', 'sub_center_user']] as const) {
      const made = await call(h.app, 'POST', `${users}/store`, { token: admin, payload: {
        name, realname: name, password: await seal(h.app, 'dsms-demo'), password_confirmation: await seal(h.app, 'dsms-demo'),
        status: 1, hospital_ids: [branch], role_ids: [await roleId(role)],
      } });
      expect(made.statusCode, made.body).toBe(200);
    }
    sub = await tokenFor(h.app, 'subadmin');
  });
  afterAll(async () => h?.close());

  it('lists only the branch’s own people; the administrator sees everyone', async () => {
    const mine = (await call(h.app, 'GET', `${users}/lists?page_size=500`, { token: sub })).json().data.data as { name: string }[];
    expect(mine.map((u) => u.name).sort()).toEqual(['subadmin', 'subuser']);
    // primary works in both hospitals: not wholly the branch's, so not the branch administrator's to manage.
    const all = (await call(h.app, 'GET', `${users}/lists?page_size=500`, { token: admin })).json().data.data as { name: string }[];
    expect(all.map((u) => u.name)).toEqual(expect.arrayContaining(['admin', 'primary', 'registrar', 'subadmin', 'subuser']));
    const counted = (await call(h.app, 'GET', `${users}/count`, { token: sub })).json().data;
    expect(Object.values(counted)[0]).toBe(2);
  });

  it('cannot read, change, unlock or delete a user of the general hospital (404, nothing changes)', async () => {
    const registrar = await userId(h.db, 'registrar');
    const primary = await userId(h.db, 'primary');
    for (const id of [registrar, primary]) {
      expect((await call(h.app, 'GET', `${users}/item/${id}`, { token: sub })).statusCode).toBe(404);
      expect((await call(h.app, 'GET', `${users}/detail/${id}`, { token: sub })).statusCode).toBe(404);
      expect((await call(h.app, 'PATCH', `${users}/update/${id}`, { token: sub, payload: { realname: 'hijacked' } })).statusCode).toBe(404);
      expect((await call(h.app, 'POST', `${users}/delLoginLock/${id}`, { token: sub })).statusCode).toBe(404);
      expect((await call(h.app, 'DELETE', `${users}/destroy`, { token: sub, payload: { ids: [id] } })).statusCode).toBe(404);
    }
    const row = await h.db.selectFrom('users').select('realname').where('id', '=', registrar).executeTakeFirstOrThrow();
    expect(row.realname).not.toBe('hijacked');
    expect(await h.db.selectFrom('users').select('id').where('id', 'in', [registrar, primary]).execute()).toHaveLength(2);
  });

  it('creates users only in the branch, with no administrator role, and manages them', async () => {
    // Passwords travel sealed, a fresh seal for each request (server/modules/auth).
    const fresh = async () => ({ realname: '分院技师', password: await seal(h.app, 'Branch-2026!'), password_confirmation: await seal(h.app, 'Branch-2026!'), status: 1 });
    const nowhere = await call(h.app, 'POST', `${users}/store`, { token: sub, lang: 'en-US', payload: { ...(await fresh()), name: 'nowhere', hospital_ids: [], role_ids: [await roleId('sub_center_user')] } });
    expect(nowhere.statusCode).toBe(422);
    expect(Object.keys(nowhere.json().errors), nowhere.body).toContain('hospital_ids');
    const elsewhere = await call(h.app, 'POST', `${users}/store`, { token: sub, lang: 'zh-CN', payload: { ...(await fresh()), name: 'elsewhere', hospital_ids: [general], role_ids: [await roleId('sub_center_user')] } });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().message).toBe('只能分配您所管理的医院（分中心）');
    const escalate = await call(h.app, 'POST', `${users}/store`, { token: sub, lang: 'en-US', payload: { ...(await fresh()), name: 'escalate', hospital_ids: [branch], role_ids: [await roleId('admin')] } });
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json().message).toBe('Only a system administrator can grant an administrator role');
    expect(await h.db.selectFrom('users').select('id').where('name', 'in', ['nowhere', 'elsewhere', 'escalate']).execute()).toEqual([]);

    const made = await call(h.app, 'POST', `${users}/store`, { token: sub, payload: { ...(await fresh()), name: 'branchtech', hospital_ids: [branch], role_ids: [await roleId('sub_center_user')] } });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().data.id as number;
    expect((await call(h.app, 'PATCH', `${users}/update/${id}`, { token: sub, payload: { realname: '分院技师二' } })).statusCode).toBe(200);
    // Moving the user to the general hospital, or adding it, is out of reach.
    expect((await call(h.app, 'PATCH', `${users}/update/${id}`, { token: sub, payload: { hospital_ids: [branch, general] } })).statusCode).toBe(403);
    // Nor can the branch administrator give themselves the general hospital.
    expect((await call(h.app, 'PATCH', `${users}/update/${await userId(h.db, 'subadmin')}`, { token: sub, payload: { hospital_ids: [branch, general] } })).statusCode).toBe(403);
    expect((await call(h.app, 'DELETE', `${users}/destroy`, { token: sub, payload: { ids: [id] } })).statusCode).toBe(200);
  });

  it('configures the branch hospital only; the system settings stay closed', async () => {
    const seen = (await call(h.app, 'GET', '/api/config/hospitals/lists', { token: sub })).json().data.data as { id: number }[];
    expect(seen.map((r) => r.id)).toEqual([branch]);
    expect((await call(h.app, 'PATCH', `/api/config/hospitals/update/${branch}`, { token: sub, payload: { en_name: 'Demo Branch (East)' } })).statusCode).toBe(200);
    expect((await call(h.app, 'PATCH', `/api/config/hospitals/update/${general}`, { token: sub, payload: { en_name: 'Taken over' } })).statusCode).toBe(404);
    expect((await call(h.app, 'POST', '/api/config/hospitals/store', { token: sub, payload: { code: 'H009', name: '新院', en_name: 'New' } })).statusCode).toBe(403);
    expect((await call(h.app, 'POST', '/api/common/setting', { token: sub, payload: { settings_key: 'lang', settings_value: 'en-US' } })).statusCode).toBe(403);
    const names = await h.db.selectFrom('hospitals').select(['id', 'en_name']).orderBy('id').execute();
    expect(names).toEqual([{ id: general, en_name: 'Demo General Hospital' }, { id: branch, en_name: 'Demo Branch (East)' }]);
    // The administrator still configures every hospital.
    expect((await call(h.app, 'GET', '/api/config/hospitals/lists', { token: admin })).json().data.data).toHaveLength(2);
  });
});
