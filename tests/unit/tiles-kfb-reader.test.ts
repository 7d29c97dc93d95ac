import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKfbSlide, type KfbWriteResult } from '../../server/modules/slides/demo-slide/kfb-writer.js';
import { dziGeometry, planDziTile } from '../../server/modules/tiles/dzi.js';
import { KfbFormatError, readKfbIndex } from '../../server/modules/tiles/kfb/read-index.js';
import { readAnySlideIndex } from '../../server/modules/tiles/open-index.js';
import { SlideFormatError } from '../../server/modules/tiles/slide-index.js';
import type { ReadAt } from '../../server/modules/tiles/tiff/ifd-parser.js';

/**
 * The KFB reader against files written to shared/formats/KFB.md. The expectations re-read the bytes at the
 * offsets the description gives (literally, not through the shared layout constants), so a slip in the
 * writer and the reader alike would still show.
 */
const fromBuffer = (b: Buffer): ReadAt => async (position, length) => b.subarray(position, position + length);

let dir: string;
let made: KfbWriteResult;
let bytes: Buffer;
const scanTime = new Date('2025-02-03T04:05:06Z');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-kfb-'));
  made = await writeKfbSlide({ out: path.join(dir, 'a.kfb'), width: 1000, height: 700, tileSize: 256, mpp: 0.2431, scanScale: 20, scanTime, seed: 4, slideId: 'K-4' });
  bytes = fs.readFileSync(made.file);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The tile table as the description states it, read by hand. */
function tableByHand(b: Buffer) {
  const T = b.readInt32LE(68), n = b.readInt32LE(16);
  const firstId = b.readInt32LE(T + 20);
  return Array.from({ length: n }, (_, i) => {
    const e = T + i * 64;
    return {
      x: b.readInt32LE(e + 4), y: b.readInt32LE(e + 8), w: b.readInt32LE(e + 12), h: b.readInt32LE(e + 16),
      level: (firstId - b.readInt32LE(e + 20)) / 2 ** 23, length: b.readInt32LE(e + 32), offset: T - 2 ** 32 + b.readUInt32LE(e + 36),
    };
  });
}

describe('KFB test-file writer', () => {
  it('puts the header fields where the description says', () => {
    expect(bytes.toString('latin1', 4, 7)).toBe('KFB');
    expect([bytes.readInt32LE(20), bytes.readInt32LE(24), bytes.readInt32LE(28), bytes.readInt32LE(88)]).toEqual([700, 1000, 20, 256]);
    expect(bytes.toString('latin1', 32, 34)).toBe('JP');
    expect(bytes.readFloatLE(76)).toBeCloseTo(0.2431, 6);
    expect(Number(bytes.readBigInt64LE(44))).toBe(scanTime.getTime() / 1000);
    expect(bytes.readInt32LE(16)).toBe(made.tiles.length);
  });

  it('writes every level down to 1×1, edge tiles cropped, each tile a complete JPEG', async () => {
    // ceil(log2(1000)) + 1 levels of floor(side / 2^i).
    expect(made.levels).toHaveLength(11);
    expect(made.levels.slice(0, 4)).toEqual([{ width: 1000, height: 700 }, { width: 500, height: 350 }, { width: 250, height: 175 }, { width: 125, height: 87 }]);
    expect(made.levels.at(-1)).toEqual({ width: 1, height: 1 });
    const table = tableByHand(bytes);
    expect(table.map((t) => [t.level, t.x / 256, t.y / 256, t.offset, t.length])).toEqual(made.tiles.map((t) => [t.level, t.col, t.row, t.offset, t.length]));
    for (const t of table.filter((e) => e.level <= 1)) {
      const size = made.levels[t.level];
      expect([t.w, t.h]).toEqual([Math.min(256, size.width - t.x), Math.min(256, size.height - t.y)]);
      const meta = await sharp(bytes.subarray(t.offset, t.offset + t.length)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', t.w, t.h]);
    }
  });
});

describe('KFB reader', () => {
  it('reads the header into slide metadata', async () => {
    const index = await readKfbIndex(fromBuffer(bytes));
    expect(index).toMatchObject({ width: 1000, height: 700, vendor: 'kfbio', mppX: 0.2431, mppY: 0.2431, appMag: 20, bigTiff: false, scanAt: '2025-02-03T04:05:06Z' });
  });

  it('builds every level with the tile grid, downsample and cropped edges of the description', async () => {
    const index = await readKfbIndex(fromBuffer(bytes));
    expect(index.levels.map((l) => [l.width, l.height])).toEqual(made.levels.map((l) => [l.width, l.height]));
    expect(index.levels.map((l) => l.downsample)).toEqual(made.levels.map((_, i) => 2 ** i));
    expect(index.levels[0]).toMatchObject({ tileWidth: 256, tileHeight: 256, tilesAcross: 4, tilesDown: 3, compression: 7, jpegTables: null, page: -1, edgeTilesCropped: true });
    expect(index.levels[1]).toMatchObject({ tilesAcross: 2, tilesDown: 2 });
  });

  it('finds each tile where the table points', async () => {
    const index = await readKfbIndex(fromBuffer(bytes));
    for (const t of made.tiles) {
      const level = index.levels[t.level];
      const i = t.row * level.tilesAcross + t.col;
      expect([level.tileOffsets[i], level.tileByteCounts[i]], `tile ${t.level}/${t.col}_${t.row}`).toEqual([t.offset, t.length]);
    }
  });

  it('lists the macro, label and preview blocks as associated JPEGs', async () => {
    const index = await readKfbIndex(fromBuffer(bytes));
    expect(index.associated.map((a) => [a.name, a.width, a.height])).toEqual([['macro', 1200, 400], ['label', 600, 400], ['thumbnail', 512, 358]]);
    for (const a of index.associated) {
      const written = made.associated.find((m) => (m.name === 'preview' ? 'thumbnail' : m.name) === a.name)!;
      expect(a.jpeg).toEqual({ offset: written.offset, length: written.length });
      // The block header, read by hand: height at B+8, width at B+12, JPEG length at B+20, JPEG at B+52.
      const block = a.jpeg!.offset - 52;
      expect([bytes.readInt32LE(block + 8), bytes.readInt32LE(block + 12), bytes.readInt32LE(block + 20)]).toEqual([a.height, a.width, a.jpeg!.length]);
      const meta = await sharp(bytes.subarray(a.jpeg!.offset, a.jpeg!.offset + a.jpeg!.length)).metadata();
      expect([meta.width, meta.height]).toEqual([a.width, a.height]);
    }
  });

  it('is chosen by its magic bytes, whatever the file is called', async () => {
    const index = await readAnySlideIndex(fromBuffer(bytes));
    expect(index.vendor).toBe('kfbio');
    await expect(readAnySlideIndex(fromBuffer(Buffer.from('GIF89a, not a slide at all')))).rejects.toBeInstanceOf(SlideFormatError);
  });

  it('passes tiles through where the Deep Zoom grid matches, edge tiles included', async () => {
    const index = await readKfbIndex(fromBuffer(bytes));
    const g = dziGeometry(index);
    expect(g).toEqual({ width: 1000, height: 700, tileSize: 256, maxLevel: 10 });
    expect(planDziTile(index, g, 10, 1, 1)).toEqual({ kind: 'stored', level: 0, col: 1, row: 1 });
    expect(planDziTile(index, g, 10, 3, 2)).toEqual({ kind: 'stored', level: 0, col: 3, row: 2 });
    expect(planDziTile(index, g, 9, 1, 1)).toEqual({ kind: 'stored', level: 1, col: 1, row: 1 });
    // KFB level 3 is 125×87 (floor), Deep Zoom level 7 is 125×88 (ceil): its only tile is an edge tile and must be rendered.
    expect(planDziTile(index, g, 7, 0, 0)).toMatchObject({ kind: 'render', width: 125, height: 88 });
  });

  it('renders tiles a level lacks instead of passing through nothing', async () => {
    const copy = Buffer.from(bytes);
    const T = copy.readInt32LE(68);
    const first = made.tiles.findIndex((t) => t.level === 0 && t.col === 1 && t.row === 1);
    // Drop tile (1, 1) of level 0 by moving the table's last entry over it.
    copy.copy(copy, T + first * 64, T + (made.tiles.length - 1) * 64, T + made.tiles.length * 64);
    copy.writeInt32LE(made.tiles.length - 1, 16);
    const index = await readKfbIndex(fromBuffer(copy));
    expect(index.levels[0].tileByteCounts[1 * 4 + 1]).toBe(0);
    expect(planDziTile(index, dziGeometry(index), 10, 1, 1)).toMatchObject({ kind: 'render' });
  });
});

describe('KFB reader on damaged files', () => {
  const T = () => bytes.readInt32LE(68);
  const damaged = (edit: (b: Buffer) => void) => {
    const copy = Buffer.from(bytes);
    edit(copy);
    return readKfbIndex(fromBuffer(copy));
  };

  it('refuses truncated files: header, tile table', async () => {
    await expect(readKfbIndex(fromBuffer(bytes.subarray(0, 60)))).rejects.toThrow(/too short/);
    await expect(readKfbIndex(fromBuffer(bytes.subarray(0, T() + 64 * 3)))).rejects.toThrow(/tile table truncated/);
  });

  it('refuses a wrong magic, compression, size or tile count', async () => {
    await expect(damaged((b) => b.write('XYZ', 4, 'latin1'))).rejects.toThrow(/magic/);
    await expect(damaged((b) => b.write('PNG', 32, 'latin1'))).rejects.toThrow(/compression/);
    await expect(damaged((b) => b.writeInt32LE(-5, 24))).rejects.toThrow(/size/);
    await expect(damaged((b) => b.writeInt32LE(0, 88))).rejects.toThrow(/tile size/);
    await expect(damaged((b) => b.writeInt32LE(1_000_000, 16))).rejects.toThrow(/tile count/);
    await expect(damaged((b) => b.writeInt32LE(10, 68))).rejects.toBeInstanceOf(KfbFormatError);
  });

  it('refuses entries off the grid, outside the pyramid, pointing outside the tile data, or listed twice', async () => {
    await expect(damaged((b) => b.writeInt32LE(100, T() + 4))).rejects.toThrow(/not on level 0's tile grid/);
    await expect(damaged((b) => b.writeInt32LE(b.readInt32LE(T() + 64 + 20) - 40 * 2 ** 23, T() + 64 + 20))).rejects.toThrow(/outside the pyramid/);
    await expect(damaged((b) => b.writeUInt32LE(5, T() + 36))).rejects.toThrow(/outside the tile data/);
    await expect(damaged((b) => b.writeUInt32LE(2 ** 32 - 10, T() + 36))).rejects.toThrow(/outside the tile data/);
    await expect(damaged((b) => b.copy(b, T() + 64, T(), T() + 64))).rejects.toThrow(/listed twice/);
  });

  it('keeps a slide whose associated block is damaged, without that image', async () => {
    const index = await damaged((b) => {
      const label = b.readInt32LE(56);
      b.writeUInt16LE(0, label + 52);
    });
    expect(index.associated.map((a) => a.name)).toEqual(['macro', 'thumbnail']);
    expect(index.levels).toHaveLength(11);
  });
});
