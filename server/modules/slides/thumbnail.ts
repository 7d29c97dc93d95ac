import fs from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Sharp } from '../tiles/vips.js';
import { DEFAULT_PIXEL_CAPS } from './conversion/pixel-cap.js';
import { withFile, type SlideFacts } from './read-file.js';

const THUMB_EDGE = 512;

/** A JPEG ≤ 512 px from the smallest stored level or a stored preview: decoding level 0 of a real slide would take gigabytes. */
export async function writeThumbnail(facts: SlideFacts, dest: string): Promise<boolean> {
  const { thumb } = facts;
  if (facts.status !== 'ready' || thumb === null) return false;
  let input: Sharp;
  if ('image' in thumb) {
    input = sharp(thumb.image);
  } else if ('jpeg' in thumb) {
    const bytes = await withFile(facts.file, (readAt) => readAt(thumb.jpeg.offset, thumb.jpeg.length));
    input = sharp(bytes);
  } else {
    // The smallest level is small in any real pyramid; one that is not (a single-level tiled TIFF) gets no thumbnail
    // rather than a decoding without bounds.
    input = sharp(facts.file, { page: thumb.page, tiff: { subifd: thumb.subifd }, limitInputPixels: DEFAULT_PIXEL_CAPS.photoPixels });
  }
  await fs.mkdir(path.dirname(dest), { recursive: true });
  await input.resize(THUMB_EDGE, THUMB_EDGE, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb').jpeg({ quality: 80 }).toFile(dest);
  return true;
}
