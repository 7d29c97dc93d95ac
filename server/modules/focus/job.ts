import type { Db } from '../../db/connect.js';
import type { JobType } from '../jobs/job-type.js';
import { PermanentJobError } from '../jobs/job-type.js';
import { fromStored } from '../slides/paths.js';
import { analyseFocus } from './analyse.js';
import type { RemoteLookup } from '../tiles/slide-store.js';
import type { AreaStorages } from '../../storage/area-storages.js';
import { slidePlace } from '../areas/place.js';
import { defaultTimeLimitMs } from '../jobs/time-limits.js';
import { blurShareLimit, FOCUS_ATTEMPTS, FOCUS_JOB, markFocusFailed, saveFocus, type FocusPayload } from './queries.js';

/**
 * The automatic focus check of a slide, run by the job queue after the slide became ready (bind, or the end of
 * its conversion): scores every tissue cell, stores the map and the share out of focus, suggests "blurry" to QC.
 * One at a time per machine: it decodes a whole middle level.
 */
export function focusCheckJob(dataDir: string, leaseMs: number, limits: { timeLimitMs?: number; remote?: RemoteLookup; areas?: AreaStorages } = {}): JobType<FocusPayload> {
  return {
    type: FOCUS_JOB,
    timeLimitMs: limits.timeLimitMs ?? defaultTimeLimitMs('slides.focus'),
    concurrency: 1,
    maxAttempts: FOCUS_ATTEMPTS,
    leaseMs,
    async run({ db, payload, progress, signal }) {
      const slide = await db.selectFrom('slides').select(['id', 'hospital_id', 'file_path', 'status', 'area_id']).where('id', '=', payload.slideId).executeTakeFirst();
      if (!slide) return;
      if (slide.status !== 'ready') throw new PermanentJobError('focus.slide_not_ready');
      const started = Date.now();
      await progress(0, 'job.focus_check');
      let shown = 0;
      // In its hospital area's storage (issue 29, `areas`), else the default one; remote files through their block cache.
      const root = limits.areas ? (await slidePlace(db, limits.areas, slide.area_id)).root : dataDir;
      const { areas } = limits;
      const result = await analyseFocus(fromStored(root, slide.file_path), {
        signal,
        remote: areas ? (file) => areas.remoteFor(file) : limits.remote,
        onProgress: (p) => {
          const value = Math.floor(p * 95);
          if (value === shown) return;
          shown = value;
          void progress(value);
        },
      });
      await saveFocus(db, slide, result, Date.now() - started, await blurShareLimit(db));
    },
    async onFinalFailure(db: Db, job) {
      const { slideId } = JSON.parse(job.payload) as FocusPayload;
      await markFocusFailed(db, slideId);
    },
  };
}
