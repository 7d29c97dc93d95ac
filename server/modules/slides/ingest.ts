import fs from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enqueueJob } from '../jobs/queries.js';
import { PermanentJobError, type JobContext, type JobType } from '../jobs/job-type.js';
import { encodeJobError } from '../jobs/job-error.js';
import { defaultTimeLimitMs } from '../jobs/time-limits.js';
import type { PixelCaps } from './conversion/pixel-cap.js';
import { convertPhoto } from './conversion/photo-convert.js';
import { enqueueConversion } from './conversion/queries.js';
import { finishSlide } from './finish.js';
import { fromStored, toStored } from './paths.js';
import { stageObject, type Publisher } from '../../storage/staging.js';
import type { Storage } from '../../storage/storage.js';
import type { AreaStorages } from '../../storage/area-storages.js';
import { slidePlace } from '../areas/place.js';
import { slideQueue } from '../areas/queries.js';
import { fileBase, readPyramid, readSlideFile, unreadable, type SlideFacts, type SlideReading } from './read-file.js';

export const SLIDE_INGEST = 'slides.ingest';
export const INGEST_ATTEMPTS = 3;
/** Of the job's bar: hashing and reading take this much, the thumbnail the rest. */
const READ_SHARE = 85;

export interface IngestPayload { slideId: number }

/** Queues a registered slide's ingest (one live job per slide); inside register's transaction, so no row waits for nothing. */
export async function enqueueIngest(db: Kysely<Database>, slideId: number, hospitalId: number): Promise<number> {
  return enqueueJob(db, {
    type: SLIDE_INGEST, payload: { slideId } satisfies IngestPayload, maxAttempts: INGEST_ATTEMPTS,
    dedupeKey: ingestKey(slideId), hospitalId, slideId, queue: await slideQueue(db, slideId),
  });
}

/** The dedupe key of a slide's live ingest job. */
export const ingestKey = (slideId: number) => `${SLIDE_INGEST}:${slideId}`;

/** Errors of the machine, not of the file (too many open files, a full or failing disk): worth another attempt. */
const TRANSIENT = new Set(['EMFILE', 'ENFILE', 'EIO', 'ENOSPC', 'EBUSY', 'EAGAIN', 'ETIMEDOUT', 'ENOMEM']);
const transient = (err: unknown) => TRANSIENT.has(String((err as NodeJS.ErrnoException | undefined)?.code ?? ''));

/**
 * Step 1 of every slide (register.ts queues it): reads the file registered as 'ingesting' (read-file.ts: MD5 of the
 * first GiB, format and header, levels; a DICOM zip unpacked and checked) and does what the reading says, in order:
 * a photo or striped TIFF is converted here (conversion/photo-convert.ts), then the slide is finished (finish.ts:
 * thumbnail, 'ready', focus check); a file the tile server cannot pass through is handed to its conversion job
 * (conversion/convert-job.ts, which finishes it the same way); anything else is recorded as read (needs_conversion,
 * error). Until this ends the slide serves no tile and no thumbnail (the resolver and the thumbnail route say it is
 * being processed). Every step writes beside the original under a name of its own and renames, so a job killed
 * halfway and run again starts over cleanly. A file refused (a hostile zip, a Deep Zoom declaring more than it holds,
 * a photo past the pixel cap) is not tried again: the slide becomes 'error' and the job keeps the translated reason.
 */
export function slideIngestJob(dataDir: string, leaseMs: number, limits: IngestLimits = {}): JobType<IngestPayload> {
  return {
    type: SLIDE_INGEST,
    timeLimitMs: limits.timeLimitMs ?? defaultTimeLimitMs(SLIDE_INGEST),
    // Hashing is disk-bound; two at once keep a large upload from holding back a small one.
    concurrency: 2,
    maxAttempts: INGEST_ATTEMPTS,
    leaseMs,
    async run(ctx) {
      const slide = await ctx.db.selectFrom('slides').select(['id', 'hospital_id', 'file_path', 'status', 'area_id'])
        .where('id', '=', ctx.payload.slideId).executeTakeFirst();
      // Deleted meanwhile, or already read by an attempt whose end was not recorded.
      if (!slide || slide.status !== 'ingesting') return;
      // The slide's storage: its hospital area's (issue 29), else the default one.
      const { root, storage } = limits.areas ? await slidePlace(ctx.db, limits.areas, slide.area_id) : { root: dataDir, storage: limits.storage };
      if (storage?.kind !== 's3') return ingestSlide(ctx, root, slide, limits);
      // On object storage the readers and converters work on a staged copy; what they make is written back (staging.ts).
      if (!(await storage.stat(slide.file_path))) throw new PermanentJobError(encodeJobError('slide.file_missing', { path: slide.file_path }));
      const staged = await stageObject(storage, slide.file_path);
      try {
        await ingestSlide(ctx, staged.root, slide, limits, staged);
      } finally {
        await staged.release();
      }
    },
    async onFinalFailure(db: Db, job) {
      const { slideId } = JSON.parse(job.payload) as IngestPayload;
      await db.updateTable('slides').set({ status: 'error', format_note: 'ingest_failed', progress: null, updated_at: new Date().toISOString() })
        .where('id', '=', slideId).where('status', '=', 'ingesting').execute();
    },
  };
}

/**
 * The settings an ingest takes: its time limit and pixel caps, and the storage slides are in (the data directory when
 * left out); with `areas`, each slide's own storage (its hospital area's, or the default one), `storage` unused.
 */
export type IngestLimits = { timeLimitMs?: number; caps?: PixelCaps; storage?: Storage; areas?: AreaStorages };

/** The ingest of one slide row in a data directory (the real one, or on object storage a staged one with its publisher). */
async function ingestSlide(
  { db, progress, signal, deadline }: JobContext<IngestPayload>, dataDir: string, slide: { id: number; hospital_id: number; file_path: string },
  limits: IngestLimits, publish?: Publisher,
): Promise<void> {
  const file = fromStored(dataDir, slide.file_path);
  if (!(await fs.stat(file).catch(() => null))) throw new PermanentJobError(encodeJobError('slide.file_missing', { path: slide.file_path }));
  await progress(0, 'job.ingesting');

  const reading = await readSlideFile(file, hashProgress(db, slide.id, progress)).catch(async (err): Promise<SlideReading> => {
    failOn(err, signal);
    return { next: 'as-read', facts: unreadable(await fileBase(file)) };
  });
  if (signal.aborted) throw signal.reason;

  let served: SlideFacts;
  if (reading.next === 'convert') {
    const converted = await convertPhoto(file, { caps: limits.caps, deadline }).catch((err) => {
      failOn(err, signal);
      return null;
    });
    if (signal.aborted) throw signal.reason;
    if (!converted) return recordReading(db, dataDir, slide, reading.otherwise);
    // Served from the pyramid; what the row says of the file (its size, its MD5, as uploaded) is the original's.
    served = { ...(await readPyramid(converted)), file_size: reading.original.file_size, md5: reading.original.md5 };
  } else if (reading.facts.status === 'ready') {
    served = reading.facts;
  } else {
    return recordReading(db, dataDir, slide, reading.facts);
  }

  await progress(READ_SHARE, 'job.thumbnail');
  const { file: servedFile, thumb: _thumb, ...columns } = served;
  const finished = await finishSlide(db, dataDir, {
    slide, pyramid: served, from: { filePaths: [slide.file_path], status: 'ingesting' }, columns: { ...columns, file_path: toStored(dataDir, servedFile) }, publish,
  });
  // Deleted or moved meanwhile: what this attempt made beside the original (a converted TIFF, an unpacked DICOM series) goes.
  if (!finished && servedFile !== file) {
    await fs.rm(servedFile, { force: true, recursive: true });
    await publish?.drop([servedFile]);
  }
}

/**
 * Rethrows what must end this attempt: a refusal (an AppError: never tried again, the job keeps its reason), an error of
 * the machine or an abort (tried again). Anything else broke the reader or the converter, and the caller goes on.
 */
function failOn(err: unknown, signal: AbortSignal): void {
  if (err instanceof AppError) throw new PermanentJobError(encodeJobError(err.key, err.params));
  if (transient(err) || signal.aborted) throw err;
}

/** A slide kept as read, not served (yet): 'converting' gets its conversion job in the same transaction, never a row that nothing converts. */
async function recordReading(db: Db, dataDir: string, slide: { id: number; hospital_id: number; file_path: string }, facts: SlideFacts): Promise<void> {
  const { file, thumb: _thumb, ...columns } = facts;
  await db.transaction().execute(async (trx) => {
    const result = await trx.updateTable('slides').set({
      ...columns, file_path: toStored(dataDir, file), progress: facts.status === 'converting' ? 0 : null, updated_at: new Date().toISOString(),
    }).where('id', '=', slide.id).where('status', '=', 'ingesting').where('file_path', '=', slide.file_path).executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0 && facts.status === 'converting') await enqueueConversion(trx, slide.id, slide.hospital_id);
  });
}

/** The hashing's share of the bar, on the job and on the slide row (which the lists and the upload panel show). */
function hashProgress(db: Db, id: number, progress: JobContext<IngestPayload>['progress']): (fraction: number) => void {
  let shown = 0;
  return (fraction) => {
    const value = Math.floor(fraction * READ_SHARE);
    if (value <= shown) return;
    shown = value;
    void progress(value);
    void db.updateTable('slides').set({ progress: value }).where('id', '=', id).where('status', '=', 'ingesting').execute().catch(() => {});
  };
}
