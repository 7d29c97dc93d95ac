import sharp from 'sharp';
import { AppError } from '../../http/errors.js';
import type { OpenedSlide } from './slide-store.js';
import type { RgbImage, TileReader } from './tile-reader.js';

/** A rectangle in level-0 pixels; fractional edges are allowed (a DZI tile of a coarse level maps to them). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type OutputFormat = 'jpg' | 'png' | 'webp';

export interface EncodeOptions {
  format: OutputFormat;
  quality: number;
  gray?: boolean;
  /** Black and white only (IIIF quality `bitonal`). */
  bitonal?: boolean;
  /** Clockwise, a multiple of 90. */
  rotation?: number;
  mirror?: boolean;
}

/** Refuse to decode more than this many source pixels for one response (a 64-megapixel window). */
export const MAX_SOURCE_PIXELS = 64 * 2 ** 20;
const EPS = 1e-6;

/**
 * Pixels of a level-0 rectangle at `outWidth × outHeight`: read from the coarsest stored level that is
 * still at least as fine as the output (OpenSlide's rule), then resized with sharp. A level that matches
 * the output exactly is cropped without resampling.
 */
export async function renderRegion(reader: TileReader, slide: OpenedSlide, rect: Rect, outWidth: number, outHeight: number): Promise<RgbImage> {
  const { index } = slide;
  // Levels are ordered finest first; the last one whose copy of the rectangle spans the output (within the
  // pixel that ceil/floor level sizes differ by) is the cheapest to read without upsampling.
  let levelIndex = 0;
  index.levels.forEach((level, i) => {
    const spanX = (rect.width * level.width) / index.width, spanY = (rect.height * level.height) / index.height;
    if (spanX >= outWidth - 1 && spanY >= outHeight - 1) levelIndex = i;
  });
  const level = index.levels[levelIndex];
  const sx = level.width / index.width, sy = level.height / index.height;
  const x0 = Math.max(0, Math.floor(rect.x * sx + EPS)), y0 = Math.max(0, Math.floor(rect.y * sy + EPS));
  const x1 = Math.min(level.width, Math.ceil((rect.x + rect.width) * sx - EPS));
  const y1 = Math.min(level.height, Math.ceil((rect.y + rect.height) * sy - EPS));
  const w = Math.max(1, x1 - x0), h = Math.max(1, y1 - y0);
  if (w * h > MAX_SOURCE_PIXELS) throw new AppError(413, 'tile.region_too_large', { pixels: w * h, limit: MAX_SOURCE_PIXELS });
  const region = await reader.readRegion(slide, levelIndex, x0, y0, w, h);
  if (w === outWidth && h === outHeight) return region;
  const { data, info } = await sharp(region.data, { raw: { width: w, height: h, channels: 3 } })
    .resize(outWidth, outHeight, { fit: 'fill', kernel: 'lanczos3' })
    .raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * `width × height` pixels of stored level `levelIndex` from (x, y), as they are (no resampling). Where the level is
 * a pixel short of the size asked for (a Deep Zoom level rounded up, the file's rounded down), its last column and
 * row are repeated, the way an edge is extended before filtering, rather than left white or guessed.
 */
export async function readLevelPixels(reader: TileReader, slide: OpenedSlide, levelIndex: number, x: number, y: number, width: number, height: number): Promise<RgbImage> {
  const level = slide.index.levels[levelIndex];
  const x0 = Math.min(x, level.width - 1), y0 = Math.min(y, level.height - 1);
  const w = Math.max(1, Math.min(x + width, level.width) - x0), h = Math.max(1, Math.min(y + height, level.height) - y0);
  const region = await reader.readRegion(slide, levelIndex, x0, y0, w, h);
  if (w === width && h === height) return region;
  const { data, info } = await sharp(region.data, { raw: { width: w, height: h, channels: 3 } })
    .extend({ right: width - w, bottom: height - h, extendWith: 'copy' })
    .raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

export async function encodeImage(image: RgbImage, options: EncodeOptions): Promise<Buffer> {
  let s = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
  if (options.mirror) s = s.flop();
  if (options.rotation) s = s.rotate(options.rotation);
  if (options.gray || options.bitonal) s = s.grayscale();
  if (options.bitonal) s = s.threshold(128);
  switch (options.format) {
    case 'png': return s.png({ compressionLevel: 6 }).toBuffer();
    case 'webp': return s.webp({ quality: options.quality }).toBuffer();
    default: return s.jpeg({ quality: options.quality, chromaSubsampling: '4:2:0' }).toBuffer();
  }
}

export const CONTENT_TYPES: Record<OutputFormat, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };
