import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifest, type Manifest } from '../../server/backup/manifest.js';
import { caseAtFirstDiagnosis } from '../api/diagnosis-setup.js';
import { request } from '../api/server-process.js';
import { startAppProcess, type AppProcess } from './app-process.js';
import { AREA, bindAreaSlide, installations, npmRun, restoredRow as restoredRowOf, ROOT, served, sessions, sha256, type Installation } from './backup-support.js';

/**
 * Issue 29: a backup of a running installation, restored into a fresh one, serves the same cases, signed report and
 * tile bytes. The app is the built one, as `npm start` runs it (two workers); backup and restore are the npm scripts
 * users run (scripts/backup.ts), with the installation's environment. While the backup runs, the app keeps
 * registering cases; the restored database must be whole and hold what its manifest counted.
 * Three installations: SQLite with the data directory; PostgreSQL (TEST_DATABASE_URL: a database made for the
 * source and one for the restore, dropped after); SQLite with slides on S3 (s3rver: restored under another prefix).
 * Each has a hospital area (issue 29) with a slide bound into it: on a directory of its own in the first two, under a
 * prefix of the bucket in the third. The first restores it where the database names it (the source machine's copy
 * gone, as after losing that machine); the others move it on restore (`--area`, by code and by id) to another
 * directory or prefix, which the restored database then names.
 * The installations and the helpers are in backup-support.ts. The refusals and the key cases stay in this file: they
 * use the first test's backup and restore, and a file of their own would make its own backup of each installation.
 */
describe.each(installations.filter(([, on]) => on).map(([name, , make]) => [name, make] as const))('backup and restore: %s', (name, make) => {
  let installation: Installation;
  let source: AppProcess | undefined;
  let restored: AppProcess | undefined;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-backup-test-'));
  const backupDir = path.join(work, 'backup');
  const restoredDir = path.join(work, 'restored');
  let manifest: Manifest;

  /** What the first installation served, to compare the restored one's answers with. */
  const before = {
    cases: [] as unknown[], caseId: 0, reportId: 0, verifyCode: '', pdf: {} as Record<string, Buffer>, tiles: {} as Record<string, Buffer>, thumb: Buffer.alloc(0),
    areaSlide: { id: 0, slideId: 0, filePath: '' }, area: { tiles: {} as Record<string, Buffer>, thumb: Buffer.alloc(0) },
  };

  /** The first row of a query of the restored database. */
  const restoredRow = (sql: string) => restoredRowOf(installation.target.DATABASE_URL, restoredDir, sql);
  /** The --area arguments of the restore, when the installation moves its area. */
  const areaMove = () => {
    const { moveTo, byId } = installation.area(work);
    return moveTo ? ['--area', `${byId ? before.areaSlide.id : AREA}=${moveTo}`] : [];
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
    const session = await sessions(app);
    const { send, primaryId } = session;
    Object.assign(before.areaSlide, await bindAreaSlide(app, session, installation.area(work).at));
    // A case with a signed report, and what the app serves of it and of a demo slide.
    before.caseId = await caseAtFirstDiagnosis(send, primaryId, { patient_name: '备份测试', gender: 'female', age: 47, age_unit: 'year' });
    let report = await send('primary', 'POST', `/api/diagnosis/${before.caseId}/reports`, { report_type: 1, gross_description: '灰白组织一块', diagnosis: '（胃窦）慢性浅表性胃炎' }) as { id: number; version: number; verify_code?: string };
    for (const [who, action] of [['primary', 'submit'], ['auditor', 'approve'], ['signer', 'sign']] as const) {
      report = await send(who, 'POST', `/api/diagnosis/reports/${report.id}/actions/${action}`, { version: report.version, ...(action === 'sign' ? { issue: 'now' } : {}) }) as typeof report;
    }
    before.reportId = report.id;
    before.verifyCode = report.verify_code!;
    Object.assign(before, await served(app, { reportId: before.reportId, areaSlideId: before.areaSlide.slideId }));
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
    // The area's storage is in the backup, under areas/<id>/, and not among the default storage's files.
    expect(manifest.areas).toEqual([{ id: before.areaSlide.id, code: AREA, storage_url: installation.area(work).at, items: expect.any(Array) }]);
    expect(manifest.areas[0]!.items.map((f) => f.path)).toEqual(expect.arrayContaining([before.areaSlide.filePath, `slides/thumbs/${before.areaSlide.slideId}.jpg`]));
    expect(fs.readFileSync(path.join(backupDir, 'areas', String(before.areaSlide.id), before.areaSlide.filePath)).equals(fs.readFileSync(path.join(ROOT, 'dist-server/demo-slides/demo-2.tiff')))).toBe(true);
    expect(slideFiles.some((p) => p.startsWith('slides/areas/'))).toBe(false);
    if (!installation.source.DATABASE_URL) {
      // The SQLite copy is whole (not a WAL caught half-way) and holds what the manifest counted.
      const copy = new Sqlite(path.join(backupDir, 'database/dsms.sqlite'), { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect((copy.prepare('select count(*) as n from cases').get() as { n: number }).n).toBe(manifest.database.counts.cases);
      copy.close();
    }
    await source!.stop();
    // Restored where the database names it: the source machine's copy is gone, as the machine would be.
    const area = installation.area(work);
    if (!area.moveTo) fs.rmSync(area.at, { recursive: true });

    const restore = await npmRun('restore', [backupDir, ...areaMove()], { ...installation.target, DATA_DIR: restoredDir });
    expect(restore.stderr).toBe('');
    expect(restore.code, restore.stdout).toBe(0);
    const areaItems = manifest.areas[0]!.items.length;
    expect(restore.stdout).toContain(`verify: ${1 + manifest.files.length + (manifest.objects?.items.length ?? 0) + areaItems} files match the manifest`);
    expect(restore.stdout).toContain(`areas/${before.areaSlide.id}: ${areaItems} into hospital area ${AREA} (${area.moveTo ?? area.at})`);
    expect((await restoredRow(`select storage_url from hospital_areas where id = ${before.areaSlide.id}`)).storage_url).toBe(area.moveTo ?? area.at);
    if (!area.moveTo) expect(fs.readFileSync(path.join(area.at, before.areaSlide.filePath)).equals(fs.readFileSync(path.join(backupDir, 'areas', String(before.areaSlide.id), before.areaSlide.filePath)))).toBe(true);
    expect(fs.readFileSync(path.join(restoredDir, 'secrets.key'), 'utf8')).toBe(fs.readFileSync(path.join(app.dataDir, 'secrets.key'), 'utf8'));

    restored = await startAppProcess({ ...installation.target, DATA_DIR: restoredDir });
    const after = await served(restored, { reportId: before.reportId, areaSlideId: before.areaSlide.slideId });
    // The restored database holds what the manifest counted: the snapshot's cases, those registered during it included.
    expect(Number((await restoredRow('select count(*) as n from cases')).n)).toBe(manifest.database.counts.cases);
    expect(after.cases.slice(0, before.cases.length)).toEqual(before.cases);
    for (const lang of ['zh-CN', 'en-US']) expect(sha256(after.pdf[lang]!), lang).toBe(sha256(before.pdf[lang]!));
    for (const tile of Object.keys(before.tiles)) expect(sha256(after.tiles[tile]!), tile).toBe(sha256(before.tiles[tile]!));
    expect(after.thumb.length).toBeGreaterThan(0);
    expect(sha256(after.thumb)).toBe(sha256(before.thumb));
    // The area slide is served the same, from the area's storage where the restore put it.
    for (const tile of Object.keys(before.area.tiles)) expect(sha256(after.area.tiles[tile]!), `area ${tile}`).toBe(sha256(before.area.tiles[tile]!));
    expect(sha256(after.area.thumb)).toBe(sha256(before.area.thumb));
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
    // The area's location as the backup names it holds the area's files (restored there, or the source's own).
    expect(again.stderr).toContain(`hospital area ${AREA}: ${installation.area(work).at} is not empty`);

    // One byte of a slide changed, and of the area's slide: verify names both; a restore stops before writing anything.
    const damagedFiles = [
      `${manifest.objects ? 'objects' : 'files'}/slides/demo/demo-1.tiff`,
      `areas/${before.areaSlide.id}/${before.areaSlide.filePath}`,
    ];
    const originals = damagedFiles.map((name) => fs.readFileSync(path.join(backupDir, name)));
    damagedFiles.forEach((name, i) => {
      const damaged = Buffer.from(originals[i]!);
      damaged[1000] ^= 0xff;
      fs.writeFileSync(path.join(backupDir, name), damaged);
    });
    try {
      const verify = await npmRun('backup:verify', [backupDir], {});
      expect(verify.code).toBe(1);
      for (const name of damagedFiles) expect(verify.stderr).toContain(`${name}: checksum differs from the manifest's`);
      const fresh = path.join(work, 'fresh');
      const refused = await npmRun('restore', [backupDir], { ...installation.target, DATA_DIR: fresh });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('the backup is damaged, nothing restored');
      expect(fs.existsSync(fresh)).toBe(false);
    } finally {
      damagedFiles.forEach((name, i) => fs.writeFileSync(path.join(backupDir, name), originals[i]!));
    }

    // Another key than the backup's would leave its sealed secrets unreadable: refused.
    const otherKey = await npmRun('restore', [backupDir], { ...installation.target, DATA_DIR: path.join(work, 'other-key'), SECRETS_KEY: randomBytes(32).toString('hex') });
    expect(otherKey.code).toBe(1);
    expect(otherKey.stderr).toContain('SECRETS_KEY is not the key this backup');
  });

  it.runIf(name === 'SQLite, data directory')('a backup without its key restores only with the key given, and only that key', async () => {
    const app = restored!;
    const bare = path.join(work, 'without-key');
    // The area slide's file is gone from the area's directory: the backup names it missing and exits 3.
    const areaFile = `areas/${before.areaSlide.id}/${before.areaSlide.filePath}`;
    fs.rmSync(path.join(installation.area(work).at, before.areaSlide.filePath));
    const backup = await npmRun('backup', [bare, '--without-key'], { DATA_DIR: app.dataDir });
    expect(backup.code, backup.stderr).toBe(3);
    expect(backup.stdout).toContain(`missing: ${areaFile} (named by the database, not there to copy)`);
    expect(parseManifest(fs.readFileSync(path.join(bare, 'manifest.json'), 'utf8')).missing).toEqual([areaFile]);
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
    // Where to move an area is checked by the app's own rules, every wrong --area named at once.
    const badMoves = await npmRun('restore', [bare, '--key-file', keyFile, '--area', 'NORTH=/srv/north', '--area', `${AREA}=relative/east`], { DATA_DIR: path.join(work, 'keyed') });
    expect(badMoves.code).toBe(1);
    expect(badMoves.stderr).toContain(`--area NORTH=/srv/north: the backup has no hospital area NORTH (its areas: ${before.areaSlide.id} ${AREA})`);
    expect(badMoves.stderr).toContain(`--area ${AREA}=relative/east: The storage directory must be an absolute path`);
    expect(fs.existsSync(path.join(work, 'keyed'))).toBe(false);
    const keyedArea = path.join(work, 'keyed-area');
    const given = await npmRun('restore', [bare, '--key-file', keyFile, '--area', `${AREA}=${keyedArea}`], { DATA_DIR: path.join(work, 'keyed') });
    expect(given.code, given.stderr).toBe(0);
    expect(fs.existsSync(path.join(keyedArea, `slides/thumbs/${before.areaSlide.slideId}.jpg`))).toBe(true);
    expect(fs.readFileSync(path.join(work, 'keyed', 'secrets.key'), 'utf8')).toBe(fs.readFileSync(keyFile, 'utf8'));
    expect(fs.existsSync(path.join(work, 'keyed', 'dsms.sqlite'))).toBe(true);
  });
});
