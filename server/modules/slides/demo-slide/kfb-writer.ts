import fs from 'node:fs/promises';
import {
  Block, Entry, ENTRY_BYTES, Header, HEADER_BYTES, KFB_MAGIC, KFB_MAGIC_AT, kfbLevelSizes, LEVEL_ID_STEP, TILE_OFFSET_BIAS,
} from '../../tiles/kfb/layout.js';
import { demoAssociatedImages } from './associated.js';
import { jpegOf, paintDemoRaster, resizeRaster } from './raster.js';

export interface KfbWriteOptions {
  out: string;
  width: number;
  height: number;
  /** Tile edge S (square tiles; edge tiles smaller). */
  tileSize?: number;
  /** Microns per level-0 pixel, stored as float32. */
  mpp?: number;
  /** Objective power, the "scan scale" field. */
  scanScale?: number;
  scanTime?: Date;
  seed?: number;
  quality?: number;
  slideId?: string;
  /** Associated image blocks to write (all three by default). */
  label?: boolean;
  macro?: boolean;
  preview?: boolean;
}

export interface KfbTile {
  level: number;
  col: number;
  row: number;
  /** Where the tile's complete JPEG lies in the file. */
  offset: number;
  length: number;
}

export interface KfbWriteResult {
  file: string;
  width: number;
  height: number;
  tileSize: number;
  levels: { width: number; height: number }[];
  tiles: KfbTile[];
  associated: { name: 'label' | 'macro' | 'preview'; width: number; height: number; offset: number; length: number }[];
  tableOffset: number;
  bytes: number;
}

/** Room for every header field, padded: what lies between field 92 and the first block is unknown and zero. */
const HEADER_SPACE = 256;

/**
 * Writes a synthetic slide as a KFB file exactly to shared/formats/KFB.md: header, macro/label/preview
 * blocks, every level's tiles as complete JPEGs (edge tiles cropped, levels down to 1×1), then the tile
 * table, whose offsets are biased so that tiles lie before it. Fields the description does not know are 0.
 * Holds the level-0 image in memory: for test and demo slides, not for scanner-sized ones.
 */
export async function writeKfbSlide(options: KfbWriteOptions): Promise<KfbWriteResult> {
  const { out, width, height } = options;
  const S = options.tileSize ?? 256;
  const quality = options.quality ?? 85;
  const slideId = options.slideId ?? `KFB-${options.seed ?? 1}`;
  if (!(width > 0 && height > 0 && S >= 16)) throw new Error('width, height > 0 and a tile size of at least 16 are required');

  const sizes = kfbLevelSizes(width, height);
  const raster0 = paintDemoRaster({ width, height, seed: options.seed ?? 1 });
  const fh = await fs.open(out, 'w');
  let position = HEADER_SPACE;
  const append = async (b: Buffer) => {
    const at = position;
    await fh.write(b, 0, b.length, at);
    position += b.length;
    return at;
  };

  try {
    const images = await demoAssociatedImages(raster0, width, height, slideId);
    const associated: KfbWriteResult['associated'] = [];
    const blockAt: Record<'label' | 'macro' | 'preview', number> = { label: 0, macro: 0, preview: 0 };
    for (const name of ['macro', 'label', 'preview'] as const) {
      if (options[name] === false) continue;
      const { jpeg, width: w, height: h } = images[name];
      const block = Buffer.alloc(Block.jpegStart);
      block.writeInt32LE(h, Block.height);
      block.writeInt32LE(w, Block.width);
      block.writeInt32LE(jpeg.length, Block.jpegLength);
      blockAt[name] = await append(block);
      associated.push({ name, width: w, height: h, offset: await append(jpeg), length: jpeg.length });
    }

    const tiles: KfbTile[] = [];
    let raster = raster0;
    for (const [level, size] of sizes.entries()) {
      if (level > 0) raster = await resizeRaster(raster, sizes[level - 1].width, sizes[level - 1].height, size.width, size.height);
      for (let row = 0; row * S < size.height; row++) {
        for (let col = 0; col * S < size.width; col++) {
          const rect = { left: col * S, top: row * S, width: Math.min(S, size.width - col * S), height: Math.min(S, size.height - row * S) };
          const jpeg = await jpegOf(raster, size.width, size.height, rect, quality);
          tiles.push({ level, col, row, offset: await append(jpeg), length: jpeg.length });
        }
      }
    }

    const tableOffset = position;
    const firstId = sizes.length * LEVEL_ID_STEP;
    const table = Buffer.alloc(tiles.length * ENTRY_BYTES);
    tiles.forEach((t, i) => {
      const e = i * ENTRY_BYTES;
      const size = sizes[t.level];
      table.writeInt32LE(t.col * S, e + Entry.x);
      table.writeInt32LE(t.row * S, e + Entry.y);
      table.writeInt32LE(Math.min(S, size.width - t.col * S), e + Entry.width);
      table.writeInt32LE(Math.min(S, size.height - t.row * S), e + Entry.height);
      table.writeInt32LE(firstId - t.level * LEVEL_ID_STEP, e + Entry.id);
      table.writeInt32LE(t.length, e + Entry.jpegLength);
      table.writeUInt32LE(t.offset - tableOffset + TILE_OFFSET_BIAS, e + Entry.jpegOffset);
    });
    await append(table);

    const header = Buffer.alloc(HEADER_BYTES);
    header.write(KFB_MAGIC, KFB_MAGIC_AT, 'latin1');
    header.writeInt32LE(tiles.length, Header.tileCount);
    header.writeInt32LE(height, Header.height);
    header.writeInt32LE(width, Header.width);
    header.writeInt32LE(options.scanScale ?? 40, Header.scanScale);
    header.write('JPG', Header.compression, 'latin1');
    header.writeInt32LE(97, Header.spendTime);
    header.writeBigInt64LE(BigInt(Math.floor((options.scanTime ?? new Date('2024-05-06T07:08:09Z')).getTime() / 1000)), Header.scanTime);
    header.writeInt32LE(blockAt.macro, Header.macroOffset);
    header.writeInt32LE(blockAt.label, Header.labelOffset);
    header.writeInt32LE(blockAt.preview, Header.previewOffset);
    header.writeInt32LE(tableOffset, Header.tileTableOffset);
    header.writeFloatLE(options.mpp ?? 0.25, Header.mpp);
    header.writeInt32LE(S, Header.tileSize);
    await fh.write(header, 0, header.length, 0);
    await fh.close();
    return { file: out, width, height, tileSize: S, levels: sizes, tiles, associated, tableOffset, bytes: position };
  } catch (err) {
    await fh.close().catch(() => {});
    await fs.rm(out, { force: true });
    throw err;
  }
}
