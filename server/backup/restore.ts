import fs from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../config.js';
import { parseSecretsKey } from '../security/sealed-secrets.js';
import { LocalStorage } from '../storage/local-storage.js';
import { S3Storage } from '../storage/s3-storage.js';
import { busyAreaTargets, closeAreaTargets, openAreaTargets, restoreAreas } from './area-copy.js';
import { resolveAreaMoves } from './area-rules.js';
import type { Say } from './backup.js';
import { copyHashed, hashObject, hasObjects, isEmptyFolder } from './object-copy.js';
import { keyFingerprint, migrationVerdict, parseManifest, type CopiedFile, type Manifest } from './manifest.js';
import { postgresTableCount, restorePostgres, setAreaLocationsPostgres } from './postgres-copy.js';
import { setAreaLocationsSqlite } from './sqlite-copy.js';

export interface RestoreOptions {
  /** Restore into a data directory, database or bucket prefix that already holds something (the database's tables are dropped first). */
  force?: boolean;
  /** The secrets key file, for a backup made --without-key (or to use instead of the one inside). */
  keyFile?: string;
  /**
   * `<area id or code>=<storage url or absolute directory>`: restore that hospital area's files there instead of
   * where the backup's database names, and record the new location in the restored database.
   */
  areas?: string[];
}

export function readManifest(folder: string): Manifest {
  const file = path.join(folder, 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is absent: not a backup, or one that did not finish`);
  return parseManifest(fs.readFileSync(file, 'utf8'));
}

/** Every file of the backup read through and compared with the manifest: the problems found, none when whole. */
export async function verifyBackup(folder: string, manifest: Manifest, say: Say): Promise<string[]> {
  const problems: string[] = [];
  const check = async (storage: LocalStorage, entry: CopiedFile, where: string) => {
    const got = await hashObject(storage, entry.path).catch(() => null);
    if (!got) problems.push(`${where}${entry.path}: absent`);
    else if (got.sha256 !== entry.sha256 || got.size !== entry.size) problems.push(`${where}${entry.path}: checksum differs from the manifest's`);
  };
  const db = manifest.database;
  await check(new LocalStorage(folder), { path: db.file, size: db.size, sha256: db.sha256 }, '');
  for (const f of manifest.files) await check(new LocalStorage(path.join(folder, 'files')), f, 'files/');
  for (const o of manifest.objects?.items ?? []) await check(new LocalStorage(path.join(folder, 'objects')), o, 'objects/');
  for (const area of manifest.areas) {
    const items = new LocalStorage(path.join(folder, 'areas', String(area.id)));
    for (const f of area.items) await check(items, f, `areas/${area.id}/`);
  }
  if (manifest.secrets_key.included) {
    const key = readKeyFile(path.join(folder, 'secrets.key'));
    if (!key) problems.push('secrets.key: absent or not a key');
    else if (keyFingerprint(key) !== manifest.secrets_key.fingerprint) problems.push("secrets.key: not the key the manifest's fingerprint names");
  }
  const count = 1 + manifest.files.length + (manifest.objects?.items.length ?? 0) + manifest.areas.reduce((n, a) => n + a.items.length, 0);
  say(problems.length ? `verify: ${problems.length} of ${count} files wrong` : `verify: ${count} files match the manifest`);
  return problems;
}

function readKeyFile(file: string): Buffer | null {
  try {
    return parseSecretsKey(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The key the restored installation will open its secrets with, and whether it goes into the data directory:
 * the key of --key-file or the backup's secrets.key (written as DATA_DIR/secrets.key), unless SECRETS_KEY is set
 * (it then is the key). Whichever, it must be the key the backup's secrets were sealed with: another one would
 * leave them unreadable.
 */
function chooseKey(config: ServerConfig, folder: string, manifest: Manifest, options: RestoreOptions): { write?: Buffer } {
  const fingerprint = manifest.secrets_key.fingerprint;
  const wrong = (what: string) => new Error(`${what} is not the key this backup's secrets were sealed with (fingerprint ${fingerprint.slice(0, 16)}…): its stored secrets would be unreadable`);
  if (config.secrets.key) {
    if (keyFingerprint(parseSecretsKey(config.secrets.key)) !== fingerprint) throw wrong('SECRETS_KEY');
    return {};
  }
  const file = options.keyFile ?? (manifest.secrets_key.included ? path.join(folder, 'secrets.key') : undefined);
  if (!file) throw new Error('the backup was made without its secrets key: give it with --key-file <file> or SECRETS_KEY');
  const key = readKeyFile(file);
  if (!key) throw new Error(`${file} is not a secrets key (64 hex characters or base64 of 32 bytes)`);
  if (keyFingerprint(key) !== fingerprint) throw wrong(file);
  return { write: key };
}

/**
 * Restores `folder` into the installation `config` describes, with the app stopped: checks the whole backup first
 * (checksums, migration level, database kind, key, the `--area` moves), then that each target is empty (unless
 * forced), the hospital areas' locations included, and only then writes: the key, the database (with the moved
 * areas' new locations), the files, the objects, the areas' files, each file checked again as it is written.
 */
export async function runRestore(config: ServerConfig, folder: string, options: RestoreOptions, say: Say): Promise<Manifest> {
  const dir = path.resolve(folder);
  const manifest = readManifest(dir);
  const problems = await verifyBackup(dir, manifest, say);
  if (problems.length) throw new Error(`the backup is damaged, nothing restored:\n  ${problems.join('\n  ')}`);
  // The migrations load only here: a backup and a verify never need them (they are most of this tool's start).
  const { REGISTRY } = await import('../db/migrations/index.js');
  const verdict = migrationVerdict(manifest.database.migration, REGISTRY.map(([name]) => name));
  if (!verdict.ok) throw new Error(verdict.reason);
  const pg = config.databaseUrl?.startsWith('postgres') ? config.databaseUrl : undefined;
  if ((manifest.database.kind === 'postgres') !== !!pg) {
    throw new Error(`the backup holds a ${manifest.database.kind} database, the target is ${pg ? 'PostgreSQL (DATABASE_URL)' : 'SQLite (DATABASE_URL unset)'}`);
  }
  if (!!manifest.objects !== (config.storage.kind === 's3')) {
    throw new Error(`the backup's slide storage is ${manifest.objects ? manifest.objects.url : 'the data directory'}, the target's ${config.storage.kind === 's3' ? 'STORAGE_URL' : 'the data directory (STORAGE_URL unset)'}: restore into the same kind`);
  }
  const key = chooseKey(config, dir, manifest, options);
  const resolved = resolveAreaMoves(options.areas ?? [], manifest.areas);
  if ('errors' in resolved) throw new Error(`nothing restored:\n  ${resolved.errors.join('\n  ')}`);
  const { moves } = resolved;

  const areaTargets = openAreaTargets(manifest.areas, moves, config.s3Connection);
  const bucket = config.storage.kind === 's3' ? new S3Storage(config.storage) : undefined;
  try {
    if (!options.force) {
      const busy: string[] = [];
      if (!isEmptyFolder(config.dataDir)) busy.push(`the data directory ${config.dataDir} is not empty`);
      if (pg && await postgresTableCount(pg) > 0) busy.push('the database (DATABASE_URL) has tables');
      if (bucket && config.storage.kind === 's3') {
        if (await hasObjects(bucket, config.storage.bucket, config.storage.prefix)) busy.push(`the bucket prefix ${config.storage.bucket}/${config.storage.prefix} holds objects`);
      }
      busy.push(...await busyAreaTargets(areaTargets));
      if (busy.length) throw new Error(`nothing restored: ${busy.join('; ')} (--force restores over it)`);
    }

    fs.mkdirSync(config.dataDir, { recursive: true });
    if (key.write) fs.writeFileSync(path.join(config.dataDir, 'secrets.key'), `${key.write.toString('hex')}\n`, { mode: 0o600 });
    say(key.write ? 'secrets key: written to the data directory (secrets.key)' : 'secrets key: SECRETS_KEY matches the backup');

    const backup = new LocalStorage(dir);
    const dataDir = new LocalStorage(config.dataDir);
    const db = manifest.database;
    if (pg) {
      await restorePostgres(pg, path.join(dir, db.file), !!options.force);
    } else {
      // A WAL or journal left beside the file by another database would be applied to this one.
      for (const stale of ['dsms.sqlite-wal', 'dsms.sqlite-shm', 'dsms.sqlite-journal']) fs.rmSync(path.join(config.dataDir, stale), { force: true });
      await copyHashed(backup, dataDir, db.file, db, 'dsms.sqlite');
    }
    say(`database: restored at migration ${db.migration} (the app runs its later migrations at start)`);
    if (moves.size) {
      if (pg) await setAreaLocationsPostgres(pg, moves);
      else setAreaLocationsSqlite(path.join(config.dataDir, 'dsms.sqlite'), moves);
      for (const { area, store } of areaTargets) if (moves.has(area.id)) say(`hospital area ${area.code}: moved from ${area.storage_url} to ${store.url}`);
    }

    const files = new LocalStorage(path.join(dir, 'files'));
    for (const f of manifest.files) await copyHashed(files, dataDir, f.path, f);
    say(`files: ${manifest.files.length} into ${config.dataDir}`);
    if (bucket && manifest.objects) {
      const objects = new LocalStorage(path.join(dir, 'objects'));
      for (const o of manifest.objects.items) await copyHashed(objects, bucket, o.path, o);
      say(`objects: ${manifest.objects.items.length} into the bucket`);
    }
    await restoreAreas(dir, areaTargets, say);
    if (manifest.missing.length) say(`missing: ${manifest.missing.length} files the database names were not in the backup (listed in manifest.json)`);
    return manifest;
  } finally {
    bucket?.close();
    closeAreaTargets(areaTargets);
  }
}
