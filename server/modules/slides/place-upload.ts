import fs from 'node:fs/promises';
import path from 'node:path';
import type { AreaStorages, SlidePlace } from '../../storage/area-storages.js';
import { transferObject } from '../../storage/transfer.js';
import { moveInto, type Placed } from './move-file.js';
import { moveIntoStored } from './move-stored.js';
import { fromStored, slidesRoot, toStored, uploadsCompleteRoot } from './paths.js';

/**
 * A finished upload (in the default storage, `areas.base`) moved under slides/<yyyy>/<mm>/ of the default storage,
 * or under slides/areas/<area id>/<yyyy>/<mm>/ of its hospital area's (issue 29): first carried into that storage
 * under the same key, then moved there under a free name (move-file.ts, move-stored.ts). Stored paths are unique over
 * all storages (the slides table's file_path): the area's id in the path keeps one area's names from meeting another's
 * or the default's. `putBack` returns it to where the upload left it, in the default storage. Used by a person's bind
 * and a scanner's.
 */
export async function placeUpload(areas: AreaStorages, source: string, { areaId, place }: { areaId: number | null; place: SlidePlace }): Promise<Placed> {
  const { root: dataDir, storage } = areas.base;
  const key = toStored(dataDir, source);
  const carried = place !== areas.base;
  if (carried) await transferObject(storage, place.storage, key);
  const from = fromStored(place.root, key);
  const now = new Date();
  const base = areaId === null ? slidesRoot(place.root) : path.join(slidesRoot(place.root), 'areas', String(areaId));
  const month = path.join(base, String(now.getFullYear()), String(now.getMonth() + 1).padStart(2, '0'));
  const placed = await (place.storage.kind === 's3' ? moveIntoStored(place.storage, place.root, from, month) : moveInto(from, month)).catch(async (err) => {
    if (carried) await transferObject(place.storage, storage, key).catch(() => {});
    throw err;
  });
  // The upload's own folder (uploads/complete/<id>/) is empty now; a folder still holding files stays.
  for (const folder of new Set([path.dirname(source), path.dirname(from)])) {
    if (folder !== uploadsCompleteRoot(dataDir) && folder !== uploadsCompleteRoot(place.root)) await fs.rmdir(folder).catch(() => {});
  }
  return {
    file: placed.file,
    putBack: async () => {
      await placed.putBack();
      if (carried) await transferObject(place.storage, storage, key);
    },
  };
}
