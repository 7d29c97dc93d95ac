import sharp from 'sharp';
import { hash3 } from './random.js';
import { blendTextures, paintTexture, type Rgb } from './textures.js';
import { makeTissueMap } from './tissue-map.js';

export interface DemoRasterOptions {
  width: number;
  height: number;
  seed?: number;
  /** Texture tile edge; the same choice per tile as the TIFF generator makes. */
  tileSize?: number;
}

/**
 * The whole synthetic H&E-like image in memory (RGB), for writers of formats that are easier to build
 * from one raster (KFB, OME-TIFF test files): width × height × 3 bytes, so keep it to demo sizes.
 */
export function paintDemoRaster(options: DemoRasterOptions): Rgb {
  const { width, height } = options;
  const seed = options.seed ?? 1;
  const T = options.tileSize ?? 256;
  const map = makeTissueMap(width, height, seed);
  const tissue = Array.from({ length: 12 }, (_, i) => paintTexture(T, 'tissue', seed * 1000 + i));
  const background = Array.from({ length: 8 }, (_, i) => paintTexture(T, 'background', seed * 1000 + 500 + i));
  const out = Buffer.alloc(width * height * 3);
  for (let ty = 0; ty * T < height; ty++) {
    for (let tx = 0; tx * T < width; tx++) {
      const h = hash3(tx, ty, seed);
      const t = tissue[h % tissue.length], b = background[(h >>> 8) % background.length];
      const kind = map.classify(tx * T, ty * T, T, T);
      const tile = kind === 'tissue' ? t : kind === 'background' ? b : blendTextures(b, t, T, (x, y) => map.at(tx * T + x, ty * T + y));
      const w = Math.min(T, width - tx * T);
      for (let y = 0; y < Math.min(T, height - ty * T); y++) {
        tile.copy(out, ((ty * T + y) * width + tx * T) * 3, y * T * 3, (y * T + w) * 3);
      }
    }
  }
  return out;
}

/** The same picture at another size (box-filtered by libvips), for the next pyramid level. */
export async function resizeRaster(raw: Rgb, width: number, height: number, toWidth: number, toHeight: number): Promise<Rgb> {
  return sharp(raw, { raw: { width, height, channels: 3 } }).resize(toWidth, toHeight, { fit: 'fill' }).raw().toBuffer();
}

/** A JPEG of `width × height` pixels taken from a raster at (left, top); complete, with JFIF header, as cameras write. */
export async function jpegOf(raw: Rgb, rasterWidth: number, rasterHeight: number, rect: { left: number; top: number; width: number; height: number }, quality: number): Promise<Buffer> {
  return sharp(raw, { raw: { width: rasterWidth, height: rasterHeight, channels: 3 } })
    .extract(rect).jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer();
}
