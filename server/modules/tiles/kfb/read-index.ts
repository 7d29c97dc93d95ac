import { SlideFormatError, type AssociatedImage, type Level, type SlideIndex } from '../slide-index.js';
import type { ReadAt } from '../tiff/ifd-parser.js';
import { Compression, Photometric } from '../tiff/tags.js';
import {
  Block, Entry, ENTRY_BYTES, Header, HEADER_BYTES, KFB_MAGIC, KFB_MAGIC_AT, kfbLevelSizes, LEVEL_ID_STEP, TILE_OFFSET_BIAS,
} from './layout.js';

export class KfbFormatError extends SlideFormatError {}

/** Malformed headers must not make the reader allocate without bound. */
const MAX_SIDE = 4_000_000;
const MAX_GRID_CELLS = 4 * 2 ** 20;
const TABLE_CHUNK_ENTRIES = 65_536;
/** Scan times outside 2000–2100 are not plausible Unix times: the field means something else there. */
const PLAUSIBLE_SECONDS: [number, number] = [946_684_800, 4_102_444_800];

/**
 * Reads a KFB file's header, associated image blocks and tile table into the same index the TIFF reader
 * builds, so the tile services serve it unchanged. Experimental: the layout is reverse-engineered.
 */
export async function readKfbIndex(readAt: ReadAt): Promise<SlideIndex> {
  const h = await readAt(0, HEADER_BYTES);
  if (h.length < HEADER_BYTES) throw new KfbFormatError('file too short for a KFB header');
  if (h.toString('latin1', KFB_MAGIC_AT, KFB_MAGIC_AT + 3) !== KFB_MAGIC) throw new KfbFormatError('no KFB magic at byte 4');

  const width = h.readInt32LE(Header.width);
  const height = h.readInt32LE(Header.height);
  const tileSize = h.readInt32LE(Header.tileSize);
  const tileCount = h.readInt32LE(Header.tileCount);
  const tableAt = h.readInt32LE(Header.tileTableOffset);
  const compression = h.toString('latin1', Header.compression, Header.compression + 4).replace(/\0[\s\S]*$/, '');
  if (!(width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE)) throw new KfbFormatError(`implausible size ${width}x${height}`);
  if (!(tileSize >= 16 && tileSize <= 8192)) throw new KfbFormatError(`implausible tile size ${tileSize}`);
  if (!compression.startsWith('JP')) throw new KfbFormatError(`unknown tile compression "${compression}"`);
  if (!(tableAt >= HEADER_BYTES)) throw new KfbFormatError(`tile table offset ${tableAt} inside the header`);

  const sizes = kfbLevelSizes(width, height);
  const grids = sizes.map((s) => ({ ...s, across: Math.ceil(s.width / tileSize), down: Math.ceil(s.height / tileSize) }));
  const cells = grids.reduce((n, g) => n + g.across * g.down, 0);
  if (cells > MAX_GRID_CELLS) throw new KfbFormatError(`${cells} tiles is more than this reader accepts`);
  if (!(tileCount > 0 && tileCount <= cells)) throw new KfbFormatError(`tile count ${tileCount} does not fit the ${cells}-tile pyramid`);

  const tables = grids.map((g) => ({
    offsets: new Float64Array(g.across * g.down),
    counts: new Float64Array(g.across * g.down),
    cropped: true,
    tiles: 0,
  }));
  let firstId: number | null = null;
  for (let start = 0; start < tileCount; start += TABLE_CHUNK_ENTRIES) {
    const n = Math.min(TABLE_CHUNK_ENTRIES, tileCount - start);
    const chunk = await readAt(tableAt + start * ENTRY_BYTES, n * ENTRY_BYTES);
    if (chunk.length < n * ENTRY_BYTES) throw new KfbFormatError('tile table truncated');
    for (let k = 0; k < n; k++) {
      const e = k * ENTRY_BYTES;
      const id = chunk.readInt32LE(e + Entry.id);
      firstId ??= id;
      const at = `tile entry ${start + k}`;
      const level = Math.floor((firstId - id) / LEVEL_ID_STEP);
      if (!(level >= 0 && level < grids.length)) throw new KfbFormatError(`${at}: level ${level} outside the pyramid`);
      const g = grids[level];
      const x = chunk.readInt32LE(e + Entry.x), y = chunk.readInt32LE(e + Entry.y);
      const w = chunk.readInt32LE(e + Entry.width), th = chunk.readInt32LE(e + Entry.height);
      const col = x / tileSize, row = y / tileSize;
      if (!(Number.isInteger(col) && Number.isInteger(row) && col >= 0 && row >= 0 && col < g.across && row < g.down)) {
        throw new KfbFormatError(`${at}: (${x}, ${y}) is not on level ${level}'s tile grid`);
      }
      if (!(w > 0 && th > 0 && w <= tileSize && th <= tileSize)) throw new KfbFormatError(`${at}: tile size ${w}x${th}`);
      const length = chunk.readInt32LE(e + Entry.jpegLength);
      const offset = tableAt - TILE_OFFSET_BIAS + chunk.readUInt32LE(e + Entry.jpegOffset);
      // Tiles lie before the table (v is unsigned, so the bias puts them there): anything else overlaps it or the header.
      if (!(length > 0 && offset >= HEADER_BYTES && offset + length <= tableAt)) throw new KfbFormatError(`${at}: JPEG at ${offset} (+${length}) outside the tile data`);
      const t = tables[level];
      const i = row * g.across + col;
      if (t.counts[i] > 0) throw new KfbFormatError(`${at}: tile (${col}, ${row}) of level ${level} listed twice`);
      t.offsets[i] = offset;
      t.counts[i] = length;
      t.tiles++;
      if (w !== Math.min(tileSize, g.width - x) || th !== Math.min(tileSize, g.height - y)) t.cropped = false;
    }
  }
  if (tables[0].tiles === 0) throw new KfbFormatError('no tile of level 0');

  // A level the file has no tile of would read as blank; leaving it out makes finer levels serve it instead.
  const levels: Level[] = [];
  grids.forEach((g, i) => {
    const t = tables[i];
    if (t.tiles === 0) return;
    levels.push({
      width: g.width, height: g.height, tileWidth: tileSize, tileHeight: tileSize, tilesAcross: g.across, tilesDown: g.down,
      downsample: 2 ** i, compression: Compression.Jpeg, photometric: Photometric.YCbCr, samplesPerPixel: 3, bitsPerSample: 8,
      jpegTables: null, tileOffsets: t.offsets, tileByteCounts: t.counts, page: -1, subifd: -1, edgeTilesCropped: t.cropped,
    });
  });

  const associated: AssociatedImage[] = [];
  for (const [name, field] of [['macro', Header.macroOffset], ['label', Header.labelOffset], ['thumbnail', Header.previewOffset]] as const) {
    const image = await readBlock(readAt, h.readInt32LE(field));
    if (image) associated.push({ name, ...image, page: -1 });
  }

  const mpp = h.readFloatLE(Header.mpp);
  const scale = h.readInt32LE(Header.scanScale);
  return {
    width, height, levels, associated, vendor: 'kfbio',
    mppX: Number.isFinite(mpp) && mpp > 0 && mpp < 100 ? Number(mpp.toPrecision(6)) : null,
    mppY: Number.isFinite(mpp) && mpp > 0 && mpp < 100 ? Number(mpp.toPrecision(6)) : null,
    appMag: scale > 0 && scale <= 200 ? scale : null,
    bigTiff: false,
    scanAt: scanTime(h.readBigInt64LE(Header.scanTime)),
  };
}

/**
 * An associated image block, or null when the header points nowhere (0) or at something that is not one:
 * a damaged label must not make the slide itself unreadable.
 */
async function readBlock(readAt: ReadAt, at: number): Promise<{ width: number; height: number; jpeg: { offset: number; length: number } } | null> {
  if (!(at >= HEADER_BYTES)) return null;
  const b = await readAt(at, Block.jpegStart + 2);
  if (b.length < Block.jpegStart + 2) return null;
  const height = b.readInt32LE(Block.height), width = b.readInt32LE(Block.width), length = b.readInt32LE(Block.jpegLength);
  if (!(width > 0 && height > 0 && length > 2 && b[Block.jpegStart] === 0xff && b[Block.jpegStart + 1] === 0xd8)) return null;
  return { width, height, jpeg: { offset: at + Block.jpegStart, length } };
}

/** The int64 scan time as Unix seconds (or milliseconds), in UTC; null when it is neither. */
function scanTime(raw: bigint): string | null {
  const n = Number(raw);
  const [lo, hi] = PLAUSIBLE_SECONDS;
  const seconds = n >= lo && n <= hi ? n : n >= lo * 1000 && n <= hi * 1000 ? n / 1000 : null;
  return seconds === null ? null : new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
