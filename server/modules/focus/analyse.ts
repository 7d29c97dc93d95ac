import { focusLevel, scoreCell, summarizeFocus, type FocusSummary } from '../../../src/core/focus.js';
import { SlideStore } from '../tiles/slide-store.js';
import { TileReader } from '../tiles/tile-reader.js';

/** Cell edge at the scored level (64 px ≈ 64 µm at 1 µm/px): the focus map's resolution. */
export const CELL = 64;
/** Cells are read in blocks of this many a side, so each tile is decoded about once. */
export const BLOCK = 8;

export interface FocusResult extends FocusSummary {
  level: number;
  /** Level-0 pixels a cell covers, across and down (the map's scale). */
  cellWidth: number;
  cellHeight: number;
  cols: number;
  rows: number;
}

/**
 * Scores every cell of a slide file at the level `focusLevel` picks, reading tiles through the tile server's own
 * reader (so every format it serves is covered). Memory: one block of cells at a time. `onProgress` gets 0–1.
 */
export async function analyseFocus(file: string, options: { signal?: AbortSignal; onProgress?: (p: number) => void } = {}): Promise<FocusResult> {
  const store = new SlideStore({ maxSlides: 1, maxOpenFiles: 4 });
  const reader = new TileReader();
  try {
    const slide = await store.open(file);
    const { index } = slide;
    const level = focusLevel(index.levels, index.mppX);
    const l = index.levels[level];
    const cols = Math.max(1, Math.ceil(l.width / CELL)), rows = Math.max(1, Math.ceil(l.height / CELL));
    const cells: (number | null)[] = new Array(cols * rows).fill(null);
    const blocksDown = Math.ceil(rows / BLOCK), blocksAcross = Math.ceil(cols / BLOCK);
    for (let by = 0; by < blocksDown; by++) {
      for (let bx = 0; bx < blocksAcross; bx++) {
        options.signal?.throwIfAborted();
        const x = bx * BLOCK * CELL, y = by * BLOCK * CELL;
        const w = Math.min(BLOCK * CELL, l.width - x), h = Math.min(BLOCK * CELL, l.height - y);
        const block = await reader.readRegion(slide, level, x, y, w, h);
        for (let cy = 0; cy * CELL < h; cy++) {
          for (let cx = 0; cx * CELL < w; cx++) {
            const cw = Math.min(CELL, w - cx * CELL), ch = Math.min(CELL, h - cy * CELL);
            const px = new Uint8Array(cw * ch * 3);
            for (let r = 0; r < ch; r++) {
              const src = ((cy * CELL + r) * w + cx * CELL) * 3;
              px.set(block.data.subarray(src, src + cw * 3), r * cw * 3);
            }
            cells[(by * BLOCK + cy) * cols + bx * BLOCK + cx] = scoreCell(px, cw, ch).sharpness;
          }
        }
      }
      options.onProgress?.((by + 1) / blocksDown);
    }
    const scale = index.width / l.width;
    return { ...summarizeFocus(cells), level, cellWidth: CELL * scale, cellHeight: CELL * (index.height / l.height), cols, rows };
  } finally {
    store.close();
  }
}
