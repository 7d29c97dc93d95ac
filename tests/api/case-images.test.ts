import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseImageMessages } from '../../server/modules/case-images/messages.js';
import { call, databases, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { multipart } from './upload-helpers.js';

/** Case images (issue 11): a viewer screenshot saved from /image/edit is the user's attachment tied to a case of their hospital. */
describe.each(databases)('case images [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let primary: string;
  let auditor: string;
  let caseId: number;
  let foreignCase: number;
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2b2b9c40000000049454e44ae426082', 'hex');

  const attach = async (token: string) => {
    const body = multipart({}, { field: 'file', bytes: png, filename: 'view.png' });
    const res = await app.inject({ method: 'POST', url: '/api/upload/image', payload: body.payload, headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.path as string;
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-case-images-'));
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir });
    await app.ready();
    [primary, auditor] = await Promise.all(['primary', 'auditor'].map((u) => tokenFor(app, u)));
    const first = await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
    caseId = (await h.db.selectFrom('cases').select('id').where('hospital_id', '=', first.id).orderBy('id').executeTakeFirstOrThrow()).id;
    const other = await h.db.insertInto('hospitals').values({ code: 'H010', name: '外院', en_name: 'Outside', logo: null, created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow();
    const row = await h.db.selectFrom('cases').selectAll().where('id', '=', caseId).executeTakeFirstOrThrow();
    const { id: _id, ...copy } = row;
    foreignCase = (await h.db.insertInto('cases').values({ ...copy, hospital_id: other.id }).returning('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('ties the user\'s own uploaded image to a case once, lists it and serves it back', async () => {
    const stored = await attach(primary);
    const res = await call(app, 'POST', `/api/cases/${caseId}/images`, { token: primary, payload: { path: stored, title: 'HE 40×' } });
    expect(res.statusCode, res.body).toBe(200);
    const again = await call(app, 'POST', `/api/cases/${caseId}/images`, { token: primary, payload: { path: stored }, lang: 'en-US' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(caseImageMessages['case_image.already_used']['en-US']);
    const list = await call(app, 'GET', `/api/cases/${caseId}/images`, { token: auditor });
    expect(list.json().data.map((i: { title: string }) => i.title)).toEqual(['HE 40×']);
    const file = await call(app, 'GET', `/api/cases/images/${res.json().data.id}/file`, { token: auditor });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(png)).toBe(true);
  });

  it('refuses someone else\'s attachment (403), another hospital\'s case (404) and a role without attachment_upload (403)', async () => {
    const stored = await attach(primary);
    expect((await call(app, 'POST', `/api/cases/${caseId}/images`, { token: auditor, payload: { path: stored } })).statusCode).toBe(403);
    expect((await call(app, 'POST', `/api/cases/${foreignCase}/images`, { token: primary, payload: { path: stored } })).statusCode).toBe(404);
    expect((await call(app, 'GET', `/api/cases/${foreignCase}/images`, { token: primary })).statusCode).toBe(404);
    const clinician = await tokenFor(app, 'clinician');
    expect((await call(app, 'POST', `/api/cases/${caseId}/images`, { token: clinician, payload: { path: stored } })).statusCode).toBe(403);
    expect((await call(app, 'POST', `/api/cases/${caseId}/images`, { token: primary, payload: { path: stored, title: 'x'.repeat(201) } })).statusCode).toBe(422);
  });

  it('serves only what is under uploads/attachments/: a stored path naming another file of the data directory is the translated 404', async () => {
    fs.writeFileSync(path.join(dataDir, 'not-an-attachment.png'), png);
    const author = (await h.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow()).id;
    const { hospital_id } = await h.db.selectFrom('cases').select('hospital_id').where('id', '=', caseId).executeTakeFirstOrThrow();
    for (const stored of ['not-an-attachment.png', 'uploads/attachments/../../not-an-attachment.png', `${dataDir}/not-an-attachment.png`]) {
      const { id } = await h.db.insertInto('case_images').values({
        case_id: caseId, hospital_id, path: stored, slide_id: null, title: '', created_by: author, created_at: new Date().toISOString(),
      }).returning('id').executeTakeFirstOrThrow();
      const res = await call(app, 'GET', `/api/cases/images/${id}/file`, { token: auditor, lang: 'en-US' });
      expect(res.statusCode, stored).toBe(404);
      expect(res.json().message).toBe(caseImageMessages['case_image.not_found']['en-US']);
    }
  });
});
