import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { call, databases, ingested, seal, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Issue 8, items 12, 14 and 15 (headers): a new password ends other sessions; the client's headers choose neither
 * the logged address nor the host echoed in IIIF ids; every answer carries the security headers.
 */
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-security-http-'));
  fs.mkdirSync(path.join(dir, 'slides'));
  fs.mkdirSync(path.join(dir, 'dist'));
  fs.writeFileSync(path.join(dir, 'dist', 'index.html'), '<!doctype html><title>DSMS</title>');
  await generateDemoSlide({ out: path.join(dir, 'slides', 'sec.tiff'), width: 600, height: 400, tileSize: 256, mpp: 0.25, seed: 5, slideId: 'SEC' });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const PROFILE = '/api/account/profile';
const FORGED = { 'x-forwarded-for': '203.0.113.66', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', host: 'evil.example' };

/** Logs in with extra request headers (the harness's loginAs sends none). */
async function loginWith(app: FastifyInstance, username: string, password: string, headers: Record<string, string>) {
  return app.inject({ method: 'POST', url: '/api/auth/login', headers, payload: { username, ...(await seal(app, password)) } });
}

describe.each(databases)('security: sessions, proxies and headers [%s]', (kind) => {
  let h: Harness;
  beforeAll(async () => { h = await startApp(kind); });
  afterAll(async () => { await h.close(); });
  /** A file under slides/ bound where it lies, once per database: slides are reached by id only (issue 27). */
  const bound = new Map<string, Promise<number>>();
  const slideOf = (app: FastifyInstance, file: string) => {
    if (!bound.has(file)) {
      bound.set(file, (async () => {
        const admin = await tokenFor(app, 'admin');
        const res = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: `slides/${file}` } });
        expect(res.statusCode, res.body).toBe(200);
        return (await ingested(app, admin, res.json().data.id)).id as number;
      })());
    }
    return bound.get(file)!;
  };

  describe('item 12: a new password ends the other sessions', () => {
    it('changing one’s own password refuses the account’s other tokens and keeps the changing session', async () => {
      const changing = await tokenFor(h.app, 'technician');
      const other = await tokenFor(h.app, 'technician');
      const bystander = await tokenFor(h.app, 'registrar');
      expect((await call(h.app, 'GET', PROFILE, { token: other })).statusCode).toBe(200);

      const res = await call(h.app, 'PATCH', PROFILE, { token: changing, payload: {
        old_password: await seal(h.app, 'dsms-demo'), password: await seal(h.app, 'new-secret-12'), password_confirmation: await seal(h.app, 'new-secret-12') } });
      expect(res.statusCode, res.body).toBe(200);

      expect((await call(h.app, 'GET', PROFILE, { token: other })).statusCode).toBe(401);
      expect((await call(h.app, 'GET', PROFILE, { token: changing })).statusCode).toBe(200);
      expect((await call(h.app, 'GET', PROFILE, { token: bystander })).statusCode).toBe(200);
    });

    it('a profile change without a new password ends no session', async () => {
      const one = await tokenFor(h.app, 'signer');
      const two = await tokenFor(h.app, 'signer');
      expect((await call(h.app, 'PATCH', PROFILE, { token: one, payload: { phone: '010-5555' } })).statusCode).toBe(200);
      expect((await call(h.app, 'GET', PROFILE, { token: two })).statusCode).toBe(200);
    });

    it('an administrator’s password reset refuses every token of that user, on API and tile routes', async () => {
      const admin = await tokenFor(h.app, 'admin');
      const tokens = [await tokenFor(h.app, 'primary'), await tokenFor(h.app, 'primary')];
      // The tile routes' session cache has seen one of them: the reset must reach it too.
      const tileCheck = (token: string) => call(h.app, 'GET', '/api/tiles/none.dzi', { token });
      expect((await tileCheck(tokens[0])).statusCode).not.toBe(401);
      const id = await userId(h.db, 'primary');
      const res = await call(h.app, 'PATCH', `/api/system_management/users/update/${id}`, { token: admin, payload: {
        password: await seal(h.app, 'reset-by-admin-1'), password_confirmation: await seal(h.app, 'reset-by-admin-1') } });
      expect(res.statusCode, res.body).toBe(200);

      for (const token of tokens) {
        expect((await call(h.app, 'GET', PROFILE, { token })).statusCode).toBe(401);
        expect((await tileCheck(token)).statusCode).toBe(401);
      }
      expect((await call(h.app, 'GET', PROFILE, { token: admin })).statusCode).toBe(200);
      expect((await loginWith(h.app, 'primary', 'reset-by-admin-1', {})).statusCode).toBe(200);
    });
  });

  describe('item 14: proxies are trusted only when configured', () => {
    it('by default, X-Forwarded-For changes neither the login log’s nor the operation log’s address', async () => {
      const login = await loginWith(h.app, 'clinician', 'dsms-demo', FORGED);
      expect(login.statusCode, login.body).toBe(200);
      const token = login.json().data.access_token as string;
      await call(h.app, 'PATCH', PROFILE, { token, headers: FORGED, payload: { phone: '010-1414' } });

      const logins = await h.db.selectFrom('login_logs').select('ip').where('username', '=', 'clinician').execute();
      const operations = await h.db.selectFrom('operation_logs').select('ip').where('username', '=', 'clinician').execute();
      expect(logins.length).toBeGreaterThan(0);
      expect(operations.length).toBeGreaterThan(0);
      for (const row of [...logins, ...operations]) expect(row.ip).toBe('127.0.0.1');
    });

    it('with TRUST_PROXY naming the proxy, X-Forwarded-For is the logged address', async () => {
      const app = await testApp(h.db, { trustProxy: loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy });
      await app.ready();
      try {
        const login = await loginWith(app, 'auditor', 'dsms-demo', { 'x-forwarded-for': '198.51.100.7' });
        expect(login.statusCode, login.body).toBe(200);
        const row = await h.db.selectFrom('login_logs').select('ip').where('username', '=', 'auditor').orderBy('id', 'desc').executeTakeFirstOrThrow();
        expect(row.ip).toBe('198.51.100.7');
      } finally {
        await app.close();
      }
    });

    it('IIIF info.json ids come from PUBLIC_URL, never from Host or X-Forwarded-Host', async () => {
      const plain = await testApp(h.db, { dataDir: dir });
      const configured = await testApp(h.db, { dataDir: dir, publicUrl: loadConfig({ PUBLIC_URL: 'https://dsms.hospital.example/' }).publicUrl });
      try {
        const token = await tokenFor(plain, 'admin');
        const sec = await slideOf(plain, 'sec.tiff');
        const info = async (app: FastifyInstance) => {
          const res = await call(app, 'GET', `/api/iiif/${sec}/info.json`, { token, headers: FORGED });
          expect(res.statusCode, res.body).toBe(200);
          return res.json().id as string;
        };
        expect(await info(plain)).toBe(`http://localhost:8001/api/iiif/${sec}`);
        expect(await info(configured)).toBe(`https://dsms.hospital.example/api/iiif/${sec}`);
      } finally {
        await plain.close();
        await configured.close();
      }
    });
  });

  describe('item 15: security headers on every answer', () => {
    let app: FastifyInstance;
    let admin: string;
    let sec: number;
    let secLabel: number;
    beforeAll(async () => {
      // Its own copy per database: libvips refuses a second read of one file's label page in a process.
      fs.copyFileSync(path.join(dir, 'slides', 'sec.tiff'), path.join(dir, 'slides', `sec-${kind}.tiff`));
      app = await testApp(h.db, { dataDir: dir, distDir: path.join(dir, 'dist') });
      await app.ready();
      admin = await tokenFor(app, 'admin');
      sec = await slideOf(app, 'sec.tiff');
      secLabel = await slideOf(app, `sec-${kind}.tiff`);
    });
    afterAll(async () => { await app?.close(); });

    const expectCommon = (headers: Record<string, unknown>, what: string) => {
      expect(headers['x-content-type-options'], what).toBe('nosniff');
      expect(headers['referrer-policy'], what).toBe('no-referrer');
      expect(headers['x-frame-options'], what).toBe('SAMEORIGIN');
      expect(String(headers['content-security-policy']), what).toMatch(/frame-ancestors 'self'/);
    };
    const directives = (csp: unknown) => new Map(String(csp).split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));

    it('the app’s HTML has a CSP that forbids inline and foreign scripts, plugins and foreign framing', async () => {
      for (const url of ['/', '/manage/case/list']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expectCommon(res.headers, url);
        const csp = directives(res.headers['content-security-policy']);
        expect(csp.get('default-src')).toEqual(["'self'"]);
        expect(csp.get('script-src')).toContain("'self'");
        expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
        expect(csp.get('object-src')).toEqual(["'none'"]);
        expect(csp.get('base-uri')).toEqual(["'self'"]);
        expect(csp.get('form-action')).toEqual(["'self'"]);
        expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
      }
    });

    it('API answers (JSON, errors, 404s) carry the headers and a CSP that loads nothing', async () => {
      const answers = {
        json: await call(app, 'GET', PROFILE, { token: admin }),
        unauthenticated: await call(app, 'GET', PROFILE),
        missing: await call(app, 'GET', '/api/no-such-route', { token: admin }),
      };
      expect(Object.values(answers).map((r) => r.statusCode)).toEqual([200, 401, 404]);
      for (const [what, res] of Object.entries(answers)) {
        expectCommon(res.headers, what);
        expect(directives(res.headers['content-security-policy']).get('default-src')).toEqual(["'none'"]);
      }
    });

    it('tiles, IIIF images and label images carry the headers, through the routes and the fast lane', async () => {
      for (const url of [`/api/tiles/${sec}_files/9/0_0.jpeg`, `/api/iiif/${sec}/full/100,/0/default.jpg`, `/api/tiles/${secLabel}/associated/label`]) {
        const res = await call(app, 'GET', url, { token: admin });
        expect(res.statusCode, `${url} ${res.body}`).toBe(200);
        expect(res.headers['content-type']).toMatch(/^image\//);
        expectCommon(res.headers, url);
      }
      // The fast lane answers cached tiles on a real socket before Fastify: the same headers.
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      const tile = `${base}/api/tiles/${sec}_files/9/0_0.jpeg`;
      for (let i = 0; i < 2; i++) {
        const res = await fetch(tile, { headers: { authorization: `Bearer ${admin}` } });
        expect(res.status).toBe(200);
        expectCommon(Object.fromEntries(res.headers), `fetch ${i}`);
        const again = await fetch(tile, { headers: { authorization: `Bearer ${admin}`, 'if-none-match': res.headers.get('etag')! } });
        expect(again.status).toBe(304);
        expectCommon(Object.fromEntries(again.headers), `304 ${i}`);
      }
    });

    it('the API documentation keeps a working policy of its own', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/docs/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
    });
  });
});
