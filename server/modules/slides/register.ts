import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { emitEvent } from '../../events/bus.js';
import { enqueueIngest, SLIDE_INGEST } from './ingest.js';
import { toStored } from './paths.js';
import { refuseAtBind } from './read-file.js';
import { SNIFF_BYTES, sniffFormat } from '../tiles/sniff.js';
import type { Storage } from '../../storage/storage.js';

export interface SlideOwner {
  name: string;
  hospital_id: number;
  case_id: number | null;
  uploaded_by: number | null;
  /** The hospital area whose storage the file is in (`dataDir` and `storage` are that storage's); null or left out: the default. */
  area_id?: number | null;
}

/**
 * The one way a file becomes a slide, whoever brings it: a person's bind (routes.ts), a scanner's (scanners/bind.ts),
 * the demo seed, a benchmark or a test. The file is already in its final place; its row is inserted 'ingesting'
 * with its ingest job (ingest.ts), together in one transaction, answered at once. Nothing of the file is read here
 * but its size and, for a zip or `.dzi`, its directory (refuseAtBind: a refusal is a 422 and leaves no row). From
 * there the job reads it, converts or queues its conversion, and finishes it; until then the slide serves no tile
 * and no thumbnail. A caller that needs it read before going on (the seed, a test) runs that job at once
 * (ingest-now.ts). Answers the new id.
 */
export async function registerSlide(db: Db, dataDir: string, file: string, owner: SlideOwner, storage?: Storage): Promise<number> {
  const stat = storage?.kind === 's3' ? await statStored(storage, dataDir, file) : await statLocal(file);
  const now = new Date().toISOString();
  const file_path = toStored(dataDir, file);
  try {
    const { slideId, jobId } = await db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('slides').values({
        ...owner, file_path, file_size: stat.folder ? 0 : stat.size, md5: null, vendor: null, width: null, height: null, levels: null,
        mpp: null, objective_power: null, scan_at: null, tile_size: null, status: 'ingesting', has_label: 0, has_macro: 0, format_note: null,
        progress: 0, created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow();
      return { slideId: id, jobId: await enqueueIngest(trx, id, owner.hospital_id) };
    });
    // Committed: a runner on this handle (a single-process server's) reads it now rather than at its next poll, and
    // the hospital's open slide lists hear of the new slide.
    emitEvent(db, 'jobs.queued', { type: SLIDE_INGEST, jobId, hospitalId: owner.hospital_id, slideId });
    return slideId;
  } catch (err) {
    // Another row already serves this path (two binds of one file in place): the file is that row's, leave it.
    const taken = await db.selectFrom('slides').select('id').where('file_path', '=', file_path).executeTakeFirst().catch(() => undefined);
    if (taken) throw new AppError(409, 'slide.already_bound');
    throw err;
  }
}

async function statLocal(file: string): Promise<{ size: number; folder: boolean }> {
  await refuseAtBind(file);
  const stat = await fs.stat(file);
  return { size: stat.size, folder: stat.isDirectory() };
}

/**
 * An object in object storage: its size from the store; a zip or `.dzi` (the only files refused at bind) is checked
 * on a staged copy, anything else is not read here.
 */
async function statStored(storage: Storage, dataDir: string, file: string): Promise<{ size: number; folder: boolean }> {
  const key = toStored(dataDir, file);
  const stat = await storage.stat(key);
  if (!stat) throw new AppError(422, 'slide.file_missing', { path: key });
  const head = await storage.readRange(key, 0, SNIFF_BYTES);
  if (path.extname(key).toLowerCase() === '.dzi' || sniffFormat(head) === 'zip') {
    const copy = await storage.localCopy(key);
    try {
      await refuseAtBind(copy.path);
    } finally {
      await copy.release();
    }
  }
  return { size: stat.size, folder: false };
}
