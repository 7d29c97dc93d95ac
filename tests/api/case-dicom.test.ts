import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseImageMessages } from '../../server/modules/case-images/messages.js';
import { crImage, ctSeries } from '../support/radiology-dicom.js';
import { call, databases, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { multipart } from './upload-helpers.js';

/**
 * Radiology attachments (issue 30): a DICOM file tied to a case keeps its series facts from its header, is refused
 * when its modality is none of spec §5's (CR, DR, CT, MRI, DSA, RF, US), and its bytes go only to readers of the case.
 */
describe.each(databases)('radiology attachments of a case [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let primary: string;
  let auditor: string;
  let caseId: number;
  let foreignCase: number;

  const attach = async (token: string, bytes: Buffer, filename: string) => {
    const body = multipart({}, { field: 'file', bytes, filename });
    const res = await app.inject({ method: 'POST', url: '/api/upload/image', payload: body.payload, headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.path as string;
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-case-dicom-'));
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir });
    await app.ready();
    [primary, auditor] = await Promise.all(['primary', 'auditor'].map((u) => tokenFor(app, u)));
    const first = await h.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
    caseId = (await h.db.selectFrom('cases').select('id').where('hospital_id', '=', first.id).orderBy('id').executeTakeFirstOrThrow()).id;
    const other = await h.db.insertInto('hospitals').values({ code: 'H011', name: '外院', en_name: 'Outside', logo: null, created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow();
    const { id: _id, ...copy } = await h.db.selectFrom('cases').selectAll().where('id', '=', caseId).executeTakeFirstOrThrow();
    foreignCase = (await h.db.insertInto('cases').values({ ...copy, hospital_id: other.id }).returning('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps a CT series\' facts from the headers, lists them and serves each file back as application/dicom', async () => {
    const series = ctSeries({ slices: 3, description: 'Abdomen' });
    const ids: number[] = [];
    for (const file of [...series].reverse()) {
      const stored = await attach(primary, file.bytes, file.name);
      const res = await call(app, 'POST', `/api/cases/${caseId}/images`, { token: primary, payload: { path: stored, title: file.name } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ modality: 'CT', series_uid: file.seriesUid });
      ids.push(res.json().data.id);
    }
    const list = (await call(app, 'GET', `/api/cases/${caseId}/images`, { token: auditor })).json().data as Record<string, unknown>[];
    const mine = list.filter((i) => ids.includes(i.id as number));
    expect(mine.map((i) => [i.modality, i.series_uid, i.series_number, i.series_description, i.instance_number]))
      .toEqual([3, 2, 1].map((n) => ['CT', series[0]!.seriesUid, 2, 'Abdomen', n]));
    const file = await call(app, 'GET', `/api/cases/images/${ids[2]}/file`, { token: auditor });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/dicom');
    expect(file.rawPayload.equals(series[0]!.bytes)).toBe(true);
  });

  it('refuses a DICOM file of a modality spec §5 does not take, and one that says DICM but does not parse, changing nothing', async () => {
    const before = await h.db.selectFrom('case_images').select('id').execute();
    const slide = await attach(primary, crImage({ modality: 'SM', description: 'Whole slide' }).bytes, 'sm.dcm');
    const refused = await call(app, 'POST', `/api/cases/${caseId}/images`, { token: primary, payload: { path: slide }, lang: 'en-US' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(caseImageMessages['case_image.modality_not_allowed']['en-US'].replace('{{modality}}', 'SM'));
    const broken = Buffer.concat([Buffer.alloc(128), Buffer.from('DICM'), Buffer.from([0x02, 0x00, 0x10, 0x00, 0x55, 0x49, 0xff, 0x7f])]);
    const bad = await call(app, 'POST', `/api/cases/${caseId}/images`, { token: primary, payload: { path: await attach(primary, broken, 'broken.dcm') }, lang: 'en-US' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe(caseImageMessages['case_image.dicom_unreadable']['en-US']);
    expect(await h.db.selectFrom('case_images').select('id').execute()).toEqual(before);
    // A CR is taken.
    const cr = await call(app, 'POST', `/api/cases/${caseId}/images`, { token: primary, payload: { path: await attach(primary, crImage().bytes, 'cr.dcm') } });
    expect(cr.json().data.modality).toBe('CR');
  });

  it('serves a DICOM attachment only to a signed-in reader of the case\'s hospital: unsigned 401, another hospital 404', async () => {
    const file = ctSeries({ slices: 1 })[0]!;
    const { id } = (await call(app, 'POST', `/api/cases/${caseId}/images`, { token: primary, payload: { path: await attach(primary, file.bytes, file.name) } })).json().data;
    expect((await call(app, 'GET', `/api/cases/images/${id}/file`)).statusCode).toBe(401);
    expect((await call(app, 'GET', `/api/cases/${caseId}/images`)).statusCode).toBe(401);
    // The same row moved to a case of a hospital the reader is not in: it is not there for them.
    await h.db.updateTable('case_images').set({ case_id: foreignCase, hospital_id: (await h.db.selectFrom('cases').select('hospital_id').where('id', '=', foreignCase).executeTakeFirstOrThrow()).hospital_id }).where('id', '=', id).execute();
    const hidden = await call(app, 'GET', `/api/cases/images/${id}/file`, { token: auditor, lang: 'en-US' });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe(caseImageMessages['case_image.not_found']['en-US']);
    expect((await call(app, 'GET', `/api/cases/${foreignCase}/images`, { token: auditor })).statusCode).toBe(404);
  });
});
