/**
 * What tests/process/backup-restore.test.ts runs its installations with: the three installations (SQLite, PostgreSQL,
 * slides on S3), the npm scripts users run, the demo users' sessions on a running app, the hospital area's slide,
 * and the answers compared across a restore.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { expect } from 'vitest';
import { UPLOAD_CHUNK_BYTES } from '../../src/core/constants.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import type { Send } from '../api/diagnosis-setup.js';
import { loginSession, multipartChunk, request } from '../api/server-process.js';
import { startLoopbackS3, type LoopbackS3 } from '../support/s3-server.js';
import { until, type AppProcess } from './app-process.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const PG_URL = process.env.TEST_DATABASE_URL;
const USERS = ['admin', 'registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor', 'signer'] as const;
/** The code of the hospital area each installation has. */
export const AREA = 'EAST';

/**
 * `npm run <script> -- <args>` with the installation's environment; its exit status and output, never thrown. The AWS
 * SDK's notice that its 2027 releases want Node 22 is turned off, so stderr holds only what the script says.
 */
export async function npmRun(script: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', script, '--', ...args], {
      cwd: ROOT, env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env }, maxBuffer: 16 * 2 ** 20,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A database of its own on the test server, dropped by `drop`. */
async function newPgDatabase(name: string) {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface Installation {
  /** The environment of the source installation and of the restored one (DATA_DIR is added by the helpers). */
  source: Record<string, string>;
  target: Record<string, string>;
  /** The hospital area's storage location (in the test's folder `work`), and where the restore moves it, if it does. */
  area: (work: string) => { at: string; moveTo?: string; byId?: boolean };
  close(): Promise<void>;
}

/** Each installation's name, whether it runs here (PostgreSQL needs TEST_DATABASE_URL), and how it is made. */
export const installations: [string, boolean, () => Promise<Installation>][] = [
  ['SQLite, data directory', true, async () => ({ source: {}, target: {}, area: (work) => ({ at: path.join(work, 'area-east') }), close: async () => {} })],
  ['PostgreSQL, data directory', !!PG_URL, async () => {
    const id = randomBytes(4).toString('hex');
    const [src, dst] = [await newPgDatabase(`dsms_backup_src_${id}`), await newPgDatabase(`dsms_backup_dst_${id}`)];
    return {
      source: { DATABASE_URL: src.url }, target: { DATABASE_URL: dst.url },
      area: (work) => ({ at: path.join(work, 'area-east'), moveTo: path.join(work, 'area-east-moved') }),
      close: async () => { await src.drop(); await dst.drop(); },
    };
  }],
  ['SQLite, slides on S3', true, async () => {
    const s3: LoopbackS3 = await startLoopbackS3('dsms-backup', 'source');
    return {
      source: s3.env, target: { ...s3.env, STORAGE_URL: 's3://dsms-backup/restored' },
      area: () => ({ at: 's3://dsms-backup/area-east', moveTo: 's3://dsms-backup/area-east-restored', byId: true }),
      close: () => s3.close(),
    };
  }],
];

export type Sessions = Awaited<ReturnType<typeof sessions>>;

/** Every demo user signed in on `app`, with a GET and a JSON call (`send`, which throws on anything but a 200). */
export async function sessions(app: AppProcess) {
  const t: Record<string, string> = {};
  let primaryId = 0;
  for (const u of USERS) {
    const s = await loginSession(app.base, u, u === 'admin' ? DEMO_PASSWORDS.admin : DEMO_PASSWORDS.others);
    t[u] = s.token;
    if (u === 'primary') primaryId = s.userId;
  }
  const get = (who: string, url: string, lang = 'zh-CN') => request(app.base, 'GET', url, { authorization: `Bearer ${t[who]}`, 'user-language': lang });
  const send: Send = async (who, method, url, payload) => {
    const body = payload === undefined ? undefined : Buffer.from(JSON.stringify(payload));
    const res = await request(app.base, method, url, { authorization: `Bearer ${t[who]}`, 'user-language': 'en-US', ...(body ? { 'content-type': 'application/json' } : {}) }, body);
    if (res.status !== 200) {
      // A 5xx says little in its body: the server's own error lines say what failed.
      const errors = res.status >= 500 ? app.log().filter((l) => l.level >= 50).map((l) => JSON.stringify(l)).join('\n') : '';
      throw new Error(`${method} ${url} as ${who}: ${res.status} ${res.body.toString()}\n${errors}`);
    }
    return res.json().data;
  };
  return { get, send, primaryId, token: t };
}

/**
 * The hospital area (its storage at `storageUrl`), the first hospital put in it, and a slide uploaded (the demo
 * painting of demo-2, in 2 MiB chunks) and bound there by its technician, ingested from the area's storage.
 */
export async function bindAreaSlide(app: AppProcess, { send, get, token }: Sessions, storageUrl: string) {
  const area = await send('admin', 'POST', '/api/config/areas/store', { code: AREA, name: '东院区', storage_url: storageUrl, queue_names: 'area-east' }) as { id: number };
  const hospitals = await send('admin', 'GET', '/api/config/hospitals/lists?page_size=50') as { data: { id: number }[] };
  const first = Math.min(...hospitals.data.map((h) => h.id));
  await send('admin', 'PATCH', `/api/config/hospitals/update/${first}`, { area_id: area.id });
  const data = fs.readFileSync(path.join(ROOT, 'dist-server/demo-slides/demo-2.tiff'));
  const totalNum = Math.ceil(data.length / UPLOAD_CHUNK_BYTES);
  let done: { code: number; path?: string } = { code: 0 };
  for (let num = 1; num <= totalNum; num++) {
    const bytes = data.subarray((num - 1) * UPLOAD_CHUNK_BYTES, num * UPLOAD_CHUNK_BYTES);
    const body = multipartChunk({ file_name: 'area-east.tiff', num, total_num: totalNum, md5: md5(bytes), total_md5: md5(data) }, bytes);
    const res = await request(app.base, 'POST', '/api/upload/large', { authorization: `Bearer ${token.technician}`, 'content-type': body.type }, body.payload);
    expect(res.status, res.body.toString()).toBe(200);
    done = res.json().data;
  }
  expect(done.code).toBe(1);
  const bound = await send('technician', 'POST', '/api/data/kfb/bind', { path: done.path, name: 'AREA-EAST 东院区' }) as { id: number; file_path: string };
  expect(bound.file_path).toMatch(new RegExp(`^slides/areas/${area.id}/\\d{4}/\\d{2}/`));
  let status = 'ingesting';
  await until(async () => {
    status = (await get('technician', `/api/data/kfb/item/${bound.id}`)).json().data.status as string;
    return status !== 'ingesting';
  }, `the area slide ${bound.id} to be ingested`, 120_000);
  expect(status).toBe('ready');
  return { id: area.id, slideId: bound.id, filePath: bound.file_path };
}

/**
 * The answers compared across the restore: the case list, the signed report's PDFs (`reportId`), tiles and a
 * thumbnail of a demo slide, and of the area's slide (`areaSlideId`), read from the area's storage.
 */
export async function served(app: AppProcess, { reportId, areaSlideId }: { reportId: number; areaSlideId: number }) {
  const { get } = await sessions(app);
  const list = await get('registrar', '/api/pathology/lists?page_size=500');
  expect(list.status, list.body.toString()).toBe(200);
  const cases = (list.json().data.data as Record<string, unknown>[])
    .map((c) => ({ id: c.id, pathology_number: c.pathology_number, patient_name: c.patient_name, case_status: c.case_status }))
    .sort((a, b) => Number(a.id) - Number(b.id));
  const pdf: Record<string, Buffer> = {};
  for (const lang of ['zh-CN', 'en-US']) {
    const res = await get('signer', `/api/diagnosis/reports/${reportId}/pdf`, lang);
    expect(res.status, res.body.toString().slice(0, 300)).toBe(200);
    expect(res.body.subarray(0, 5).toString()).toBe('%PDF-');
    pdf[lang] = res.body;
  }
  const slides = await get('technician', '/api/data/kfb/lists?search=DEMO-1');
  const slide = (slides.json().data.data as { id: number; name: string; status: string }[]).find((s) => s.name.startsWith('DEMO-1'))!;
  expect(slide.status).toBe('ready');
  const tiles: Record<string, Buffer> = {};
  for (const tile of ['12/0_0', '12/3_2', '9/1_1', '0/0_0']) {
    const res = await get('technician', `/api/tiles/${slide.id}_files/${tile}.jpeg`);
    expect(res.status, `${tile}: ${res.body.toString().slice(0, 200)}`).toBe(200);
    tiles[tile] = res.body;
  }
  const thumb = await get('technician', `/api/data/kfb/thumb/${slide.id}`);
  expect(thumb.status, thumb.body.toString().slice(0, 200)).toBe(200);
  const area = { tiles: {} as Record<string, Buffer>, thumb: Buffer.alloc(0) as Buffer };
  for (const tile of ['12/0_0', '10/1_0', '0/0_0']) {
    const res = await get('technician', `/api/tiles/${areaSlideId}_files/${tile}.jpeg`);
    expect(res.status, `area ${tile}: ${res.body.toString().slice(0, 200)}`).toBe(200);
    area.tiles[tile] = res.body;
  }
  const areaThumb = await get('technician', `/api/data/kfb/thumb/${areaSlideId}`);
  expect(areaThumb.status, areaThumb.body.toString().slice(0, 200)).toBe(200);
  area.thumb = areaThumb.body;
  return { cases, pdf, tiles, thumb: thumb.body, area };
}

/** The first row of a query of a restored database, read from it directly: PostgreSQL at `databaseUrl`, else the SQLite file in `dataDir`. */
export async function restoredRow(databaseUrl: string | undefined, dataDir: string, sql: string): Promise<Record<string, unknown>> {
  if (databaseUrl) {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      return (await c.query(sql)).rows[0];
    } finally {
      await c.end();
    }
  }
  const db = new Sqlite(path.join(dataDir, 'dsms.sqlite'), { readonly: true });
  try {
    return db.prepare(sql).get() as Record<string, unknown>;
  } finally {
    db.close();
  }
}
