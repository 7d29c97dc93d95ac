import fs from 'node:fs/promises';
import path from 'node:path';
import { LocalStorage } from '../../storage/local-storage.js';
import { isNotFound } from '../../storage/errors.js';
import type { Storage } from '../../storage/storage.js';
import { ATTACHMENTS_PREFIX } from './attachment-read.js';

/**
 * Attachments an installation on object storage kept on a node's disk before they went to the bucket too (their
 * readers now read the bucket only): each is written into the bucket under its key and then removed here, so every
 * node serves it again. One the bucket already holds at the same size is only removed here; one it holds at another
 * size is left alone (said in the answer) for an operator to look at. Safe to run from several processes at once:
 * they write the same bytes, and a file another one removed first is skipped.
 */
export async function moveLocalAttachments(dataDir: string, storage: Storage): Promise<{ moved: number; conflicting: string[] }> {
  const result = { moved: 0, conflicting: [] as string[] };
  if (storage.kind !== 's3') return result;
  const local = new LocalStorage(dataDir);
  for (const { key, size } of await local.list(ATTACHMENTS_PREFIX.slice(0, -1), 1_000_000)) {
    if (key.endsWith('.partial')) continue;
    try {
      const there = await storage.stat(key);
      if (there && there.size !== size) {
        result.conflicting.push(key);
        continue;
      }
      if (!there) await storage.write(key, await local.readStream(key));
      await local.remove(key);
      // Its `<random>/` folder held only it; a folder another file is still in stays.
      await fs.rmdir(path.dirname(local.pathOf(key))).catch(() => {});
      result.moved++;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return result;
}
