import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { generateDemoSlide, type DemoSlideResult } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { call, databases, loginAs, passwordOf, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Issue 8, sessions and images: a removed hospital stops at the next request (item 2), no session token reaches a
 * log (item 5: images authorise by an HttpOnly cookie, never by a token in the URL), and every image route asks
 * for slide_view, the tile fast lane included (item 6).
 */
let template: DemoSlideResult;
let templateDir: string;

beforeAll(async () => {
  templateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-sec-sessions-tpl-'));
  template = await generateDemoSlide({ out: path.join(templateDir, 'demo.tiff'), width: 1024, height: 768, tileSize: 256, mpp: 0.25, seed: 5, slideId: 'SEC-5', label: true });
});
afterAll(() => fs.rmSync(templateDir, { recursive: true, force: true }));

interface Answer { status: number; body: Buffer }

/** A GET over a real socket, so the tile fast lane (which app.inject bypasses) gets its chance to answer. */
function get(base: string, url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http.get(new URL(url, base), { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts) }));
    }).on('error', reject);
  });
}

const cookieOf = (token: string) => `dsms_image=${token}`;

describe.each(databases)('security: sessions and images [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let base: string;
  let dataDir: string;
  let hospitals: number[];
  let admin: string;
  let slideId: number;
  let caseId: number;
  const lines: string[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-sec-sessions-'));
    h = await startApp(kind);
    // The app as main.ts builds it, with its request log captured.
    app = await buildApp({
      db: h.db, config: { tokenTtlSeconds: 3600, distDir: '/nonexistent', logLevel: 'info', dataDir }, logger: true,
      logStream: { write: (line: string) => { lines.push(line); } },
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    hospitals = (await h.db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id);
    admin = await tokenFor(app, 'admin');
    const created = await call(app, 'POST', '/api/pathology/store', { token: admin, payload: { pathology_number: 'SEC-2026-001', patient_name: '测试', case_type: 'routine' } });
    expect(created.statusCode).toBe(200);
    caseId = created.json().data.id;
    expect(created.json().data.hospital_id).toBe(hospitals[0]);
    const file = path.join(dataDir, 'slides', 'sec.tiff');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(template.file, file);
    slideId = await registerSlide(h.db, dataDir, file, { name: 'SEC', hospital_id: hospitals[0], case_id: caseId, uploaded_by: await userId(h.db, 'admin') });
    await ingestNow(h.db, dataDir, slideId);
  });
  afterAll(async () => {
    await app.close();
    await h.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const images = () => [
    `/api/tiles/${slideId}.dzi`, `/api/tiles/${slideId}_files/10/0_0.jpeg`, `/api/iiif/${slideId}/info.json`,
    `/api/iiif/${slideId}/0,0,256,256/128,/0/default.jpg`, `/api/tiles/${slideId}/associated/label`, `/api/tiles/${slideId}/associated/macro`,
  ];

  it('ends access to a hospital the moment an administrator removes the user from it, on every path including cached tiles', async () => {
    // primary works in both demo hospitals; its session works in the first.
    const primary = await tokenFor(app, 'primary');
    const tile = `/api/tiles/${slideId}_files/10/0_0.jpeg`;
    const listed = async () => ((await call(app, 'GET', '/api/pathology/lists?page_size=100', { token: primary })).json().data.data as { id: number; hospital_id: number }[]);
    expect((await listed()).map((r) => r.id)).toContain(caseId);
    expect((await call(app, 'GET', `/api/pathology/item/${caseId}`, { token: primary })).statusCode).toBe(200);
    expect((await call(app, 'GET', `/api/data/kfb/item/${slideId}`, { token: primary })).statusCode).toBe(200);
    // The tile twice over the socket: the session and the tile are now cached, the second came from the fast lane.
    for (let i = 0; i < 2; i++) expect((await get(base, tile, { authorization: `Bearer ${primary}` })).status).toBe(200);
    expect((await call(app, 'GET', `/api/tiles/${slideId}.dzi`, { token: primary })).statusCode).toBe(200);

    const removed = await call(app, 'PATCH', `/api/system_management/users/update/${await userId(h.db, 'primary')}`, { token: admin, payload: { hospital_ids: [hospitals[1]] } });
    expect(removed.statusCode).toBe(200);

    // At once, in the same process, with the same token.
    expect((await listed()).filter((r) => r.id === caseId || r.hospital_id === hospitals[0])).toEqual([]);
    const shown = await call(app, 'GET', '/api/pathology/lists?page_size=100', { token: primary, headers: { 'x-show-all-data': '1' } });
    expect((shown.json().data.data as { hospital_id: number }[]).filter((r) => r.hospital_id === hospitals[0])).toEqual([]);
    expect((await call(app, 'GET', `/api/pathology/item/${caseId}`, { token: primary })).statusCode).toBe(404);
    const slides = (await call(app, 'GET', '/api/data/kfb/lists?page_size=100', { token: primary })).json().data.data as { id: number }[];
    expect(slides.map((r) => r.id)).not.toContain(slideId);
    expect((await call(app, 'GET', `/api/data/kfb/item/${slideId}`, { token: primary })).statusCode).toBe(404);
    expect((await get(base, tile, { authorization: `Bearer ${primary}` })).status).toBe(404);
    expect((await get(base, tile, { cookie: cookieOf(primary) })).status).toBe(404);
    expect((await call(app, 'GET', `/api/tiles/${slideId}.dzi`, { token: primary })).statusCode).toBe(404);
    expect((await call(app, 'GET', `/api/data/kfb/thumb/${slideId}`, { token: primary })).statusCode).toBe(404);
    expect((await call(app, 'POST', `/api/data/kfb/download/${slideId}`, { token: primary })).statusCode).toBe(404);
    // The hospital that remains still works.
    expect((await call(app, 'GET', '/api/pathology/lists', { token: primary })).statusCode).toBe(200);
  });

  it('keeps session tokens out of URLs and logs: images take an HttpOnly cookie set at login and cleared at logout', async () => {
    const login = await loginAs(app, 'technician', passwordOf('technician'));
    expect(login.statusCode).toBe(200);
    const token: string = login.json().data.access_token;
    const set = ([] as string[]).concat(login.headers['set-cookie'] ?? []);
    for (const scope of ['/api/tiles', '/api/iiif', '/api/data/kfb/thumb']) {
      const cookie = set.find((c) => c.includes(`Path=${scope};`));
      expect(cookie, scope).toBeDefined();
      expect(cookie).toMatch(new RegExp(`^dsms_image=${token};`));
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).not.toMatch(/Secure/); // plain http here; Secure over https
    }
    const cookie = { cookie: cookieOf(token) };

    // Thumbnail and every image route by the cookie alone, twice for the tile (the second from the fast lane).
    const thumb = await get(base, `/api/data/kfb/thumb/${slideId}`, cookie);
    expect(thumb.status).toBe(200);
    for (const url of images().filter((u) => !u.endsWith('macro'))) expect((await get(base, url, cookie)).status, url).toBe(200);
    expect((await get(base, images()[1], cookie)).status).toBe(200);
    // A token in the URL is not honoured any more (an old page, a hand-made link)…
    expect((await get(base, `/api/data/kfb/thumb/${slideId}?token=${token}`, {})).status).toBe(401);
    expect((await get(base, `${images()[0]}?token=${token}`, {})).status).toBe(401);
    // …nor stored: not in the request log, the operation log or the browser's error reports.
    expect((await call(app, 'POST', `/api/auth/switch_hospital?token=${token}`, { token, payload: { hospital_id: hospitals[0] } })).statusCode).toBe(200);
    expect((await call(app, 'POST', '/api/logs/errors', { token, payload: { message: `GET /api/x?token=${token} failed`, page: `/inner/view?token=${token}&uuid=1` } })).statusCode).toBe(200);

    const logged = await h.db.selectFrom('operation_logs').select('path').where('path', 'like', '/api/auth/switch_hospital%').execute();
    expect(logged.length).toBeGreaterThan(0);
    const reports = await h.db.selectFrom('error_logs').select(['page', 'message']).execute();
    expect(reports.length).toBeGreaterThan(0);
    expect(lines.some((l) => l.includes(`/api/data/kfb/thumb/${slideId}?token=[redacted]`))).toBe(true);
    for (const text of [...lines, ...logged.map((r) => r.path), ...reports.flatMap((r) => [r.page ?? '', r.message])]) expect(text).not.toContain(token);
    const all = await h.db.selectFrom('operation_logs').selectAll().execute();
    expect(JSON.stringify(all)).not.toContain(token);

    const logout = await call(app, 'POST', '/api/auth/logout', { token });
    expect(logout.statusCode).toBe(200);
    const cleared = ([] as string[]).concat(logout.headers['set-cookie'] ?? []);
    expect(cleared.filter((c) => /^dsms_image=;/.test(c) && /Max-Age=0/.test(c))).toHaveLength(3);
    expect((await get(base, images()[1], cookie)).status).toBe(401);
    expect((await get(base, `/api/data/kfb/thumb/${slideId}`, cookie)).status).toBe(401);
  });

  it('refuses every image of a slide without slide_view, by header or cookie, cached or not', async () => {
    // Someone who may see it loads everything first, so tiles, slide and label are in memory for the fast lane.
    const technician = await tokenFor(app, 'technician');
    for (const url of images().filter((u) => !u.endsWith('macro'))) expect((await get(base, url, { authorization: `Bearer ${technician}` })).status, url).toBe(200);

    // The registrar works in the slide's hospital but holds no slide_view.
    const registrar = await tokenFor(app, 'registrar');
    for (const auth of [{ authorization: `Bearer ${registrar}` }, { cookie: cookieOf(registrar) }] as Record<string, string>[]) {
      for (let pass = 0; pass < 2; pass++) {
        for (const url of [...images(), `/api/data/kfb/thumb/${slideId}`]) {
          expect((await get(base, url, auth)).status, `${Object.keys(auth)[0]} ${url} pass ${pass}`).toBe(403);
        }
      }
    }
    // The same app.inject path (no socket) says the same, translated.
    const refused = await call(app, 'GET', images()[1], { token: registrar, lang: 'en-US' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/slide_view/);
  });
});

describe.each(databases)('security: sessions in a second process [%s]', (kind) => {
  let h: Harness;
  beforeAll(async () => { h = await startApp(kind); });
  afterAll(async () => { await h.close(); });

  it("drops the session's working hospital when the user no longer belongs to it, whoever removed them", async () => {
    const primary = await tokenFor(h.app, 'primary');
    const hospitals = (await h.db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id);
    const before = (await call(h.app, 'GET', '/api/pathology/lists?page_size=100', { token: primary })).json().data.data as { hospital_id: number }[];
    expect(before.some((r) => r.hospital_id === hospitals[0])).toBe(true);
    // Another process (or a direct change) removes the membership: this app learns of it only from the database.
    await h.db.deleteFrom('user_hospitals').where('user_id', '=', await userId(h.db, 'primary')).where('hospital_id', '=', hospitals[0]).execute();
    const other = await testApp(h.db);
    try {
      for (const app of [h.app, other]) {
        const rows = (await call(app, 'GET', '/api/pathology/lists?page_size=100', { token: primary })).json().data.data as { hospital_id: number }[];
        expect(rows.filter((r) => r.hospital_id === hospitals[0])).toEqual([]);
      }
    } finally {
      await other.close();
    }
  });
});
