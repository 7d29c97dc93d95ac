import fs from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../config.js';
import { appPath } from '../paths.js';
import { parseSecretsKey } from '../security/sealed-secrets.js';
import { LocalStorage } from '../storage/local-storage.js';
import { S3Storage } from '../storage/s3-storage.js';
import { isSafeKey } from '../storage/storage-key.js';
import { areaPrefixesIn, backupArea, localAreaDirs } from './area-copy.js';
import { withoutNested } from './area-rules.js';
import { allObjectKeys, copyHashed, dataDirFiles, hashObject, isEmptyFolder } from './object-copy.js';
import { keyFingerprint, MANIFEST_FORMAT, missingReferences, type CopiedFile, type Manifest } from './manifest.js';
import { dumpPostgres } from './postgres-copy.js';
import { snapshotSqlite, sqliteFacts } from './sqlite-copy.js';

export type Say = (line: string) => void;

export interface BackupOptions {
  /** Leave secrets.key out (keep it elsewhere): a restore then needs it given. */
  withoutKey?: boolean;
}

/** The key in use: SECRETS_KEY, or secrets.key in the data directory (never made here: the app makes it at its first start). */
function currentKey(config: ServerConfig): { key: Buffer; source: Manifest['secrets_key']['source'] } {
  if (config.secrets.key) return { key: parseSecretsKey(config.secrets.key), source: 'SECRETS_KEY' };
  const file = path.join(config.dataDir, 'secrets.key');
  if (!fs.existsSync(file)) throw new Error(`${file} is absent and SECRETS_KEY is not set: is DATA_DIR the app's data directory, and has the app started once?`);
  return { key: parseSecretsKey(fs.readFileSync(file, 'utf8')), source: 'data-dir' };
}

/**
 * Backs up the installation `config` describes (loadConfig: DATA_DIR, DATABASE_URL, STORAGE_URL, SECRETS_KEY) into
 * the empty folder `target`, while the app runs. The database first, as one snapshot; then the files and objects,
 * and those of every hospital area's storage the snapshot names, which are written once and renamed into place, so
 * each is copied whole; whatever the snapshot names is already there (a row is written after its file), unless
 * deleted since: those are reported as missing. manifest.json last.
 */
export async function runBackup(config: ServerConfig, target: string, options: BackupOptions, say: Say): Promise<Manifest> {
  const out = path.resolve(target);
  if (!isEmptyFolder(out)) throw new Error(`${out} is not empty: a backup goes into a new folder`);
  const { key, source } = currentKey(config);
  // Patient data: a new backup folder is its owner's alone (an existing empty one keeps the mode it was given).
  fs.mkdirSync(out, { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.join(out, 'database'));

  const pg = config.databaseUrl?.startsWith('postgres') ? config.databaseUrl : undefined;
  const dbFile = pg ? 'database/dsms.pgdump' : 'database/dsms.sqlite';
  say(`database: ${pg ? 'pg_dump of one snapshot' : 'SQLite VACUUM INTO'} → ${dbFile}`);
  const dumped = pg ? await dumpPostgres(pg, path.join(out, dbFile)) : undefined;
  if (!pg) snapshotSqlite(path.join(config.dataDir, 'dsms.sqlite'), path.join(out, dbFile));
  const facts = dumped ?? await sqliteFacts(path.join(out, dbFile));
  const backupFolder = new LocalStorage(out);
  const dbHash = await hashObject(backupFolder, dbFile);
  say(`database: migration ${facts.migration}, ${Object.entries(facts.counts).map(([t, n]) => `${n} ${t}`).join(', ')}`);

  const dataDir = new LocalStorage(config.dataDir);
  const filesOut = new LocalStorage(path.join(out, 'files'));
  const cacheDir = config.blockCache.dir ? [config.blockCache.dir] : [];
  // An area's directory inside the data directory is copied once, as the area's (under areas/<id>/).
  const { files: names, unsafe } = await dataDirFiles(config.dataDir, [out, ...cacheDir, ...localAreaDirs(facts.areas)]);
  for (const name of unsafe) say(`files: left out ${JSON.stringify(name)}: not a name the app stores`);
  const files: CopiedFile[] = [];
  for (const name of names) {
    const copied = await copyHashed(dataDir, filesOut, name);
    if (copied) files.push(copied);
  }
  say(`files: ${files.length} from ${config.dataDir}, ${megabytes(files)}`);

  let objects: Manifest['objects'] = null;
  if (config.storage.kind === 's3') {
    const { bucket, prefix } = config.storage;
    const bucketStorage = new S3Storage(config.storage);
    const objectsOut = new LocalStorage(path.join(out, 'objects'));
    const items: CopiedFile[] = [];
    const keys = withoutNested(await allObjectKeys(bucketStorage, bucket, prefix), prefix, areaPrefixesIn(facts.areas, bucket));
    for (const objectKey of keys.filter((k) => isSafeKey(k))) {
      const copied = await copyHashed(bucketStorage, objectsOut, objectKey);
      if (copied) items.push(copied);
    }
    bucketStorage.close();
    for (const k of keys.filter((k) => !isSafeKey(k))) say(`objects: left out ${JSON.stringify(k)}: not a name the app stores`);
    objects = { url: `s3://${bucket}${prefix ? `/${prefix}` : ''}`, items };
    say(`objects: ${items.length} from ${objects.url}, ${megabytes(items)}`);
  }

  const areas: Manifest['areas'] = [];
  const areaMissing: string[] = [];
  const context = { out, dataDir: path.resolve(config.dataDir), storage: config.storage, s3: config.s3Connection, skip: cacheDir, areas: facts.areas };
  for (const area of facts.areas) {
    const { copy, missing } = await backupArea(area, context, say);
    areas.push(copy);
    areaMissing.push(...missing);
  }

  const present = new Set([...files, ...(objects?.items ?? [])].map((f) => f.path));
  const missing = [...missingReferences(facts.referenced, present), ...areaMissing];
  for (const m of missing) say(`missing: ${m} (named by the database, not there to copy)`);

  if (!options.withoutKey) fs.writeFileSync(path.join(out, 'secrets.key'), `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  say(options.withoutKey
    ? `secrets key: NOT in the backup (fingerprint ${keyFingerprint(key).slice(0, 16)}…): keep it apart; a restore needs it`
    : 'secrets key: in the backup (secrets.key): keep the backup as safe as the key');

  const pkg = JSON.parse(fs.readFileSync(appPath('package.json'), 'utf8')) as { version: string };
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    created_at: new Date().toISOString(),
    app: { version: pkg.version, node: process.version },
    database: {
      kind: pg ? 'postgres' : 'sqlite', file: dbFile, ...dbHash, migration: facts.migration, counts: facts.counts,
      ...(dumped ? { pg_dump: dumped.pgDump, server_version: dumped.serverVersion } : {}),
    },
    files, objects, areas, missing,
    secrets_key: { included: !options.withoutKey, source, fingerprint: keyFingerprint(key) },
  };
  // Written last and renamed into place: a folder with a manifest is a finished backup.
  fs.writeFileSync(path.join(out, 'manifest.json.partial'), `${JSON.stringify(manifest, null, 1)}\n`);
  fs.renameSync(path.join(out, 'manifest.json.partial'), path.join(out, 'manifest.json'));
  return manifest;
}

const megabytes = (list: CopiedFile[]) => `${(list.reduce((s, f) => s + f.size, 0) / 2 ** 20).toFixed(1)} MiB`;
