import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, seal, startApp, tokenFor, userId, type Harness } from './harness.js';

const USERS = '/api/system_management/users';
const ROLES = '/api/system_management/roles';

/**
 * Issue 27 item 3: no way up to administrator for a manager who is not one. A sub-centre's administrator grants only
 * roles within what a sub-centre may hand out (src/core/subCentreGrants.ts), to others and never to themselves (their
 * own roles are not theirs to change); a holder of `system_role` who is not an administrator cannot code, name or
 * give permissions to a role so that it becomes an administrator role. Each refusal is a translated 403 that changes
 * nothing. Sub-centre basics (hospitals, reach): sub-centres.test.ts.
 */
describe.each(databases)('sub-centre role grants [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let sub: string;
  let branch: number;
  let keeperRole: number;

  const roleId = async (identification: string) => (await h.db.selectFrom('roles').select('id').where('identification', '=', identification).executeTakeFirstOrThrow()).id;
  const rolesOfUser = async (name: string) => (await h.db.selectFrom('user_roles').select('role_id').where('user_id', '=', await userId(h.db, name)).orderBy('role_id').execute()).map((r) => r.role_id);
  const roleRow = (id: number) => h.db.selectFrom('roles').select(['name', 'en_name', 'extra']).where('id', '=', id).executeTakeFirstOrThrow();
  const newUser = async (name: string, hospital: number, roles: number[], token = admin) => call(h.app, 'POST', `${USERS}/store`, { token, lang: 'en-US', payload: {
    name, realname: name, password: await seal(h.app, 'dsms-demo'), password_confirmation: await seal(h.app, 'dsms-demo'), status: 1, hospital_ids: [hospital], role_ids: roles,
  } });

  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
    [, branch] = (await h.db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id);
    // A role that keeps the roles page (system_role) without being the administrator: the first step of the chain.
    const keeper = await call(h.app, 'POST', `${ROLES}/store`, { token: admin, payload: { name: '角色维护', en_name: 'Role keeper', identification: 'role_keeper', extra: ['system_role', 'case_view'] } });
    expect(keeper.statusCode, keeper.body).toBe(200);
    keeperRole = keeper.json().data.id;
    for (const [name, roles] of [['subadmin', [await roleId('sub_center_admin')]], ['subuser', [await roleId('sub_center_user')]], ['keeper', [keeperRole]]] as const) {
      const made = await newUser(name, branch, [...roles]);
      expect(made.statusCode, made.body).toBe(200);
    }
    sub = await tokenFor(h.app, 'subadmin');
  });
  afterAll(async () => h?.close());

  it('gives no one a role holding what a sub-centre cannot hand out', async () => {
    const subuser = await userId(h.db, 'subuser');
    const before = await rolesOfUser('subuser');
    const given = await call(h.app, 'PATCH', `${USERS}/update/${subuser}`, { token: sub, lang: 'en-US', payload: { role_ids: [...before, keeperRole] } });
    expect(given.statusCode, given.body).toBe(403);
    expect(given.json().message).toBe('Only a system administrator can grant the role “角色维护”: it holds system_role, which a sub-centre cannot hand out');
    const zh = await call(h.app, 'PATCH', `${USERS}/update/${subuser}`, { token: sub, lang: 'zh-CN', payload: { role_ids: [keeperRole] } });
    expect(zh.json().message).toBe('只有系统管理员可以授予角色“角色维护”：它含有分中心不能授予的权限 system_role');
    expect(await rolesOfUser('subuser')).toEqual(before);

    const created = await newUser('escalated', branch, [keeperRole], sub);
    expect(created.statusCode).toBe(403);
    expect(await h.db.selectFrom('users').select('id').where('name', '=', 'escalated').execute()).toEqual([]);

    // Every demo role but the administrator's is the sub-centre's to give.
    const all = (await h.db.selectFrom('roles').select('id').where('identification', 'not in', ['admin', 'role_keeper']).orderBy('id').execute()).map((r) => r.id);
    const ok = await call(h.app, 'PATCH', `${USERS}/update/${subuser}`, { token: sub, payload: { role_ids: all } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await rolesOfUser('subuser')).toEqual(all);
    // A role the user already holds (an administrator gave it) may stay when the sub-centre edits them.
    expect((await call(h.app, 'PATCH', `${USERS}/update/${await userId(h.db, 'keeper')}`, { token: sub, payload: { realname: '维护员', role_ids: [keeperRole] } })).statusCode).toBe(200);
  });

  it('never changes their own roles, and the chain of issue 27 stops at its first step', async () => {
    const me = await userId(h.db, 'subadmin');
    const mine = await rolesOfUser('subadmin');
    for (const role_ids of [[...mine, keeperRole], [...mine, await roleId('sub_center_user')], [await roleId('sub_center_user')]]) {
      const res = await call(h.app, 'PATCH', `${USERS}/update/${me}`, { token: sub, lang: 'en-US', payload: { role_ids } });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toBe('You cannot change your own roles; ask a system administrator');
    }
    const zh = await call(h.app, 'PATCH', `${USERS}/update/${me}`, { token: sub, lang: 'zh-CN', payload: { role_ids: [keeperRole] } });
    expect(zh.json().message).toBe('不能修改自己的角色，请联系系统管理员');
    expect(await rolesOfUser('subadmin')).toEqual(mine);
    // Their own record with the roles as they are is theirs to save.
    expect((await call(h.app, 'PATCH', `${USERS}/update/${me}`, { token: sub, payload: { realname: '分院管理员', role_ids: mine } })).statusCode).toBe(200);
    // Still no roles page, so no renaming anything to 管理员.
    expect((await call(h.app, 'PATCH', `${ROLES}/update/${keeperRole}`, { token: sub, payload: { name: '管理员' } })).statusCode).toBe(403);
  });

  it('lets a role keeper who is no administrator make no role an administrator role', async () => {
    const keeper = await tokenFor(h.app, 'keeper');
    const named = [{ name: '管理员' }, { name: 'Administrator' }, { en_name: ' demo  administrator ' }];
    for (const payload of named) {
      const res = await call(h.app, 'PATCH', `${ROLES}/update/${keeperRole}`, { token: keeper, lang: 'en-US', payload });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toBe('Only a system administrator can create or change an administrator role (coded admin, or named like administrator)');
    }
    const granted = await call(h.app, 'PATCH', `${ROLES}/update/${keeperRole}`, { token: keeper, lang: 'zh-CN', payload: { extra: ['system_role', 'case_view', 'system_setting', 'log_view'] } });
    expect(granted.statusCode).toBe(403);
    expect(granted.json().message).toBe('只有系统管理员可以为角色授予分中心不能授予的权限：system_setting, log_view');
    const kept = await roleRow(keeperRole);
    expect({ ...kept, extra: JSON.parse(kept.extra) }).toEqual({ name: '角色维护', en_name: 'Role keeper', extra: ['system_role', 'case_view'] });

    const fresh = [
      { name: 'Admin', identification: 'fresh_one' },
      { name: '报告员', identification: 'fresh_two', extra: ['case_view', 'system_menu'] },
    ];
    for (const payload of fresh) expect((await call(h.app, 'POST', `${ROLES}/store`, { token: keeper, payload })).statusCode).toBe(403);
    const adminRole = await roleId('admin');
    expect((await call(h.app, 'PATCH', `${ROLES}/update/${adminRole}`, { token: keeper, payload: { description: '改' } })).statusCode).toBe(403);
    expect(await h.db.selectFrom('roles').select('id').where('identification', 'in', ['fresh_one', 'fresh_two']).execute()).toEqual([]);

    // Within reach: a role of a sub-centre's permissions, the keeper's own role described, permissions taken away.
    const reader = await call(h.app, 'POST', `${ROLES}/store`, { token: keeper, payload: { name: '阅片', identification: 'reader', extra: ['case_view', 'slide_view'] } });
    expect(reader.statusCode, reader.body).toBe(200);
    expect((await call(h.app, 'PATCH', `${ROLES}/update/${reader.json().data.id}`, { token: keeper, payload: { extra: ['case_view'] } })).statusCode).toBe(200);
    expect((await call(h.app, 'PATCH', `${ROLES}/update/${keeperRole}`, { token: keeper, payload: { description: '维护角色' } })).statusCode).toBe(200);
    // The administrator is held to none of it.
    expect((await call(h.app, 'PATCH', `${ROLES}/update/${keeperRole}`, { token: admin, payload: { extra: ['system_role', 'case_view', 'log_view'] } })).statusCode).toBe(200);
  });
});
