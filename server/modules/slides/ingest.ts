import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { parseImageDescription } from '../tiles/tiff/description.js';
import { readTiffStructure, TagReader, TiffFormatError, type ReadAt } from '../tiles/tiff/ifd-parser.js';
import { NotAPyramidError, readSlideIndex, type SlideIndex } from '../tiles/tiff/levels.js';
import { Tag } from '../tiles/tiff/tags.js';
import type { SlideTable } from '../../db/schema.js';

/** What a slide file says about itself: the `slides` columns it determines, plus where it is served from. */
export interface SlideFacts extends Pick<SlideTable, 'md5' | 'width' | 'height' | 'levels' | 'mpp' | 'objective_power' | 'scan_at' | 'tile_size' | 'status' | 'has_label' | 'has_macro'> {
  /** Absolute path of the file that is served: the converted TIFF for a plain JPEG/PNG. */
  file: string;
  file_size: number;
  vendor: string;
  /** libvips page the thumbnail is made from (the smallest stored level), null when there is none. */
  thumbPage: number | null;
}

const TIFF_EXTENSIONS = new Set(['.tif', '.tiff', '.svs', '.btf']);
const PLAIN_IMAGES = new Set(['.jpg', '.jpeg', '.png']);
/** Formats our reader cannot tile yet; kept so they can be converted later (vendor named by extension). */
const FOREIGN_VENDORS: Record<string, string> = { '.kfb': 'kfbio', '.ndpi': 'hamamatsu', '.mrxs': '3dhistech', '.vms': 'hamamatsu', '.scn': 'leica', '.czi': 'zeiss', '.sdpc': 'sqray' };
/** The upload protocol hashes the first 1 GB; the same here keeps the two MD5s comparable. */
const MD5_BYTES = 2 ** 30;
const THUMB_EDGE = 512;

export async function ingestFile(file: string): Promise<SlideFacts> {
  const ext = path.extname(file).toLowerCase();
  if (PLAIN_IMAGES.has(ext)) return ingestFile(await convertPlainImage(file));
  const [stat, md5] = await Promise.all([fs.stat(file), md5Head(file)]);
  const base = { file, file_size: stat.size, md5 };
  const unknown = {
    ...base, vendor: FOREIGN_VENDORS[ext] ?? (ext.slice(1) || 'unknown'), width: null, height: null, levels: null, mpp: null,
    objective_power: null, scan_at: null, tile_size: null, status: 'needs_conversion' as const, has_label: 0, has_macro: 0, thumbPage: null,
  };
  if (!TIFF_EXTENSIONS.has(ext)) return unknown;
  const fh = await fs.open(file, 'r');
  try {
    const readAt: ReadAt = async (position, length) => {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await fh.read(buf, 0, length, position);
      return buf.subarray(0, bytesRead);
    };
    let index: SlideIndex;
    try {
      index = await readSlideIndex(readAt);
    } catch (err) {
      // A TIFF we cannot tile (striped, unusual layout) still becomes a row, to be converted.
      if (err instanceof TiffFormatError || err instanceof NotAPyramidError) return { ...unknown, vendor: 'generic-tiff' };
      throw err;
    }
    const smallest = [...index.levels].reverse().find((l) => l.page >= 0) ?? null;
    return {
      ...base,
      vendor: index.vendor,
      width: index.width,
      height: index.height,
      levels: index.levels.length,
      mpp: index.mppX,
      objective_power: index.appMag,
      scan_at: scanTime(await firstDescription(readAt)),
      tile_size: index.levels[0]?.tileWidth ?? null,
      status: 'ready',
      has_label: index.associated.some((a) => a.name === 'label') ? 1 : 0,
      has_macro: index.associated.some((a) => a.name === 'macro') ? 1 : 0,
      thumbPage: smallest?.page ?? null,
    };
  } finally {
    await fh.close();
  }
}

/** A JPEG ≤ 512 px from the smallest stored level: decoding level 0 of a real slide would take gigabytes. */
export async function writeThumbnail(facts: SlideFacts, dest: string): Promise<boolean> {
  if (facts.status !== 'ready' || facts.thumbPage === null) return false;
  await fs.mkdir(path.dirname(dest), { recursive: true });
  await sharp(facts.file, { page: facts.thumbPage, limitInputPixels: false })
    .resize(THUMB_EDGE, THUMB_EDGE, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb').jpeg({ quality: 80 }).toFile(dest);
  return true;
}

/** Photos and scans of small fields arrive as JPEG/PNG; the tile server reads pyramidal TIFF, so convert once. */
async function convertPlainImage(file: string): Promise<string> {
  // `photo.png.tiff`: never the name of another upload in the folder, and it says what it was made from.
  const out = convertedName(file);
  await sharp(file, { limitInputPixels: false }).tiff({ tile: true, pyramid: true, compression: 'jpeg', quality: 90, tileWidth: 256, tileHeight: 256 }).toFile(out);
  return out;
}

export const convertedName = (file: string) => `${file}.tiff`;
/** The original a converted TIFF was made from (`photo.png.tiff` → `photo.png`), or null. */
export const convertedFrom = (file: string) => (/\.(jpe?g|png)\.tiff$/i.test(file) ? file.slice(0, -'.tiff'.length) : null);

async function md5Head(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file, { start: 0, end: MD5_BYTES - 1 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function firstDescription(readAt: ReadAt): Promise<string | undefined> {
  const structure = await readTiffStructure(readAt);
  const first = structure.ifds[0];
  if (!first) return undefined;
  return (await new TagReader(readAt, structure.littleEndian, structure.bigTiff).string(first, Tag.ImageDescription)) ?? undefined;
}

/** Aperio writes `Date = 12/29/09|Time = 09:59:15` (US order, two-digit year); anything else is left unknown. */
export function scanTime(description: string | undefined): string | null {
  const { properties } = parseImageDescription(description);
  const d = properties.Date?.match(/^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/);
  if (!d) return null;
  const year = d[3].length === 2 ? `20${d[3]}` : d[3];
  const time = properties.Time?.match(/^(\d{2}):(\d{2}):(\d{2})/)?.[0] ?? '00:00:00';
  return `${year}-${d[1].padStart(2, '0')}-${d[2].padStart(2, '0')}T${time}`;
}
