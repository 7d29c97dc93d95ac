import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCredential } from '../../server/modules/webauthn/queries.js';
import { call, databases, seal, startApp, tokenFor, userId, type Harness } from './harness.js';

const KEYS = '/api/auth/webauthn/members/credentials';
const USERS = '/api/system_management/users';

interface Listed { id: number; user_id: number; username: string; realname: string; name: string }

/**
 * An administrator removes another user's security key (a lost key): only with `system_user`, only for users of
 * the hospital they work in (another hospital's user: 404, key kept), and for a sub-centre's administrator only
 * users wholly within their hospitals, as the users resource has it; written to the operation log, and nothing
 * else of the owner's ends: their session and their other keys stay.
 */
describe.each(databases)('administrators remove users’ security keys [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let sub: string;
  let registrar: string;
  let branch: number;
  let serial = 0;

  /** A key row as registration stores it (the ceremony itself is webauthn.test.ts's). */
  const keyOf = async (user: string, name: string) => {
    serial += 1;
    const id = await insertCredential(h.db, {
      userId: await userId(h.db, user), credentialId: `cred-${serial}`, publicKey: 'pk', counter: 0, userHandle: `handle-${serial}`, transports: ['usb'], name,
    });
    return id!;
  };
  const keyExists = async (id: number) => !!(await h.db.selectFrom('webauthn_credentials').select('id').where('id', '=', id).executeTakeFirst());
  const remove = (token: string, id: number, lang = 'en-US') => call(h.app, 'DELETE', `${KEYS}/${id}`, { token, lang });

  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
    [, branch] = (await h.db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id);
    const roleId = async (identification: string) => (await h.db.selectFrom('roles').select('id').where('identification', '=', identification).executeTakeFirstOrThrow()).id;
    // The branch's own administrator and user, in the branch only (as sub-centres.test.ts sets them up).
    for (const [name, role] of [['subadmin', 'sub_center_admin'], ['subuser', 'sub_center_user']] as const) {
      const made = await call(h.app, 'POST', `${USERS}/store`, { token: admin, payload: {
        name, realname: name, password: await seal(h.app, 'dsms-demo'), password_confirmation: await seal(h.app, 'dsms-demo'),
        status: 1, hospital_ids: [branch], role_ids: [await roleId(role)],
      } });
      expect(made.statusCode, made.body).toBe(200);
    }
    [sub, registrar] = await Promise.all([tokenFor(h.app, 'subadmin'), tokenFor(h.app, 'registrar')]);
  });
  afterAll(async () => h?.close());

  it('lists the keys of the hospital’s users only, to those who manage users', async () => {
    const mine = await keyOf('registrar', 'Registrar desk key');
    const shared = await keyOf('primary', 'Primary key');
    const branchOnly = await keyOf('subuser', 'Branch key');
    const listed = async (token: string) => ((await call(h.app, 'GET', KEYS, { token })).json().data.data as Listed[]).map((k) => k.id);
    // The administrator works in the general hospital: the branch-only user's key is not theirs to see.
    expect(await listed(admin)).toEqual(expect.arrayContaining([mine, shared]));
    expect(await listed(admin)).not.toContain(branchOnly);
    // The branch's administrator sees the branch's own users only: primary works in both hospitals, so (as on the
    // users resource) is not theirs to manage; the general hospital's only users are not either.
    expect(await listed(sub)).toEqual([branchOnly]);
    const row = ((await call(h.app, 'GET', KEYS, { token: admin })).json().data.data as Listed[]).find((k) => k.id === mine)!;
    expect(row).toMatchObject({ username: 'registrar', name: 'Registrar desk key', user_id: await userId(h.db, 'registrar') });
    expect(Object.keys(row)).not.toContain('public_key');
    expect((await call(h.app, 'GET', KEYS, { token: registrar })).statusCode).toBe(403);
  });

  it('removes one key of a user of the same hospital, logs it, and ends nothing else', async () => {
    const lost = await keyOf('registrar', 'Lost key');
    const kept = await keyOf('registrar', 'Spare key');
    const before = (await h.db.selectFrom('operation_logs').select('id').orderBy('id', 'desc').executeTakeFirst())?.id ?? 0;
    const res = await remove(admin, lost);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ id: lost, user_id: await userId(h.db, 'registrar'), name: 'Lost key' });
    expect(await keyExists(lost)).toBe(false);
    expect(await keyExists(kept)).toBe(true);
    // The owner is still signed in and still sees the other key.
    const theirs = await call(h.app, 'GET', '/api/auth/webauthn/credentials', { token: registrar });
    expect(theirs.statusCode).toBe(200);
    expect((theirs.json().data.data as { id: number }[]).map((k) => k.id)).toContain(kept);
    const logged = await h.db.selectFrom('operation_logs').selectAll().where('id', '>', before).execute();
    expect(logged).toContainEqual(expect.objectContaining({
      method: 'DELETE', path: `${KEYS}/${lost}`, route: `${KEYS}/:id`, status_code: 200, username: 'admin', user_id: await userId(h.db, 'admin'),
    }));
    // Gone is gone: a second removal finds nothing.
    expect((await remove(admin, lost)).statusCode).toBe(404);
  });

  it('answers 404 for a key of another hospital’s user, in either language, and keeps it', async () => {
    const branchKey = await keyOf('subuser', 'Branch key 2');
    const generalKey = await keyOf('registrar', 'General key');
    const en = await remove(admin, branchKey);
    expect(en.statusCode).toBe(404);
    expect(en.json().message).toBe('No such security key');
    const zh = await remove(sub, generalKey, 'zh-CN');
    expect(zh.statusCode).toBe(404);
    expect(zh.json().message).toBe('安全密钥不存在');
    expect(await keyExists(branchKey)).toBe(true);
    expect(await keyExists(generalKey)).toBe(true);
    // The branch's administrator removes the branch user's key.
    expect((await remove(sub, branchKey)).statusCode).toBe(200);
    expect(await keyExists(branchKey)).toBe(false);
  });

  // Issue 27, finding 2: the branch's administrator listed and removed the keys of every user with a row for the
  // branch, the group administrator's included, while the users resource answers 404 for those same users.
  it('keeps users who also belong to a hospital the sub-centre administrator does not manage out of their reach', async () => {
    const adminKey = await keyOf('admin', 'Group administrator key');
    const primaryKey = await keyOf('primary', 'Primary second key');
    const branchKey = await keyOf('subuser', 'Branch key 3');
    const adminId = await userId(h.db, 'admin');
    // The group administrator and primary both belong to the branch (and to the general hospital).
    const rows = await h.db.selectFrom('user_hospitals').select(['user_id', 'hospital_id']).where('hospital_id', '=', branch)
      .where('user_id', 'in', [adminId, await userId(h.db, 'primary')]).execute();
    expect(rows).toHaveLength(2);
    for (const user of ['admin', 'primary']) {
      // The users resource: as if they did not exist.
      expect((await call(h.app, 'GET', `${USERS}/item/${await userId(h.db, user)}`, { token: sub })).statusCode, user).toBe(404);
    }
    const listed = ((await call(h.app, 'GET', KEYS, { token: sub })).json().data.data as Listed[]).map((k) => k.id);
    expect(listed).toContain(branchKey);
    expect(listed).not.toContain(adminKey);
    expect(listed).not.toContain(primaryKey);
    expect((await call(h.app, 'GET', KEYS, { token: sub })).json().data.data.map((k: Listed) => k.username)).not.toContain('admin');
    for (const [key, lang, message] of [[adminKey, 'en-US', 'No such security key'], [primaryKey, 'zh-CN', '安全密钥不存在'], [adminKey, 'zh-CN', '安全密钥不存在'], [primaryKey, 'en-US', 'No such security key']] as const) {
      const res = await remove(sub, key, lang);
      expect(res.statusCode, `${key} ${lang}`).toBe(404);
      expect(res.json().message).toBe(message);
    }
    expect(await keyExists(adminKey)).toBe(true);
    expect(await keyExists(primaryKey)).toBe(true);
    // The group administrator still reaches them (working in the general hospital, where both belong).
    expect((await remove(admin, primaryKey)).statusCode).toBe(200);
    expect((await remove(admin, adminKey)).statusCode).toBe(200);
  });

  it('refuses without system_user, unsigned and with a malformed id, changing nothing', async () => {
    const key = await keyOf('primary', 'Another primary key');
    expect((await remove(registrar, key)).statusCode).toBe(403);
    expect((await call(h.app, 'DELETE', `${KEYS}/${key}`)).statusCode).toBe(401);
    for (const bad of ['0', 'abc']) {
      const res = await call(h.app, 'DELETE', `${KEYS}/${bad}`, { token: admin, lang: 'zh-CN' });
      expect(res.statusCode).toBe(422);
    }
    // A whole number past the database's integer names no key: 404 like any id not there (hostile-input.ts, issue 27 item 7).
    expect((await call(h.app, 'DELETE', `${KEYS}/99999999999`, { token: admin, lang: 'zh-CN' })).statusCode).toBe(404);
    expect(await keyExists(key)).toBe(true);
  });
});
