import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifest, type Manifest } from '../../server/backup/manifest.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { caseAtFirstDiagnosis, type Send } from '../api/diagnosis-setup.js';
import { loginSession, request } from '../api/server-process.js';
import { startLoopbackS3, type LoopbackS3 } from '../support/s3-server.js';
import { startAppProcess, type AppProcess } from './app-process.js';

/**
 * Issue 29: a backup of a running installation, restored into a fresh one, serves the same cases, signed report and
 * tile bytes. The app is the built one, as `npm start` runs it (two workers); backup and restore are the npm scripts
 * users run (scripts/backup.ts), with the installation's environment. While the backup runs, the app keeps
 * registering cases; the restored database must be whole and hold what its manifest counted.
 * Three installations: SQLite with the data directory; PostgreSQL (TEST_DATABASE_URL: a database made for the
 * source and one for the restore, dropped after); SQLite with slides on S3 (s3rver: restored under another prefix).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const PG_URL = process.env.TEST_DATABASE_URL;
const USERS = ['admin', 'registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor', 'signer'] as const;

/**
 * `npm run <script> -- <args>` with the installation's environment; its exit status and output, never thrown. The AWS
 * SDK's notice that its 2027 releases want Node 22 is turned off, so stderr holds only what the script says.
 */
async function npmRun(script: string, args: string[], env: Record<string, string>) {
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

interface Installation {
  /** The environment of the source installation and of the restored one (DATA_DIR is added by the helpers). */
  source: Record<string, string>;
  target: Record<string, string>;
  close(): Promise<void>;
}

const installations: [string, boolean, () => Promise<Installation>][] = [
  ['SQLite, data directory', true, async () => ({ source: {}, target: {}, close: async () => {} })],
  ['PostgreSQL, data directory', !!PG_URL, async () => {
    const id = randomBytes(4).toString('hex');
    const [src, dst] = [await newPgDatabase(`dsms_backup_src_${id}`), await newPgDatabase(`dsms_backup_dst_${id}`)];
    return { source: { DATABASE_URL: src.url }, target: { DATABASE_URL: dst.url }, close: async () => { await src.drop(); await dst.drop(); } };
  }],
  ['SQLite, slides on S3', true, async () => {
    const s3: LoopbackS3 = await startLoopbackS3('dsms-backup', 'source');
    return { source: s3.env, target: { ...s3.env, STORAGE_URL: 's3://dsms-backup/restored' }, close: () => s3.close() };
  }],
];

describe.each(installations.filter(([, on]) => on).map(([name, , make]) => [name, make] as const))('backup and restore: %s', (name, make) => {
  let installation: Installation;
  let source: AppProcess | undefined;
  let restored: AppProcess | undefined;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-backup-test-'));
  const backupDir = path.join(work, 'backup');
  const restoredDir = path.join(work, 'restored');
  let manifest: Manifest;

  /** What the first installation served, to compare the restored one's answers with. */
  const before = { cases: [] as unknown[], caseId: 0, reportId: 0, verifyCode: '', pdf: {} as Record<string, Buffer>, tiles: {} as Record<string, Buffer>, thumb: Buffer.alloc(0) };

  const sessions = async (app: AppProcess) => {
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
      if (res.status !== 200) throw new Error(`${method} ${url} as ${who}: ${res.status} ${res.body.toString()}`);
      return res.json().data;
    };
    return { get, send, primaryId };
  };
  /** The answers compared across the restore: the case list, the signed report's PDFs, tiles and a thumbnail of a demo slide. */
  const served = async (app: AppProcess) => {
    const { get } = await sessions(app);
    const list = await get('registrar', '/api/pathology/lists?page_size=500');
    expect(list.status, list.body.toString()).toBe(200);
    const cases = (list.json().data.data as Record<string, unknown>[])
      .map((c) => ({ id: c.id, pathology_number: c.pathology_number, patient_name: c.patient_name, case_status: c.case_status }))
      .sort((a, b) => Number(a.id) - Number(b.id));
    const pdf: Record<string, Buffer> = {};
    for (const lang of ['zh-CN', 'en-US']) {
      const res = await get('signer', `/api/diagnosis/reports/${before.reportId}/pdf`, lang);
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
    return { cases, pdf, tiles, thumb: thumb.body };
  };

  /** Cases in the restored database, read from it directly. */
  const restoredCaseCount = async () => {
    if (installation.target.DATABASE_URL) {
      const c = new pg.Client({ connectionString: installation.target.DATABASE_URL });
      await c.connect();
      try {
        return Number((await c.query('select count(*) as n from cases')).rows[0].n);
      } finally {
        await c.end();
      }
    }
    const db = new Sqlite(path.join(restoredDir, 'dsms.sqlite'), { readonly: true });
    try {
      return (db.prepare('select count(*) as n from cases').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    installation = await make();
    source = await startAppProcess(installation.source);
  });
  afterAll(async () => {
    await source?.cleanup();
    await restored?.cleanup();
    await installation?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('backs up the running app (writing all the while) and restores into a fresh installation that serves the same', async () => {
    const app = source!;
    const { send, primaryId } = await sessions(app);
    // A case with a signed report, and what the app serves of it and of a demo slide.
    before.caseId = await caseAtFirstDiagnosis(send, primaryId, { patient_name: '备份测试', gender: 'female', age: 47, age_unit: 'year' });
    let report = await send('primary', 'POST', `/api/diagnosis/${before.caseId}/reports`, { report_type: 1, gross_description: '灰白组织一块', diagnosis: '（胃窦）慢性浅表性胃炎' }) as { id: number; version: number; verify_code?: string };
    for (const [who, action] of [['primary', 'submit'], ['auditor', 'approve'], ['signer', 'sign']] as const) {
      report = await send(who, 'POST', `/api/diagnosis/reports/${report.id}/actions/${action}`, { version: report.version, ...(action === 'sign' ? { issue: 'now' } : {}) }) as typeof report;
    }
    before.reportId = report.id;
    before.verifyCode = report.verify_code!;
    Object.assign(before, await served(app));
    expect(before.cases.some((c) => (c as { id: number }).id === before.caseId)).toBe(true);

    // The backup runs while a registrar keeps registering cases.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing && written < 100) {
        await send('registrar', 'POST', '/api/pathology/register', { patient_name: `并发${written}`, gender: 'male', age: 30, age_unit: 'year', specimens: [{ name: '活检', fixative: '10% NBF' }] });
        written++;
      }
    })();
    const backup = await npmRun('backup', [backupDir], { ...installation.source, DATA_DIR: app.dataDir });
    writing = false;
    await writer;
    expect(backup.stderr).toBe('');
    expect(backup.code, backup.stdout).toBe(0);
    expect(backup.stdout).toContain('backup finished');
    expect(written).toBeGreaterThan(0);

    manifest = parseManifest(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'));
    expect(manifest.database.kind).toBe(installation.source.DATABASE_URL ? 'postgres' : 'sqlite');
    expect(manifest.database.counts.report_documents).toBeGreaterThanOrEqual(1);
    expect(manifest.database.counts.cases).toBeGreaterThanOrEqual(before.cases.length);
    expect(manifest.missing).toEqual([]);
    expect(manifest.secrets_key).toMatchObject({ included: true, source: 'data-dir' });
    const slideFiles = (installation.source.STORAGE_URL ? manifest.objects!.items : manifest.files).map((f) => f.path);
    expect(slideFiles).toEqual(expect.arrayContaining(['slides/demo/demo-1.tiff', 'slides/demo/demo-4.kfb']));
    if (installation.source.STORAGE_URL) expect(manifest.objects!.url).toBe(installation.source.STORAGE_URL);
    else expect(manifest.objects).toBeNull();
    if (!installation.source.DATABASE_URL) {
      // The SQLite copy is whole (not a WAL caught half-way) and holds what the manifest counted.
      const copy = new Sqlite(path.join(backupDir, 'database/dsms.sqlite'), { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect((copy.prepare('select count(*) as n from cases').get() as { n: number }).n).toBe(manifest.database.counts.cases);
      copy.close();
    }
    await source!.stop();

    const restore = await npmRun('restore', [backupDir], { ...installation.target, DATA_DIR: restoredDir });
    expect(restore.stderr).toBe('');
    expect(restore.code, restore.stdout).toBe(0);
    expect(restore.stdout).toContain(`verify: ${1 + manifest.files.length + (manifest.objects?.items.length ?? 0)} files match the manifest`);
    expect(fs.readFileSync(path.join(restoredDir, 'secrets.key'), 'utf8')).toBe(fs.readFileSync(path.join(app.dataDir, 'secrets.key'), 'utf8'));

    restored = await startAppProcess({ ...installation.target, DATA_DIR: restoredDir });
    const after = await served(restored);
    // The restored database holds what the manifest counted: the snapshot's cases, those registered during it included.
    expect(await restoredCaseCount()).toBe(manifest.database.counts.cases);
    expect(after.cases.slice(0, before.cases.length)).toEqual(before.cases);
    for (const lang of ['zh-CN', 'en-US']) expect(sha256(after.pdf[lang]!), lang).toBe(sha256(before.pdf[lang]!));
    for (const tile of Object.keys(before.tiles)) expect(sha256(after.tiles[tile]!), tile).toBe(sha256(before.tiles[tile]!));
    expect(after.thumb.length).toBeGreaterThan(0);
    expect(sha256(after.thumb)).toBe(sha256(before.thumb));
    // The signed document is still the one the seal names: the verification page says so.
    const verified = await request(restored.base, 'GET', `/api/reports/verify/${before.verifyCode}`);
    expect(verified.status, verified.body.toString()).toBe(200);
    expect(verified.body.toString()).toContain('data-genuine="true"');
  });

  it('refuses to restore over what is there, or from a damaged backup, and then writes nothing', async () => {
    const again = await npmRun('restore', [backupDir], { ...installation.target, DATA_DIR: restoredDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('nothing restored');
    expect(again.stderr).toContain(`the data directory ${restoredDir} is not empty`);

    // One byte of a slide changed: verify names it; a restore stops before writing anything.
    const item = (manifest.objects?.items ?? manifest.files).find((f) => f.path === 'slides/demo/demo-1.tiff')!;
    const file = path.join(backupDir, manifest.objects ? 'objects' : 'files', item.path);
    const original = fs.readFileSync(file);
    const damaged = Buffer.from(original);
    damaged[1000] ^= 0xff;
    fs.writeFileSync(file, damaged);
    try {
      const verify = await npmRun('backup:verify', [backupDir], {});
      expect(verify.code).toBe(1);
      expect(verify.stderr).toContain(`${manifest.objects ? 'objects' : 'files'}/slides/demo/demo-1.tiff: checksum differs from the manifest's`);
      const fresh = path.join(work, 'fresh');
      const refused = await npmRun('restore', [backupDir], { ...installation.target, DATA_DIR: fresh });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('the backup is damaged, nothing restored');
      expect(fs.existsSync(fresh)).toBe(false);
    } finally {
      fs.writeFileSync(file, original);
    }

    // Another key than the backup's would leave its sealed secrets unreadable: refused.
    const otherKey = await npmRun('restore', [backupDir], { ...installation.target, DATA_DIR: path.join(work, 'other-key'), SECRETS_KEY: randomBytes(32).toString('hex') });
    expect(otherKey.code).toBe(1);
    expect(otherKey.stderr).toContain('SECRETS_KEY is not the key this backup');
  });

  it.runIf(name === 'SQLite, data directory')('a backup without its key restores only with the key given, and only that key', async () => {
    const app = restored!;
    const bare = path.join(work, 'without-key');
    const backup = await npmRun('backup', [bare, '--without-key'], { DATA_DIR: app.dataDir });
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('secrets key: NOT in the backup');
    expect(fs.existsSync(path.join(bare, 'secrets.key'))).toBe(false);
    expect(parseManifest(fs.readFileSync(path.join(bare, 'manifest.json'), 'utf8')).secrets_key.included).toBe(false);

    const keyless = await npmRun('restore', [bare], { DATA_DIR: path.join(work, 'keyless') });
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toContain('the backup was made without its secrets key: give it with --key-file <file> or SECRETS_KEY');
    const wrongKey = path.join(work, 'wrong.key');
    fs.writeFileSync(wrongKey, randomBytes(32).toString('hex'));
    const wrong = await npmRun('restore', [bare, '--key-file', wrongKey], { DATA_DIR: path.join(work, 'keyless') });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`${wrongKey} is not the key this backup's secrets were sealed with`);
    expect(fs.existsSync(path.join(work, 'keyless'))).toBe(false);

    const keyFile = path.join(app.dataDir, 'secrets.key');
    const given = await npmRun('restore', [bare, '--key-file', keyFile], { DATA_DIR: path.join(work, 'keyed') });
    expect(given.code, given.stderr).toBe(0);
    expect(fs.readFileSync(path.join(work, 'keyed', 'secrets.key'), 'utf8')).toBe(fs.readFileSync(keyFile, 'utf8'));
    expect(fs.existsSync(path.join(work, 'keyed', 'dsms.sqlite'))).toBe(true);
  });
});
