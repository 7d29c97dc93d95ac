import type { Db } from '../../db/connect.js';
import type { ResolvedSlide, SlideResolver } from '../tiles/resolver.js';
import { fromStored } from './paths.js';

/**
 * Slide key → file, hospital and its case's subspecialty directory: an integer key is a `slides` id (only ready rows are served); any other key goes to
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
      .select(['slides.file_path', 'slides.hospital_id', 'cases.subspecialty_id'])
      .where('slides.id', '=', Number(key)).where('slides.status', '=', 'ready').executeTakeFirst();
    const file = row ? { file: fromStored(dataDir, row.file_path), hospitalId: row.hospital_id, subspecialtyId: row.subspecialty_id } : null;
    if (known.size > 10_000) known.clear();
    known.set(key, { file, at: Date.now() });
    return file;
  };
}
