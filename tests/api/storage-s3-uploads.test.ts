import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDefaults } from '../../server/config.js';
import { translate } from '../../server/i18n/translate.js';
import { uploadId } from '../../server/modules/upload/protocol.js';
import { appStorage } from '../../server/storage/app-storage.js';
import { parseStorageConfig } from '../../server/storage/storage-url.js';
import { startLoopbackS3, type LoopbackS3 } from '../support/s3-server.js';
import { databases, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { filesUnder, md5, sendChunk, testFile, type TestFile } from './upload-helpers.js';

/**
 * Chunked uploads on object storage across app nodes (issue 29): two apps with their own data directories (two
 * machines) share the database and the bucket, and the chunks of one file go to either. Nothing of an upload is kept
 * on a node's disk; the chunk objects and their rows go once the file is finished.
 */
let dir: string;
let s3: LoopbackS3;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-s3-uploads-'));
  s3 = await startLoopbackS3();
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(databases)('chunked uploads on S3 across nodes [%s]', (kind) => {
  let h: Harness;
  let nodes: FastifyInstance[];
  let token: string;
  const dataDir = (i: number) => path.join(dir, `${kind}-node-${i}`);
  const storage = () => appStorage(withDefaults({ dataDir: dataDir(0), storage: parseStorageConfig(s3.env) })).storage;
  const admin = async () => (await h.db.selectFrom('users').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow()).id;
  const rows = async (table: 'upload_chunks' | 'upload_finishes', id: string) =>
    (await h.db.selectFrom(table).select('upload_id').where('upload_id', '=', id).execute()).length;
  const idOf = async (file: TestFile) => uploadId({ fileName: file.name, num: 1, totalNum: file.totalNum, md5: '', totalMd5: file.totalMd5 }, { userId: await admin(), hospitalId: 1 });

  beforeAll(async () => {
    h = await startApp(kind);
    nodes = await Promise.all([0, 1].map((i) => testApp(h.db, { dataDir: dataDir(i), storage: parseStorageConfig(s3.env) }, { ingest: false })));
    await Promise.all(nodes.map((n) => n.ready()));
    token = await tokenFor(nodes[0]!, 'admin');
  });
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.close()));
    await h.close();
  });

  it('completes a file whose chunks went to both nodes at once, with its MD5, leaving nothing behind', async () => {
    const file = testFile('across.svs', 29, 7 * 2 ** 21 + 1234);
    const answers = await Promise.all(Array.from({ length: file.totalNum }, (_, i) => sendChunk(nodes[i % 2]!, file, i + 1, { token })));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    // The last to arrive finished it (or waited for the one finishing); a finished file's chunk answers its path.
    const done = answers.map((a) => a.json().data).filter((d) => d.code === 1);
    expect(done.length).toBeGreaterThan(0);
    const key = done[0].path as string;
    expect(key).toMatch(/^uploads\/complete\/h1u\d+-[0-9a-f]{32}\/across\.svs$/);
    const again = await sendChunk(nodes[1]!, file, 1, { token });
    expect(again.json().data).toEqual({ code: 1, path: key });

    const stored = await storage().readRange(key, 0, file.data.length + 10);
    expect(md5(stored)).toBe(file.totalMd5);
    const id = await idOf(file);
    expect(await storage().list(`uploads/parts/${id}`)).toEqual([]);
    expect([await rows('upload_chunks', id), await rows('upload_finishes', id)]).toEqual([0, 0]);
    for (const i of [0, 1]) expect(await filesUnder(path.join(dataDir(i), 'uploads'))).toEqual([]);
  });

  it('keeps the chunks of an upload in progress in the bucket, so the other node resumes it', async () => {
    const file = testFile('resumed.svs', 30, 4 * 2 ** 21 + 77);
    for (const num of [1, 3]) expect((await sendChunk(nodes[0]!, file, num, { token })).json().data.code).toBe(0);
    const id = await idOf(file);
    expect((await storage().list(`uploads/parts/${id}`)).map((o) => o.key).sort()).toEqual([`uploads/parts/${id}/1`, `uploads/parts/${id}/3`]);
    // Node 1 never saw this upload: the database tells it what is missing.
    const res = await sendChunk(nodes[1]!, file, 2, { token });
    expect(res.json().data).toEqual({ code: 0, msg: 0.6, lack: [4, 5] });
    for (const num of [4, 5]) await sendChunk(nodes[1]!, file, num, { token });
    const key = `uploads/complete/${id}/resumed.svs`;
    expect(md5(await storage().readRange(key, 0, file.data.length))).toBe(file.totalMd5);
  });

  it('discards a file that does not match total_md5, with the translated message, on every node', async () => {
    const file = { ...testFile('wrong.svs', 31, 2 * 2 ** 21 - 5), totalMd5: 'f'.repeat(32) };
    expect((await sendChunk(nodes[0]!, file, 1, { token })).json().data.code).toBe(0);
    const last = await sendChunk(nodes[1]!, file, 2, { token, lang: 'en-US' });
    expect(last.statusCode).toBe(422);
    expect(last.json().message).toBe(translate('en-US', 'upload.file_md5_mismatch', { file: 'wrong.svs' }));
    const id = await idOf(file);
    expect(await storage().list(`uploads/parts/${id}`)).toEqual([]);
    expect(await storage().stat(`uploads/complete/${id}/wrong.svs`)).toBeNull();
    expect(await rows('upload_chunks', id)).toBe(0);
  });

  it('takes over the finish of a process that was killed while finishing (its heartbeat stopped)', async () => {
    const file = testFile('taken-over.svs', 32, 3 * 2 ** 21);
    for (const num of [1, 2]) await sendChunk(nodes[0]!, file, num, { token });
    const id = await idOf(file);
    // What a process killed with kill -9 mid-finish leaves: its claim, beating no more.
    await h.db.insertInto('upload_finishes').values({ upload_id: id, owner: 'elsewhere:1:dead', heartbeat_at: Date.now() - 60_000 }).execute();
    const res = await sendChunk(nodes[1]!, file, 3, { token });
    expect(res.json().data).toEqual({ code: 1, path: `uploads/complete/${id}/taken-over.svs` });
    expect(md5(await storage().readRange(`uploads/complete/${id}/taken-over.svs`, 0, file.data.length))).toBe(file.totalMd5);
    expect(await rows('upload_finishes', id)).toBe(0);
  });

  it('asks again for a chunk the database records but the bucket lost', async () => {
    const file = testFile('lost.svs', 33, 3 * 2 ** 21 - 9);
    for (const num of [1, 2]) await sendChunk(nodes[0]!, file, num, { token });
    const id = await idOf(file);
    await storage().remove(`uploads/parts/${id}/2`);
    const res = await sendChunk(nodes[1]!, file, 3, { token });
    expect(res.json().data).toMatchObject({ code: 0, lack: [2] });
    expect((await sendChunk(nodes[0]!, file, 2, { token })).json().data).toEqual({ code: 1, path: `uploads/complete/${id}/lost.svs` });
    expect(md5(await storage().readRange(`uploads/complete/${id}/lost.svs`, 0, file.data.length))).toBe(file.totalMd5);
  });
});
