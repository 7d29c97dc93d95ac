import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageKey } from '../../server/i18n/messages.js';
import { translate, type Params } from '../../server/i18n/translate.js';
import type { UserTable } from '../../server/db/schema.js';
import { call, databases, loginAs, passwordOf, seal, startApp, tokenFor, userId, type Harness } from './harness.js';

/** Messages in the default language (no User-Language header is sent in this file). */
const t = (key: MessageKey, params?: Params) => translate('zh-CN', key, params);
const PERMISSION = '/api/system_management/users/permission';

describe.each(databases)('auth [%s]', (kind) => {
  let h: Harness;
  let adminToken: string;
  beforeAll(async () => {
    h = await startApp(kind);
    adminToken = await tokenFor(h.app, 'admin');
  });
  afterAll(async () => { await h.close(); });

  type UserFields = Partial<Pick<UserTable, 'status' | 'locked' | 'expires_at'>>;
  const setUser = (name: string, fields: UserFields) => h.db.updateTable('users').set(fields).where('name', '=', name).execute();
  const userRow = (name: string) => h.db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
  const lastLoginLog = (username: string) =>
    h.db.selectFrom('login_logs').selectAll().where('username', '=', username).orderBy('id', 'desc').executeTakeFirstOrThrow();
  const loginLogCount = async (username: string) =>
    Number((await h.db.selectFrom('login_logs').select((eb) => eb.fn.countAll().as('n')).where('username', '=', username)
      .executeTakeFirstOrThrow()).n);

  /** Login must answer `status` with `message`, and the login log must say why. */
  async function expectRefused(username: string, password: string, status: number, message: string, reason: string) {
    const res = await loginAs(h.app, username, password);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ message });
    const log = await lastLoginLog(username);
    expect(log).toMatchObject({ success: 0, reason });
  }

  async function expectLoginOk(username: string) {
    const res = await loginAs(h.app, username, passwordOf(username));
    expect(res.statusCode).toBe(200);
    expect(await lastLoginLog(username)).toMatchObject({ success: 1, reason: 'ok', user_id: await userId(h.db, username) });
    return res.json().data.access_token as string;
  }

  describe('challenge', () => {
    it('returns a key id, an SPKI PEM RSA public key and a fresh nonce each time', async () => {
      const first = (await call(h.app, 'GET', '/api/auth/challenge')).json();
      const second = (await call(h.app, 'GET', '/api/auth/challenge')).json();
      expect(first).toMatchObject({ code: 0, message: 'ok' });
      const { key_id, public_key, nonce } = first.data;
      expect(key_id).toMatch(/^\w+$/);
      expect(public_key).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/);
      expect(createPublicKey({ key: public_key, format: 'pem', type: 'spki' }).asymmetricKeyType).toBe('rsa');
      expect(nonce).toMatch(/^[0-9a-f]{32}$/);
      expect(second.data.key_id).toBe(key_id);
      expect(second.data.nonce).not.toBe(nonce);
    });
  });

  describe('login', () => {
    it('succeeds with a bearer token that opens the API', async () => {
      const res = await loginAs(h.app, 'registrar', passwordOf('registrar'));
      expect(res.statusCode).toBe(200);
      const { data } = res.json();
      expect(data).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String), expires_in: 3600 });
      expect(data.access_token.length).toBeGreaterThanOrEqual(32);
      expect((await call(h.app, 'GET', PERMISSION, { token: data.access_token })).statusCode).toBe(200);
      expect(await lastLoginLog('registrar')).toMatchObject({ success: 1, reason: 'ok', user_id: await userId(h.db, 'registrar') });
    });

    it('refuses the same sealed payload a second time', async () => {
      const payload = { username: 'registrar', ...(await seal(h.app, passwordOf('registrar'))) };
      const first = await call(h.app, 'POST', '/api/auth/login', { payload });
      expect(first.statusCode).toBe(200);
      const replay = await call(h.app, 'POST', '/api/auth/login', { payload });
      expect(replay.statusCode).toBe(400);
      expect(replay.json()).toEqual({ message: t('auth.challenge_invalid') });
      expect(await lastLoginLog('registrar')).toMatchObject({ success: 0, reason: 'challenge_invalid', user_id: null });
    });

    it('refuses ciphertext that does not decrypt, and an unknown key id', async () => {
      const { key_id } = await seal(h.app, 'unused');
      const garbage = await call(h.app, 'POST', '/api/auth/login', {
        payload: { username: 'registrar', key_id, password: Buffer.from('not a ciphertext').toString('base64') },
      });
      expect(garbage.statusCode).toBe(400);
      expect(garbage.json()).toEqual({ message: t('auth.password_undecryptable') });
      expect(await lastLoginLog('registrar')).toMatchObject({ success: 0, reason: 'undecryptable' });

      const sealed = await seal(h.app, passwordOf('registrar'));
      const unknownKey = await call(h.app, 'POST', '/api/auth/login', { payload: { username: 'registrar', ...sealed, key_id: 'nosuchkey' } });
      expect(unknownKey.statusCode).toBe(400);
      expect(unknownKey.json()).toEqual({ message: t('auth.challenge_invalid') });
    });

    it('answers a wrong password with 422 in the words an unknown user hears, and counts it', async () => {
      await expectRefused('allocator', 'wrong', 422, t('auth.wrong_credentials'), 'wrong_password');
      await expectRefused('allocator', 'wrong', 422, t('auth.wrong_credentials'), 'wrong_password');
      expect((await userRow('allocator')).failed_attempts).toBe(2);
      await expectLoginOk('allocator');
      expect((await userRow('allocator')).failed_attempts).toBe(0);
    });

    it('answers an unknown user with 422 and logs the attempt without a user id', async () => {
      await expectRefused('nobody', 'whatever', 422, t('auth.wrong_credentials'), 'unknown_user');
      expect((await lastLoginLog('nobody')).user_id).toBeNull();
    });

    it('writes exactly one login log row per attempt', async () => {
      const before = await loginLogCount('primary');
      await loginAs(h.app, 'primary', passwordOf('primary'));
      await loginAs(h.app, 'primary', 'wrong');
      await loginAs(h.app, 'primary', passwordOf('primary'));
      const rows = await h.db.selectFrom('login_logs').select(['success', 'reason']).where('username', '=', 'primary')
        .orderBy('id', 'desc').limit(3).execute();
      expect(await loginLogCount('primary')).toBe(before + 3);
      expect(rows.reverse()).toEqual([{ success: 1, reason: 'ok' }, { success: 0, reason: 'wrong_password' }, { success: 1, reason: 'ok' }]);
    });
  });

  describe('lockout', () => {
    it('locks after five wrong passwords, refuses even the right one, and an administrator lifts it', async () => {
      for (let i = 0; i < 4; i++) await expectRefused('sampler', 'wrong', 422, t('auth.wrong_credentials'), 'wrong_password');
      await expectRefused('sampler', 'wrong', 423, t('auth.login_locked', { minutes: 15 }), 'wrong_password_locked');
      expect((await userRow('sampler')).login_locked_until).not.toBeNull();

      const right = await loginAs(h.app, 'sampler', passwordOf('sampler'));
      expect(right.statusCode).toBe(423);
      // The minutes left are computed at the time of the request; the wording around them is fixed.
      const [before, after] = t('auth.login_locked', { minutes: '\u0000' }).split('\u0000');
      expect(right.json().message).toMatch(new RegExp(`^${escapeRegExp(before)}\\d+${escapeRegExp(after)}$`));
      expect(await lastLoginLog('sampler')).toMatchObject({ success: 0, reason: 'login_locked' });

      const unlock = await call(h.app, 'POST', `/api/system_management/users/delLoginLock/${await userId(h.db, 'sampler')}`, { token: adminToken });
      expect(unlock.statusCode).toBe(200);
      expect(unlock.json()).toEqual({ code: 0, message: 'ok', data: null });
      expect(await userRow('sampler')).toMatchObject({ failed_attempts: 0, login_locked_until: null });
      await expectLoginOk('sampler');
    });

    it('counts wrong passwords sent at the same moment, none lost', async () => {
      const attempts = await Promise.all(Array.from({ length: 5 }, () => loginAs(h.app, 'allocator', 'wrong')));
      expect(attempts.map((r) => r.statusCode).sort()).toEqual([422, 422, 422, 422, 423]);
      expect((await userRow('allocator')).login_locked_until).not.toBeNull();
    });

    it('answers 404 when lifting the lock of a user that does not exist', async () => {
      const res = await call(h.app, 'POST', '/api/system_management/users/delLoginLock/999999', { token: adminToken });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: t('user.not_found') });
    });
  });

  describe('account state', () => {
    it('refuses a disabled user, and the token it already holds stops working', async () => {
      const token = await tokenFor(h.app, 'technician');
      await setUser('technician', { status: 0 });
      try {
        await expectRefused('technician', passwordOf('technician'), 403, t('auth.user_disabled'), 'disabled');
        expect((await call(h.app, 'GET', PERMISSION, { token })).statusCode).toBe(401);
      } finally {
        await setUser('technician', { status: 1 });
      }
      await expectLoginOk('technician');
    });

    it('refuses a user locked by an administrator', async () => {
      await setUser('qc', { locked: 1 });
      try {
        await expectRefused('qc', passwordOf('qc'), 403, t('auth.user_locked'), 'locked');
      } finally {
        await setUser('qc', { locked: 0 });
      }
      await expectLoginOk('qc');
    });

    it('refuses an expired user and accepts one whose expiry is in the future', async () => {
      const day = 24 * 3600 * 1000;
      await setUser('scanner', { expires_at: new Date(Date.now() - day).toISOString() });
      await expectRefused('scanner', passwordOf('scanner'), 403, t('auth.user_expired'), 'expired');
      await setUser('scanner', { expires_at: new Date(Date.now() + day).toISOString() });
      await expectLoginOk('scanner');
    });
  });

  describe('session', () => {
    it('logout revokes only the token it was called with', async () => {
      const token = await tokenFor(h.app, 'auditor');
      const other = await tokenFor(h.app, 'auditor');
      const res = await call(h.app, 'POST', '/api/auth/logout', { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: 0, message: 'ok', data: null });
      const after = await call(h.app, 'GET', PERMISSION, { token });
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual({ message: t('error.unauthenticated') });
      expect((await call(h.app, 'GET', PERMISSION, { token: other })).statusCode).toBe(200);
    });

    it('lock_screen_verify answers success true for the right password and false for a wrong one; the right one clears the count', async () => {
      const token = await tokenFor(h.app, 'signer');
      const verify = async (password: string) =>
        call(h.app, 'POST', '/api/auth/lock_screen_verify', { token, payload: { name: 'signer', ...(await seal(h.app, password)) } });

      const right = await verify(passwordOf('signer'));
      expect(right.statusCode).toBe(200);
      expect(right.json()).toEqual({ code: 0, message: 'ok', data: { success: true } });
      for (let i = 0; i < 4; i++) {
        const wrong = await verify('wrong');
        expect(wrong.statusCode).toBe(200);
        expect(wrong.json().data).toEqual({ success: false });
      }
      expect(await userRow('signer')).toMatchObject({ failed_attempts: 4, login_locked_until: null });
      expect((await verify(passwordOf('signer'))).json().data).toEqual({ success: true });
      expect(await userRow('signer')).toMatchObject({ failed_attempts: 0, login_locked_until: null });
    });

    it('lock_screen_verify refuses a replayed payload and a caller without a token', async () => {
      const token = await tokenFor(h.app, 'signer');
      const payload = { name: 'signer', ...(await seal(h.app, passwordOf('signer'))) };
      expect((await call(h.app, 'POST', '/api/auth/lock_screen_verify', { token, payload })).json().data).toEqual({ success: true });
      const replay = await call(h.app, 'POST', '/api/auth/lock_screen_verify', { token, payload });
      expect(replay.statusCode).toBe(400);
      expect(replay.json()).toEqual({ message: t('auth.challenge_invalid') });
      const anonymous = await call(h.app, 'POST', '/api/auth/lock_screen_verify', { payload: { name: 'signer', ...(await seal(h.app, 'x')) } });
      expect(anonymous.statusCode).toBe(401);
    });

    it('switch_hospital moves the session to one of the user’s hospitals and refuses any other', async () => {
      const hospitals = await h.db.selectFrom('hospitals').select(['id', 'code']).orderBy('id').execute();
      const branch = hospitals.find((x) => x.code === 'H002')!.id;
      const currentHospital = async (token: string, name: string) =>
        (await call(h.app, 'GET', `/api/system_management/users/detail/${await userId(h.db, name)}`, { token })).json().data.current_hospital_id;

      const admin = await tokenFor(h.app, 'admin');
      const switched = await call(h.app, 'POST', '/api/auth/switch_hospital', { token: admin, payload: { hospital_id: branch } });
      expect(switched.statusCode).toBe(200);
      expect(switched.json()).toEqual({ code: 0, message: 'ok', data: { hospital_id: branch } });
      expect(await currentHospital(admin, 'admin')).toBe(branch);

      const registrar = await tokenFor(h.app, 'registrar');
      const before = await currentHospital(registrar, 'registrar');
      for (const hospital_id of [branch, 999999]) {
        const refused = await call(h.app, 'POST', '/api/auth/switch_hospital', { token: registrar, payload: { hospital_id } });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual({ message: t('auth.hospital_not_allowed') });
      }
      expect(await currentHospital(registrar, 'registrar')).toBe(before);
    });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
