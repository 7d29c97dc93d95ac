import fs from 'node:fs/promises';
import type { Db } from '../../../db/connect.js';
import { convertedFrom } from './derived-names.js';
import { fromStored } from '../paths.js';
import { DEEP_ZOOM_EXTENSIONS } from './deep-zoom-convert.js';
import { OPENSLIDE_EXTENSIONS } from './openslide-convert.js';
import { convertedSlides, enqueueConversion, markConverting, slidesWaitingForVips } from './queries.js';
import { vipsAvailable } from './vips-cli.js';

/**
 * At start: slides that waited for libvips convert now that it is there, and a converted pyramid that went
 * missing (it is a derived file) is made again from its original. Answers how many jobs were queued.
 */
export async function queueMissingConversions(db: Db, dataDir: string): Promise<number> {
  let queued = 0;
  if (await vipsAvailable()) {
    for (const slide of await slidesWaitingForVips(db)) {
      await markConverting(db, slide.id);
      await enqueueConversion(db, slide.id, slide.hospital_id);
      queued++;
    }
  }
  for (const slide of await convertedSlides(db)) {
    const served = fromStored(dataDir, slide.file_path);
    const original = convertedFrom(served);
    const ext = original?.slice(original.lastIndexOf('.')).toLowerCase() ?? '';
    if (!original || !(OPENSLIDE_EXTENSIONS.has(ext) || DEEP_ZOOM_EXTENSIONS.has(ext))) continue;
    if (await fs.stat(served).catch(() => null)) continue;
    if (!(await fs.stat(original).catch(() => null))) continue;
    await enqueueConversion(db, slide.id, slide.hospital_id);
    queued++;
  }
  return queued;
}
