import { readKfbIndex } from './kfb/read-index.js';
import { SlideFormatError, type SlideIndex } from './slide-index.js';
import { SNIFF_BYTES, sniffFormat } from './sniff.js';
import type { ReadAt } from './tiff/ifd-parser.js';
import { readSlideIndex } from './tiff/levels.js';

/** Indexes a slide file with the reader its first bytes call for: TIFF/BigTIFF (SVS, OME-TIFF) or KFB. */
export async function readAnySlideIndex(readAt: ReadAt): Promise<SlideIndex> {
  const format = sniffFormat(await readAt(0, SNIFF_BYTES));
  if (format === 'tiff') return readSlideIndex(readAt);
  if (format === 'kfb') return readKfbIndex(readAt);
  throw new SlideFormatError('not a TIFF or KFB slide');
}
