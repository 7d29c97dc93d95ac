import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

const ROLES = '/api/system_management/roles';

/** Spec §6: an administrator is a role named like administrator, demo administrator or admin. */
describe.each(databases)('administrator by role name [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let registrar: string;
  let registrarRole: number;
  beforeAll(async () => {
    h = await startApp(kind);
    [admin, registrar] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar')]);
    registrarRole = (await h.db.selectFrom('roles').select('id').where('identification', '=', 'registrar').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => { await h.close(); });

  const rename = (name: string, token = admin) => call(h.app, 'PATCH', `${ROLES}/update/${registrarRole}`, { token, payload: { name } });
  const roleName = async () => (await h.db.selectFrom('roles').select('name').where('id', '=', registrarRole).executeTakeFirstOrThrow()).name;
  /** Menus the registrar sees, and whether a system_user-guarded list answers them. */
  const registrarSees = async () => {
    const menu = (await call(h.app, 'GET', '/api/system_management/users/menu', { token: registrar })).json().data as { children: unknown[] }[];
    const users = await call(h.app, 'GET', '/api/system_management/users/lists', { token: registrar });
    return { entries: menu.reduce((n, g) => n + 1 + g.children.length, 0), users: users.statusCode };
  };

  it('a user without system_role can neither create nor rename a role, so cannot name their way to administrator', async () => {
    const created = await call(h.app, 'POST', `${ROLES}/store`, { token: registrar, payload: { name: 'Administrator', identification: 'sneaky', extra: [] } });
    expect(created.statusCode).toBe(403);
    expect(await h.db.selectFrom('roles').select('id').where('identification', '=', 'sneaky').executeTakeFirst()).toBeUndefined();
    expect((await rename('Administrator', registrar)).statusCode).toBe(403);
    expect(await roleName()).toBe('登记员');
    expect((await registrarSees()).users).toBe(403);
  });

  it('a role an administrator names "Demo administrator" (or 管理员) makes its holders administrators from their next request', async () => {
    const plain = await registrarSees();
    const all = Number((await h.db.selectFrom('menus').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(plain.entries).toBeLessThan(all);
    for (const name of ['Demo administrator', '管理员', 'admin']) {
      expect((await rename(name)).statusCode).toBe(200);
      expect(await registrarSees()).toEqual({ entries: all, users: 200 });
    }
    // A sub-center administrator is a role of its own (spec §6), not the administrator.
    expect((await rename('分中心管理员')).statusCode).toBe(200);
    expect(await registrarSees()).toEqual(plain);
    expect((await rename('登记员')).statusCode).toBe(200);
    expect(await registrarSees()).toEqual(plain);
  });

  it('the English name counts as much as the Chinese one (roles carry both since en_name)', async () => {
    const plain = await registrarSees();
    const all = Number((await h.db.selectFrom('menus').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const relabel = (en_name: string | null) => call(h.app, 'PATCH', `${ROLES}/update/${registrarRole}`, { token: admin, payload: { en_name } });
    expect((await relabel('Administrator')).statusCode).toBe(200);
    expect(await registrarSees()).toEqual({ entries: all, users: 200 });
    const me = (await h.db.selectFrom('users').select('id').where('name', '=', 'registrar').executeTakeFirstOrThrow()).id;
    const info = (await call(h.app, 'GET', `/api/system_management/users/detail/${me}`, { token: registrar })).json().data as { roles: { en_name: string | null }[] };
    expect(info.roles.map((r) => r.en_name)).toContain('Administrator');
    expect((await relabel('Registrar')).statusCode).toBe(200);
    expect(await registrarSees()).toEqual(plain);
  });
});
