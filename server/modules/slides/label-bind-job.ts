import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { AreaStorages } from '../../storage/area-storages.js';
import { slidePlace } from '../areas/place.js';
import { slideQueue } from '../areas/queries.js';
import type { JobType } from '../jobs/job-type.js';
import { enqueueJob } from '../jobs/queries.js';
import { TileService } from '../tiles/tile-service.js';
import { decodeLabelBarcodes } from './label-barcodes.js';
import { fromStored } from './paths.js';
import { moveSlides, slideForLabelBind, unscannedGlassByCodes } from './queries.js';
import { logSlides } from './section-log.js';

export const LABEL_BIND_JOB = 'slides.label_bind';
/** Reading a label is a few decodes of a small image: a minute is far more than it takes. */
const TIME_LIMIT_MS = 60_000;

export interface LabelBindPayload { slideId: number }

/** Queues the label reading of a slide that became ready with a label image (finish.ts), in the caller's transaction. */
export async function enqueueLabelBind(db: Kysely<Database>, slideId: number, hospitalId: number): Promise<number> {
  return enqueueJob(db, {
    type: LABEL_BIND_JOB, payload: { slideId } satisfies LabelBindPayload, maxAttempts: 1,
    dedupeKey: `${LABEL_BIND_JOB}:${slideId}`, hospitalId, slideId, queue: await slideQueue(db, slideId),
  });
}

/**
 * Issue 31 item 2: a slide whose label's barcode (Code128 or DataMatrix, cases/labels.ts) names exactly one glass slide
 * of its hospital that has no scan yet is bound to it, as the bind dialog would (POST data/kfb/move { code }): its case,
 * the link, and a section log row with no user (the system did it). Nothing is bound when the label names none, several,
 * or a glass slide of another case than the one the slide is already in, or when a user already linked it. Whatever
 * goes wrong here leaves the slide as it is: the job never fails its ingest (it runs after it) and is not retried.
 */
export function labelBindJob(dataDir: string, leaseMs: number, areas?: AreaStorages): JobType<LabelBindPayload> {
  return {
    type: LABEL_BIND_JOB,
    timeLimitMs: TIME_LIMIT_MS,
    concurrency: 1,
    maxAttempts: 1,
    leaseMs,
    async run({ db, payload }) {
      const slide = await slideForLabelBind(db, payload.slideId);
      if (!slide || slide.status !== 'ready' || !slide.has_label || slide.linked) return;
      // In its hospital area's storage (issue 29), else the default one; remote files through their block cache.
      const root = areas ? (await slidePlace(db, areas, slide.area_id)).root : dataDir;
      const codes = await readLabelCodes(fromStored(root, slide.file_path), areas);
      if (!codes.length) return;
      const glass = await unscannedGlassByCodes(db, slide.hospital_id, codes);
      if (glass.length !== 1) return;
      const [target] = glass;
      if (slide.case_id !== null && slide.case_id !== target!.case_id) return;
      const code = target!.label ?? `${target!.pathology_number}-${target!.block_number}-${target!.section_number}`;
      try {
        const moved = await moveSlides(db, [slide.id], target!.case_id, target!.id);
        await logSlides(db, 'move', moved, null, `label barcode ${code}`);
      } catch (error) {
        // Bound by a user meanwhile: theirs stands.
        if (!(error instanceof AppError && error.status === 409)) throw error;
      }
    },
  };
}

/** The codes the slide's label image carries; none when it has no readable label (a damaged page, a remote TIFF page). */
async function readLabelCodes(file: string, areas?: AreaStorages): Promise<string[]> {
  const tiles = new TileService({ resolveSlide: async (key) => key, cacheBytes: 2 ** 20, remote: areas ? (f) => areas.remoteFor(f) : undefined });
  try {
    const handle = await tiles.open(file);
    if (!tiles.hasAssociated(handle, 'label')) return [];
    return await decodeLabelBarcodes((await tiles.associated(handle, 'label')).body);
  } catch {
    return [];
  } finally {
    tiles.close();
  }
}
