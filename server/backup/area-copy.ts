import fs from 'node:fs';
import path from 'node:path';
import { parseAreaStorage, type AreaStorageLocation } from '../../src/core/hospitalArea.js';
import { LocalStorage } from '../storage/local-storage.js';
import { S3Storage } from '../storage/s3-storage.js';
import type { S3Connection, StorageConfig } from '../storage/storage-url.js';
import type { Storage } from '../storage/storage.js';
import { isSafeKey } from '../storage/storage-key.js';
import type { Say } from './backup.js';
import { areaItemName, withoutNested, type AreaRef } from './area-rules.js';
import { missingReferences, type AreaCopy, type CopiedFile } from './manifest.js';
import { allObjectKeys, copyHashed, dataDirFiles, hasObjects, isEmptyFolder } from './object-copy.js';

/**
 * The storages of the hospital areas (issue 29) in a backup and a restore: each area's directory or bucket prefix
 * copied file by file into the backup folder's areas/<id>/, as the data directory is into files/ and STORAGE_URL's
 * objects into objects/ (the same copyHashed), and back into the area's location, or the one `--area` moved it to.
 */

/** An area's location opened for copying: its storage, and what it holds. */
interface AreaStore {
  url: string;
  location: AreaStorageLocation;
  storage: Storage;
  close(): void;
}

function openStore(area: AreaRef, url: string, s3: S3Connection): AreaStore {
  const location = parseAreaStorage(url);
  if ('error' in location) throw new Error(`hospital area ${area.code}: the storage location "${url}" is not valid (${location.error})`);
  const storage = location.kind === 'local' ? new LocalStorage(location.dir) : new S3Storage({ ...s3, bucket: location.bucket, prefix: location.prefix });
  return { url, location, storage, close: () => storage.close() };
}

/** What the backup copies around the areas: where it writes, and the installation's other storages. */
export interface AreaBackupContext {
  out: string;
  dataDir: string;
  storage: StorageConfig;
  s3: S3Connection;
  /** Local folders that are not slides (the S3 block cache). */
  skip: string[];
  /** Every area's location, so an area nested inside another storage is copied once, with itself. */
  areas: AreaRef[];
}

const locations = (areas: readonly AreaRef[]): AreaStorageLocation[] =>
  areas.map((a) => parseAreaStorage(a.storage_url)).filter((l): l is AreaStorageLocation => !('error' in l));

/** The local directories of the areas: the data directory's walk leaves those inside it to their areas. */
export const localAreaDirs = (areas: readonly AreaRef[]): string[] => locations(areas).flatMap((l) => (l.kind === 'local' ? [l.dir] : []));

/** The prefixes of the areas in `bucket`: a listing of STORAGE_URL's or another area's prefix leaves those inside it out. */
export const areaPrefixesIn = (areas: readonly AreaRef[], bucket: string): string[] =>
  locations(areas).flatMap((l) => (l.kind === 's3' && l.bucket === bucket ? [l.prefix] : []));

/**
 * Every file or object of one area's storage into `out/areas/<id>/`, each hashed as copied; names no storage key may
 * have are reported and left out. A directory that is absent holds nothing (its slides are then reported missing); a
 * bucket that cannot be listed fails the backup, naming the area.
 */
export async function backupArea(area: AreaRef & { referenced: string[] }, ctx: AreaBackupContext, say: Say): Promise<{ copy: AreaCopy; missing: string[] }> {
  const store = openStore(area, area.storage_url, ctx.s3);
  const where = `hospital area ${area.code} (${area.storage_url})`;
  try {
    let keys: string[];
    let unsafe: string[];
    if (store.location.kind === 'local') {
      const { dir } = store.location;
      if (!fs.existsSync(dir)) say(`areas/${area.id}: ${where}: the directory is absent`);
      const others = localAreaDirs(ctx.areas).filter((d) => d !== dir);
      ({ files: keys, unsafe } = await dataDirFiles(dir, [ctx.out, ctx.dataDir, ...ctx.skip, ...others]));
    } else {
      const { bucket, prefix } = store.location;
      const listed = await allObjectKeys(store.storage as S3Storage, bucket, prefix).catch((err: unknown) => {
        throw new Error(`${where}: cannot list its objects: ${err instanceof Error ? err.message : String(err)}`);
      });
      const inner = [...areaPrefixesIn(ctx.areas, bucket), ...(ctx.storage.kind === 's3' && ctx.storage.bucket === bucket ? [ctx.storage.prefix] : [])];
      const all = withoutNested(listed, prefix, inner);
      keys = all.filter((k) => isSafeKey(k));
      unsafe = all.filter((k) => !isSafeKey(k));
    }
    for (const name of unsafe) say(`areas/${area.id}: left out ${JSON.stringify(name)}: not a name the app stores`);
    const target = new LocalStorage(path.join(ctx.out, 'areas', String(area.id)));
    const items: CopiedFile[] = [];
    for (const key of keys) {
      const copied = await copyHashed(store.storage, target, key);
      if (copied) items.push(copied);
    }
    say(`areas/${area.id}: ${items.length} from ${where}, ${(items.reduce((s, f) => s + f.size, 0) / 2 ** 20).toFixed(1)} MiB`);
    const missing = missingReferences(area.referenced, new Set(items.map((f) => f.path))).map((p) => areaItemName(area.id, p));
    return { copy: { id: area.id, code: area.code, storage_url: area.storage_url, items }, missing };
  } finally {
    store.close();
  }
}

/** Where a restore writes one area's items: its location in the backup's database, or the one `--area` gave. */
export interface AreaTarget { area: AreaCopy; store: AreaStore }

export function openAreaTargets(areas: readonly AreaCopy[], moves: ReadonlyMap<number, string>, s3: S3Connection): AreaTarget[] {
  return areas.map((area) => ({ area, store: openStore(area, moves.get(area.id) ?? area.storage_url, s3) }));
}

export const closeAreaTargets = (targets: readonly AreaTarget[]) => { for (const t of targets) t.store.close(); };

/** The areas whose target location already holds something (a restore goes into empty ones unless forced). */
export async function busyAreaTargets(targets: readonly AreaTarget[]): Promise<string[]> {
  const busy: string[] = [];
  for (const { area, store } of targets) {
    const { location } = store;
    const holds = location.kind === 'local'
      ? !isEmptyFolder(location.dir)
      : await hasObjects(store.storage as S3Storage, location.bucket, location.prefix);
    if (holds) busy.push(`hospital area ${area.code}: ${store.url} is not empty (--area ${area.code}=<location> restores it elsewhere)`);
  }
  return busy;
}

/** Each area's items from `folder/areas/<id>/` into its target, each checked against the manifest as written. */
export async function restoreAreas(folder: string, targets: readonly AreaTarget[], say: Say): Promise<void> {
  for (const { area, store } of targets) {
    const from = new LocalStorage(path.join(folder, 'areas', String(area.id)));
    if (store.location.kind === 'local') fs.mkdirSync(store.location.dir, { recursive: true });
    for (const item of area.items) await copyHashed(from, store.storage, item.path, item);
    say(`areas/${area.id}: ${area.items.length} into hospital area ${area.code} (${store.url})`);
  }
}
