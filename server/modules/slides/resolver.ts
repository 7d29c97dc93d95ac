import type { Db } from '../../db/connect.js';
import type { ResolvedSlide, SlideResolver } from '../tiles/resolver.js';
import { fromStored } from './paths.js';

/** Statuses whose file is not (yet) the one to serve. */
export const PROCESSING = new Set(['ingesting', 'converting']);

/**
 * Slide key → file, hospital and its case's subspecialty directory: an integer key is a `slides` id (only ready rows are served; one being ingested or converted answers `processing`); any other key goes to
 * `fallback` (the file-name resolver, kept for demo files and links made before the table existed).
 * Answers are remembered for `ttlMs` so a viewer's burst of tile requests costs one query.
 */
export function databaseSlideResolver(db: Db, dataDir: string, fallback: SlideResolver, ttlMs = 5_000): SlideResolver {
  const known = new Map<string, { file: ResolvedSlide | null; at: number }>();
  return async (key) => {
    if (!/^[1-9]\d{0,9}$/.test(key)) return fallback(key);
    const hit = known.get(key);
    if (hit && Date.now() - hit.at < ttlMs) return hit.file;
    const row = await db.selectFrom('slides').leftJoin('cases', 'cases.id', 'slides.case_id')
      .select(['slides.file_path', 'slides.hospital_id', 'slides.status', 'cases.subspecialty_id'])
      .where('slides.id', '=', Number(key)).executeTakeFirst();
    // Still being read or converted: said so, and asked again next time (it becomes ready any moment).
    if (row && PROCESSING.has(row.status)) return { file: '', hospitalId: row.hospital_id, subspecialtyId: row.subspecialty_id, processing: true };
    const file = row?.status === 'ready' ? { file: fromStored(dataDir, row.file_path), hospitalId: row.hospital_id, subspecialtyId: row.subspecialty_id } : null;
    if (known.size > 10_000) known.clear();
    known.set(key, { file, at: Date.now() });
    return file;
  };
}
