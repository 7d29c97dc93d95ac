import type { RgbImage } from '../tile-reader.js';
import type { Level } from '../slide-index.js';
import { Photometric } from '../tiff/tags.js';

/**
 * Native 8-bit frame bytes as interleaved RGB: grey (MONOCHROME2) repeated in three channels, planar
 * (RRR…GGG…BBB…) interleaved, and YBR_FULL converted with the full-range BT.601 matrix DICOM defines for it.
 * Frames are stored full size, so the result is tileWidth × tileHeight like a padded TIFF tile.
 */
export function rawToRgb(bytes: Buffer, level: Pick<Level, 'tileWidth' | 'tileHeight' | 'samplesPerPixel' | 'photometric' | 'planar'>): RgbImage {
  const width = level.tileWidth, height = level.tileHeight, n = width * height;
  const out = Buffer.alloc(n * 3);
  if (level.samplesPerPixel === 1) {
    for (let i = 0; i < n; i++) out[i * 3] = out[i * 3 + 1] = out[i * 3 + 2] = bytes[i];
    return { data: out, width, height };
  }
  const planar = !!level.planar;
  const at = (i: number, c: number) => (planar ? bytes[c * n + i] : bytes[i * 3 + c]);
  const ybr = level.photometric === Photometric.YCbCr;
  for (let i = 0; i < n; i++) {
    const a = at(i, 0), b = at(i, 1), c = at(i, 2);
    if (ybr) {
      out[i * 3] = clamp(a + 1.402 * (c - 128));
      out[i * 3 + 1] = clamp(a - 0.344136 * (b - 128) - 0.714136 * (c - 128));
      out[i * 3 + 2] = clamp(a + 1.772 * (b - 128));
    } else {
      out[i * 3] = a; out[i * 3 + 1] = b; out[i * 3 + 2] = c;
    }
  }
  return { data: out, width, height };
}

const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));
