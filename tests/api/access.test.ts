import fs from 'node:fs';
import type { Selectable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../server/i18n/translate.js';
import type { OperationLogTable } from '../../server/db/schema.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

interface MenuEntry { alias: string; route_name: string; children: MenuEntry[] }
const readJson = (rel: string) => JSON.parse(fs.readFileSync(new URL(rel, import.meta.url), 'utf8'));
const seedMenus: MenuEntry[] = readJson('../../schemas/menus.json');
const seedRoles: { identification: string; permissions: string[]; menus: string[] | 'all' }[] = readJson('../../server/db/seed/roles.json');

/** Every entry as `Parent/Child` route names, so both membership and placement are compared. */
function menuPaths(tree: MenuEntry[], prefix = ''): string[] {
  return tree.flatMap((m) => [`${prefix}${m.route_name}`, ...menuPaths(m.children, `${prefix}${m.route_name}/`)]);
}

/** The seed tree cut down to the entries whose alias is granted, plus every ancestor of those. */
function prune(tree: MenuEntry[], granted: string[]): MenuEntry[] {
  return tree.flatMap((m) => {
    const children = prune(m.children, granted);
    return granted.includes(m.alias) || children.length ? [{ ...m, children }] : [];
  });
}

const USERS = '/api/system_management/users';
const forbidden = (permission: string) => ({ message: translate('zh-CN', 'error.forbidden', { permission }) });

describe.each(databases)('access [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let registrar: string;
  beforeAll(async () => {
    h = await startApp(kind);
    [admin, registrar] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar')]);
  });
  afterAll(async () => { await h.close(); });

  /** Runs `action` and returns the operation log row it wrote; the row exists before the response leaves. */
  async function loggedBy(action: () => Promise<unknown>, match: (row: Selectable<OperationLogTable>) => boolean) {
    const last = await h.db.selectFrom('operation_logs').select('id').orderBy('id', 'desc').executeTakeFirst();
    await action();
    const rows = await h.db.selectFrom('operation_logs').selectAll().where('id', '>', last?.id ?? 0).orderBy('id').execute();
    const row = rows.find(match);
    if (!row) throw new Error('the operation log has no row for this write');
    return row;
  }

  describe('authentication', () => {
    it.each([
      ['no token', {}],
      ['a bogus bearer token', { authorization: 'Bearer not-a-real-token' }],
      ['a non-bearer scheme', { authorization: 'Basic YWRtaW46ZHNtcy1hZG1pbg==' }],
    ])('answers 401 with %s', async (_label, headers) => {
      const res = await call(h.app, 'GET', `${USERS}/menu`, { headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: translate('zh-CN', 'error.unauthenticated') });
    });
  });

  describe('permissions', () => {
    it('lets only holders of system_setting write a setting', async () => {
      const payload = { settings_key: 'lang', settings_value: 'en-US' };
      const refused = await call(h.app, 'POST', '/api/common/setting', { token: registrar, payload });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(forbidden('system_setting'));
      expect((await call(h.app, 'GET', '/api/common/setting')).json().data.data.lang).toBe('zh-CN');

      const allowed = await call(h.app, 'POST', '/api/common/setting', { token: admin, payload: { settings_key: 'lang', settings_value: 'zh-CN' } });
      expect(allowed.statusCode).toBe(200);
    });

    it('lets only holders of system_user lift a login lock', async () => {
      const id = await userId(h.db, 'sampler');
      const refused = await call(h.app, 'POST', `${USERS}/delLoginLock/${id}`, { token: registrar });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(forbidden('system_user'));
      expect((await call(h.app, 'POST', `${USERS}/delLoginLock/${id}`, { token: admin })).statusCode).toBe(200);
    });

    it('GET /users/permission returns the identification and the permissions of the caller’s roles', async () => {
      const res = await call(h.app, 'GET', `${USERS}/permission`, { token: registrar });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: 0, message: 'ok', data: { identification: ['registrar'], permission: ['archive_view', 'attachment_upload', 'attendance_view', 'borrow_apply', 'borrow_lend', 'borrow_view', 'case_apply', 'case_register', 'case_view', 'delivery_manage', 'delivery_view', 'logistics_send', 'logistics_sign', 'logistics_view', 'message_send'] } });

      const adminData = (await call(h.app, 'GET', `${USERS}/permission`, { token: admin })).json().data;
      expect(adminData.identification).toEqual(['admin']);
      expect(adminData.permission).toEqual([...seedRoles.find((r) => r.identification === 'admin')!.permissions].sort());
    });

    it('merges and de-duplicates the permissions of several roles', async () => {
      const clinician = await userId(h.db, 'clinician');
      const roles = await h.db.selectFrom('roles').select(['id', 'identification'])
        .where('identification', 'in', ['primary_doctor', 'auditing_doctor']).execute();
      await h.db.insertInto('user_roles').values(roles.map((r) => ({ user_id: clinician, role_id: r.id }))).execute();
      try {
        const data = (await call(h.app, 'GET', `${USERS}/permission`, { token: await tokenFor(h.app, 'clinician') })).json().data;
        expect([...data.identification].sort()).toEqual(['auditing_doctor', 'clinician', 'primary_doctor']);
        const expected = new Set(seedRoles.filter((r) => data.identification.includes(r.identification)).flatMap((r) => r.permissions));
        expect([...data.permission].sort()).toEqual([...expected].sort());
        expect(new Set(data.permission).size).toBe(data.permission.length);
      } finally {
        await h.db.deleteFrom('user_roles').where('user_id', '=', clinician).where('role_id', 'in', roles.map((r) => r.id)).execute();
      }
    });
  });

  describe('menu', () => {
    it('shows an administrator every entry of schemas/menus.json', async () => {
      const res = await call(h.app, 'GET', `${USERS}/menu`, { token: admin });
      expect(res.statusCode).toBe(200);
      expect(menuPaths(res.json().data).sort()).toEqual(menuPaths(seedMenus).sort());
    });

    it('shows a registrar only the entries of its roles and their ancestors', async () => {
      const res = await call(h.app, 'GET', `${USERS}/menu`, { token: registrar });
      const paths = menuPaths(res.json().data);
      const granted = seedRoles.find((r) => r.identification === 'registrar')!.menus as string[];
      expect(paths.sort()).toEqual(menuPaths(prune(seedMenus, granted)).sort());
      expect(paths).toContain('CaseGroup/CaseList');
      expect(paths.some((p) => p.endsWith('SystemUser'))).toBe(false);
    });
  });

  describe('user detail', () => {
    it('lets a user read their own detail but not another user’s', async () => {
      const own = await call(h.app, 'GET', `${USERS}/detail/${await userId(h.db, 'registrar')}`, { token: registrar });
      expect(own.statusCode).toBe(200);
      expect(own.json().data).toMatchObject({ name: 'registrar', identification: ['registrar'], permission: ['archive_view', 'attachment_upload', 'attendance_view', 'borrow_apply', 'borrow_lend', 'borrow_view', 'case_apply', 'case_register', 'case_view', 'delivery_manage', 'delivery_view', 'logistics_send', 'logistics_sign', 'logistics_view', 'message_send'] });
      expect(own.json().data).not.toHaveProperty('password_hash');

      const other = await call(h.app, 'GET', `${USERS}/detail/${await userId(h.db, 'admin')}`, { token: registrar });
      expect(other.statusCode).toBe(403);
      expect(other.json()).toEqual(forbidden('system_user'));
    });

    it('lets an administrator read anyone’s detail, and answers 404 for no such user', async () => {
      const res = await call(h.app, 'GET', `${USERS}/detail/${await userId(h.db, 'registrar')}`, { token: admin });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ name: 'registrar', current_hospital_id: null });
      const missing = await call(h.app, 'GET', `${USERS}/detail/999999`, { token: admin });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: translate('zh-CN', 'user.not_found') });
    });
  });

  describe('operation log', () => {
    const SETTING = '/api/common/setting';
    const postSetting = (token: string | undefined, payload: object) => () => call(h.app, 'POST', SETTING, { token, payload });

    it('records a write with who, the route, the outcome and the payload with secrets masked', async () => {
      const settings_value = { host: 'mail.example', smtp_password: 'hunter2', api_token: 'tok-123', nested: { secret: 's3' } };
      // mail_server is not a declared setting, so the write is refused (404); it is logged, secrets masked, all the same.
      const row = await loggedBy(postSetting(admin, { settings_key: 'mail_server', settings_value }), (r) => r.route === SETTING);
      expect(row).toMatchObject({ method: 'POST', path: SETTING, status_code: 404, username: 'admin', user_id: await userId(h.db, 'admin') });
      expect(JSON.parse(row.payload!)).toEqual({
        settings_key: 'mail_server',
        settings_value: { host: 'mail.example', smtp_password: '***', api_token: '***', nested: { secret: '***' } },
      });
      for (const secret of ['hunter2', 'tok-123', 's3']) expect(row.payload).not.toContain(secret);
    });

    it('masks secrets inside a setting sent as JSON text', async () => {
      // system_config travels as a JSON string (spec §7) and holds the FTP password.
      const settings_value = JSON.stringify({ network_protocol: 'http', hisport: 8001, upload_protocol: 'ftp', ftpuser: 'scan', ftppassword: 'ftp-secret' });
      const row = await loggedBy(postSetting(admin, { settings_key: 'system_config', settings_value }), (r) => r.route === SETTING);
      expect(row.status_code).toBe(200);
      expect(row.payload).not.toContain('ftp-secret');
      expect(JSON.parse(JSON.parse(row.payload!).settings_value)).toMatchObject({ ftpuser: 'scan', ftppassword: '***' });
    });

    it('shows secrets of a setting only to those who may change settings', async () => {
      const config = JSON.stringify({ network_protocol: 'http', hisport: 8001, upload_protocol: 'ftp', ftpuser: 'scan', ftppassword: 'ftp-secret' });
      await postSetting(admin, { settings_key: 'system_config', settings_value: config })();
      const read = async (token: string) => JSON.parse((await call(h.app, 'GET', `${SETTING}/get?settings_key=system_config`, { token })).json().data);
      expect(await read(admin)).toMatchObject({ ftpuser: 'scan', ftppassword: 'ftp-secret' });
      expect(await read(registrar)).toMatchObject({ ftpuser: 'scan', ftppassword: '***', hisport: 8001 });
    });

    it('records refused writes too, and anonymous ones without a user', async () => {
      const refused = await loggedBy(postSetting(registrar, { settings_key: 'lang', settings_value: 'en-US' }), (r) => r.route === SETTING);
      expect(refused).toMatchObject({ method: 'POST', status_code: 403, username: 'registrar', user_id: await userId(h.db, 'registrar') });

      const anonymous = await loggedBy(postSetting(undefined, { settings_key: 'lang', settings_value: 'en-US' }), (r) => r.route === SETTING);
      expect(anonymous).toMatchObject({ status_code: 401, user_id: null, username: null });
    });

    it('leaves reads and logins out of the operation log (logins have their own log)', async () => {
      const readAndLogin = async () => {
        await call(h.app, 'GET', `${USERS}/menu`, { token: admin });
        // The logout, written after the read and the login, shows the log has caught up with them.
        await call(h.app, 'POST', '/api/auth/logout', { token: await tokenFor(h.app, 'qc') });
      };
      await loggedBy(readAndLogin, (r) => r.route === '/api/auth/logout' && r.username === 'qc');
      const rows = await h.db.selectFrom('operation_logs').select('route').where('route', 'in', ['/api/auth/login', `${USERS}/menu`]).execute();
      expect(rows).toEqual([]);
    });
  });
});
