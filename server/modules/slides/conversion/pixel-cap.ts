import { AppError } from '../../../http/errors.js';
import { DZI_LIMITS } from './deep-zoom/descriptor.js';

/**
 * What a conversion may decode, read from the file's header before a pixel is (issue 27 finding 6: a 1.5 MB PNG
 * declared 1.6 gigapixels). `photoPixels` bounds what libvips reads whole (photos, striped TIFFs: CONVERT_MAX_PIXELS);
 * `slidePixels` the whole-slide formats OpenSlide reads (CONVERT_SLIDE_MAX_PIXELS), like Deep Zoom's own limit. A side
 * is bounded as Deep Zoom's is.
 */
export interface PixelCaps { photoPixels: number; slidePixels: number }

/**
 * 10^9 px (about 31,600 px square) is a photo or a striped scan of a large field; 4·10^10 px (200,000 px square) is
 * beyond any whole-slide scan we know of, as for Deep Zoom.
 */
export const DEFAULT_PIXEL_CAPS: PixelCaps = { photoPixels: 1_000_000_000, slidePixels: DZI_LIMITS.pixels };
export const MAX_SIDE = DZI_LIMITS.side;

/** Refuses (422, translated; a job keeps the reason) an image whose header declares more than `maxPixels` or a side past MAX_SIDE. */
export function checkPixels(width: number | undefined, height: number | undefined, maxPixels: number): void {
  if (!(typeof width === 'number' && typeof height === 'number' && width >= 1 && height >= 1)) return;
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > maxPixels) {
    throw new AppError(422, 'slide.too_many_pixels', { width: n(width), height: n(height), side: n(MAX_SIDE), pixels: n(maxPixels) });
  }
}

/** Numbers in messages, grouped by thousands (read the same in both languages). */
const n = (v: number) => v.toLocaleString('en-US');
