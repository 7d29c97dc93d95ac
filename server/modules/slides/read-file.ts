import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SlideTable } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { readKfbIndex } from '../tiles/kfb/read-index.js';
import { SlideFormatError, type SlideIndex } from '../tiles/slide-index.js';
import { SNIFF_BYTES, sniffFormat } from '../tiles/sniff.js';
import { parseImageDescription } from '../tiles/tiff/description.js';
import type { ReadAt } from '../tiles/tiff/ifd-parser.js';
import { NotAPyramidError, readSlideIndex } from '../tiles/tiff/levels.js';
import { Compression } from '../tiles/tiff/tags.js';
import { checkDeepZoom } from './conversion/deep-zoom-convert.js';
import { DeepZoomError } from './conversion/deep-zoom/descriptor.js';
import { convertedFrom } from './conversion/derived-names.js';
import { multiFileSlideIn } from './conversion/multi-file-zip.js';
import { OPENSLIDE_EXTENSIONS } from './conversion/openslide-convert.js';
import { ingestDicomFolder, isFolder } from './dicom/ingest-series.js';
import { extractDicomZip, zipHoldsDicom } from './dicom/zip-series.js';

/** Where a slide's thumbnail is made from: a libvips page (and SubIFD) of the served file, or a JPEG inside it. */
export type ThumbSource = { page: number; subifd: number } | { jpeg: { offset: number; length: number } } | { image: Buffer };

/** What a slide file says about itself: the `slides` columns it determines, plus where it is served from. */
export interface SlideFacts extends Pick<SlideTable, 'md5' | 'width' | 'height' | 'levels' | 'mpp' | 'objective_power' | 'scan_at' | 'tile_size' | 'status' | 'has_label' | 'has_macro' | 'format_note'> {
  /** Absolute path of the file that is served: the original, or what ingest made of it (an unpacked DICOM series). */
  file: string;
  file_size: number;
  vendor: string;
  /** Null when there is nothing to make a thumbnail from. */
  thumb: ThumbSource | null;
}

/** A file as ingest found it: where it is, its size, and the MD5 of its first GiB (null when not hashed). */
export type FileBase = Pick<SlideFacts, 'file' | 'file_size' | 'md5'>;

/**
 * What ingest does next with a file, from what its first bytes and its header say (ingest.ts follows it in order):
 * - `convert`: a photo or a striped TIFF, converted by the ingest itself (conversion/photo-convert.ts) and then read
 *   as the pyramid it became (readPyramid); `otherwise` is the slide when the converter breaks on it.
 * - `as-read`: the facts read, their status saying the rest: 'ready' is served as it is (tiled TIFF/SVS, KFB, DICOM;
 *   finish.ts makes it viewable), 'converting' is converted by a job of its own (conversion/convert-job.ts),
 *   'needs_conversion' (a format no tool here converts) and 'error' (a refused zip, a damaged Deep Zoom image) are kept.
 */
export type SlideReading =
  | { next: 'convert'; original: FileBase; otherwise: SlideFacts }
  | { next: 'as-read'; facts: SlideFacts };

const PLAIN_IMAGES = new Set(['.jpg', '.jpeg', '.png']);
/** Formats our readers cannot tile; kept so they can be converted later (vendor named by extension). */
const FOREIGN_VENDORS: Record<string, string> = {
  '.ndpi': 'hamamatsu', '.mrxs': '3dhistech', '.vms': 'hamamatsu', '.vmu': 'hamamatsu', '.scn': 'leica', '.bif': 'ventana',
  '.svslide': 'sakura', '.czi': 'zeiss', '.sdpc': 'sqray',
};
/** The upload protocol hashes the first 1 GB; the same here keeps the two MD5s comparable. */
const MD5_BYTES = 2 ** 30;

/** A slide nothing of which is read but what `base` says: its vendor, its status and why. */
const unread = (base: FileBase, vendor: string, status: SlideFacts['status'], format_note: string | null = null): SlideFacts => ({
  ...base, vendor, status, format_note, width: null, height: null, levels: null, mpp: null, objective_power: null, scan_at: null,
  tile_size: null, has_label: 0, has_macro: 0, thumb: null,
});

/**
 * A file that broke the reader or the converter (corrupt TIFF, truncated photo): it still gets its row, marked
 * 'error', so it is not lost on disk. The one such classification, whoever found the file broken.
 */
export const unreadable = (base: FileBase): SlideFacts => unread(base, 'unknown', 'error');

/** A file's base without reading its content: for a file that broke its reading. A folder (DICOM series) has no size of its own. */
export async function fileBase(file: string): Promise<FileBase> {
  const stat = await fs.stat(file);
  return { file, file_size: stat.isDirectory() ? 0 : stat.size, md5: null };
}

const asRead = (facts: SlideFacts): SlideReading => ({ next: 'as-read', facts });

/**
 * Reads a slide file: MD5 of its first GiB, its format by its first bytes (TIFF/BigTIFF, KFB, zip; photos and formats
 * we do not read by their extension), its header and levels; a DICOM zip is unpacked beside itself and checked.
 * Converts nothing: says what ingest does next (SlideReading). A file we cannot read still yields a reading (kept as
 * needs_conversion or error, with a note). `onProgress` hears the fraction hashed (0–1).
 */
export async function readSlideFile(file: string, onProgress?: (fraction: number) => void): Promise<SlideReading> {
  if (await isFolder(file)) return asRead(await readDicom(file, { file, file_size: 0, md5: null }));
  const ext = path.extname(file).toLowerCase();
  const [stat, md5, head] = await Promise.all([fs.stat(file), md5Head(file, onProgress), readHead(file)]);
  const base: FileBase = { file, file_size: stat.size, md5 };
  if (PLAIN_IMAGES.has(ext)) return { next: 'convert', original: base, otherwise: unreadable(base) };
  const format = sniffFormat(head);

  if (format === 'zip' && (await zipHoldsDicom(file))) return asRead(await readDicomZip(base));
  // MRXS and VMS arrive zipped with the files they refer to: converted by a background job like the others.
  const multi = format === 'zip' ? await multiFileSlideIn(file) : null;
  if (multi?.kind === 'slide') return asRead(unread(base, FOREIGN_VENDORS[multi.ext], 'converting'));
  if (multi?.kind === 'refused') return asRead(unread(base, 'zip', 'error', multi.note));
  if (ext === '.dzi' || format === 'zip') return asRead(await readDeepZoom(file, base));
  // What OpenSlide reads is converted by a background job (conversion/convert-job.ts); the rest waits for a tool we lack.
  if (FOREIGN_VENDORS[ext]) return asRead(unread(base, FOREIGN_VENDORS[ext], OPENSLIDE_EXTENSIONS.has(ext) ? 'converting' : 'needs_conversion'));
  if (format === 'kfb' || ext === '.kfb') return asRead(await readKfb(base, format === 'kfb'));
  // A TIFF we wrote ourselves is never converted again.
  if (format === 'tiff') return readTiff(base, convertedFrom(file) === null);
  return asRead(unread(base, ext.slice(1) || 'unknown', 'needs_conversion'));
}

/**
 * The pyramid a conversion wrote (and nothing else: it is not hashed, the original was): its levels, size and
 * scale, and for the thumbnail the scanner's own (kept by the conversion), else its smallest level. Throws when it
 * is not one, which a converter we run never writes.
 */
export async function readPyramid(file: string): Promise<SlideFacts> {
  const index = await withFile(file, readSlideIndex);
  const stat = await fs.stat(file);
  return { ...indexFacts({ file, file_size: stat.size, md5: null }, index), thumb: storedThumbnail(index) ?? smallestLevel(index) };
}

/** The thumbnail a converted pyramid carries as a directory of its own: far larger than a pyramid's smallest level (956×768 against 138×111 on a TCGA slide). */
const storedThumbnail = (index: SlideIndex): ThumbSource | null => {
  const stored = index.associated.find((a) => a.name === 'thumbnail' && a.page >= 0);
  return stored ? { page: stored.page, subifd: -1 } : null;
};

async function readTiff(base: FileBase, mayConvert: boolean): Promise<SlideReading> {
  let index: SlideIndex;
  try {
    index = await withFile(base.file, readSlideIndex);
  } catch (err) {
    if (!(err instanceof SlideFormatError)) throw err;
    const waiting = unread(base, 'generic-tiff', 'needs_conversion');
    // A TIFF without tiles (striped, as scanners of small fields and image editors write them): converted once; should
    // the converter break on it, it waits for conversion.
    if (mayConvert && err instanceof NotAPyramidError) return { next: 'convert', original: base, otherwise: waiting };
    return asRead(waiting);
  }
  // JPEG 2000 tiles (Aperio 33003/33005) cannot be passed to a browser: the file is re-encoded by a background job.
  if (mayConvert && index.levels.some((l) => l.compression === Compression.AperioJp2kRgb || l.compression === Compression.AperioJp2kYcc)) {
    return asRead({ ...indexFacts(base, index), status: 'converting', has_label: 0, has_macro: 0, thumb: null });
  }
  return asRead({ ...indexFacts(base, index), thumb: smallestLevel(index) });
}

const smallestLevel = (index: SlideIndex): ThumbSource | null => {
  const smallest = [...index.levels].reverse().find((l) => l.page >= 0);
  return smallest ? { page: smallest.page, subifd: smallest.subifd ?? -1 } : null;
};

/** KFB is read by a reverse-engineered reader: a slide it serves says so; one it cannot read waits for conversion. */
async function readKfb(base: FileBase, hasMagic: boolean): Promise<SlideFacts> {
  if (!hasMagic) return unread(base, 'kfbio', 'needs_conversion', 'kfb_unreadable');
  let index: SlideIndex;
  try {
    index = await withFile(base.file, readKfbIndex);
  } catch (err) {
    if (err instanceof SlideFormatError) return unread(base, 'kfbio', 'needs_conversion', 'kfb_unreadable');
    throw err;
  }
  return { ...indexFacts(base, index), format_note: 'kfb_experimental', thumb: kfbThumb(index) };
}

/** The KFB's preview block, else the largest level that is a single (complete JPEG) tile. */
function kfbThumb(index: SlideIndex): ThumbSource | null {
  const preview = index.associated.find((a) => a.name === 'thumbnail' && a.jpeg);
  if (preview?.jpeg) return { jpeg: preview.jpeg };
  const single = index.levels.find((l) => l.tilesAcross === 1 && l.tilesDown === 1 && l.compression === Compression.Jpeg && l.tileByteCounts[0] > 0);
  return single ? { jpeg: { offset: single.tileOffsets[0], length: single.tileByteCounts[0] } } : null;
}

/**
 * What bind itself refuses (422, nothing kept), from a zip's directory and a descriptor alone, without reading
 * pixels: a Deep Zoom image declaring more than the limits or than its tiles hold. All else is the ingest job's.
 */
export async function refuseAtBind(file: string): Promise<void> {
  if (await isFolder(file)) return;
  const ext = path.extname(file).toLowerCase();
  const format = sniffFormat(await readHead(file));
  if (ext !== '.dzi' && format !== 'zip') return;
  if (format === 'zip' && ((await zipHoldsDicom(file)) || (await multiFileSlideIn(file)).kind !== 'other')) return;
  await checkDeepZoom(file).catch((err) => {
    // Not a Deep Zoom image, or a damaged one: the job says so on the row.
    if (!(err instanceof DeepZoomError)) throw err;
  });
}

/** Checked again here (bind refused what it could see at once), converted by a background job (conversion/convert-job.ts). */
async function readDeepZoom(file: string, base: FileBase): Promise<SlideFacts> {
  try {
    await checkDeepZoom(file);
    return unread(base, 'deepzoom', 'converting');
  } catch (err) {
    if (!(err instanceof DeepZoomError)) throw err;
    const vendor = path.extname(file).toLowerCase() === '.dzi' ? 'deepzoom' : 'zip';
    return unread(base, vendor, err.code === 'zip_not_deep_zoom' ? 'needs_conversion' : 'error', err.code);
  }
}

/** A zip of one series' instances: unpacked beside the zip (kept as the original), served from the folder. */
async function readDicomZip(base: FileBase): Promise<SlideFacts> {
  const { folder, names } = await extractDicomZip(base.file);
  try {
    return await readDicom(folder, base);
  } catch (err) {
    // A refused series leaves nothing behind: the folder goes, the zip goes back to the caller.
    await fs.rm(folder, { recursive: true, force: true });
    // The message names the file as the zip does, not as we unpacked it.
    if (err instanceof AppError && typeof err.params.file === 'string') err.params.file = names.get(err.params.file) ?? err.params.file;
    throw err;
  }
}

async function readDicom(folder: string, original: FileBase): Promise<SlideFacts> {
  const { index, size, thumbnail } = await ingestDicomFolder(folder);
  return { ...indexFacts({ file: folder, file_size: original.file_size || size, md5: original.md5 }, index), thumb: { image: thumbnail } };
}

function indexFacts(base: FileBase, index: SlideIndex): Omit<SlideFacts, 'thumb'> {
  return {
    ...base,
    vendor: index.vendor,
    width: index.width,
    height: index.height,
    levels: index.levels.length,
    mpp: index.mppX,
    objective_power: index.appMag,
    scan_at: index.scanAt ?? null,
    tile_size: index.levels[0]?.tileWidth ?? null,
    status: 'ready',
    has_label: index.associated.some((a) => a.name === 'label') ? 1 : 0,
    has_macro: index.associated.some((a) => a.name === 'macro') ? 1 : 0,
    format_note: null,
  };
}

/** Aperio's `Date = 12/29/09|Time = 09:59:15` as ISO 8601; anything else is left unknown. */
export const scanTime = (description: string | undefined): string | null => parseImageDescription(description).scanAt;

/** Positional reads of one open file, closed again after `use`. */
export async function withFile<T>(file: string, use: (readAt: ReadAt) => Promise<T>): Promise<T> {
  const fh = await fs.open(file, 'r');
  try {
    return await use(async (position, length) => {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await fh.read(buf, 0, length, position);
      return buf.subarray(0, bytesRead);
    });
  } finally {
    await fh.close();
  }
}

const readHead = (file: string) => withFile(file, (readAt) => readAt(0, SNIFF_BYTES));

/** `onProgress` hears the fraction hashed (0–1): on a large file this read is most of an ingest's time. */
async function md5Head(file: string, onProgress?: (fraction: number) => void): Promise<string> {
  const hash = createHash('md5');
  const total = Math.min(MD5_BYTES, (await fs.stat(file)).size) || 1;
  let read = 0;
  for await (const chunk of createReadStream(file, { start: 0, end: MD5_BYTES - 1, highWaterMark: 2 ** 20 })) {
    hash.update(chunk as Buffer);
    read += (chunk as Buffer).length;
    onProgress?.(read / total);
  }
  return hash.digest('hex');
}
