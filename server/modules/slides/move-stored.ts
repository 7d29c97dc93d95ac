import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { AppError } from '../../http/errors.js';
import type { Storage } from '../../storage/storage.js';
import { convertedFrom, derivedNames } from './conversion/derived-names.js';
import type { Placed } from './move-file.js';
import { toStored } from './paths.js';

const ATTEMPTS = 16;

/**
 * moveInto (move-file.ts) on object storage: a finished upload's object moved under `dir` by its own name, or a
 * suffixed one when that name or one derived from it is taken. Object storage has no exclusive rename: two binds
 * racing for one name are told apart by the move's own check of the target (`storage.exists`), and the loser tries
 * the next name. A Deep Zoom image's tile folder is not carried along (Deep Zoom uploads stay on local storage).
 */
export async function moveIntoStored(storage: Storage, dataDir: string, from: string, dir: string): Promise<Placed> {
  const ext = path.extname(from);
  const own = path.basename(from, ext);
  const stem = convertedFrom(own + ext) ? own.replace(/\.(?=[^.]*$)/, '_') : own;
  const key = (abs: string) => toStored(dataDir, abs);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const to = path.join(dir, (attempt === 0 ? stem : `${stem}-${randomBytes(4).toString('hex')}`) + ext);
    const taken = await Promise.all([to, ...derivedNames(to)].map(async (p) => !!(await storage.stat(key(p)))));
    if (taken.some(Boolean)) continue;
    try {
      await storage.move(key(from), key(to));
    } catch (err) {
      if (err instanceof AppError && err.key === 'storage.exists') continue;
      throw err;
    }
    return {
      file: to,
      putBack: async () => {
        if (!(await storage.stat(key(from)))) await storage.move(key(to), key(from));
      },
    };
  }
  throw new Error(`no free name for ${own}${ext} in ${dir}`);
}
