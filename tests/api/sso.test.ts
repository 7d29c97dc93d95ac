import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../server/db/migrate.js';
import { seed } from '../../server/db/seed/index.js';
import { call, databases, emptyDatabase, testApp, tokenFor, userId } from './harness.js';
import { startMessagingDouble } from './messaging-double.js';
import { freePort } from './server-process.js';
import { signInAtProvider, startOidcProvider } from './oidc-provider.js';
import type { Db } from '../../server/db/connect.js';
import enums from '../../schemas/enums/common.json';

const PUBLIC_URL = 'http://dsms.test';
const CALLBACK = `${PUBLIC_URL}/api/auth/sso/callback`;
const SECRET = 'loopback-client-secret-0123456789';

describe.each(databases)('single sign-on and messaging-app login [%s]', (kind) => {
  let app: FastifyInstance;
  let db: Db;
  let drop: () => Promise<void>;
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  let messaging: Awaited<ReturnType<typeof startMessagingDouble>>;
  let admin: string;
  let hospital: number;

  beforeAll(async () => {
    const empty = await emptyDatabase(kind);
    db = empty.db;
    drop = empty.drop;
    await migrateToLatest(db, empty.schema);
    await seed(db, true);
    app = await testApp(db, { publicUrl: PUBLIC_URL });
    await app.ready();
    provider = await startOidcProvider({ redirectUri: CALLBACK, clientId: 'dsms', clientSecret: SECRET });
    messaging = await startMessagingDouble();
    admin = await tokenFor(app, 'admin');
    hospital = (await db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
    await messaging?.close();
    await drop?.();
  });

  const configure = (body: object, lang = 'en-US') => call(app, 'POST', '/api/config/sso', { token: admin, lang, payload: { hospital_id: hospital, ...body } });
  const roleId = async (identification: string) => (await db.selectFrom('roles').select('id').where('identification', '=', identification).executeTakeFirstOrThrow()).id;

  /** The whole browser round: start, the provider's pages as `login`, and the callback; answers where the app sends the browser. */
  const signIn = async (login: string, redirect?: string) => {
    const start = await app.inject({ method: 'GET', url: `/api/auth/sso/start?hospital=${hospital}${redirect ? `&redirect=${encodeURIComponent(redirect)}` : ''}` });
    expect(start.statusCode, start.body).toBe(302);
    const cookie = String(start.headers['set-cookie']).split(';')[0];
    const back = await signInAtProvider(String(start.headers.location), login, CALLBACK);
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
    expect((await db.selectFrom('sso_configs').select('client_secret').executeTakeFirstOrThrow()).client_secret).toBe(SECRET);
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
