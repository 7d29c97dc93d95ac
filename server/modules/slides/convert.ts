import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from '../tiles/vips.js';
import { AppError } from '../../http/errors.js';
import { checkTilesPresent, checkWorkingMemory, DeepZoomError, dziLevelCount, parseDziDescriptor } from './deep-zoom/descriptor.js';
import { deepZoomToTiff } from './deep-zoom/to-tiff.js';
import { openFolderSource, openZipSource, type DeepZoomSource } from './deep-zoom/sources.js';
import { dicomFolderName } from './dicom/zip-series.js';
import { checkPixels, DEFAULT_PIXEL_CAPS, type PixelCaps } from './conversion/pixel-cap.js';

/**
 * Files the tile server cannot read as they are, converted once at ingest to a pyramidal JPEG TIFF
 * written beside the original (`photo.png` → `photo.png.tiff`), which is kept and deleted with the slide.
 */
export const convertedName = (file: string) => `${file}.tiff`;

const CONVERTED = /\.(jpe?g|png|tiff?|btf|zip|dzi|ndpi|mrxs|scn|bif|vms|vmu|svslide|svs)\.tiff$/i;
const UNPACKED = /\.zip\.dicom$/i;

/** The original a converted TIFF (or an unpacked DICOM series) was made from (`photo.png.tiff` → `photo.png`), or null. */
export const convertedFrom = (file: string) => {
  if (CONVERTED.test(file)) return file.slice(0, -'.tiff'.length);
  return UNPACKED.test(file) ? file.slice(0, -'.dicom'.length) : null;
};

/** What ingest may make beside an original: its converted TIFF, or the folder a DICOM zip unpacks to. */
export const derivedNames = (file: string) => [convertedName(file), dicomFolderName(file)];

/** Everything a converted slide's original consists of: the file, and for a `.dzi` its `_files` folder too. */
export function originalParts(original: string): string[] {
  return /\.dzi$/i.test(original) ? [original, `${original.slice(0, -'.dzi'.length)}_files`] : [original];
}

/** A name of its own for a file being written, renamed to its real name once complete: no reader sees half a TIFF. */
const partialName = (out: string) => `${out}.${randomBytes(4).toString('hex')}.partial`;

/** What bounds one conversion: the pixel caps (settings), and when its job's time limit ends (ms since the epoch). */
export interface ConversionLimits {
  caps?: PixelCaps;
  deadline?: number;
}

/**
 * Photos, scans of small fields and striped (untiled) TIFFs: libvips reads them whole and writes the pyramid. The size
 * is read from the header first (sharp's metadata() decodes no pixel): past the cap, refused with its 422 before any
 * decoding, and libvips is held to the same cap and to the job's remaining time (it runs in this process, where no
 * signal reaches it).
 */
export async function convertWithLibvips(file: string, { caps = DEFAULT_PIXEL_CAPS, deadline }: ConversionLimits = {}): Promise<string> {
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

/**
 * Whether a Deep Zoom image may be converted, without converting it (bind answers at once; a job converts): its
 * descriptor read, its size within the limits and its tiles all there. Throws as convertDeepZoom does.
 */
export async function checkDeepZoom(file: string): Promise<void> {
  await withDeepZoom(file, async (source) => {
    const d = parseDziDescriptor(source.descriptor);
    checkWorkingMemory(d, 256);
    checkTilesPresent(d, await source.tiles(dziLevelCount(d) - 1, d.format));
  });
}

/**
 * A Deep Zoom image, as a `.zip` or as a `.dzi` beside its `_files` folder. Throws DeepZoomError when it is not one,
 * and a 422 when it declares more than it may or than its tiles hold: refused before anything is allocated.
 */
export async function convertDeepZoom(file: string): Promise<string> {
  const out = convertedName(file);
  await withDeepZoom(file, (source) => deepZoomToTiff(source, out));
  return out;
}

async function withDeepZoom<T>(file: string, use: (source: DeepZoomSource) => Promise<T>): Promise<T> {
  const source = path.extname(file).toLowerCase() === '.dzi' ? await openFolderSource(file) : await openZipSource(file);
  try {
    return await use(source);
  } catch (err) {
    if (err instanceof DeepZoomError && err.refused) throw new AppError(422, err.refused.key, err.refused.params);
    throw err;
  } finally {
    await source.close();
  }
}
