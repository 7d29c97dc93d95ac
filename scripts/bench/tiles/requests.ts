import { mulberry32 } from '../../../server/modules/slides/demo-slide/random.js';

export interface TileAddress { level: number; col: number; row: number }

export interface Grid {
  /** Deep Zoom level of the full image. */
  maxLevel: number;
  /** Tiles across and down at `level`. */
  tiles(level: number): { across: number; down: number };
}

export function dziGrid(width: number, height: number, tileSize: number): Grid {
  const maxLevel = Math.ceil(Math.log2(Math.max(width, height)));
  return {
    maxLevel,
    tiles(level) {
      const scale = 2 ** (maxLevel - level);
      return { across: Math.ceil(Math.ceil(width / scale) / tileSize), down: Math.ceil(Math.ceil(height / scale) / tileSize) };
    },
  };
}

/**
 * What pathologists do to a tile server: open a viewport (8×5 tiles on a 2048×1280 screen), pan in
 * steps with some momentum (each step asks only for the newly exposed column or row), now and then zoom
 * one level, and sometimes jump to an overview. 70% of sessions work at the deepest level, 20% one
 * above, 10% at overview levels (down to `lowestLevel`, which every peer stores). Same seed, same list.
 */
export function panningRequests(grid: Grid, count: number, seed: number, lowestLevel: number): TileAddress[] {
  const rand = mulberry32(seed);
  const out: TileAddress[] = [];
  const VW = 8, VH = 5;
  const push = (level: number, c0: number, r0: number, w: number, h: number) => {
    const { across, down } = grid.tiles(level);
    for (let r = r0; r < r0 + h; r++) for (let c = c0; c < c0 + w; c++) {
      if (c >= 0 && r >= 0 && c < across && r < down && out.length < count) out.push({ level, col: c, row: r });
    }
  };
  while (out.length < count) {
    const pick = rand();
    let level = pick < 0.7 ? grid.maxLevel : pick < 0.9 ? grid.maxLevel - 1 : lowestLevel + Math.floor(rand() * (grid.maxLevel - 1 - lowestLevel));
    let { across, down } = grid.tiles(level);
    let x = Math.floor(rand() * Math.max(1, across - VW)), y = Math.floor(rand() * Math.max(1, down - VH));
    push(level, x, y, VW, VH);
    let dx = rand() < 0.5 ? 1 : -1, dy = 0;
    const steps = 10 + Math.floor(rand() * 30);
    for (let s = 0; s < steps && out.length < count; s++) {
      if (rand() < 0.25) [dx, dy] = [[1, 0], [-1, 0], [0, 1], [0, -1]][Math.floor(rand() * 4)];
      if (rand() < 0.06 && level > lowestLevel && level < grid.maxLevel) {
        // Zoom one level in or out around the viewport centre and load the whole new viewport.
        const inward = rand() < 0.5;
        const cx = x + VW / 2, cy = y + VH / 2;
        level += inward ? 1 : -1;
        ({ across, down } = grid.tiles(level));
        x = Math.round((inward ? cx * 2 : cx / 2) - VW / 2);
        y = Math.round((inward ? cy * 2 : cy / 2) - VH / 2);
        push(level, x, y, VW, VH);
        continue;
      }
      x = Math.min(Math.max(0, x + dx), Math.max(0, across - VW));
      y = Math.min(Math.max(0, y + dy), Math.max(0, down - VH));
      if (dx) push(level, dx > 0 ? x + VW - 1 : x, y, 1, VH);
      if (dy) push(level, x, dy > 0 ? y + VH - 1 : y, VW, 1);
    }
  }
  return out;
}
