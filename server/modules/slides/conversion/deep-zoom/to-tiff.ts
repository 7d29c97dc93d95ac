import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import sharp from 'sharp';
import { JpegTileEncoder, jpegImageEntries } from '../../../tiles/tiff/jpeg-tiles.js';
import { Tag } from '../../../tiles/tiff/tags.js';
import { TiffWriter } from '../../../tiles/tiff/writer.js';
import {
  checkTilesPresent, checkWorkingMemory, DeepZoomError, dziLevelCount, dziLevelDims, dziTileRect, parseDziDescriptor, type DziDescriptor,
} from './descriptor.js';
import type { DeepZoomSource } from './sources.js';

/** Tile edge of the TIFF we write: a multiple of 16 as TIFF asks, and the DZI tile size we then serve. */
const OUT_TILE = 256;
/** Tiles decoded at once: libvips decodes on its own threads, a few in flight keep them busy. */
const PARALLEL = 4;

interface Decoded { data: Buffer; width: number; height: number }

/**
 * Turns a Deep Zoom image into a pyramidal JPEG TIFF, once, at ingest. Each TIFF level is one DZI level
 * (DZI stores every halving), so nothing is resampled: its tiles are decoded, their overlap cut off, and the
 * pixels re-cut into 256-pixel tiles one band of rows at a time. Memory is two bands of the widest level.
 */
export async function deepZoomToTiff(source: DeepZoomSource, out: string): Promise<{ levels: { width: number; height: number }[] }> {
  const d = parseDziDescriptor(source.descriptor);
  const top = dziLevelCount(d) - 1;
  // The declared size decides every allocation below: check it against the budget and the tiles really there first.
  checkWorkingMemory(d, OUT_TILE);
  checkTilesPresent(d, await source.tiles(top, d.format));
  const levels: { level: number; width: number; height: number }[] = [];
  for (let level = top; level >= 0; level--) {
    const size = dziLevelDims(d, level);
    levels.push({ level, ...size });
    if (size.width <= OUT_TILE && size.height <= OUT_TILE) break;
  }

  // A name of its own: two conversions of one file (binds racing in place) never write into each other.
  const partial = `${out}.${randomBytes(4).toString('hex')}.partial`;
  const writer = await TiffWriter.create(partial);
  try {
    const encoder = new JpegTileEncoder(90);
    for (const [k, level] of levels.entries()) {
      const { offsets, counts } = await writeLevel(source, d, level, writer, encoder);
      writer.addDirectory([
        { tag: Tag.NewSubfileType, type: 'long', values: [k === 0 ? 0 : 1] },
        ...jpegImageEntries(level.width, level.height, 'DSMS Deep Zoom import'),
        { tag: Tag.TileWidth, type: 'long', values: [OUT_TILE] },
        { tag: Tag.TileLength, type: 'long', values: [OUT_TILE] },
        { tag: Tag.TileOffsets, type: 'offsets', values: offsets },
        { tag: Tag.TileByteCounts, type: 'long', values: counts },
        { tag: Tag.JPEGTables, type: 'undefined', value: encoder.tables! },
      ]);
    }
    await writer.finish('auto');
    await fs.rename(partial, out);
    return { levels: levels.map(({ width, height }) => ({ width, height })) };
  } catch (err) {
    await writer.abort();
    await fs.rm(partial, { force: true });
    throw err;
  }
}

async function writeLevel(source: DeepZoomSource, d: DziDescriptor, level: { level: number; width: number; height: number }, writer: TiffWriter, encoder: JpegTileEncoder) {
  const { width, height } = level;
  const T = d.tileSize;
  const dziAcross = Math.ceil(width / T);
  const across = Math.ceil(width / OUT_TILE), down = Math.ceil(height / OUT_TILE);
  const offsets: number[] = [], counts: number[] = [];
  // A DZI tile row may feed two bands: keep decoded rows until the band passes them.
  const rows = new Map<number, Decoded[]>();

  for (let band = 0; band < down; band++) {
    const y0 = band * OUT_TILE, y1 = Math.min(height, y0 + OUT_TILE);
    const pixels = Buffer.alloc(width * OUT_TILE * 3, 255);
    const first = Math.floor(y0 / T), last = Math.floor((y1 - 1) / T);
    for (const r of rows.keys()) if (r < first) rows.delete(r);
    for (let r = first; r <= last; r++) {
      let tiles = rows.get(r);
      if (!tiles) {
        tiles = await decodeRow(source, d, level, r, dziAcross);
        rows.set(r, tiles);
      }
      // Copy each tile's own pixels (overlap cut off) that fall in this band.
      const ya = Math.max(y0, r * T), yb = Math.min(y1, (r + 1) * T);
      tiles.forEach((tile, c) => {
        const rect = dziTileRect(d, level, c, r);
        const xa = c * T, xb = Math.min(width, (c + 1) * T);
        for (let y = ya; y < yb; y++) {
          const src = ((y - rect.y) * tile.width + (xa - rect.x)) * 3;
          tile.data.copy(pixels, ((y - y0) * width + xa) * 3, src, src + (xb - xa) * 3);
        }
      });
    }
    for (let c = 0; c < across; c++) {
      const tile = Buffer.alloc(OUT_TILE * OUT_TILE * 3, 255);
      const w = Math.min(OUT_TILE, width - c * OUT_TILE);
      for (let y = 0; y < y1 - y0; y++) pixels.copy(tile, y * OUT_TILE * 3, (y * width + c * OUT_TILE) * 3, (y * width + c * OUT_TILE + w) * 3);
      const bytes = await encoder.encode(tile, OUT_TILE);
      offsets.push(await writer.append(bytes));
      counts.push(bytes.length);
    }
  }
  return { offsets, counts };
}

/** One row of a DZI level decoded to RGB (transparency flattened onto white), each tile checked against its expected size. */
async function decodeRow(source: DeepZoomSource, d: DziDescriptor, level: { level: number; width: number; height: number }, row: number, across: number): Promise<Decoded[]> {
  const out = new Array<Decoded>(across);
  for (let start = 0; start < across; start += PARALLEL) {
    await Promise.all(Array.from({ length: Math.min(PARALLEL, across - start) }, async (_, k) => {
      const col = start + k;
      const name = `${level.level}/${col}_${row}.${d.format}`;
      const bytes = await source.tile(level.level, col, row, d.format);
      if (!bytes) throw new DeepZoomError('dzi_unreadable', `tile ${name} is missing`);
      const expected = dziTileRect(d, level, col, row);
      let decoded: Decoded;
      try {
        // A tile is decoded only up to the size it must have: a small file may declare a huge picture.
        const { data, info } = await sharp(bytes, { limitInputPixels: expected.width * expected.height }).flatten({ background: '#ffffff' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
        decoded = { data, width: info.width, height: info.height };
      } catch (err) {
        throw new DeepZoomError('dzi_unreadable', `tile ${name}: ${(err as Error).message}`);
      }
      if (decoded.width !== expected.width || decoded.height !== expected.height) {
        throw new DeepZoomError('dzi_unreadable', `tile ${name} is ${decoded.width}x${decoded.height}, not ${expected.width}x${expected.height}`);
      }
      out[col] = decoded;
    }));
  }
  return out;
}
