import fs from 'node:fs/promises';
import { AppError } from '../../http/errors.js';
import type { ResourceHooks } from '../../resources/hooks/types.js';
import { convertedFrom, originalParts } from './conversion/derived-names.js';
import { fromStored, isInside, slidesRoot, thumbPath, toStored } from './paths.js';
import type { AreaStorages } from '../../storage/area-storages.js';
import { logSlides, type LoggedSlide } from './section-log.js';
import { PROCESSING } from './resolver.js';

/** The URL of a slide's thumbnail, as list rows carry it (the image cell uses the value as `src`). */
export const thumbUrl = (id: number) => `/api/data/kfb/thumb/${id}`;

/** A deleted slide as read before it went: what is logged, and where its files are (its hospital area's storage). */
type DoomedSlide = LoggedSlide & { area_id: number | null; storage_url: string | null };

/**
 * Slides resource: rows are born by `POST /bind` (never `/store`), carry their thumbnail URL, and take
 * their file and thumbnail with them when deleted, from the storage they are in (their area's, or the default).
 */
export function slideHooks(areas: AreaStorages): ResourceHooks<DoomedSlide[]> {
  return {
    consumes: ['thumb_url', 'dimensions', 'pathology_number', 'patient_name', 'case_type', 'labels', 'glass_slide'],

    async afterRead(db, rows) {
      const caseIds = [...new Set(rows.map((r) => r.case_id).filter((id): id is number => typeof id === 'number'))];
      const cases = caseIds.length
        ? await db.selectFrom('cases').select(['id', 'pathology_number', 'patient_name', 'case_type']).where('id', 'in', caseIds).execute()
        : [];
      const byId = new Map(cases.map((c) => [c.id, c]));
      // The labels each slide carries (by hand or automatic), for the labels column; one query per page.
      const labelled = rows.length ? await db.selectFrom('slide_labels').innerJoin('labels', 'labels.id', 'slide_labels.label_id')
        .select(['slide_labels.slide_id', 'labels.id', 'labels.name', 'labels.en_name'])
        .where('slide_labels.slide_id', 'in', rows.map((r) => r.id)).orderBy('labels.rank').orderBy('labels.id').execute() : [];
      const labelsOf = new Map<number, { id: number; name: string; en_name: string | null }[]>();
      for (const l of labelled) labelsOf.set(l.slide_id, [...(labelsOf.get(l.slide_id) ?? []), { id: l.id, name: l.name, en_name: l.en_name }]);
      // The glass slide each file is the scan of, as its label reads (block-number stain).
      const glass = rows.length ? await db.selectFrom('slide_sections').select(['slide_id', 'block_number', 'section_number', 'stain'])
        .where('slide_id', 'in', rows.map((r) => r.id)).execute() : [];
      const glassOf = new Map(glass.map((g) => [g.slide_id, `${g.block_number}-${g.section_number} ${g.stain}`]));
      // PostgreSQL's bigint arrives as text; sizes stay exact below 2^53 (8 PiB).
      return rows.map((r) => ({
        ...r,
        pathology_number: byId.get(r.case_id as number)?.pathology_number ?? null,
        patient_name: byId.get(r.case_id as number)?.patient_name ?? null,
        case_type: byId.get(r.case_id as number)?.case_type ?? null,
        file_size: Number(r.file_size ?? 0),
        // None yet while ingesting or converting: the image appears (and is fetched) once the slide is ready.
        thumb_url: PROCESSING.has(String(r.status)) ? null : thumbUrl(r.id),
        dimensions: r.width && r.height ? `${r.width} × ${r.height}` : null,
        labels: labelsOf.get(r.id) ?? [],
        glass_slide: glassOf.get(r.id) ?? null,
      }));
    },

    async beforeWrite(_data, ctx) {
      if (ctx.creating) throw new AppError(422, 'slide.use_bind');
      return {};
    },

    // What afterDelete logs and afterDeleteCommitted removes, read before the rows go.
    async beforeDelete(trx, ids) {
      return trx.selectFrom('slides').leftJoin('hospital_areas', 'hospital_areas.id', 'slides.area_id')
        .select(['slides.id', 'slides.name', 'slides.case_id', 'slides.file_path', 'slides.area_id', 'hospital_areas.storage_url'])
        .where('slides.id', 'in', ids).execute();
    },

    // Logged in the delete's transaction: the log and the delete stand or fall together.
    async afterDelete(trx, _ids, ctx, rows) {
      await logSlides(trx, 'delete', rows.map(({ id, name, case_id, file_path }) => ({ id, name, case_id, file_path })), ctx.user);
    },

    // Files go only once the rows are gone for good: a rolled-back delete keeps a row's file.
    async afterDeleteCommitted(_ids, _ctx, rows) {
      for (const row of rows) {
        const place = areas.of(row.area_id !== null && row.storage_url !== null ? { id: row.area_id, storage_url: row.storage_url } : null);
        const dataDir = place.root;
        const root = slidesRoot(dataDir);
        // On object storage a row's objects go by key; a folder (DICOM series) is not kept there.
        const remove = async (file: string, folder = false) => {
          if (place.storage.kind === 's3') await place.storage.remove(toStored(dataDir, file));
          else await fs.rm(file, { force: true, recursive: folder || ((await fs.stat(file).catch(() => null))?.isDirectory() ?? false) });
        };
        const file = fromStored(dataDir, row.file_path);
        // Only files under <dataDir>/slides are ours to remove; a row pointing elsewhere keeps its file.
        if (isInside(root, file)) {
          // A DICOM series is a folder of instances.
          await remove(file);
          // A photo, striped TIFF or Deep Zoom image converted at bind keeps its original beside the TIFF; it goes with it.
          const original = convertedFrom(file);
          for (const part of original ? originalParts(original) : []) {
            if (isInside(root, part)) await remove(part, true);
          }
        }
        await remove(thumbPath(dataDir, row.id));
      }
    },
  };
}
