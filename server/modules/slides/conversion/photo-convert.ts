import fs from 'node:fs/promises';
import sharp from '../../tiles/vips.js';
import { convertedName, partialName } from './derived-names.js';
import { checkPixels, DEFAULT_PIXEL_CAPS, type PixelCaps } from './pixel-cap.js';

/** What bounds one conversion: the pixel caps (settings), and when its job's time limit ends (ms since the epoch). */
export interface ConversionLimits {
  caps?: PixelCaps;
  deadline?: number;
}

/**
 * Photos, scans of small fields and striped (untiled) TIFFs, converted by the ingest job itself (they are small):
 * libvips reads them whole and writes the pyramid beside the original; answers its path. The size is read from the
 * header first (sharp's metadata() decodes no pixel): past the cap, refused with its 422 before any decoding, and
 * libvips is held to the same cap and to the job's remaining time (it runs in this process, where no signal reaches it).
 */
export async function convertPhoto(file: string, { caps = DEFAULT_PIXEL_CAPS, deadline }: ConversionLimits = {}): Promise<string> {
  // Unlimited for the header alone: sharp's own default limit would refuse a large one as an unreadable file, without our reason.
  const { width, height } = await sharp(file, { limitInputPixels: false }).metadata();
  checkPixels(width, height, caps.photoPixels);
  const out = convertedName(file);
  const partial = partialName(out);
  try {
    let pipeline = sharp(file, { limitInputPixels: caps.photoPixels })
      .tiff({ tile: true, pyramid: true, compression: 'jpeg', quality: 90, tileWidth: 256, tileHeight: 256 });
    if (deadline !== undefined) pipeline = pipeline.timeout({ seconds: Math.max(1, Math.ceil((deadline - Date.now()) / 1000)) });
    await pipeline.toFile(partial);
    await fs.rename(partial, out);
  } finally {
    await fs.rm(partial, { force: true });
  }
  return out;
}
