import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, testApp, tokenFor, userId, type CallOptions, type Harness } from './harness.js';
import { SoftAuthenticator, type AuthenticationOptions, type RegistrationOptions } from './soft-authenticator.js';

const HOST = 'localhost:8123';
const ORIGIN = `http://${HOST}`;

/**
 * Hardware keys (issue 17, WebAuthn) on both databases, with a software authenticator making real P-256
 * signatures: register to one's own account, sign in without a password (the password login's session), a
 * replayed answer or challenge refused, another user's key not deletable, bad bodies a translated 422 that changes
 * nothing, locked accounts and roles the setting does not allow refused, failures counted towards the lock.
 */
describe.each(databases)('security keys [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let primary: string;
  let signer: string;

  /** Requests come from the app's own address, as a browser's would (the RP id is its host name). */
  const at = (method: 'GET' | 'POST' | 'DELETE', url: string, opts: CallOptions = {}, app: FastifyInstance = h.app) =>
    call(app, method, url, { lang: 'en-US', ...opts, headers: { host: HOST, ...opts.headers } });

  const roleIdsOf = async (name: string) =>
    (await h.db.selectFrom('user_roles').select('role_id').where('user_id', '=', await userId(h.db, name)).execute()).map((r) => r.role_id);

  const allowRolesOf = async (...names: string[]) => {
    const role_ids = [...new Set((await Promise.all(names.map(roleIdsOf))).flat())];
    const res = await at('POST', '/api/common/setting', { token: admin, payload: { settings_key: 'webauthn_login', settings_value: { role_ids } } });
    expect(res.statusCode, res.body).toBe(200);
  };

  const registerOptions = async (token: string) => {
    const res = await at('POST', '/api/auth/webauthn/register/options', { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as RegistrationOptions & { excludeCredentials: { id: string }[]; authenticatorSelection: Record<string, unknown> };
  };
  const register = async (token: string, key: SoftAuthenticator, name = 'Blue key') => {
    const options = await registerOptions(token);
    return at('POST', '/api/auth/webauthn/register', { token, payload: { name, response: key.register(options, ORIGIN) } });
  };
  const signInOptions = async () => {
    const res = await at('POST', '/api/auth/webauthn/login/options');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as AuthenticationOptions & { allowCredentials?: unknown[]; userVerification: string };
  };
  const signIn = (response: unknown, lang = 'en-US') => at('POST', '/api/auth/webauthn/login', { lang, payload: { response } });
  const lastLogin = async (name: string) =>
    h.db.selectFrom('login_logs').select(['reason', 'success']).where('user_id', '=', await userId(h.db, name)).orderBy('id', 'desc').executeTakeFirstOrThrow();

  beforeAll(async () => {
    h = await startApp(kind);
    [admin, primary, signer] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'primary'), tokenFor(h.app, 'signer')]);
    await allowRolesOf('primary', 'signer');
  });
  afterAll(async () => h?.close());

  it('registers a key to one’s own account and signs in with it alone: the password login’s session, once per answer', async () => {
    const key = new SoftAuthenticator();
    const options = await registerOptions(primary);
    // A discoverable credential with user verification: the key alone signs in, with its PIN or fingerprint.
    expect(options.rp.id).toBe('localhost');
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    const made = await at('POST', '/api/auth/webauthn/register', { token: primary, payload: { name: '  Blue key ', response: key.register(options, ORIGIN) } });
    expect(made.statusCode, made.body).toBe(200);
    const list = await at('GET', '/api/auth/webauthn/credentials', { token: primary });
    expect(list.json().data).toMatchObject({ allowed: true, data: [{ name: 'Blue key', transports: ['usb'], last_used_at: null }] });
    // The next registration excludes it: one authenticator is not registered twice.
    expect((await registerOptions(primary)).excludeCredentials.map((c) => c.id)).toEqual([...key.held.keys()]);

    const login = await signInOptions();
    expect(login.allowCredentials ?? []).toEqual([]);
    expect(login.userVerification).toBe('required');
    const answer = key.assert(login, ORIGIN);
    const res = await signIn(answer);
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json().data as { token_type: string; access_token: string; expires_in: number; user_id: number };
    expect(session).toMatchObject({ token_type: 'Bearer', expires_in: 3600, user_id: await userId(h.db, 'primary') });
    // The image cookie, as the password login sets it.
    expect(String(res.headers['set-cookie'])).toContain(`dsms_image=${session.access_token}`);
    const me = await at('GET', '/api/system_management/users/permission', { token: session.access_token });
    expect(me.statusCode).toBe(200);
    expect(await lastLogin('primary')).toEqual({ reason: 'webauthn', success: 1 });
    const used = await at('GET', '/api/auth/webauthn/credentials', { token: primary });
    expect(used.json().data.data[0].last_used_at).not.toBeNull();

    // The same answer again: its challenge is spent.
    const replay = await signIn(answer, 'zh-CN');
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe('安全密钥请求已过期或已使用，请重试');
    // A fresh challenge signed with a counter the key already used: a cloned key, refused.
    const cloned = await signIn(key.assert(await signInOptions(), ORIGIN, undefined, 1));
    expect(cloned.statusCode).toBe(422);
    expect(cloned.json().message).toBe('The security key could not be verified');
    expect(await lastLogin('primary')).toEqual({ reason: 'webauthn_failed', success: 0 });
    // The failure counted towards the lock; a good answer gives its place back.
    expect((await signIn(key.assert(await signInOptions(), ORIGIN))).statusCode).toBe(200);
  });

  it('gives one session to the same answer sent three times at once', async () => {
    const key = new SoftAuthenticator();
    expect((await register(primary, key, 'Racing key')).statusCode).toBe(200);
    const answer = key.assert(await signInOptions(), ORIGIN);
    const all = await Promise.all([signIn(answer), signIn(answer), signIn(answer)]);
    expect(all.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('refuses an answer signed for another origin, one without user verification, and a key nobody registered', async () => {
    const key = new SoftAuthenticator();
    expect((await register(primary, key, 'Green key')).statusCode).toBe(200);
    const elsewhere = await signIn(key.assert(await signInOptions(), 'http://evil.example:8123'));
    expect(elsewhere.statusCode).toBe(422);
    key.verifiesUser = false;
    expect((await signIn(key.assert(await signInOptions(), ORIGIN))).statusCode).toBe(422);
    const stranger = new SoftAuthenticator();
    stranger.register({ challenge: 'x'.repeat(43), rp: { id: 'localhost' }, user: { id: 'AAAA' } }, ORIGIN);
    const unknown = await signIn(stranger.assert(await signInOptions(), ORIGIN));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe('This security key is not registered in DSMS');
    // Registration without user verification is refused too, and nothing is stored.
    const before = (await at('GET', '/api/auth/webauthn/credentials', { token: primary })).json().data.data.length;
    const lazy = new SoftAuthenticator();
    lazy.verifiesUser = false;
    const refused = await register(primary, lazy);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('This security key could not be verified and was not added');
    expect((await at('GET', '/api/auth/webauthn/credentials', { token: primary })).json().data.data.length).toBe(before);
  });

  it('deletes only one’s own keys: another user’s answers as missing and stays', async () => {
    const key = new SoftAuthenticator();
    const made = await register(primary, key, 'Spare');
    const id = made.json().data.id as number;
    const theirs = await at('DELETE', `/api/auth/webauthn/credentials/${id}`, { token: signer, lang: 'zh-CN' });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe('安全密钥不存在');
    expect((await at('DELETE', `/api/auth/webauthn/credentials/${id}`, { token: admin })).statusCode).toBe(404);
    expect(await h.db.selectFrom('webauthn_credentials').select('id').where('id', '=', id).executeTakeFirst()).toBeDefined();
    expect((await at('DELETE', `/api/auth/webauthn/credentials/${id}`)).statusCode).toBe(401);
    // Registration is one's own too: a challenge issued to primary does not register a key to signer.
    const options = await registerOptions(primary);
    const stolen = await at('POST', '/api/auth/webauthn/register', { token: signer, payload: { name: 'Mine now', response: new SoftAuthenticator().register(options, ORIGIN) } });
    expect(stolen.statusCode).toBe(400);
    expect((await at('GET', '/api/auth/webauthn/credentials', { token: signer })).json().data.data).toEqual([]);

    const mine = await at('DELETE', `/api/auth/webauthn/credentials/${id}`, { token: primary });
    expect(mine.statusCode).toBe(200);
    const gone = await signIn(key.assert(await signInOptions(), ORIGIN));
    expect(gone.statusCode).toBe(422);
    const log = await h.db.selectFrom('operation_logs').select(['status_code', 'username']).where('route', '=', '/api/auth/webauthn/credentials/:id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log).toEqual({ status_code: 200, username: 'primary' });
  });

  it('answers bad bodies with a translated 422 that changes nothing', async () => {
    const key = new SoftAuthenticator();
    const options = await registerOptions(signer);
    const good = key.register(options, ORIGIN);
    const bad: [string, unknown][] = [
      ['no response', { name: 'Key' }],
      ['not base64url', { name: 'Key', response: { ...good, id: 'a b<c>' } }],
      ['wrong type', { name: 'Key', response: { ...good, type: 'password' } }],
      ['huge client data', { name: 'Key', response: { ...good, response: { ...good.response, clientDataJSON: 'A'.repeat(9000) } } }],
      ['name not text', { name: { text: 'Key' }, response: good }],
    ];
    for (const [what, payload] of bad) {
      const res = await at('POST', '/api/auth/webauthn/register', { token: signer, lang: 'zh-CN', payload: payload as object });
      expect(res.statusCode, what).toBe(422);
      expect(res.json().message, what).toBe('提交的数据不正确');
    }
    for (const name of ['   ', 'x'.repeat(65)]) {
      const res = await at('POST', '/api/auth/webauthn/register', { token: signer, payload: { name, response: good } });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: 'Give the key a name of at most 64 characters', errors: { name: ['Give the key a name of at most 64 characters'] } });
    }
    const unreadable = await at('POST', '/api/auth/webauthn/register', { token: signer, payload: { name: 'Key', response: { ...good, response: { ...good.response, clientDataJSON: 'bm90IGpzb24' } } } });
    expect(unreadable.statusCode).toBe(422);
    expect(unreadable.json().message).toBe('The security key’s answer is malformed');
    expect((await at('POST', '/api/auth/webauthn/login', { payload: { response: { id: 'x' } } })).statusCode).toBe(422);
    // None of that spent the challenge or stored a key: the good answer still registers.
    expect((await at('GET', '/api/auth/webauthn/credentials', { token: signer })).json().data.data).toEqual([]);
    const res = await at('POST', '/api/auth/webauthn/register', { token: signer, payload: { name: 'Key', response: good } });
    expect(res.statusCode, res.body).toBe(200);
    // And a second time: the challenge is spent.
    expect((await at('POST', '/api/auth/webauthn/register', { token: signer, payload: { name: 'Key', response: good } })).statusCode).toBe(400);
  });

  it('refuses locked accounts unchecked, counts failures towards the lock, and keeps roles the setting does not allow out', async () => {
    const key = new SoftAuthenticator();
    expect((await register(signer, key, 'Signer key')).statusCode).toBe(200);
    const signerId = await userId(h.db, 'signer');

    // Four wrong answers and the fifth locks, as five wrong passwords do.
    const forged = async () => {
      const answer = key.assert(await signInOptions(), ORIGIN);
      // One character of the signature's r value changed: it signs nothing the key signed.
      const sig = answer.response.signature;
      return { ...answer, response: { ...answer.response, signature: `${sig.slice(0, 20)}${sig[20] === 'A' ? 'B' : 'A'}${sig.slice(21)}` } };
    };
    for (let i = 0; i < 4; i++) expect((await signIn(await forged())).statusCode).toBe(422);
    const fifth = await signIn(await forged());
    expect(fifth.statusCode).toBe(423);
    // Locked: even a right answer is refused without being checked.
    const locked = await signIn(key.assert(await signInOptions(), ORIGIN));
    expect(locked.statusCode).toBe(423);
    expect(locked.json().message).toMatch(/^Too many wrong passwords/);
    expect(await lastLogin('signer')).toEqual({ reason: 'webauthn_login_locked', success: 0 });
    await h.db.updateTable('users').set({ login_locked_until: null, failed_attempts: 0 }).where('id', '=', signerId).execute();

    // Locked by an administrator: the right key hears why.
    await h.db.updateTable('users').set({ locked: 1 }).where('id', '=', signerId).execute();
    const byAdmin = await signIn(key.assert(await signInOptions(), ORIGIN));
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().message).toBe('This account was locked by an administrator; contact the administrator');
    await h.db.updateTable('users').set({ locked: 0 }).where('id', '=', signerId).execute();

    // A role the setting no longer allows: neither sign-in nor registration.
    await allowRolesOf('primary');
    const notAllowed = await signIn(key.assert(await signInOptions(), ORIGIN), 'zh-CN');
    expect(notAllowed.statusCode).toBe(403);
    expect(notAllowed.json().message).toBe('您的角色未获准使用安全密钥登录，请联系管理员');
    expect((await at('POST', '/api/auth/webauthn/register/options', { token: signer })).statusCode).toBe(403);
    expect((await at('GET', '/api/auth/webauthn/credentials', { token: signer })).json().data.allowed).toBe(false);
    await allowRolesOf('primary', 'signer');
    expect((await signIn(key.assert(await signInOptions(), ORIGIN))).statusCode).toBe(200);
  });

  it('checks the setting against its page form: a bad value is a translated 422 and changes nothing', async () => {
    const before = (await at('GET', '/api/common/setting/get?settings_key=webauthn_login', { token: admin })).json().data;
    for (const bad of [{ role_ids: 'all' }, { role_ids: ['x'] }, { role_ids: [1, 1] }, {}]) {
      const res = await at('POST', '/api/common/setting', { token: admin, lang: 'zh-CN', payload: { settings_key: 'webauthn_login', settings_value: bad } });
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
      expect(res.json().message).toBe('提交的数据不正确');
    }
    expect((await at('GET', '/api/common/setting/get?settings_key=webauthn_login', { token: admin })).json().data).toBe(before);
    // Only who may change settings: a doctor may not open key sign-in to more roles.
    expect((await at('POST', '/api/common/setting', { token: primary, payload: { settings_key: 'webauthn_login', settings_value: { role_ids: [] } } })).statusCode).toBe(403);
    // Public: the login page reads it before anyone signs in.
    const pub = await at('GET', '/api/common/setting');
    expect(pub.json().data.data.webauthn_login.role_ids.length).toBeGreaterThan(0);
  });

  it('refuses an IP address as the relying party, and rate-limits sign-in like login', async () => {
    const ip = await call(h.app, 'POST', '/api/auth/webauthn/login/options', { lang: 'en-US', headers: { host: '127.0.0.1:8001' } });
    expect(ip.statusCode).toBe(409);
    expect(ip.json().message).toMatch(/PUBLIC_URL/);

    // PUBLIC_URL decides over the Host header.
    const pinned = await testApp(h.db, { publicUrl: 'https://dsms.hospital.example', authRateLimitPerMinute: 3 });
    await pinned.ready();
    try {
      const res = await at('POST', '/api/auth/webauthn/login/options', {}, pinned);
      expect(res.json().data.rpId).toBe('dsms.hospital.example');
      expect((await at('POST', '/api/auth/webauthn/login/options', {}, pinned)).statusCode).toBe(200);
      expect((await at('POST', '/api/auth/webauthn/login/options', {}, pinned)).statusCode).toBe(200);
      const limited = await at('POST', '/api/auth/webauthn/login/options', {}, pinned);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toBe('Too many requests; please wait and try again');
    } finally {
      await pinned.close();
    }
  });
});
