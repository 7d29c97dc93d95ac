import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';

export const FOCUS_W = 4096, FOCUS_H = 3072;
/** Gaussian σ in level-0 pixels (0.25 µm): 8 px is 2 µm, a region of the slide scanned out of focus. */
export const BLUR_SIGMA = 8;

/**
 * A demo slide and a copy of it whose left half is blurred (everything else identical), both pyramidal JPEG TIFFs
 * at 0.25 µm/px, written once into `dir`. Answers their paths.
 */
export async function sharpAndBlurred(dir: string): Promise<{ sharp: string; blurred: string }> {
  fs.mkdirSync(dir, { recursive: true });
  const original = path.join(dir, 'focus-sharp.tiff');
  const blurred = path.join(dir, 'focus-blurred.tiff');
  if (!fs.existsSync(original)) await generateDemoSlide({ out: original, width: FOCUS_W, height: FOCUS_H, seed: 1, mpp: 0.25, label: true });
  if (!fs.existsSync(blurred)) {
    const half = await sharp(original, { page: 0 }).extract({ left: 0, top: 0, width: FOCUS_W / 2, height: FOCUS_H }).blur(BLUR_SIGMA).toBuffer();
    await sharp(original, { page: 0, limitInputPixels: false }).composite([{ input: half, left: 0, top: 0 }])
      .tiff({ tile: true, pyramid: true, compression: 'jpeg', quality: 80, tileWidth: 256, tileHeight: 256, xres: 4000, yres: 4000, resolutionUnit: 'cm' })
      .toFile(blurred);
  }
  return { sharp: original, blurred };
}
