import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Storage } from './storage.js';
import { keyUnder } from './storage-key.js';

/** What a job made in a staged directory, put in storage before the row that names it says so. */
export interface Publisher {
  /** Writes these files (a folder: each file in it) to storage under their keys; missing ones are skipped. */
  put(files: string[]): Promise<void>;
  /** Removes what `put` wrote of these files, for a job whose row went away meanwhile. */
  drop(files: string[]): Promise<void>;
}

export interface Staged extends Publisher {
  /** A temp data directory: the object sits at `<root>/<key>`, so what tools write beside it keeps its stored name. */
  root: string;
  file: string;
  release(): Promise<void>;
}

/**
 * For a job on object storage whose tools need files (hashing, libvips, zip readers, the converters): the object
 * copied into a temp data directory, the job run there as on the data directory, and what it made written back
 * under the same keys (`put`) before the row names it. Released (deleted) whatever the job's outcome.
 */
export async function stageObject(storage: Storage, key: string): Promise<Staged> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-job-'));
  const file = path.join(root, ...key.split('/'));
  const release = () => fs.rm(root, { recursive: true, force: true });
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await pipeline(await storage.readStream(key), createWriteStream(file, { flags: 'wx' }));
  } catch (err) {
    await release();
    throw err;
  }
  const keysOf = async (files: string[]) => {
    const found: [string, string][] = [];
    for (const f of files) {
      if (f === file) continue;
      const key = keyUnder(root, f);
      const stat = key ? await fs.stat(f).catch(() => null) : null;
      if (!key || !stat) continue;
      if (stat.isDirectory()) {
        for (const entry of await fs.readdir(f, { recursive: true, withFileTypes: true })) {
          const full = path.join(entry.parentPath, entry.name);
          if (entry.isFile()) found.push([full, keyUnder(root, full)!]);
        }
      } else found.push([f, key]);
    }
    return found;
  };
  return {
    root, file, release,
    put: async (files) => {
      for (const [f, k] of await keysOf(files)) await storage.write(k, createReadStream(f));
    },
    drop: async (files) => {
      for (const [, k] of await keysOf(files)) await storage.remove(k);
    },
  };
}
