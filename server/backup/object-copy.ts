import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { S3Storage } from '../storage/s3-storage.js';
import { isNotFound } from '../storage/errors.js';
import type { Storage } from '../storage/storage.js';
import { isSafeKey } from '../storage/storage-key.js';
import { isLeftOut, type CopiedFile } from './manifest.js';

/** A folder that is absent or empty: a backup or a restore never mixes its files with others'. */
export function isEmptyFolder(folder: string): boolean {
  return !existsSync(folder) || readdirSync(folder).length === 0;
}

/**
 * Copies an object from one storage to another (the data directory, the backup folder, a bucket), hashing the bytes
 * as they pass. The target's writer makes it visible only when whole (a local `.partial` renamed, an S3 multipart
 * upload completed); with `expect` (a restore) bytes that do not match the manifest are dropped, never made visible.
 * Null when the source object is gone (deleted since it was listed). `toKey`: where it goes, when not the same key.
 */
export async function copyHashed(
  from: Storage, to: Storage, key: string, expect?: { size: number; sha256: string }, toKey = key,
): Promise<CopiedFile | null> {
  let source;
  try {
    source = await from.readStream(key);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
  const hash = createHash('sha256');
  let size = 0;
  const writer = await to.createWriter(toKey);
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
      await writer.write(chunk);
    }
    const sha256 = hash.digest('hex');
    if (expect && (expect.sha256 !== sha256 || expect.size !== size)) throw new Error(`${key}: its bytes do not match the manifest (sha256 ${sha256}, ${size} bytes)`);
    await writer.finish();
    return { path: key, size, sha256 };
  } catch (err) {
    await writer.abort();
    throw err;
  }
}

/** SHA-256 and size of a stored object, read through. */
export async function hashObject(storage: Storage, key: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of (await storage.readStream(key)) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * The data directory's files a backup copies (manifest.ts isLeftOut says what it leaves out), as `/`-separated
 * paths relative to it, sorted. `skip`: folders inside it that are not the app's data (the S3 block cache, a backup
 * target placed there). Names no storage key may have are reported, not copied.
 */
export async function dataDirFiles(dataDir: string, skip: string[]): Promise<{ files: string[]; unsafe: string[] }> {
  const root = path.resolve(dataDir);
  const skipped = new Set(skip.map((s) => path.resolve(s)));
  const files: string[] = [];
  const unsafe: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await fs.readdir(folder, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(folder, entry.name);
      if (skipped.has(full)) continue;
      const rel = path.relative(root, full).split(path.sep).join('/');
      if (isLeftOut(rel)) continue;
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) (isSafeKey(rel) ? files : unsafe).push(rel);
    }
  };
  await walk(root);
  return { files: files.sort(), unsafe: unsafe.sort() };
}

/** Every object key under the bucket's prefix (the app's keys, relative to it), page by page. */
export async function allObjectKeys(storage: S3Storage, bucket: string, prefix: string): Promise<string[]> {
  const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
  const client = await storage.client();
  const strip = prefix ? prefix.length + 1 : 0;
  const keys: string[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix ? `${prefix}/` : undefined, ContinuationToken }));
    for (const o of page.Contents ?? []) keys.push(o.Key!.slice(strip));
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return keys.sort();
}

/**
 * Whether anything is stored under the bucket's prefix (a restore goes into an empty one unless forced). One page of
 * the default size: s3rver answers a listing that MaxKeys cuts short with an internal error.
 */
export async function hasObjects(storage: S3Storage, bucket: string, prefix: string): Promise<boolean> {
  const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
  const page = await (await storage.client()).send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix ? `${prefix}/` : undefined }));
  return (page.Contents?.length ?? 0) > 0;
}
