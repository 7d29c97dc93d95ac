import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../../db/connect.js';
import { AppError } from '../../../http/errors.js';
import { encodeJobError } from '../../jobs/job-error.js';
import { PermanentJobError, type JobContext, type JobType } from '../../jobs/job-type.js';
import { stageObject, type Publisher } from '../../../storage/staging.js';
import type { Storage } from '../../../storage/storage.js';
import type { AreaStorages } from '../../../storage/area-storages.js';
import { slidePlace } from '../../areas/place.js';
import { defaultTimeLimitMs } from '../../jobs/time-limits.js';
import { finishSlide, pyramidColumns } from '../finish.js';
import { fromStored, toStored } from '../paths.js';
import { readPyramid } from '../read-file.js';
import { convertDeepZoom, DEEP_ZOOM_EXTENSIONS } from './deep-zoom-convert.js';
import { convertedFrom } from './derived-names.js';
import { multiFileSlideIn, UnsafeZipError, unpackedFolder, unpackMultiFileZip } from './multi-file-zip.js';
import { convertWithOpenSlide, OPENSLIDE_EXTENSIONS } from './openslide-convert.js';
import { DEFAULT_PIXEL_CAPS, type PixelCaps } from './pixel-cap.js';
import { conversionSubject, CONVERSION_ATTEMPTS, markNotConverted, markProgress, SLIDE_CONVERSION, type ConversionPayload } from './queries.js';
import { vipsAvailable } from './vips-cli.js';

/** A refusal (more pixels than allowed) can never succeed on a retry: the job keeps its reason, parameters included. */
function refusedForGood(err: unknown): never {
  throw err instanceof AppError ? new PermanentJobError(encodeJobError(err.key, err.params)) : err;
}

/** An MRXS/VMS zip: unpacked beside itself for the conversion only (the zip stays the original), then removed. */
async function convertZipped(zip: string, run: Parameters<typeof convertWithOpenSlide>[1]) {
  try {
    const { slide } = await unpackMultiFileZip(zip).catch((err) => {
      throw err instanceof UnsafeZipError ? new PermanentJobError(`slide.${err.note}`) : err;
    });
    return await convertWithOpenSlide(zip, run, slide);
  } finally {
    await fs.rm(unpackedFolder(zip), { recursive: true, force: true });
  }
}

/**
 * Step 2 of a slide the tile server cannot pass through (NDPI, MRXS, SCN, BIF, VMS/VMU, SVSlide, JPEG 2000 SVS; Deep
 * Zoom zips and folders), queued by its ingest (ingest.ts) or by the start-up sweep (sweep.ts): converts it into the
 * pyramidal JPEG TIFF beside it, then finishes it (finish.ts) to be served from that file. The original stays
 * (downloads give it back); the TIFF is derived, so a job rebuilds it when it goes missing. One at a time per
 * machine: libvips already uses every core, at the lowest priority.
 */
export function slideConversionJob(dataDir: string, leaseMs: number, limits: { timeLimitMs?: number; caps?: PixelCaps; storage?: Storage; areas?: AreaStorages } = {}): JobType<ConversionPayload> {
  const caps = limits.caps ?? DEFAULT_PIXEL_CAPS;
  return {
    type: SLIDE_CONVERSION,
    timeLimitMs: limits.timeLimitMs ?? defaultTimeLimitMs('slides.convert'),
    concurrency: 1,
    maxAttempts: CONVERSION_ATTEMPTS,
    leaseMs,
    async run(ctx) {
      const slide = await conversionSubject(ctx.db, ctx.payload.slideId);
      if (!slide) return;
      // The slide's storage: its hospital area's (issue 29, `areas`), else the default one.
      const { root, storage } = limits.areas ? await slidePlace(ctx.db, limits.areas, slide.area_id) : { root: dataDir, storage: limits.storage };
      if (storage?.kind !== 's3') return convertSlide(ctx, root, slide, caps);
      // On object storage the converter works on a staged copy of the original; the pyramid and thumbnail are written back (staging.ts).
      const served = fromStored(root, slide.file_path);
      const key = toStored(root, convertedFrom(served) ?? served);
      if (!(await storage.stat(key))) throw new PermanentJobError('slide.file_missing');
      const staged = await stageObject(storage, key);
      try {
        await convertSlide(ctx, staged.root, slide, caps, staged);
      } finally {
        await staged.release();
      }
    },
    async onFinalFailure(db: Db, job, error) {
      const { slideId } = JSON.parse(job.payload) as ConversionPayload;
      if (error === 'slide.vips_missing') return;
      await markNotConverted(db, slideId, 'error', 'conversion_failed');
    },
  };
}

/** The conversion of one slide in a data directory (the real one, or on object storage a staged one with its publisher). */
async function convertSlide(
  { db, progress, signal }: JobContext<ConversionPayload>, dataDir: string, slide: NonNullable<Awaited<ReturnType<typeof conversionSubject>>>,
  caps: PixelCaps, publish?: Publisher,
): Promise<void> {
  let shown = 0;
  const served = fromStored(dataDir, slide.file_path);
  // A rebuild finds the derived file's name in the row; a first conversion, the original's.
  const original = convertedFrom(served) ?? served;
  const ext = path.extname(original).toLowerCase();
  if (!(await fs.stat(original).catch(() => null))) throw new PermanentJobError('slide.file_missing');
  // A zip is a Deep Zoom image, or an MRXS/VMS with the files it refers to (what its entries say).
  const multi = ext === '.zip' ? await multiFileSlideIn(original) : null;
  const zipped = multi?.kind === 'slide' ? multi.ext : null;
  const deepZoom = DEEP_ZOOM_EXTENSIONS.has(ext) && !zipped;
  if (!deepZoom && !zipped && !OPENSLIDE_EXTENSIONS.has(ext)) throw new PermanentJobError('slide.not_convertible');
  if (!deepZoom && !(await vipsAvailable())) {
    await markNotConverted(db, slide.id, 'needs_conversion', 'vips_missing');
    throw new PermanentJobError('slide.vips_missing');
  }
  await progress(0, 'job.converting');
  const run = {
    signal,
    maxPixels: caps.slidePixels,
    onProgress: (p: number) => {
      // libvips reports the pyramid's progress; the last few percent are reading the result back.
      const value = Math.floor(p * 0.95);
      if (value === shown) return;
      shown = value;
      void progress(value);
      void markProgress(db, slide.id, value).catch(() => {});
    },
  };
  const converted = await (deepZoom ? convertDeepZoom(original).then((file) => ({ file, objectivePower: null }))
    : zipped ? convertZipped(original, run) : convertWithOpenSlide(original, run)).catch(refusedForGood);
  await progress(96, 'job.indexing');
  const pyramid = await readPyramid(converted.file);
  const finished = await finishSlide(db, dataDir, {
    slide, pyramid, publish,
    // The row names the original (a first conversion) or the pyramid being rebuilt: a slide moved or deleted meanwhile is left alone.
    from: { filePaths: [toStored(dataDir, original), toStored(dataDir, converted.file)] },
    columns: {
      ...pyramidColumns(pyramid), file_path: toStored(dataDir, converted.file),
      objective_power: pyramid.objective_power ?? converted.objectivePower,
      // A Deep Zoom image keeps its pixels' scale and says nothing more; the others say what they were.
      format_note: deepZoom ? null : ext === '.svs' ? 'jp2k_reencoded' : `converted_${(zipped ?? ext).slice(1)}`,
    },
  });
  // Deleted meanwhile: the pyramid made for it goes too (its original went with the row).
  if (!finished && !(await conversionSubject(db, slide.id))) {
    await fs.rm(converted.file, { force: true });
    await publish?.drop([converted.file]);
  }
}
