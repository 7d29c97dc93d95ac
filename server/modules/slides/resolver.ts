import type { Db } from '../../db/connect.js';
import type { AreaStorages } from '../../storage/area-storages.js';
import type { ResolvedSlide, SlideResolver } from '../tiles/resolver.js';
import { fromStored } from './paths.js';

/** Statuses whose file is not (yet) the one to serve. */
export const PROCESSING = new Set(['ingesting', 'converting']);

/**
 * Slide key → file, hospital and its case's subspecialty directory, from the slides table only: the key is a `slides`
 * id (only ready rows are served; one being ingested or converted answers `processing`). Any other key is no slide
 * (null: 404). There is no file-name path: a file under slides/ is reached only once bound, through its row, so its
 * hospital and directory are checked as for every slide (issue 27: a name carried no hospital, and any slide_view
 * holder read another hospital's bound file by it).
 * Answers are remembered for `ttlMs` so a viewer's burst of tile requests costs one query. The file is under the root of
 * the storage the slide is in: its hospital area's (`areas`, issue 29), or the default one (`dataDir`).
 */
export function databaseSlideResolver(db: Db, dataDir: string, areas?: AreaStorages, ttlMs = 5_000): SlideResolver {
  const known = new Map<string, { file: ResolvedSlide | null; at: number }>();
  return async (key) => {
    if (!/^[1-9]\d{0,9}$/.test(key) || Number(key) > 2_147_483_647) return null;
    const hit = known.get(key);
    if (hit && Date.now() - hit.at < ttlMs) return hit.file;
    const row = await db.selectFrom('slides').leftJoin('cases', 'cases.id', 'slides.case_id')
      .leftJoin('hospital_areas', 'hospital_areas.id', 'slides.area_id')
      .select(['slides.file_path', 'slides.hospital_id', 'slides.status', 'cases.subspecialty_id', 'slides.area_id', 'hospital_areas.storage_url'])
      .where('slides.id', '=', Number(key)).executeTakeFirst();
    // Still being read or converted: said so, and asked again next time (it becomes ready any moment).
    if (row && PROCESSING.has(row.status)) return { file: '', hospitalId: row.hospital_id, subspecialtyId: row.subspecialty_id, processing: true };
    const root = row?.area_id != null && row.storage_url !== null && areas ? areas.of({ id: row.area_id, storage_url: row.storage_url }).root : dataDir;
    const file = row?.status === 'ready' ? { file: fromStored(root, row.file_path), hospitalId: row.hospital_id, subspecialtyId: row.subspecialty_id } : null;
    if (known.size > 10_000) known.clear();
    known.set(key, { file, at: Date.now() });
    return file;
  };
}
