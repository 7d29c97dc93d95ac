import fs from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enqueueJob } from '../jobs/queries.js';
import { PermanentJobError, type JobType } from '../jobs/registry.js';
import { enqueueFocusCheck } from '../focus/queries.js';
import { enqueueConversion } from './conversion/queries.js';
import { encodeJobError } from '../jobs/job-error.js';
import { ingestFile, writeThumbnail, type SlideFacts } from './ingest.js';
import { fromStored, thumbPath, toStored } from './paths.js';
import type { PixelCaps } from './conversion/pixel-cap.js';
import { defaultTimeLimitMs } from '../jobs/time-limits.js';

export const SLIDE_INGEST = 'slides.ingest';
export const INGEST_ATTEMPTS = 3;
/** Of the job's bar: hashing and reading take this much, the thumbnail the rest. */
const READ_SHARE = 85;

export interface IngestPayload { slideId: number }

/** Queues a bound slide's ingest (one live job per slide); inside the bind's transaction, so no row waits for nothing. */
export function enqueueIngest(db: Kysely<Database>, slideId: number, hospitalId: number): Promise<number> {
  return enqueueJob(db, {
    type: SLIDE_INGEST, payload: { slideId } satisfies IngestPayload, maxAttempts: INGEST_ATTEMPTS,
    dedupeKey: `${SLIDE_INGEST}:${slideId}`, hospitalId, slideId,
  });
}

/** Errors of the machine, not of the file (too many open files, a full or failing disk): worth another attempt. */
const TRANSIENT = new Set(['EMFILE', 'ENFILE', 'EIO', 'ENOSPC', 'EBUSY', 'EAGAIN', 'ETIMEDOUT', 'ENOMEM']);
const transient = (err: unknown) => TRANSIENT.has(String((err as NodeJS.ErrnoException | undefined)?.code ?? ''));

/**
 * Reads a slide bound as 'ingesting' (whole-file MD5 of the first GiB, metadata, label/macro, thumbnail; a DICOM
 * zip unpacked and checked; a photo or striped TIFF converted) and makes it ready, or hands it to its conversion.
 * Until this ends the slide serves no tile and no thumbnail (the resolver and the thumbnail route say it is being
 * processed). Every step writes beside the original under a name of its own and renames, so a job killed halfway
 * and run again starts over cleanly. A file refused (a hostile zip, a Deep Zoom declaring more than it holds) is not
 * tried again: the slide becomes 'error' and the job keeps the translated reason.
 */
export function slideIngestJob(dataDir: string, leaseMs: number, limits: { timeLimitMs?: number; caps?: PixelCaps } = {}): JobType<IngestPayload> {
  return {
    type: SLIDE_INGEST,
    timeLimitMs: limits.timeLimitMs ?? defaultTimeLimitMs(SLIDE_INGEST),
    // Hashing is disk-bound; two at once keep a large upload from holding back a small one.
    concurrency: 2,
    maxAttempts: INGEST_ATTEMPTS,
    leaseMs,
    async run({ db, payload, progress, signal, deadline }) {
      const slide = await db.selectFrom('slides').select(['id', 'hospital_id', 'file_path', 'status'])
        .where('id', '=', payload.slideId).executeTakeFirst();
      // Deleted meanwhile, or already read by an attempt whose end was not recorded.
      if (!slide || slide.status !== 'ingesting') return;
      const file = fromStored(dataDir, slide.file_path);
      if (!(await fs.stat(file).catch(() => null))) throw new PermanentJobError(encodeJobError('slide.file_missing', { path: slide.file_path }));
      await progress(0, 'job.ingesting');
      let shown = 0;
      const onProgress = (fraction: number) => {
        const value = Math.floor(fraction * READ_SHARE);
        if (value <= shown) return;
        shown = value;
        void progress(value);
        void markIngestProgress(db, slide.id, value).catch(() => {});
      };
      const facts = await ingestFile(file, { onProgress, caps: limits.caps, deadline }).catch((err) => {
        if (err instanceof AppError) throw new PermanentJobError(encodeJobError(err.key, err.params));
        if (transient(err) || signal.aborted) throw err;
        // A file that broke the reader or the converter (corrupt TIFF, truncated photo) keeps its row, marked 'error'.
        return unreadable(file);
      });
      if (signal.aborted) throw signal.reason;
      await progress(READ_SHARE, 'job.thumbnail');
      const { file: served, thumb: _thumb, ...rest } = facts;
      const thumbFile = thumbPath(dataDir, slide.id);
      // Written before the row says 'ready': a list that sees it ready asks for it at once. Without one the slide
      // is still viewable (the list shows an empty cell).
      await writeThumbnail(facts, thumbFile).catch(() => fs.rm(thumbFile, { force: true }));
      const updated = await db.transaction().execute(async (trx) => {
        const result = await trx.updateTable('slides').set({
          ...rest, file_path: toStored(dataDir, served), progress: rest.status === 'converting' ? 0 : null, updated_at: new Date().toISOString(),
        }).where('id', '=', slide.id).where('status', '=', 'ingesting').where('file_path', '=', slide.file_path).executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        if (rest.status === 'converting') await enqueueConversion(trx, slide.id, slide.hospital_id);
        if (rest.status === 'ready') await enqueueFocusCheck(trx, slide.id, slide.hospital_id);
        return true;
      });
      if (!updated) {
        // Deleted or moved meanwhile: what this attempt made goes.
        if (served !== file) await fs.rm(served, { force: true, recursive: true });
        await fs.rm(thumbFile, { force: true });
      }
    },
    async onFinalFailure(db: Db, job) {
      const { slideId } = JSON.parse(job.payload) as IngestPayload;
      await db.updateTable('slides').set({ status: 'error', format_note: 'ingest_failed', progress: null, updated_at: new Date().toISOString() })
        .where('id', '=', slideId).where('status', '=', 'ingesting').execute();
    },
  };
}

/** The ingest's share of the bar on the slide row, which the lists and the upload panel show. */
async function markIngestProgress(db: Db, id: number, progress: number): Promise<void> {
  await db.updateTable('slides').set({ progress }).where('id', '=', id).where('status', '=', 'ingesting').execute();
}

async function unreadable(file: string): Promise<SlideFacts> {
  const stat = await fs.stat(file);
  return {
    file, file_size: stat.isDirectory() ? 0 : stat.size, md5: null, vendor: 'unknown', width: null, height: null, levels: null, mpp: null,
    objective_power: null, scan_at: null, tile_size: null, status: 'error', has_label: 0, has_macro: 0, format_note: null, thumb: null,
  };
}
