import fs from 'node:fs/promises';
import type { Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { SlideTable } from '../../db/schema.js';
import { emitEvent } from '../../events/bus.js';
import { enqueueFocusCheck, FOCUS_JOB } from '../focus/queries.js';
import { enqueueLabelBind, LABEL_BIND_JOB } from './label-bind-job.js';
import { thumbPath } from './paths.js';
import type { SlideFacts } from './read-file.js';
import { writeThumbnail } from './thumbnail.js';
import type { Publisher } from '../../storage/staging.js';

/** What the served pyramid says of the slide: the columns every way to 'ready' sets from it. */
export const pyramidColumns = (p: SlideFacts) => ({
  width: p.width, height: p.height, levels: p.levels, mpp: p.mpp, objective_power: p.objective_power, scan_at: p.scan_at,
  tile_size: p.tile_size, has_label: p.has_label, has_macro: p.has_macro,
});

export interface Finishing {
  slide: { id: number; hospital_id: number };
  /**
   * The row as the job found it: finished only while it still names one of these stored paths (and, when given, is in
   * this status). A slide deleted, moved or taken up by another job meanwhile is left alone.
   */
  from: { filePaths: string[]; status?: SlideTable['status'] };
  /** The pyramid the slide is served from from now on (as read: read-file.ts), which the thumbnail is made of. */
  pyramid: SlideFacts;
  /** What the row says from now on besides 'ready' (the served file's stored path among them). */
  columns: Updateable<SlideTable>;
  /** On object storage: writes the thumbnail and the served file back before the row says 'ready' (storage/staging.ts). */
  publish?: Publisher;
}

/**
 * The last step of every slide that becomes viewable, whether served as it was bound (ingest.ts) or once converted
 * (ingest.ts for a photo, conversion/convert-job.ts): its thumbnail, then the row 'ready' and its automatic focus
 * check (and, with a label image, the reading of its barcode) queued, together. The thumbnail is written first: a
 * list that sees the slide ready asks for it at once; a slide without one (it failed) is still viewable, the list
 * shows an empty cell. Answers whether the row was finished.
 */
export async function finishSlide(db: Db, dataDir: string, { slide, from, pyramid, columns, publish }: Finishing): Promise<boolean> {
  const thumb = thumbPath(dataDir, slide.id);
  await writeThumbnail(pyramid, thumb).catch(() => fs.rm(thumb, { force: true }));
  await publish?.put([thumb, pyramid.file]);
  const queued = await db.transaction().execute(async (trx) => {
    let update = trx.updateTable('slides').set({ ...columns, status: 'ready', progress: null, updated_at: new Date().toISOString() })
      .where('id', '=', slide.id).where('file_path', 'in', from.filePaths);
    if (from.status) update = update.where('status', '=', from.status);
    if (Number((await update.executeTakeFirst()).numUpdatedRows) === 0) return null;
    // A slide with a label image has its barcode read, and is bound to the glass slide it names (label-bind-job.ts).
    const focus = await enqueueFocusCheck(trx, slide.id, slide.hospital_id);
    return { focus, label: pyramid.has_label ? await enqueueLabelBind(trx, slide.id, slide.hospital_id) : null };
  });
  // Committed: the hospital's open lists hear that the slide's next jobs are waiting, as they heard of its ingest.
  if (queued !== null) {
    emitEvent(db, 'jobs.queued', { type: FOCUS_JOB, jobId: queued.focus, hospitalId: slide.hospital_id, slideId: slide.id });
    if (queued.label !== null) emitEvent(db, 'jobs.queued', { type: LABEL_BIND_JOB, jobId: queued.label, hospitalId: slide.hospital_id, slideId: slide.id });
  }
  const finished = queued !== null;
  // Deleted meanwhile: its thumbnail goes too (a row that still exists keeps its own).
  if (!finished && !(await db.selectFrom('slides').select('id').where('id', '=', slide.id).executeTakeFirst())) {
    await fs.rm(thumb, { force: true });
    await publish?.drop([thumb]);
  }
  return finished;
}
