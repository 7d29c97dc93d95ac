import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allObjectKeys } from '../../server/backup/object-copy.js';
import { withDefaults } from '../../server/config.js';
import { translate } from '../../server/i18n/translate.js';
import { appStorage } from '../../server/storage/app-storage.js';
import type { S3Storage } from '../../server/storage/s3-storage.js';
import { parseStorageConfig } from '../../server/storage/storage-url.js';
import { startLoopbackS3, type LoopbackS3 } from '../support/s3-server.js';
import { caseAtFirstDiagnosis, type Send } from './diagnosis-setup.js';
import { call, databases, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';
import { filesUnder, multipart, seededBytes } from './upload-helpers.js';

/**
 * Attachments on object storage across app nodes (issue 29): two apps with their own data directories (two machines)
 * share the database and the bucket. An image uploaded through one is kept in the bucket, not on that node's disk, so
 * the other serves it and draws it into a report PDF; an absent or hostile stored path is the translated 404.
 */
let dir: string;
let s3: LoopbackS3;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-s3-attachments-'));
  s3 = await startLoopbackS3();
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An 8×6 half-transparent PNG (sharp wrote it). */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000008000000060806000000fe05dffb0000000970485973000003e8000003e801b57b526b0000001249444154089963382167d3800f330c05050063184e61a618f6d00000000049454e44ae426082', 'hex');
/** A 1×1 RGBA PNG whose deflate checksum is wrong: pdfkit alone threw an uncaught zlib error and never ended the PDF. */
const BROKEN_PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2b2b9c40000000049454e44ae426082', 'hex');
/** Image XObjects in a PDF (pdfkit writes every object's dictionary uncompressed). */
const imageObjects = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Subtype\s*\/Image\b/g) ?? []).length;

describe.each(databases)('attachments on S3 across nodes [%s]', (kind) => {
  let h: Harness;
  let nodes: FastifyInstance[];
  const t: Record<string, string> = {};
  const dataDir = (i: number) => path.join(dir, `${kind}-node-${i}`);
  const storage = () => appStorage(withDefaults({ dataDir: dataDir(0), storage: parseStorageConfig(s3.env) })).storage;
  /** One request through node A as a demo user, answering the JSON body's data. */
  const send: Send = async (who, method, url, payload) => {
    const res = await call(nodes[0]!, method, url, { token: t[who], payload });
    if (res.statusCode !== 200) throw new Error(`${method} ${url} as ${who}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const attach = async (node: FastifyInstance, bytes: Buffer, filename: string) => {
    const body = multipart({}, { field: 'file', bytes, filename });
    const res = await node.inject({ method: 'POST', url: '/api/upload/image', payload: body.payload, headers: { authorization: `Bearer ${t.primary}`, 'content-type': body.contentType } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.path as string;
  };
  const tie = async (caseId: number, stored: string) => (await send('primary', 'POST', `/api/cases/${caseId}/images`, { path: stored, title: 'HE' })).id as number;

  /** Kept on node B's disk before attachments went to the bucket; `clash` the bucket holds with other bytes. */
  const legacy = { key: `uploads/attachments/${'a'.repeat(32)}/${kind}-old.png`, bytes: seededBytes(7, 5000) };
  const clash = { key: `uploads/attachments/${'b'.repeat(32)}/${kind}-clash.png`, bytes: seededBytes(8, 300) };
  const onDisk = (i: number, key: string) => path.join(dataDir(i), key);

  beforeAll(async () => {
    h = await startApp(kind);
    for (const f of [legacy, clash]) {
      fs.mkdirSync(path.dirname(onDisk(1, f.key)), { recursive: true });
      fs.writeFileSync(onDisk(1, f.key), f.bytes);
    }
    await storage().write(clash.key, Buffer.from('other bytes'));
    nodes = await Promise.all([0, 1].map((i) => testApp(h.db, { dataDir: dataDir(i), storage: parseStorageConfig(s3.env) }, { ingest: false })));
    await Promise.all(nodes.map((n) => n.ready()));
    for (const u of ['registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor']) t[u] = await tokenFor(nodes[0]!, u);
  });
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.close()));
    await h.close();
  });

  it('moves an attachment node B kept on its disk into the bucket when it starts, and node A serves it; a clash stays on B', async () => {
    const deadline = Date.now() + 20_000;
    while (!(await storage().stat(legacy.key)) || fs.existsSync(onDisk(1, legacy.key))) {
      if (Date.now() > deadline) throw new Error(`${legacy.key} was not moved into the bucket`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const kase = await h.db.selectFrom('cases').select(['id', 'hospital_id']).orderBy('id').executeTakeFirstOrThrow();
    const { id } = await h.db.insertInto('case_images').values({
      case_id: kase.id, hospital_id: kase.hospital_id, path: legacy.key, slide_id: null, title: '', created_by: await userId(h.db, 'primary'), created_at: new Date().toISOString(),
    }).returning('id').executeTakeFirstOrThrow();
    const file = await call(nodes[0]!, 'GET', `/api/cases/images/${id}/file`, { token: t.auditor });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(legacy.bytes)).toBe(true);
    expect(fs.existsSync(path.dirname(onDisk(1, legacy.key)))).toBe(false);
    expect(fs.readFileSync(onDisk(1, clash.key)).equals(clash.bytes)).toBe(true);
    expect((await storage().readRange(clash.key, 0, 100)).toString()).toBe('other bytes');
  });

  it('keeps an image uploaded through node A in the bucket only, and node B serves the same bytes', async () => {
    // Larger than one read of the stream, so the bytes are checked beyond the first buffer.
    const bytes = seededBytes(29, 3 * 2 ** 20 + 17);
    const stored = await attach(nodes[0]!, bytes, 'large view.png');
    expect(stored).toMatch(/^uploads\/attachments\/[0-9a-f]{32}\/large[ _]view\.png$/);
    expect((await storage().stat(stored))?.size).toBe(bytes.length);
    expect(await filesUnder(path.join(dataDir(0), 'uploads'))).toEqual([]);
    expect(fs.existsSync(onDisk(1, stored))).toBe(false);
    // What npm run backup copies of the bucket: every key under the prefix, this one among them.
    expect(await allObjectKeys(storage() as S3Storage, s3.settings.bucket, s3.settings.prefix)).toContain(stored);
    // Counted against the quota as before: the row holds its size (a bigint on PostgreSQL).
    expect(Number((await h.db.selectFrom('attachments').select('size').where('path', '=', stored).executeTakeFirstOrThrow()).size)).toBe(bytes.length);

    const caseId = (await h.db.selectFrom('cases').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const id = await tie(caseId, stored);
    const file = await call(nodes[1]!, 'GET', `/api/cases/images/${id}/file`, { token: t.auditor });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(bytes)).toBe(true);
  });

  it('draws an image uploaded through node A into a report PDF rendered on node B; without the object, the PDF leaves it out', async () => {
    const caseId = await caseAtFirstDiagnosis(send, await userId(h.db, 'primary'));
    const imageId = await tie(caseId, await attach(nodes[0]!, PNG, 'view.png'));
    const brokenId = await tie(caseId, await attach(nodes[0]!, BROKEN_PNG, 'broken.png'));
    const report = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, diagnosis: '（胃窦）慢性炎。', images: [brokenId, imageId] }) as { id: number };
    const pdf = async () => {
      const res = await call(nodes[1]!, 'GET', `/api/diagnosis/reports/${report.id}/pdf`, { token: t.primary });
      expect(res.statusCode, res.body).toBe(200);
      return res.rawPayload;
    };
    const withImage = imageObjects(await pdf());
    expect(withImage).toBeGreaterThan(0);

    const { path: stored } = await h.db.selectFrom('case_images').select('path').where('id', '=', imageId).executeTakeFirstOrThrow();
    await storage().remove(stored);
    expect(imageObjects(await pdf())).toBeLessThan(withImage);
    const gone = await call(nodes[1]!, 'GET', `/api/cases/images/${imageId}/file`, { token: t.primary, lang: 'en-US' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(translate('en-US', 'case_image.not_found'));
  });

  it('answers a stored path outside the attachments, or a hostile one, with the translated 404 and reads nothing', async () => {
    const kase = await h.db.selectFrom('cases').select(['id', 'hospital_id']).orderBy('id').executeTakeFirstOrThrow();
    await storage().write('secrets.key', Buffer.from('not to be served'));
    const admin = await userId(h.db, 'admin');
    for (const stored of ['secrets.key', '../secrets.key', 'uploads/attachments/../../secrets.key', 'uploads/attachments/absent/x.png']) {
      const { id } = await h.db.insertInto('case_images').values({
        case_id: kase.id, hospital_id: kase.hospital_id, path: stored, slide_id: null, title: '', created_by: admin, created_at: new Date().toISOString(),
      }).returning('id').executeTakeFirstOrThrow();
      for (const node of nodes) {
        const res = await call(node, 'GET', `/api/cases/images/${id}/file`, { token: t.primary, lang: 'zh-CN' });
        expect(res.statusCode, stored).toBe(404);
        expect(res.json().message).toBe(translate('zh-CN', 'case_image.not_found'));
      }
    }
  });
});
