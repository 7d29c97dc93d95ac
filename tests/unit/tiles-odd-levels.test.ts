import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dziLevelSize, planDziTile } from '../../server/modules/tiles/dzi.js';
import { slidesDirResolver } from '../../server/modules/tiles/resolver.js';
import { TileService, type SlideHandle } from '../../server/modules/tiles/tile-service.js';

/**
 * Issue 30: libvips writes each pyramid level at half the one above rounded down (1001 → 500), Deep Zoom rounds up
 * (1001 → 501). The file's level then serves the Deep Zoom level: its interior tile passes through as stored, and
 * the tiles beside it must continue its pixel grid. They were cut from the Deep Zoom grid instead, half a pixel
 * off, so the last row of tile 0_0 came again as the first row of tile 0_1 (and the last column of 0_0 in 1_0).
 * Each tile is compared here with the stored level's own pixels, read by libvips.
 */
const W = 1001, H = 777, T = 256;
let dir: string;
let file: string;
let service: TileService;
let handle: SlideHandle;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-odd-'));
  file = path.join(dir, 'odd.tiff');
  // Grey waves across and down, steep enough that a row or column out of place differs by ~6 on average and smooth
  // enough that JPEG keeps them to within ~1.
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) data.fill(Math.round(128 + 60 * Math.sin((2 * Math.PI * x) / 40) + 60 * Math.sin((2 * Math.PI * y) / 40)), (y * W + x) * 3, (y * W + x) * 3 + 3);
  }
  await sharp(data, { raw: { width: W, height: H, channels: 3 } })
    .tiff({ compression: 'jpeg', quality: 95, tile: true, tileWidth: T, tileHeight: T, pyramid: true }).toFile(file);
  service = new TileService({ resolveSlide: slidesDirResolver(dir) });
  handle = await service.open('odd');
});
afterAll(() => {
  service.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function rgb(input: Buffer | Sharp) {
  const s = Buffer.isBuffer(input) ? sharp(input) : input;
  const { data, info } = await s.toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Mean absolute difference per channel over the `width × height` top-left corner both images have. */
function meanDiff(a: { data: Buffer; width: number }, b: { data: Buffer; width: number }, width: number, height: number): number {
  let sum = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width * 3; x++) sum += Math.abs(a.data[y * a.width * 3 + x] - b.data[y * b.width * 3 + x]);
  }
  return sum / (width * height * 3);
}

describe('edge tiles of a stored level one pixel smaller than the Deep Zoom level', () => {
  it('line up with the stored level pixel for pixel, as its passed-through tiles do', async () => {
    const stored = handle.slide.index.levels[1];
    const level = handle.geometry.maxLevel - 1;
    const size = dziLevelSize(handle.geometry, level);
    // The premise: libvips rounded down, Deep Zoom rounds up, and this file level serves that Deep Zoom level.
    expect([stored.width, stored.height]).toEqual([500, 388]);
    expect(size).toEqual({ width: 501, height: 389 });
    expect(planDziTile(handle.slide.index, handle.geometry, level, 0, 0)).toEqual({ kind: 'stored', level: 1, col: 0, row: 0 });

    for (const [col, row] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
      const tile = await rgb((await service.dziTile(handle, level, col, row)).body);
      const width = Math.min(T, size.width - col * T), height = Math.min(T, size.height - row * T);
      expect([tile.width, tile.height], `tile ${col}_${row}`).toEqual([width, height]);
      // The stored level's pixels under this tile; the Deep Zoom level's extra last row and column have none.
      const within = { width: Math.min(width, stored.width - col * T), height: Math.min(height, stored.height - row * T) };
      const source = await rgb(sharp(file, { page: 1 }).extract({ left: col * T, top: row * T, ...within }));
      expect(meanDiff(tile, source, within.width, within.height), `tile ${col}_${row} against the stored level`).toBeLessThan(2);
      if (col === 0 && row === 0) continue;
      // Its first row (0_1) or column (1_0) is the stored level's next one, not the neighbour's last again.
      const neighbour = await rgb(sharp(file, { page: 1 }).extract({ left: col * T - col, top: row * T - row, ...within }));
      expect(meanDiff(tile, neighbour, within.width, within.height), `tile ${col}_${row} one pixel out of place`).toBeGreaterThan(4);
    }
  });

  it('repeat the level\'s last row and column in the pixel the file lacks', async () => {
    const level = handle.geometry.maxLevel - 1;
    const tile = await rgb((await service.dziTile(handle, level, 1, 1)).body);
    // Tile 1_1 is 245 × 133; the stored level ends one pixel before, so its last row and column are the ones before.
    const px = (x: number, y: number) => [...tile.data.subarray((y * tile.width + x) * 3, (y * tile.width + x) * 3 + 3)];
    const close = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]) <= 3);
    expect(close(px(100, tile.height - 1), px(100, tile.height - 2))).toBe(true);
    expect(close(px(tile.width - 1, 50), px(tile.width - 2, 50))).toBe(true);
  });
});
