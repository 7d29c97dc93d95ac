import fs from 'node:fs/promises';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { ingestFile, refuseAtBind, writeThumbnail, type SlideFacts } from './ingest.js';
import { thumbPath, toStored } from './paths.js';
import { enqueueConversion } from './conversion/queries.js';
import { enqueueFocusCheck } from '../focus/queries.js';
import { enqueueIngest, SLIDE_INGEST } from './ingest-job.js';
import { emitEvent } from '../../events/bus.js';

export interface SlideOwner {
  name: string;
  hospital_id: number;
  case_id: number | null;
  uploaded_by: number | null;
}

/**
 * What bind does (a person's or a scanner's): the slide's row, 'ingesting', and its ingest job (ingest-job.ts),
 * together in one transaction, answered at once; nothing of the file is read here but its size and, for a zip or
 * `.dzi`, its directory (refuseAtBind). Until the job ends
 * the slide serves no tile and no thumbnail. Answers the new id.
 */
export async function acceptSlide(db: Db, dataDir: string, file: string, owner: SlideOwner): Promise<number> {
  await refuseAtBind(file);
  const stat = await fs.stat(file);
  const now = new Date().toISOString();
  const file_path = toStored(dataDir, file);
  try {
    const { slideId, jobId } = await db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('slides').values({
        ...owner, file_path, file_size: stat.isDirectory() ? 0 : stat.size, md5: null, vendor: null, width: null, height: null, levels: null,
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

/**
 * Inline, for files the server places itself (the demo seed) and tests: reads a file already in its final place, inserts its row and writes its thumbnail; answers the new id. A file
 * the tile server cannot pass through is registered as 'converting' with its conversion job queued (answered at once).
 * A file refused outright (an AppError, e.g. a Deep Zoom image declaring more than its tiles) gets no row.
 * When the insert fails, the TIFF converted from the file is removed again, so the caller can put the file back.
 */
export async function registerSlide(db: Db, dataDir: string, file: string, owner: SlideOwner): Promise<number> {
  const { file: served, thumb, ...facts } = await ingestFile(file).catch((err) => {
    if (err instanceof AppError) throw err;
    return unreadable(file);
  });
  const now = new Date().toISOString();
  const file_path = toStored(dataDir, served);
  // A slide to convert gets its row and its job together: never a 'converting' row that nothing converts.
  const { id } = await db.transaction().execute(async (trx) => {
    const row = await trx.insertInto('slides').values({
      ...owner, ...facts, file_path, progress: facts.status === 'converting' ? 0 : null, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    if (facts.status === 'converting') await enqueueConversion(trx, row.id, owner.hospital_id);
    // A ready slide's automatic focus check (a converted one's is queued when its conversion ends).
    if (facts.status === 'ready') await enqueueFocusCheck(trx, row.id, owner.hospital_id);
    return row;
  }).catch(async (err) => {
    // Another row already serves this path (two binds of one file in place): the file is that row's, leave it.
    const taken = await db.selectFrom('slides').select('id').where('file_path', '=', file_path).executeTakeFirst().catch(() => undefined);
    if (taken) throw new AppError(409, 'slide.already_bound');
    // What ingest made beside the file (a converted TIFF, or the folder a DICOM zip was unpacked to) goes with the row.
    if (served !== file) await fs.rm(served, { force: true, recursive: true });
    throw err;
  });
  try {
    await writeThumbnail({ file: served, thumb, ...facts }, thumbPath(dataDir, id));
  } catch {
    // A slide without a thumbnail is still viewable; the list shows an empty cell rather than losing the row.
    await fs.rm(thumbPath(dataDir, id), { force: true });
  }
  return id;
}

/** A file that broke the reader or the converter (corrupt TIFF, truncated photo) still gets a row, marked 'error', so it is not lost on disk. */
async function unreadable(file: string): Promise<SlideFacts> {
  const stat = await fs.stat(file);
  return {
    file, file_size: stat.size, md5: null, vendor: 'unknown', width: null, height: null, levels: null, mpp: null, objective_power: null,
    scan_at: null, tile_size: null, status: 'error', has_label: 0, has_macro: 0, format_note: null, thumb: null,
  };
}
