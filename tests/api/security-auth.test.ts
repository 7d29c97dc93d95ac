import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageKey } from '../../server/i18n/messages.js';
import { translate, type Params } from '../../server/i18n/translate.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { call, databases, ingested, loginAs, passwordOf, seal, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Issue 8, login security: the five-failures lockout under concurrency (item 3), the lock screen (item 7), anonymous
 * endpoints (item 13) and what a failed login tells (item 15).
 */
const t = (key: MessageKey | string, params?: Params) => translate('zh-CN', key as MessageKey, params);
const CHECKED = ['wrong_password', 'wrong_password_locked', 'ok'];

let slidesDir: string;
beforeAll(async () => {
  slidesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-security-auth-'));
  fs.mkdirSync(path.join(slidesDir, 'slides'));
  await generateDemoSlide({ out: path.join(slidesDir, 'slides', 'lock-1.tiff'), width: 512, height: 512, mpp: 0.5, seed: 11, slideId: 'LOCK-1' });
});
afterAll(() => fs.rmSync(slidesDir, { recursive: true, force: true }));

describe.each(databases)('login security [%s]', (kind) => {
  let h: Harness;
  /** The app with a slide folder, for the tile route, listening: the tile fast lane only sees real sockets. */
  let app: FastifyInstance;
  let base: string;
  /** lock-1.tiff bound where it lies (slides are served by id only): its slide id. */
  let lockSlide: number;
  beforeAll(async () => {
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir: slidesDir });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    const admin = await tokenFor(app, 'admin');
    const bound = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: 'slides/lock-1.tiff' } });
    expect(bound.statusCode, bound.body).toBe(200);
    lockSlide = (await ingested(app, admin, bound.json().data.id)).id;
  });
  afterAll(async () => {
    await app.close();
    await h.close();
  });

  const userRow = (name: string) => h.db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
  const logsOf = (username: string) =>
    h.db.selectFrom('login_logs').select(['reason', 'success']).where('username', '=', username).orderBy('id').execute();
  /** Sealed login bodies made beforehand, so the logins themselves go out together. */
  const sealedLogins = (username: string, passwords: string[]) =>
    Promise.all(passwords.map(async (password) => ({ username, ...(await seal(h.app, password)) })));
  const inFlight = (payloads: object[]) =>
    Promise.all(payloads.map((payload) => h.app.inject({ method: 'POST', url: '/api/auth/login', payload })));

  describe('lockout under parallel logins (item 3)', () => {
    it('30 logins in flight, the right password last: no more than five passwords are checked', async () => {
      const payloads = await sealedLogins('sampler', [...Array.from({ length: 29 }, () => 'wrong'), passwordOf('sampler')]);
      const answers = await inFlight(payloads);
      const checked = (await logsOf('sampler')).filter((l) => CHECKED.includes(l.reason));
      expect(checked.length).toBeLessThanOrEqual(5);
      // Everything else was refused as locked, without a password check.
      expect(answers.filter((r) => r.statusCode === 423).length).toBeGreaterThanOrEqual(25);
      expect(answers.every((r) => [200, 422, 423].includes(r.statusCode))).toBe(true);
    });

    it('60 wrong logins in flight: five passwords checked, the account locked, then even the right one refused unchecked', async () => {
      const answers = await inFlight(await sealedLogins('allocator', Array.from({ length: 60 }, () => 'wrong')));
      const logs = await logsOf('allocator');
      expect(logs.filter((l) => CHECKED.includes(l.reason))).toHaveLength(5);
      expect(answers.filter((r) => r.statusCode === 422)).toHaveLength(4);
      expect(answers.filter((r) => r.statusCode === 423)).toHaveLength(56);
      expect((await userRow('allocator')).login_locked_until).not.toBeNull();

      const right = await loginAs(h.app, 'allocator', passwordOf('allocator'));
      expect(right.statusCode).toBe(423);
      expect((await logsOf('allocator')).at(-1)).toEqual({ reason: 'login_locked', success: 0 });
    });
  });

  describe('what a failed login tells (items 3 and 15)', () => {
    it('a wrong password answers 422; a locked account answers 423 with the minutes left, without checking the password', async () => {
      for (let i = 0; i < 4; i++) {
        const wrong = await loginAs(h.app, 'technician', 'wrong');
        expect(wrong.statusCode).toBe(422);
        expect(wrong.json()).toEqual({ message: t('auth.wrong_credentials') });
      }
      const fifth = await loginAs(h.app, 'technician', 'wrong');
      expect(fifth.statusCode).toBe(423);
      expect(fifth.json()).toEqual({ message: t('auth.login_locked', { minutes: 15 }) });

      const before = (await logsOf('technician')).length;
      const right = await loginAs(h.app, 'technician', passwordOf('technician'));
      expect(right.statusCode).toBe(423);
      const [start, end] = t('auth.login_locked', { minutes: '\u0000' }).split('\u0000');
      expect(right.json().message.startsWith(start) && right.json().message.endsWith(end)).toBe(true);
      expect(await logsOf('technician')).toHaveLength(before + 1);
      expect((await logsOf('technician')).at(-1)).toEqual({ reason: 'login_locked', success: 0 });
    });

    it('an unknown user and a wrong password for a known one answer alike, in both languages', async () => {
      for (const lang of ['zh-CN', 'en-US']) {
        const [unknown, known] = await Promise.all(['nobody-here', 'qc'].map(async (username) =>
          call(h.app, 'POST', '/api/auth/login', { lang, payload: { username, ...(await seal(h.app, 'not-the-password')) } })));
        expect(known.statusCode).toBe(422);
        expect(unknown.statusCode).toBe(known.statusCode);
        expect(unknown.json()).toEqual(known.json());
        expect(known.json()).toEqual({ message: translate(lang as 'zh-CN', 'auth.wrong_credentials') });
      }
      // A mistyping user who then gets it right starts afresh.
      expect((await userRow('qc')).failed_attempts).toBe(2);
      expect((await loginAs(h.app, 'qc', passwordOf('qc'))).statusCode).toBe(200);
      expect((await userRow('qc')).failed_attempts).toBe(0);
    });
  });

  describe('the lock screen (item 7)', () => {
    const verify = async (token: string, password: string) =>
      call(h.app, 'POST', '/api/auth/lock_screen_verify', { token, payload: { ...(await seal(h.app, password)) } });

    it('lock-screen failures lock the account after five, like login failures', async () => {
      const token = await tokenFor(h.app, 'auditor');
      for (let i = 0; i < 4; i++) {
        const wrong = await verify(token, 'wrong');
        expect(wrong.statusCode).toBe(200);
        expect(wrong.json().data).toEqual({ success: false });
      }
      const fifth = await verify(token, 'wrong');
      expect(fifth.statusCode).toBe(423);
      expect(fifth.json()).toEqual({ message: t('auth.login_locked', { minutes: 15 }) });
      expect((await userRow('auditor')).login_locked_until).not.toBeNull();

      // Locked: neither the lock screen nor the login page checks a password now.
      expect((await verify(token, passwordOf('auditor'))).statusCode).toBe(423);
      expect((await loginAs(h.app, 'auditor', passwordOf('auditor'))).statusCode).toBe(423);
      expect((await logsOf('auditor')).slice(-2).map((l) => l.reason)).toEqual(['lock_screen_login_locked', 'login_locked']);
    });

    it('a locked session is refused on other routes, the tile route included, until the password unlocks it', async () => {
      const token = await tokenFor(app, 'admin');
      const other = await tokenFor(app, 'admin');
      const me = await userId(h.db, 'admin');
      const reads = [
        '/api/system_management/users/lists',
        `/api/tiles/${lockSlide}.dzi`,
        `/api/tiles/${lockSlide}_files/0/0_0.jpeg`,
      ];
      for (const url of reads) expect((await call(app, 'GET', url, { token })).statusCode, url).toBe(200);
      // Over a socket, a tile this process has served comes from the fast lane.
      const socketTile = async () => (await fetch(`${base}${reads[2]}`, { headers: { authorization: `Bearer ${token}` } })).status;
      expect(await socketTile()).toBe(200);

      const lock = await call(app, 'POST', '/api/auth/lock', { token });
      expect(lock.statusCode).toBe(200);
      for (const url of reads) {
        const refused = await call(app, 'GET', url, { token, lang: 'en-US' });
        expect(refused.statusCode, url).toBe(423);
        expect(refused.json(), url).toEqual({ message: translate('en-US', 'auth.screen_locked' as MessageKey) });
      }
      expect(await socketTile()).toBe(423);
      expect((await call(app, 'POST', '/api/auth/switch_hospital', { token, payload: { hospital_id: 1 } })).statusCode).toBe(423);
      // What the lock screen itself needs after a reload still answers; another user's record does not.
      expect((await call(app, 'GET', '/api/system_management/users/menu', { token })).statusCode).toBe(200);
      expect((await call(app, 'GET', `/api/system_management/users/detail/${me}`, { token })).statusCode).toBe(200);
      expect((await call(app, 'GET', `/api/system_management/users/detail/${await userId(h.db, 'qc')}`, { token })).statusCode).toBe(423);
      // The lock belongs to this session only.
      expect((await call(app, 'GET', reads[0], { token: other })).statusCode).toBe(200);

      expect((await call(app, 'POST', '/api/auth/lock_screen_verify', { token, payload: await seal(app, 'wrong') })).json().data).toEqual({ success: false });
      expect((await call(app, 'GET', reads[0], { token })).statusCode).toBe(423);
      const unlock = await call(app, 'POST', '/api/auth/lock_screen_verify', { token, payload: await seal(app, passwordOf('admin')) });
      expect(unlock.json().data).toEqual({ success: true });
      for (const url of reads) expect((await call(app, 'GET', url, { token })).statusCode, url).toBe(200);
      expect(await socketTile()).toBe(200);
    });
  });

  describe('anonymous endpoints (item 13)', () => {
    const challengeRows = () => h.db.selectFrom('auth_challenges').select(['nonce', 'expires_at']).execute();

    it('challenge rows are swept: a spent one at once, expired ones on the next issue', async () => {
      const spent = await seal(h.app, passwordOf('primary'));
      const unspent = (await call(h.app, 'GET', '/api/auth/challenge')).json().data.nonce as string;
      expect((await call(h.app, 'POST', '/api/auth/login', { payload: { username: 'primary', ...spent } })).statusCode).toBe(200);
      const rows = await challengeRows();
      expect(rows.map((r) => r.nonce)).toContain(unspent);
      expect(rows).toHaveLength(1);

      // Expire what is there; the next issue leaves only itself.
      await h.db.updateTable('auth_challenges').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).execute();
      const fresh = (await call(h.app, 'GET', '/api/auth/challenge')).json().data.nonce as string;
      expect((await challengeRows()).map((r) => r.nonce)).toEqual([fresh]);
    });

    it('the rate limit answers 429 past the configured number a minute, per route, and spares signed-in routes', async () => {
      const limited = await testApp(h.db, { authRateLimitPerMinute: 3 });
      await limited.ready();
      try {
        const challenges = [];
        for (let i = 0; i < 4; i++) challenges.push(await call(limited, 'GET', '/api/auth/challenge', { lang: 'en-US' }));
        expect(challenges.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
        expect(challenges[3].json()).toEqual({ message: translate('en-US', 'error.rate_limited') });

        // Sealed with the other app's challenges (the same database), so only the login route counts here.
        const logins = [];
        for (let i = 0; i < 4; i++) {
          logins.push(await call(limited, 'POST', '/api/auth/login', { payload: { username: 'registrar', ...(await seal(h.app, passwordOf('registrar'))) } }));
        }
        expect(logins.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
        const token = logins[0].json().data.access_token as string;
        for (let i = 0; i < 5; i++) expect((await call(limited, 'GET', '/api/system_management/users/permission', { token })).statusCode).toBe(200);
      } finally {
        await limited.close();
      }
    });
  });
});
