import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../server/http/errors.js';
import { translate } from '../../server/i18n/translate.js';
import { LocalStorage } from '../../server/storage/local-storage.js';
import { PART_BYTES } from '../../server/storage/limits.js';
import { S3Storage } from '../../server/storage/s3-storage.js';
import type { Storage } from '../../server/storage/storage.js';
import { startLoopbackS3, type LoopbackS3 } from '../support/s3-server.js';

/**
 * The same cases on both backends: the data directory and S3 (s3rver on a loopback port, its objects in a temp
 * directory). What the app relies on of storage is said here once; a backend that differs fails here first.
 */
const backends: [string, () => Promise<{ storage: Storage; close(): Promise<void> }>][] = [
  ['local', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-storage-'));
    return { storage: new LocalStorage(dir), close: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }],
  ['s3', async () => {
    const server: LoopbackS3 = await startLoopbackS3();
    const storage = new S3Storage(server.settings);
    return { storage, close: async () => { storage.close(); await server.close(); } };
  }],
];

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
async function bytesOf(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}
async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe.each(backends)('storage [%s]', (_name, open) => {
  let storage: Storage;
  let close: () => Promise<void>;
  const body = randomBytes(300_000);

  beforeAll(async () => {
    ({ storage, close } = await open());
    await storage.write('slides/2026/05/a.tiff', body);
  });
  afterAll(() => close());

  it('reads ranges: inside, across the end (short) and past it (empty)', async () => {
    expect((await storage.readRange('slides/2026/05/a.tiff', 1000, 5000)).equals(body.subarray(1000, 6000))).toBe(true);
    expect((await storage.readRange('slides/2026/05/a.tiff', body.length - 10, 100)).equals(body.subarray(body.length - 10))).toBe(true);
    expect((await storage.readRange('slides/2026/05/a.tiff', body.length + 5, 10)).length).toBe(0);
    expect((await storage.readRange('slides/2026/05/a.tiff', 0, 0)).length).toBe(0);
  });

  it('stats an object, and says null for one that is not there', async () => {
    const stat = await storage.stat('slides/2026/05/a.tiff');
    expect(stat?.size).toBe(body.length);
    expect(stat?.tag).toBeTruthy();
    expect(await storage.stat('slides/none.tiff')).toBeNull();
  });

  it('streams the whole object or a range of it', async () => {
    expect((await bytesOf(await storage.readStream('slides/2026/05/a.tiff'))).equals(body)).toBe(true);
    expect((await bytesOf(await storage.readStream('slides/2026/05/a.tiff', { start: 10, end: 19 }))).equals(body.subarray(10, 20))).toBe(true);
  });

  it('assembles an object from parts (multipart on S3) with the MD5 of what was written', async () => {
    const pieces = [randomBytes(PART_BYTES - 1), randomBytes(3), randomBytes(PART_BYTES + 7), randomBytes(1234)];
    const whole = Buffer.concat(pieces);
    const writer = await storage.createWriter('uploads/complete/7/big.svs');
    for (const p of pieces) await writer.write(p);
    // Nothing is visible under the key before the end.
    expect(await storage.stat('uploads/complete/7/big.svs')).toBeNull();
    const stat = await writer.finish();
    expect(stat.size).toBe(whole.length);
    expect(md5(await bytesOf(await storage.readStream('uploads/complete/7/big.svs')))).toBe(md5(whole));
    // 32 MiB through s3rver's disk twice: a limit for a hung test on a loaded 2-core CI machine, not a speed check.
  }, 120_000);

  it('leaves nothing of an aborted writer', async () => {
    const writer = await storage.createWriter('uploads/complete/8/gone.svs');
    await writer.write(randomBytes(1000));
    await writer.abort();
    expect(await storage.stat('uploads/complete/8/gone.svs')).toBeNull();
    expect(await storage.list('uploads/complete/8')).toEqual([]);
  });

  it('answers a missing object with the translated not-found, in both languages', async () => {
    const attempts = [() => storage.readRange('slides/none.tiff', 0, 10), () => storage.readStream('slides/none.tiff'), () => storage.localCopy('slides/none.tiff'), () => storage.move('slides/none.tiff', 'slides/other.tiff')];
    for (const attempt of attempts) {
      const err = await refusal(attempt());
      expect([err.status, err.key]).toEqual([404, 'storage.not_found']);
      expect(translate('en-US', err.key, err.params)).toBe('The file does not exist in storage: slides/none.tiff');
      expect(translate('zh-CN', err.key, err.params)).toBe('存储中不存在该文件：slides/none.tiff');
    }
  });

  it('refuses keys that could leave its directory or prefix, and ranges past the limit', async () => {
    for (const key of ['../secrets.key', '/etc/passwd', 'slides//a', 'slides/./a', 'a\\b', '']) {
      expect((await refusal(storage.stat(key))).key).toBe('storage.bad_key');
    }
    expect((await refusal(storage.readRange('slides/2026/05/a.tiff', 0, 2 ** 30))).key).toBe('storage.range_too_large');
  });

  it('lists, moves and removes', async () => {
    await storage.write('slides/thumbs/1.jpg', Buffer.from('one'));
    await storage.write('slides/thumbs/2.jpg', Buffer.from('two!'));
    expect(await storage.list('slides/thumbs')).toEqual([{ key: 'slides/thumbs/1.jpg', size: 3 }, { key: 'slides/thumbs/2.jpg', size: 4 }]);
    // Never over an existing object.
    const taken = await refusal(storage.move('slides/thumbs/2.jpg', 'slides/thumbs/1.jpg'));
    expect([taken.status, taken.key]).toEqual([409, 'storage.exists']);
    expect((await storage.readRange('slides/thumbs/1.jpg', 0, 10)).toString()).toBe('one');
    await storage.move('slides/thumbs/2.jpg', 'slides/thumbs/3.jpg');
    expect(await storage.stat('slides/thumbs/2.jpg')).toBeNull();
    expect((await storage.readRange('slides/thumbs/3.jpg', 0, 10)).toString()).toBe('two!');
    // Names as scanners write them: spaces, plus signs, brackets, CJK.
    await storage.move('slides/thumbs/3.jpg', 'slides/2026/玻片 A+B (1)#2.jpg');
    expect((await storage.readRange('slides/2026/玻片 A+B (1)#2.jpg', 0, 10)).toString()).toBe('two!');
    await storage.move('slides/2026/玻片 A+B (1)#2.jpg', 'slides/thumbs/3.jpg');
    await storage.remove('slides/thumbs/3.jpg');
    await storage.remove('slides/thumbs/never.jpg');
    expect((await storage.list('slides/thumbs')).map((o) => o.key)).toEqual(['slides/thumbs/1.jpg']);
  });

  it('gives a child tool a local file with the object bytes', async () => {
    const copy = await storage.localCopy('slides/2026/05/a.tiff');
    expect(fs.readFileSync(copy.path).equals(body)).toBe(true);
    await copy.release();
    // The local backend's copy is the file itself and stays; a staged one is gone.
    expect(fs.existsSync(copy.path)).toBe(storage.kind === 'local');
  });
});
