import fs from 'node:fs/promises';
import { AppError } from '../../../http/errors.js';
import { DicomSeriesError } from '../../tiles/dicom/errors.js';
import { listSeriesFolder, seriesReadAt } from '../../tiles/dicom/series-files.js';
import { readDicomSeriesIndex } from '../../tiles/dicom/series-index.js';
import { FileHandlePool } from '../../tiles/file-handles.js';
import { encodeImage, renderRegion } from '../../tiles/render.js';
import type { SlideIndex } from '../../tiles/slide-index.js';
import { TileReader } from '../../tiles/tile-reader.js';

const THUMB_EDGE = 512;

export interface IngestedSeries {
  index: SlideIndex;
  /** Bytes of all instances. */
  size: number;
  /** A JPEG of the whole slide at most 512 px a side, from the smallest level that is large enough. */
  thumbnail: Buffer;
}

/**
 * Reads a series folder as the tile server will (same reader, same address space) and makes its thumbnail.
 * A set of files that is not one whole-slide series is refused with a translated 422 naming why.
 */
export async function ingestDicomFolder(folder: string): Promise<IngestedSeries> {
  const handles = new FileHandlePool(16);
  try {
    const files = await listSeriesFolder(folder);
    const readAt = seriesReadAt(files, (f, position, length) => handles.read(f, position, length));
    const index = await readDicomSeriesIndex(readAt, files);
    const scale = Math.min(1, THUMB_EDGE / Math.max(index.width, index.height));
    const width = Math.max(1, Math.round(index.width * scale)), height = Math.max(1, Math.round(index.height * scale));
    const slide = { file: folder, identity: `ingest:${folder}`, index, readAt };
    const pixels = await renderRegion(new TileReader(16 * 2 ** 20), slide, { x: 0, y: 0, width: index.width, height: index.height }, width, height);
    return { index, size: files.reduce((n, f) => n + f.size, 0), thumbnail: await encodeImage(pixels, { format: 'jpg', quality: 80 }) };
  } catch (err) {
    if (err instanceof DicomSeriesError) throw new AppError(422, `dicom.${err.code}`, err.params);
    throw err;
  } finally {
    handles.closeAll();
  }
}

/** Whether a path is a folder (a series put under slides/ by an operator, or unpacked from a zip). */
export const isFolder = async (p: string) => !!(await fs.stat(p).catch(() => null))?.isDirectory();
