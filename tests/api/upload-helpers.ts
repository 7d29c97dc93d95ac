import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import type { AppOptions } from '../../server/app.js';
import type { MessageKey } from '../../server/i18n/messages.js';
import { translate, type Language, type Params } from '../../server/i18n/translate.js';
import { hashToken } from '../../server/modules/auth/tokens.js';
import type { UploadOwner } from '../../server/modules/upload/ownership.js';
import { uploadId } from '../../server/modules/upload/protocol.js';
import { startApp, testApp, tokenFor, type Harness } from './harness.js';

/** What the chunked-upload suites share: test files, hand-built multipart bodies, and apps on their own data dirs. */

export const t = (key: MessageKey, params?: Params, lang: Language = 'zh-CN') => translate(lang, key, params);
export const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** Reproducible bytes (mulberry32), so a failure can be replayed exactly. */
export function seededBytes(seed: number, size: number): Buffer {
  const out = Buffer.allocUnsafe(size);
  let a = seed >>> 0;
  for (let i = 0; i < size; i += 4) {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    const word = (x ^ (x >>> 14)) >>> 0;
    for (let b = 0; b < 4 && i + b < size; b++) out[i + b] = (word >>> (8 * b)) & 0xff;
  }
  return out;
}

export interface TestFile {
  name: string;
  data: Buffer;
  totalNum: number;
  totalMd5: string;
}

export function testFile(name: string, seed: number, size: number): TestFile {
  const data = seededBytes(seed, size);
  return { name, data, totalNum: Math.max(1, Math.ceil(size / CHUNK)), totalMd5: md5(data) };
}

export const chunkOf = (file: TestFile, num: number) => file.data.subarray((num - 1) * CHUNK, num * CHUNK);

/** A multipart body built by hand, so the tests decide the order of the parts. */
export function multipart(fields: Record<string, string | number>, file?: { field: string; bytes: Buffer; filename?: string }, fileFirst = false) {
  const boundary = `----dsmstest${Math.random().toString(16).slice(2)}`;
  const fieldParts = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  const fileParts = file
    ? [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename ?? 'blob'}"\r\nContent-Type: application/octet-stream\r\n\r\n`), file.bytes, Buffer.from('\r\n')]
    : [];
  const parts = fileFirst ? [...fileParts, ...fieldParts] : [...fieldParts, ...fileParts];
  return { payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

interface ChunkOptions {
  token?: string;
  lang?: Language;
  /** Overrides or extra fields. */
  fields?: Record<string, string | number>;
  bytes?: Buffer;
  blobFirst?: boolean;
}

export function sendChunk(app: FastifyInstance, file: TestFile, num: number, opts: ChunkOptions = {}) {
  const bytes = opts.bytes ?? chunkOf(file, num);
  const fields = { file_name: file.name, num, total_num: file.totalNum, md5: md5(bytes), total_md5: file.totalMd5, ...opts.fields };
  const body = multipart(fields, { field: 'blob', bytes }, opts.blobFirst);
  const headers: Record<string, string> = { 'content-type': body.contentType };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.lang) headers['user-language'] = opts.lang;
  return app.inject({ method: 'POST', url: '/api/upload/large', headers, payload: body.payload });
}

/** Every file under `dir`, relative, sorted: what an upload left on disk. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

/** The upload a user sends `file` as, in their working hospital: by default the technician whose token the suite holds. */
export const idOf = (file: TestFile, owner: UploadOwner = technicianOwner) =>
  uploadId({ fileName: file.name, num: 1, totalNum: file.totalNum, md5: '', totalMd5: file.totalMd5 }, owner);

/** Who a token belongs to and which hospital its session works in: the owner of what it uploads. */
export async function ownerOf(h: Harness, token: string): Promise<UploadOwner> {
  const row = await h.db.selectFrom('auth_tokens').select(['user_id', 'hospital_id']).where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
  return { userId: row.user_id, hospitalId: row.hospital_id ?? 0 };
}

let technicianOwner: UploadOwner = { userId: 0, hospitalId: 0 };

export interface UploadSuite {
  h: Harness;
  technician: string;
  /** An app on the suite's database with this data dir, as main.ts would build it. */
  appOn(dataDir: string, extra?: Partial<AppOptions['config']>): Promise<FastifyInstance>;
  /** An app with a data dir of its own. */
  freshApp(extra?: Partial<AppOptions['config']>): Promise<{ app: FastifyInstance; dataDir: string }>;
  /** A data dir removed after the suite. */
  tempDir(): Promise<string>;
}

/** Call inside a `describe`: a database of `kind` with the demo seed, the technician's token, and cleanup after. */
export function uploadSuite(kind: string): UploadSuite {
  const dirs: string[] = [];
  const apps: FastifyInstance[] = [];
  const suite = {
    async appOn(dataDir: string, extra: Partial<AppOptions['config']> = {}) {
      const app = await testApp(suite.h.db, { dataDir, ...extra });
      await app.ready();
      apps.push(app);
      return app;
    },
    async tempDir() {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-upload-test-'));
      dirs.push(dir);
      return dir;
    },
    async freshApp(extra: Partial<AppOptions['config']> = {}) {
      const dataDir = await suite.tempDir();
      return { app: await suite.appOn(dataDir, extra), dataDir };
    },
  } as UploadSuite;
  beforeAll(async () => {
    suite.h = await startApp(kind);
    suite.technician = await tokenFor(suite.h.app, 'technician');
    technicianOwner = await ownerOf(suite.h, suite.technician);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await suite.h?.close();
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });
  return suite;
}
