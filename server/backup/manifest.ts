import { createHash } from 'node:crypto';
import { parseAreaStorage } from '../../src/core/hospitalArea.js';
import { isSafeKey } from '../storage/storage-key.js';

/**
 * What a backup holds (`manifest.json`, written last: a folder without it is an unfinished backup) and the rules a
 * restore checks it by. Pure: the backup and restore steps (backup.ts, restore.ts) do the reading and writing.
 *
 * A backup folder:
 *   manifest.json
 *   database/dsms.sqlite   (SQLite, VACUUM INTO)  or  database/dsms.pgdump  (PostgreSQL, pg_dump -Fc)
 *   files/<path>           the data directory's files (slides/, uploads/complete/, uploads/attachments/, outbox/, …)
 *   objects/<key>          with STORAGE_URL=s3://…: every object under the prefix
 *   areas/<id>/<path>      each hospital area's storage (a directory or a bucket prefix): every file or object
 *   secrets.key            the key stored secrets are sealed with, unless made with --without-key
 *
 * Format 2 added `areas`. A backup of format 1 (made before areas were backed up) reads as one without areas; a
 * release that knows only format 1 refuses a format 2 backup rather than restore it without its areas' slides.
 */
export const MANIFEST_FORMAT = 'dsms-backup/2';
const FORMATS_READ = ['dsms-backup/1', MANIFEST_FORMAT];

export interface CopiedFile { path: string; size: number; sha256: string }

/** One hospital area's storage as backed up, under areas/<id>/. */
export interface AreaCopy {
  id: number;
  code: string;
  /** Where the area's files were, as its database row named it (hospital_areas.storage_url). */
  storage_url: string;
  items: CopiedFile[];
}

export interface Manifest {
  format: string;
  created_at: string;
  app: { version: string; node: string };
  database: {
    kind: 'sqlite' | 'postgres';
    /** Relative to the backup folder. */
    file: string;
    size: number;
    sha256: string;
    /** The last migration the database had run: a restore needs a release that knows it. */
    migration: string;
    /** Rows of the tables a person checks a restore by, as the snapshot held them. */
    counts: Record<string, number>;
    /** PostgreSQL: the pg_dump that wrote the dump and the server it read (pg_restore must be as new as the dump's pg_dump). */
    pg_dump?: string;
    server_version?: string;
  };
  /** The data directory's files, under files/. */
  files: CopiedFile[];
  /** STORAGE_URL=s3://…: where the objects came from and each one, under objects/. */
  objects: { url: string; items: CopiedFile[] } | null;
  /** Every hospital area of the database, with the files or objects of its storage, under areas/<id>/. */
  areas: AreaCopy[];
  /**
   * Files and objects the database names that were not there to copy (a restore serves a 404 for them); those of an
   * area's storage as `areas/<id>/<path>`.
   */
  missing: string[];
  secrets_key: {
    /** secrets.key is in the backup; otherwise a restore needs the key given (SECRETS_KEY or --key-file). */
    included: boolean;
    /** Where the running installation had it: SECRETS_KEY, or secrets.key in the data directory. */
    source: 'SECRETS_KEY' | 'data-dir';
    /** SHA-256 of the 32 key bytes, for telling the right key from another; it does not reveal the key. */
    fingerprint: string;
  };
}

export const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The key's fingerprint, from its 32 bytes. */
export const keyFingerprint = (key: Buffer) => sha256Hex(key);

/**
 * The data directory's entries a backup leaves out: the database (copied through SQLite's own snapshot, never as raw
 * WAL files), the key (copied on its own, or not), uploads in progress (chunks and attachments being received are
 * only useful to the browser sending them now), files being written (`.partial`, renamed into place when whole).
 */
export function isLeftOut(relPath: string): boolean {
  const top = relPath.split('/')[0]!;
  if (/^dsms\.sqlite($|-wal$|-shm$|-journal$|\.building)/.test(top)) return true;
  if (top === 'secrets.key' || /^secrets\.key\./.test(top)) return true;
  if (relPath.startsWith('uploads/parts/') || relPath.startsWith('uploads/tmp/')) return true;
  return relPath.endsWith('.partial');
}

/** Paths the database names (slide files, case images, attachments) that are among neither the files nor the objects copied. */
export function missingReferences(referenced: Iterable<string>, present: ReadonlySet<string>): string[] {
  const missing = new Set<string>();
  for (const ref of referenced) {
    // A slide's stored path may be a folder (a DICOM series, a Deep Zoom .dzi's tiles): present when anything under it is.
    if (present.has(ref)) continue;
    const folder = `${ref}/`;
    let found = false;
    for (const p of present) if (p.startsWith(folder)) { found = true; break; }
    if (!found) missing.add(ref);
  }
  return [...missing].sort();
}

/**
 * Whether this release can take a database at `level`: it must know that migration (it runs its later ones at
 * start). A backup of a newer release names a migration it has never heard of.
 */
export function migrationVerdict(level: string, known: readonly string[]): { ok: true } | { ok: false; reason: string } {
  if (known.includes(level)) return { ok: true };
  return { ok: false, reason: `the backup's database is at migration ${level}, which this release does not have (its last is ${known.at(-1) ?? 'none'}): restore it with the release that made it, or a newer one` };
}

class ManifestError extends Error {}
const fail = (what: string): never => { throw new ManifestError(`manifest.json: ${what}`); };
const isHex64 = (v: unknown) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);

function checkFiles(list: unknown, where: string): CopiedFile[] {
  if (!Array.isArray(list)) return fail(`${where} is not a list`);
  const seen = new Set<string>();
  for (const f of list as CopiedFile[]) {
    // The paths become file names and object keys on restore: nothing may lead out of the target.
    if (typeof f?.path !== 'string' || !isSafeKey(f.path)) fail(`${where} holds an unsafe path ${JSON.stringify(f?.path)?.slice(0, 200)}`);
    if (!Number.isSafeInteger(f.size) || f.size < 0) fail(`${where} ${f.path}: size`);
    if (!isHex64(f.sha256)) fail(`${where} ${f.path}: sha256`);
    if (seen.has(f.path)) fail(`${where} names ${f.path} twice`);
    seen.add(f.path);
  }
  return list as CopiedFile[];
}

function checkAreas(list: unknown): void {
  if (!Array.isArray(list)) fail('areas is not a list');
  const ids = new Set<number>();
  for (const a of list as AreaCopy[]) {
    // The id names the folder its items are in (areas/<id>/), the location where a restore writes them.
    if (!Number.isSafeInteger(a?.id) || a.id < 1 || ids.has(a.id)) fail(`areas: id ${JSON.stringify(a?.id)}`);
    ids.add(a.id);
    if (typeof a.code !== 'string' || !a.code || a.code.length > 64) fail(`areas ${a.id}: code`);
    if (typeof a.storage_url !== 'string' || 'error' in parseAreaStorage(a.storage_url)) fail(`areas ${a.id}: storage_url`);
    checkFiles(a.items, `areas ${a.id}`);
  }
}

/** The manifest read back, checked field by field: a restore trusts none of it before this. */
export function parseManifest(text: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    return fail('not JSON');
  }
  if (!FORMATS_READ.includes(m?.format)) fail(`format is ${JSON.stringify(m?.format)}, not one of ${FORMATS_READ.join(', ')}: a backup of a newer release?`);
  const db = m.database;
  if (db?.kind !== 'sqlite' && db?.kind !== 'postgres') fail('database.kind');
  if (db.file !== (db.kind === 'sqlite' ? 'database/dsms.sqlite' : 'database/dsms.pgdump')) fail('database.file');
  if (!Number.isSafeInteger(db.size) || !isHex64(db.sha256)) fail('database size or sha256');
  if (typeof db.migration !== 'string' || !/^[0-9a-z_]{1,100}$/.test(db.migration)) fail('database.migration');
  checkFiles(m.files, 'files');
  if (m.objects !== null) {
    if (typeof m.objects?.url !== 'string' || !m.objects.url.startsWith('s3://')) fail('objects.url');
    checkFiles(m.objects.items, 'objects');
  }
  if (m.format === 'dsms-backup/1') m.areas = [];
  checkAreas(m.areas);
  if (!Array.isArray(m.missing)) fail('missing');
  const key = m.secrets_key;
  if (typeof key?.included !== 'boolean' || !isHex64(key.fingerprint)) fail('secrets_key');
  return m;
}
