import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AreaStorages, SlidePlace } from '../../storage/area-storages.js';
import { areaLocation, hospitalAreaLocation } from './queries.js';

/**
 * Where a slide's files are: its area's storage (opened on first use), or the default storage for a slide of no
 * area. An area row that is gone (deleting one that holds slides is refused: hooks.ts) reads as no area.
 */
export async function slidePlace(db: Kysely<Database>, areas: AreaStorages, areaId: number | null): Promise<SlidePlace> {
  if (areaId === null) return areas.base;
  return areas.of(await areaLocation(db, areaId));
}

/** Where a hospital's new slides go (bind, a scanner's scan): its area and that area's place. */
export async function hospitalPlace(db: Kysely<Database>, areas: AreaStorages, hospitalId: number): Promise<{ areaId: number | null; place: SlidePlace }> {
  const area = await hospitalAreaLocation(db, hospitalId);
  return { areaId: area?.id ?? null, place: areas.of(area) };
}
