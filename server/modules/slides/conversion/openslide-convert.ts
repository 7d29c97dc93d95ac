import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { convertedName, partialName } from './derived-names.js';
import { appendStrippedImages } from '../../tiles/tiff/append-images.js';
import { readAssociatedImages } from './openslide-associated.js';
import { openslideProperty, runVips, type VipsRun } from './vips-cli.js';
import { checkPixels, DEFAULT_PIXEL_CAPS } from './pixel-cap.js';

/** Formats only OpenSlide reads: converted once to the pyramidal JPEG TIFF the tile server passes through. */
export const OPENSLIDE_EXTENSIONS = new Set(['.ndpi', '.mrxs', '.scn', '.bif', '.vms', '.vmu', '.svslide', '.svs']);

/** The JPEG quality of converted tiles: what `format_note` promises ("re-encoded at quality 90"). */
export const CONVERSION_QUALITY = 90;

/** A conversion's signal and progress, and the pixels it may declare (CONVERT_SLIDE_MAX_PIXELS). */
export interface OpenSlideRun extends VipsRun {
  maxPixels?: number;
}

export interface OpenSlideResult {
  file: string;
  objectivePower: number | null;
}

/**
 * Writes `<original>.tiff` from what OpenSlide reads of `original` (or of `slide`, unpacked from an original zip): 256-pixel JPEG tiles at quality 90, every
 * pyramid level, BigTIFF, the resolution (MPP) in the TIFF tags and every OpenSlide property (the original's
 * metadata) in the base image's description, the scanner's thumbnail, label and macro images after the pyramid. Written under a name of its own and renamed when complete, so
 * no reader ever sees half a file; partial files a killed conversion left behind are removed first.
 */
export async function convertWithOpenSlide(original: string, run: OpenSlideRun = {}, slide = original): Promise<OpenSlideResult> {
  const out = convertedName(original);
  await removeLeftovers(out);
  const partial = partialName(out);
  // libvips reads `name[options]` as load options: a file whose name holds brackets is read through a plain link.
  const input = /[[\]]/.test(path.basename(slide)) ? await plainLink(slide) : null;
  const source = input ?? slide;
  try {
    // The size OpenSlide reads from the slide's own header (vipsheader decodes no pixel), refused past the cap first.
    const dimension = async (name: string) => Number(await openslideProperty(source, name));
    checkPixels(await dimension('width'), await dimension('height'), run.maxPixels ?? DEFAULT_PIXEL_CAPS.slidePixels);
    await runVips([
      'tiffsave', `${source}[rgb]`, partial,
      '--tile', '--tile-width', '256', '--tile-height', '256', '--pyramid', '--compression', 'jpeg', '--Q', String(CONVERSION_QUALITY),
      '--bigtiff', '--properties',
    ], run);
    // The thumbnail, label and macro follow the pyramid as directories of their own, before the file gets its served name.
    await appendStrippedImages(partial, await readAssociatedImages(source, run.signal));
    await fs.rename(partial, out);
  } finally {
    await fs.rm(partial, { force: true });
    if (input) await fs.rm(input, { force: true });
  }
  const power = Number(await openslideProperty(source, 'openslide.objective-power'));
  return { file: out, objectivePower: Number.isFinite(power) && power > 0 ? power : null };
}

async function removeLeftovers(out: string): Promise<void> {
  const dir = path.dirname(out);
  const prefix = `${path.basename(out)}.`;
  for (const name of await fs.readdir(dir)) {
    if (name.startsWith(prefix) && name.endsWith('.partial')) await fs.rm(path.join(dir, name), { force: true });
  }
}

async function plainLink(file: string): Promise<string> {
  const link = path.join(path.dirname(file), `.convert-${randomBytes(6).toString('hex')}${path.extname(file)}`);
  await fs.symlink(path.basename(file), link);
  return link;
}
