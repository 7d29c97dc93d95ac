import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';
import { startMessagingDouble } from './messaging-double.js';
import { freePort } from './server-process.js';
import { CookieJar, signInAtProvider, signOutAtProvider, startOidcProvider } from './oidc-provider.js';
import type { Db } from '../../server/db/connect.js';
import { hashToken } from '../../server/modules/auth/tokens.js';
import enums from '../../schemas/enums/common.json';

const PUBLIC_URL = 'http://dsms.test';
const CALLBACK = `${PUBLIC_URL}/api/auth/sso/callback`;
const SECRET = 'loopback-client-secret-0123456789';

describe.each(databases)('single sign-on and messaging-app login [%s]', (kind) => {
  let app: FastifyInstance;
  let db: Db;
  let h: Harness;
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  let messaging: Awaited<ReturnType<typeof startMessagingDouble>>;
  let admin: string;
  let hospital: number;

  beforeAll(async () => {
    h = await startApp(kind, { config: { publicUrl: PUBLIC_URL } });
    ({ app, db } = h);
    provider = await startOidcProvider({ redirectUri: CALLBACK, clientId: 'dsms', clientSecret: SECRET, postLogoutRedirectUri: `${PUBLIC_URL}/login` });
    messaging = await startMessagingDouble();
    admin = await tokenFor(app, 'admin');
    hospital = (await db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await h?.close();
    await provider?.close();
    await messaging?.close();
  });

  const configure = (body: object, lang = 'en-US') => call(app, 'POST', '/api/config/sso', { token: admin, lang, payload: { hospital_id: hospital, ...body } });
  const roleId = async (identification: string) => (await db.selectFrom('roles').select('id').where('identification', '=', identification).executeTakeFirstOrThrow()).id;

  /** The whole browser round: start, the provider's pages as `login`, and the callback; answers where the app sends the browser. */
  const signIn = async (login: string, redirect?: string, jar?: CookieJar, seen?: string[]) => {
    const start = await app.inject({ method: 'GET', url: `/api/auth/sso/start?hospital=${hospital}${redirect ? `&redirect=${encodeURIComponent(redirect)}` : ''}` });
    expect(start.statusCode, start.body).toBe(302);
    const cookie = String(start.headers['set-cookie']).split(';')[0];
    const back = await signInAtProvider(String(start.headers.location), login, CALLBACK, jar, seen);
    const callback = await app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie } });
    expect(callback.statusCode).toBe(302);
    return { location: String(callback.headers.location), callbackUrl: back.pathname + back.search, cookie };
  };
  /** A loopback port nothing listens on (taken free, then left). */
  const closedPort = () => freePort();
  const stokenOf = (location: string) => new URL(location, PUBLIC_URL).searchParams.get('stoken');

  it('config/sso is for administrators of the hospital; the secret is kept but never returned', async () => {
    const primary = await tokenFor(app, 'primary');
    expect((await call(app, 'GET', '/api/config/sso', { token: primary })).statusCode).toBe(403);
    expect((await call(app, 'POST', '/api/config/sso', { token: primary, payload: { enabled: false } })).statusCode).toBe(403);

    const saved = await configure({ enabled: true, label: 'Hospital ID', issuer: provider.issuer, client_id: 'dsms', client_secret: SECRET, user_claim: 'preferred_username' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain(SECRET);
    const read = await call(app, 'GET', `/api/config/sso?hospital_id=${hospital}`, { token: admin });
    expect(read.json().data).toMatchObject({ enabled: true, issuer: provider.issuer, client_secret: '***', user_claim: 'preferred_username' });
    expect(read.body).not.toContain(SECRET);
    // Sent back masked, as a form that read it sends it: the stored secret stays.
    expect((await configure({ client_secret: '***', label: 'Hospital ID' })).statusCode).toBe(200);
    // Stored sealed (AES-256-GCM, security/sealed-secrets.ts): the row does not hold the secret, yet opens to it.
    const stored = (await db.selectFrom('sso_configs').select('client_secret').executeTakeFirstOrThrow()).client_secret;
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain(SECRET);
    expect(app.secrets.open(stored)).toBe(SECRET);
    // The operation log has the write, with the secret masked.
    const logged = await db.selectFrom('operation_logs').select('payload').where('route', '=', '/api/config/sso').execute();
    expect(logged.length).toBeGreaterThanOrEqual(2);
    expect(logged.map((l) => l.payload).join()).not.toContain(SECRET);

    const options = await app.inject({ method: 'GET', url: '/api/auth/sso/options' });
    expect(options.json().data).toEqual([expect.objectContaining({ hospital_id: hospital, label: 'Hospital ID' })]);
  });

  it('refuses a bad configuration with a translated message and changes nothing', async () => {
    const before = await db.selectFrom('sso_configs').selectAll().executeTakeFirstOrThrow();
    const insecure = await configure({ issuer: 'http://idp.example.org' });
    expect(insecure.statusCode).toBe(422);
    expect(insecure.json().errors.issuer[0]).toMatch(/https/);
    const zh = await configure({ issuer: 'http://idp.example.org' }, 'zh-CN');
    expect(zh.json().errors.issuer[0]).toContain('必须使用 https');
    const adminRole = await configure({ create_unknown: true, default_role_id: await roleId('admin') });
    expect(adminRole.statusCode).toBe(422);
    expect(adminRole.json().errors.default_role_id[0]).toMatch(/administrator role/);
    // A role named like the administrator in English only makes administrators too (the session reads both names).
    const { id: namedAdmin } = await db.insertInto('roles').values({ name: '值班', en_name: 'Administrator', identification: 'sso_named_admin', description: null, extra: '[]', created_at: new Date().toISOString() })
      .returning('id').executeTakeFirstOrThrow();
    expect((await configure({ create_unknown: true, default_role_id: namedAdmin })).statusCode).toBe(422);
    expect((await configure({ create_unknown: true })).statusCode).toBe(422);
    expect((await call(app, 'POST', '/api/config/sso', { token: admin, payload: { hospital_id: 99999 } })).statusCode).toBe(403);
    expect(await db.selectFrom('sso_configs').selectAll().executeTakeFirstOrThrow()).toEqual(before);
  });

  it('signs a known user in through the provider: one-time code, then a session of its own', async () => {
    const { location } = await signIn('primary', '/case/list?x=1');
    expect(location).toMatch(/^\/\?stoken=[\w-]+&redirect=%2Fcase%2Flist%3Fx%3D1$/);
    const stoken = stokenOf(location)!;
    const traded = await app.inject({ method: 'POST', url: '/api/auth/sso_login_v2', payload: { sso_token: stoken } });
    expect(traded.statusCode, traded.body).toBe(200);
    const { access_token, user_id, token_type } = traded.json().data;
    expect(token_type).toBe('Bearer');
    expect(user_id).toBe(await userId(db, 'primary'));
    // The image routes' cookie is set as for a password login.
    expect(String(traded.headers['set-cookie'])).toContain('HttpOnly');
    const profile = await call(app, 'GET', '/api/account/profile', { token: access_token });
    expect(profile.statusCode).toBe(200);
    expect(profile.body).toContain('primary');
    const log = await db.selectFrom('login_logs').select(['reason', 'success']).where('user_id', '=', user_id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log).toEqual({ reason: 'sso_ok', success: 1 });

    // Single use: the same code again is refused, in the caller's language.
    const again = await app.inject({ method: 'POST', url: '/api/auth/sso_login_v2', payload: { sso_token: stoken }, headers: { 'user-language': 'zh-CN' } });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toContain('已使用');
  });

  it('logout of a session from the provider sends the browser to its end_session_endpoint, which ends the provider’s sign-in too', async () => {
    const browser = new CookieJar();
    const first: string[] = [];
    const { location } = await signIn('primary', undefined, browser, first);
    expect(first).toContain('login');
    const traded = await app.inject({ method: 'POST', url: '/api/auth/sso_login_v2', payload: { sso_token: stokenOf(location) } });
    const token = traded.json().data.access_token;
    // While the provider's sign-in lasts, the next "Sign in with …" passes without its login page.
    const again: string[] = [];
    const second = await signIn('primary', undefined, browser, again);
    expect(again).not.toContain('login');
    const secondToken = (await app.inject({ method: 'POST', url: '/api/auth/sso_login_v2', payload: { sso_token: stokenOf(second.location) } })).json().data.access_token;
    const kept = (t: string) => db.selectFrom('sso_sessions').select('id_token').where('token_hash', '=', hashToken(t)).executeTakeFirst();
    expect(await kept(token)).toBeTruthy();
    expect(await kept(secondToken)).toBeTruthy();

    const out = await call(app, 'POST', '/api/auth/logout', { token, payload: {} });
    expect(out.statusCode, out.body).toBe(200);
    const logoutUrl = new URL(out.json().data.logout_url);
    expect(logoutUrl.origin).toBe(provider.issuer);
    expect(logoutUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/login`);
    expect(logoutUrl.searchParams.get('id_token_hint')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect((await call(app, 'GET', '/api/account/profile', { token })).statusCode).toBe(401);
    // The id token is forgotten with the session.
    expect(await kept(token)).toBeUndefined();
    expect(await kept(secondToken)).toBeTruthy();

    const back = await signOutAtProvider(logoutUrl.href, browser);
    expect(back.href).toBe(`${PUBLIC_URL}/login`);
    // The provider's sign-in is over: the next "Sign in with …" asks for the login again.
    const after: string[] = [];
    await signIn('primary', undefined, browser, after);
    expect(after).toContain('login');

    // A session from the password login ends here only.
    const password = await tokenFor(app, 'auditor');
    const plain = await call(app, 'POST', '/api/auth/logout', { token: password, payload: {} });
    expect(plain.json().data).toBeNull();
    expect((await call(app, 'POST', '/api/auth/logout', { token: secondToken, payload: {} })).json().data.logout_url).toContain('id_token_hint=');
    expect(await kept(secondToken)).toBeUndefined();
  });

  it('refuses a callback whose state is not this browser’s, or replayed', async () => {
    const start = await app.inject({ method: 'GET', url: `/api/auth/sso/start?hospital=${hospital}` });
    const back = await signInAtProvider(String(start.headers.location), 'primary', CALLBACK);
    // Another browser (no cookie, or someone else's) bringing this callback is refused.
    const foreign = await app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie: 'dsms_sso=someone-elses' } });
    expect(foreign.headers.location).toMatch(/^\/login\?sso_error=state/);
    const forged = await app.inject({ method: 'GET', url: `/api/auth/sso/callback?code=x&state=forged`, headers: { cookie: 'dsms_sso=forged' } });
    expect(forged.headers.location).toMatch(/^\/login\?sso_error=state/);

    const { callbackUrl, cookie, location } = await signIn('primary');
    expect(stokenOf(location)).toBeTruthy();
    const replay = await app.inject({ method: 'GET', url: callbackUrl, headers: { cookie } });
    expect(replay.headers.location).toMatch(/^\/login\?sso_error=state/);
  });

  it('a sign-in cancelled at the provider, or a provider that cannot be reached, comes back to the login page with its reason', async () => {
    const start = await app.inject({ method: 'GET', url: `/api/auth/sso/start?hospital=${hospital}` });
    const state = new URL(String(start.headers.location)).searchParams.get('state')!;
    const cookie = String(start.headers['set-cookie']).split(';')[0];
    // What the provider sends when the person presses Cancel (RFC 6749 §4.1.2.1).
    const cancelled = await app.inject({ method: 'GET', url: `/api/auth/sso/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}`, headers: { cookie } });
    expect(cancelled.headers.location).toMatch(/^\/login\?sso_error=denied/);
    expect(await db.selectFrom('sso_flows').select('state').where('state', '=', state).executeTakeFirst()).toBeUndefined();

    expect((await configure({ issuer: `http://127.0.0.1:${await closedPort()}` })).statusCode).toBe(200);
    try {
      const down = await app.inject({ method: 'GET', url: `/api/auth/sso/start?hospital=${hospital}&redirect=%2Fcase%2Flist` });
      expect(down.headers.location).toBe('/login?sso_error=unreachable&redirect=%2Fcase%2Flist');
    } finally {
      expect((await configure({ issuer: provider.issuer })).statusCode).toBe(200);
    }
  });

  it('sends the browser back to this app only', async () => {
    for (const target of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const { location } = await signIn('primary', target);
      expect(new URL(location, PUBLIC_URL).searchParams.get('redirect')).toBe('/manage');
    }
  });

  it('refuses an unknown user, or creates them with the configured role, as the hospital chose', async () => {
    expect((await configure({ create_unknown: false })).statusCode).toBe(200);
    const refused = await signIn('newcomer');
    expect(refused.location).toMatch(/^\/login\?sso_error=unknown_user/);
    expect(await db.selectFrom('users').select('id').where('name', '=', 'newcomer').executeTakeFirst()).toBeUndefined();

    const clinician = await roleId('clinician');
    expect((await configure({ create_unknown: true, default_role_id: clinician })).statusCode).toBe(200);
    const created = await signIn('newcomer');
    const traded = await app.inject({ method: 'POST', url: '/api/auth/sso_login_v2', payload: { sso_token: stokenOf(created.location) } });
    expect(traded.statusCode, traded.body).toBe(200);
    const id = await userId(db, 'newcomer');
    expect(traded.json().data.user_id).toBe(id);
    expect((await db.selectFrom('users').select('realname').where('id', '=', id).executeTakeFirstOrThrow()).realname).toBe('Dr. newcomer');
    expect(await db.selectFrom('user_roles').select('role_id').where('user_id', '=', id).execute()).toEqual([{ role_id: clinician }]);
    expect(await db.selectFrom('user_hospitals').select('hospital_id').where('user_id', '=', id).execute()).toEqual([{ hospital_id: hospital }]);
    const logged = await db.selectFrom('operation_logs').select('payload').where('user_id', '=', id).where('route', '=', '/api/auth/sso/callback').executeTakeFirstOrThrow();
    expect(JSON.parse(logged.payload!)).toMatchObject({ created_user: 'newcomer', role_id: clinician });
    // A second sign-in finds the user made the first time.
    expect(stokenOf((await signIn('newcomer')).location)).toBeTruthy();
    expect((await db.selectFrom('users').select('id').where('name', '=', 'newcomer').execute()).length).toBe(1);
  });

  it('refuses a disabled account although the provider vouches for it', async () => {
    await db.updateTable('users').set({ status: 0 }).where('name', '=', 'newcomer').execute();
    expect((await signIn('newcomer')).location).toMatch(/^\/login\?sso_error=not_allowed/);
  });

  it('sso_token hands this session to another tab once: sso_login with the DD_TOKEN cookie, and sso_login_v2 ends the old session', async () => {
    const primary = await tokenFor(app, 'primary');
    const issued = await call(app, 'GET', '/api/auth/sso_token', { token: primary });
    expect(issued.statusCode).toBe(200);
    const { sso_token, expire_in } = issued.json().data;
    expect(expire_in).toBeGreaterThan(0);
    const viaCookie = await app.inject({ method: 'POST', url: '/api/auth/sso_login', headers: { cookie: `DD_TOKEN=${sso_token}` } });
    expect(viaCookie.statusCode, viaCookie.body).toBe(200);
    expect(viaCookie.json().data.user_id).toBe(await userId(db, 'primary'));
    expect(String(viaCookie.headers['set-cookie'])).toContain('DD_TOKEN=; Path=/; Max-Age=0');
    expect((await app.inject({ method: 'POST', url: '/api/auth/sso_login', headers: { cookie: `DD_TOKEN=${sso_token}` } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/api/auth/sso_login' })).statusCode).toBe(401);

    // Spec §4 session reset: the session the browser held before sso_login_v2 is over.
    const code = (await call(app, 'GET', '/api/auth/sso_token', { token: primary })).json().data.sso_token;
    const held = await tokenFor(app, 'auditor');
    const reset = await app.inject({ method: 'POST', url: '/api/auth/sso_login_v2', payload: { sso_token: code }, headers: { authorization: `Bearer ${held}` } });
    expect(reset.statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/account/profile', { token: held })).statusCode).toBe(401);
    expect((await call(app, 'GET', '/api/account/profile', { token: reset.json().data.access_token })).statusCode).toBe(200);
  });

  it('ulogin / dingding_login: the messaging app’s code, traded by the adapter at the (loopback) vendor, signs in the user with that mobile', async () => {
    const notYet = await app.inject({ method: 'POST', url: '/api/auth/ulogin', payload: { code: 'good-code-13800000000' } });
    expect(notYet.statusCode).toBe(404);
    const saved = await configure({ im_enabled: true, im_kind: 'dingtalk', im_base_url: messaging.url, im_app_key: 'app-key', im_app_secret: 'app-secret', im_user_field: 'mobile' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.im_app_secret).toBe('***');
    // The row holds it sealed; the vendor double below refuses any secret but 'app-secret', so sign-in proves it is opened.
    const row = await db.selectFrom('sso_configs').selectAll().executeTakeFirstOrThrow();
    expect(row.im_app_secret).toMatch(/^enc:v1:/);
    expect(JSON.stringify(row)).not.toContain('app-secret');
    expect(JSON.stringify(row)).not.toContain(SECRET);
    await db.updateTable('users').set({ phone: '13800000000' }).where('name', '=', 'signer').execute();

    for (const url of ['/api/auth/ulogin', '/api/auth/dingding_login']) {
      const res = await app.inject({ method: 'POST', url, payload: { code: 'good-code-13800000000' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.user_id).toBe(await userId(db, 'signer'));
    }
    const forged = await app.inject({ method: 'POST', url: '/api/auth/ulogin', payload: { code: 'forged' }, headers: { 'user-language': 'en-US' } });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toMatch(/did not confirm/);
    // A mobile no user has: refused, never created.
    const stranger = await app.inject({ method: 'POST', url: '/api/auth/ulogin', payload: { code: 'good-code-19900000000' } });
    expect(stranger.statusCode).toBe(403);
    expect(await db.selectFrom('users').select('id').where('phone', '=', '19900000000').executeTakeFirst()).toBeUndefined();
    expect((await app.inject({ method: 'POST', url: '/api/auth/ulogin', payload: { code: '' } })).statusCode).toBe(422);
  });

  it('auth/auth_code sends the browser to the messaging app’s sign-in page; its code comes back through im/callback as a one-time code', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/auth/auth_code?hospital_id=99999' })).statusCode).toBe(404);
    expect((await configure({ im_authorize_url: 'http://login.example.org/oauth2/auth' })).statusCode).toBe(422);
    expect((await configure({ im_authorize_url: `${messaging.url}/oauth2/auth` })).statusCode).toBe(200);
    const options = (await app.inject({ method: 'GET', url: '/api/auth/sso/options' })).json().data;
    expect(options).toEqual([expect.objectContaining({ hospital_id: hospital, sso: true, im_kind: 'dingtalk' })]);

    /** The browser's round: ask auth_code, open the vendor's page, come back to the callback with the cookie. */
    const viaApp = async (redirect: string) => {
      const asked = await app.inject({ method: 'GET', url: `/api/auth/auth_code?hospital_id=${hospital}&redirect=${encodeURIComponent(redirect)}` });
      expect(asked.statusCode, asked.body).toBe(200);
      const cookie = String(asked.headers['set-cookie']).split(';')[0];
      expect(String(asked.headers['set-cookie'])).toContain('HttpOnly');
      const url = new URL(asked.json().data.url);
      expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/im/callback`);
      const vendor = await fetch(url, { redirect: 'manual' });
      const back = new URL(vendor.headers.get('location')!);
      const callback = await app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie } });
      expect(callback.statusCode).toBe(302);
      return { location: String(callback.headers.location), again: () => app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie } }), back };
    };

    messaging.state.signInAs = '13800000000';
    const { location, again, back } = await viaApp('/case/list');
    expect(location).toMatch(/^\/\?stoken=[\w-]+&redirect=%2Fcase%2Flist$/);
    const traded = await app.inject({ method: 'POST', url: '/api/auth/sso_login_v2', payload: { sso_token: stokenOf(location) } });
    expect(traded.statusCode, traded.body).toBe(200);
    expect(traded.json().data.user_id).toBe(await userId(db, 'signer'));
    // Single use, and only in the browser that asked.
    expect((await again()).headers.location).toMatch(/^\/login\?sso_error=state/);
    const elsewhere = await app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie: 'dsms_im=someone-elses' } });
    expect(elsewhere.headers.location).toMatch(/^\/login\?sso_error=state/);
    // A person the hospital does not know: refused, never created.
    messaging.state.signInAs = '19900000001';
    expect((await viaApp('/manage')).location).toMatch(/^\/login\?sso_error=unknown_user/);
    expect(await db.selectFrom('users').select('id').where('phone', '=', '19900000001').executeTakeFirst()).toBeUndefined();
  });

  it('is rate-limited per client like the password login', async () => {
    const limited = await testApp(db, { publicUrl: PUBLIC_URL, authRateLimitPerMinute: 2 });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await limited.inject({ method: 'POST', url: '/api/auth/sso_login_v2', payload: { sso_token: 'x'.repeat(20) } })).statusCode);
      expect(codes).toEqual([401, 401, 429]);
      const start = [];
      for (let i = 0; i < 3; i++) start.push((await limited.inject({ method: 'GET', url: `/api/auth/sso/start?hospital=${hospital}` })).statusCode);
      expect(start).toEqual([302, 302, 429]);
    } finally {
      await limited.close();
    }
  });

  it('words every login-log reason it wrote in the login log page (enum login_reason)', async () => {
    const known = new Set(enums.login_reason.map((e) => e.value));
    const written = (await db.selectFrom('login_logs').select('reason').distinct().execute()).map((r) => r.reason);
    expect(written.filter((r) => r.startsWith('sso_') || r.startsWith('im_')).length).toBeGreaterThan(3);
    expect(written.filter((r) => !known.has(r))).toEqual([]);
  });
});
