import sharp from 'sharp';
import { paintLabel } from './label.js';
import type { Rgb } from './textures.js';

export interface DemoJpeg {
  jpeg: Buffer;
  width: number;
  height: number;
}

const GLASS = { r: 236, g: 238, b: 240 };

/**
 * What scanners photograph beside the pyramid: the label, the whole glass slide (macro: label on the left,
 * tissue overview on the right) and a small preview of the scanned area. Complete baseline JPEGs.
 */
export async function demoAssociatedImages(raster: Rgb, width: number, height: number, slideId: string): Promise<{ label: DemoJpeg; macro: DemoJpeg; preview: DemoJpeg }> {
  const source = () => sharp(raster, { raw: { width, height, channels: 3 } });
  const [lw, lh] = [600, 400];
  const labelRaw = paintLabel(slideId, lw, lh);
  const label = await sharp(labelRaw, { raw: { width: lw, height: lh, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();

  const [mw, mh] = [1200, 400];
  const overview = await source().resize(mw - 360, mh - 20, { fit: 'inside' }).png().toBuffer({ resolveWithObject: true });
  const labelSmall = await sharp(labelRaw, { raw: { width: lw, height: lh, channels: 3 } }).resize(300, 200).png().toBuffer();
  const macro = await sharp({ create: { width: mw, height: mh, channels: 3, background: GLASS } })
    .composite([{ input: labelSmall, left: 20, top: 100 }, { input: overview.data, left: 340, top: Math.round((mh - overview.info.height) / 2) }])
    .jpeg({ quality: 85 }).toBuffer();

  const preview = await source().resize(512, 512, { fit: 'inside' }).jpeg({ quality: 85 }).toBuffer({ resolveWithObject: true });
  return {
    label: { jpeg: label, width: lw, height: lh },
    macro: { jpeg: macro, width: mw, height: mh },
    preview: { jpeg: preview.data, width: preview.info.width, height: preview.info.height },
  };
}
