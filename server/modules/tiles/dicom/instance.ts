import type { DataSet } from 'dicom-parser';
import type { ReadAt } from '../tiff/ifd-parser.js';
import { DicomSeriesError } from './errors.js';
import { encapsulatedFrames, nativeFrames, type FrameLocation } from './frames.js';
import { readDicomHeader } from './read-header.js';
import { transferSyntax, type FrameCodec } from './transfer-syntax.js';

/** VL Whole Slide Microscopy Image Storage (Supplement 145). */
export const WSI_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.77.1.6';

export type WsiImageFlavor = 'VOLUME' | 'LABEL' | 'OVERVIEW' | 'THUMBNAIL';

/** One instance of a series: its place in the pyramid and where each of its tiles' bytes are. */
export interface WsiInstance {
  studyUid: string;
  seriesUid: string;
  sopInstanceUid: string;
  flavor: WsiImageFlavor;
  /** Size of the whole image this instance is (part of): the level's size. */
  totalWidth: number;
  totalHeight: number;
  tileWidth: number;
  tileHeight: number;
  codec: FrameCodec;
  photometric: string;
  samplesPerPixel: number;
  planar: boolean;
  /** JPEG frames carry a JFIF or Adobe marker, which tells decoders their colour space. */
  jpegMarksColour: boolean;
  /** Tiles of the first optical path and focal plane, as (col, row) → frame bytes. */
  tiles: { col: number; row: number; frame: FrameLocation }[];
  /** Millimetres per pixel (row spacing, column spacing), from the pixel measures functional group. */
  pixelSpacing: [number, number] | null;
  objectivePower: number | null;
  acquiredAt: string | null;
}

/** More frames than this in one instance is not a slide a scanner wrote (a 200k-pixel side at 256-pixel tiles is 600k). */
export const MAX_FRAMES = 1_000_000;
const MAX_SIDE = 1_000_000;
const MAX_TILE_SIDE = 16_384;

const str = (ds: DataSet | undefined, tag: string) => (ds?.string(tag) ?? '').replace(/\0/g, '').trim();
const item = (ds: DataSet | undefined, tag: string, i = 0): DataSet | undefined => ds?.elements[tag]?.items?.[i]?.dataSet;

/** A functional group attribute: per-frame first (for frame `i`), else shared. */
function group(ds: DataSet, sequence: string, i: number): DataSet | undefined {
  return item(item(ds, 'x52009230', i), sequence) ?? item(item(ds, 'x52009229'), sequence);
}

/**
 * Reads one file of a series (header, then frame offsets) and checks it is a whole-slide image we can tile.
 * `base` is the file's first byte in `readAt`'s address space (several files share one, see series-files).
 */
export async function readWsiInstance(readAt: ReadAt, base: number, size: number): Promise<WsiInstance> {
  const { dataSet: ds, transferSyntaxUid, pixelDataOffset, pixelDataLength } = await readDicomHeader(readAt, base, size);
  if (str(ds, 'x00080016') !== WSI_SOP_CLASS) throw new DicomSeriesError('not_wsi', { sopClass: str(ds, 'x00080016') || '-' });
  const syntax = transferSyntax(transferSyntaxUid);
  if (!syntax) throw new DicomSeriesError('syntax_unsupported', { syntax: transferSyntaxUid || '-' });
  if (pixelDataOffset === null) throw new DicomSeriesError('truncated', {}, 'no pixel data');

  const imageType = str(ds, 'x00080008').toUpperCase().split('\\');
  const flavor = (['VOLUME', 'LABEL', 'OVERVIEW', 'THUMBNAIL'] as const).find((f) => imageType[2] === f) ?? 'VOLUME';
  const tileWidth = ds.uint16('x00280011') ?? 0, tileHeight = ds.uint16('x00280010') ?? 0;
  const totalWidth = ds.uint32('x00480006') ?? tileWidth, totalHeight = ds.uint32('x00480007') ?? tileHeight;
  const samplesPerPixel = ds.uint16('x00280002') ?? 0, bitsAllocated = ds.uint16('x00280100') ?? 0;
  const photometric = str(ds, 'x00280004').toUpperCase();
  if (!(tileWidth > 0 && tileHeight > 0 && tileWidth <= MAX_TILE_SIDE && tileHeight <= MAX_TILE_SIDE
    && totalWidth > 0 && totalHeight > 0 && totalWidth <= MAX_SIDE && totalHeight <= MAX_SIDE)) {
    throw new DicomSeriesError('bad_geometry', { width: totalWidth, height: totalHeight, tile: `${tileWidth}×${tileHeight}` });
  }
  if (bitsAllocated !== 8 || (samplesPerPixel !== 1 && samplesPerPixel !== 3)) {
    throw new DicomSeriesError('pixels_unsupported', { detail: `${samplesPerPixel}×${bitsAllocated} bit ${photometric}` });
  }

  const frames = Number.parseInt(str(ds, 'x00280008') || '1', 10);
  // A frame takes at least an 8-byte item header (or its pixels): a count the file cannot hold is refused before any array is made.
  if (!(frames >= 1) || frames > MAX_FRAMES || frames * 8 > size) throw new DicomSeriesError('too_many_frames', { frames: str(ds, 'x00280008'), limit: MAX_FRAMES });
  const across = Math.ceil(totalWidth / tileWidth), down = Math.ceil(totalHeight / tileHeight);

  const locations = syntax.encapsulated
    ? await encapsulatedFrames({
      readAt, base, size, pixelDataOffset, frames, extended: extendedOffsets(ds),
      frameStart: Buffer.from(syntax.codec === 'jpeg' ? [0xff, 0xd8] : [0xff, 0x4f]),
    })
    : nativeFrames(base, size, pixelDataOffset, pixelDataLength, frames, tileWidth * tileHeight * samplesPerPixel);

  // A JPEG frame whose own markers say its colour space (JFIF: YCbCr; Adobe: either) is decoded by them, whatever
  // the header claims: converters write "RGB" over JFIF (YCbCr) frames, and our export's frames carry Adobe's marker.
  const marked = syntax.codec === 'jpeg' && locations.length > 0 && hasColourMarker(await readAt(locations[0][0].offset, Math.min(256, locations[0][0].length)));
  const sparse = str(ds, 'x00209311').toUpperCase() === 'TILED_SPARSE' || (!!ds.elements.x52009230 && str(ds, 'x00209311').toUpperCase() !== 'TILED_FULL');
  const tiles = sparse ? sparseTiles(ds, locations, tileWidth, tileHeight, across, down) : fullTiles(ds, locations, across, down);

  const spacing = str(group(ds, 'x00289110', 0), 'x00280030').split('\\').map(Number);
  return {
    studyUid: str(ds, 'x0020000d'),
    seriesUid: str(ds, 'x0020000e'),
    sopInstanceUid: str(ds, 'x00080018'),
    flavor,
    totalWidth, totalHeight, tileWidth, tileHeight,
    codec: syntax.codec,
    photometric,
    samplesPerPixel,
    planar: (ds.uint16('x00280006') ?? 0) === 1,
    jpegMarksColour: marked,
    tiles,
    pixelSpacing: spacing.length === 2 && spacing.every((v) => v > 0 && Number.isFinite(v)) ? [spacing[0], spacing[1]] : null,
    objectivePower: positive(Number(str(item(ds, 'x00480105'), 'x00480112'))),
    acquiredAt: dicomDateTime(str(ds, 'x0008002a')) ?? dicomDateTime(str(ds, 'x00080023') + str(ds, 'x00080033')),
  };
}

/**
 * TILED_FULL: frames run along a row, then down, then through focal planes and optical paths; the first
 * across × down frames are the first plane of the first path. A concatenation's part starts at its frame offset.
 */
function fullTiles(ds: DataSet, locations: FrameLocation[], across: number, down: number): WsiInstance['tiles'] {
  const offset = ds.uint32('x00209228') ?? 0;
  const tiles: WsiInstance['tiles'] = [];
  for (let i = 0; i < locations.length; i++) {
    const n = offset + i;
    if (n >= across * down) break;
    tiles.push({ col: n % across, row: Math.floor(n / across), frame: locations[i] });
  }
  return tiles;
}

/** TILED_SPARSE: each frame says where it lies (1-based pixel position); the first optical path and focal plane are kept. */
function sparseTiles(ds: DataSet, locations: FrameLocation[], tw: number, th: number, across: number, down: number): WsiInstance['tiles'] {
  const tiles: WsiInstance['tiles'] = [];
  let path: string | null = null, z: string | null = null;
  for (let i = 0; i < locations.length; i++) {
    const position = group(ds, 'x0048021a', i);
    if (!position) throw new DicomSeriesError('bad_geometry', { width: '-', height: '-', tile: 'no plane position' });
    const framePath = str(group(ds, 'x00480207', i), 'x00480106'), frameZ = str(position, 'x0040074a');
    path ??= framePath;
    z ??= frameZ;
    if (framePath !== path || frameZ !== z) continue;
    const x = (position.int32('x0048021e') ?? 0) - 1, y = (position.int32('x0048021f') ?? 0) - 1;
    // Positions off the tile grid would need resampling to tile; scanners write them on it.
    if (x < 0 || y < 0 || x % tw !== 0 || y % th !== 0 || x / tw >= across || y / th >= down) {
      throw new DicomSeriesError('bad_geometry', { width: x + 1, height: y + 1, tile: `${tw}×${th}` });
    }
    tiles.push({ col: x / tw, row: y / th, frame: locations[i] });
  }
  return tiles;
}

/** Extended Offset Table (7FE0,0001) and lengths (7FE0,0002): 64-bit little-endian values, when present. */
function extendedOffsets(ds: DataSet): { offsets: number[]; lengths: number[] } | null {
  const read = (tag: string) => {
    const e = ds.elements[tag];
    if (!e || e.length % 8 !== 0) return null;
    const view = new DataView(ds.byteArray.buffer, ds.byteArray.byteOffset + e.dataOffset, e.length);
    return Array.from({ length: e.length / 8 }, (_, i) => Number(view.getBigUint64(i * 8, true)));
  };
  const offsets = read('x7fe00001'), lengths = read('x7fe00002');
  return offsets && lengths ? { offsets, lengths } : null;
}

/** Whether a JPEG stream has a JFIF (APP0) or Adobe (APP14) segment among its leading markers. */
export function hasColourMarker(head: Buffer): boolean {
  if (head.length < 4 || head[0] !== 0xff || head[1] !== 0xd8) return false;
  for (let pos = 2; pos + 4 <= head.length && head[pos] === 0xff;) {
    const marker = head[pos + 1];
    if (marker === 0xee && head.toString('latin1', pos + 4, pos + 9) === 'Adobe') return true;
    if (marker === 0xe0 && head.toString('latin1', pos + 4, pos + 8) === 'JFIF') return true;
    if (marker < 0xe0 || marker > 0xef) return false;
    pos += 2 + head.readUInt16BE(pos + 2);
  }
  return false;
}

const positive = (v: number) => (Number.isFinite(v) && v > 0 ? v : null);

/** `YYYYMMDDHHMMSS.ffffff` (any prefix of it) as ISO 8601, or null. */
export function dicomDateTime(value: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})?(\d{2})?)?/.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  return h ? `${y}-${mo}-${d}T${h}:${mi ?? '00'}:${s ?? '00'}` : `${y}-${mo}-${d}`;
}
