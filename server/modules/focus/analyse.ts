import { focusLevel, scoreCell, summarizeFocus, type FocusSummary } from '../../../src/core/focus.js';
import { focusModeOf, type FocusMode } from '../../../src/core/focusMode.js';
import { SlideStore, type RemoteLookup } from '../tiles/slide-store.js';
import { TileReader } from '../tiles/tile-reader.js';

/** Cell edge at the scored level (64 px ≈ 64 µm at 1 µm/px): the focus map's resolution. */
export const CELL = 64;
/** Cells are read in blocks of this many a side, so each tile is decoded about once. */
export const BLOCK = 8;

/** The overview the slide's mode (bright-field or fluorescence) is read from: its finest level of at most this many pixels. */
export const OVERVIEW_PIXELS = 1e6;

export interface FocusResult extends FocusSummary {
  level: number;
  /** Bright-field or fluorescence (src/core/focusMode.ts), as the overview showed. */
  mode: FocusMode;
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
export async function analyseFocus(file: string, options: { signal?: AbortSignal; onProgress?: (p: number) => void; remote?: RemoteLookup } = {}): Promise<FocusResult> {
  // On object storage the file is read by ranged GETs through the block cache, as the viewer's tiles are.
  const store = new SlideStore({ maxSlides: 1, maxOpenFiles: 4, remote: options.remote });
  const reader = new TileReader();
  try {
    const slide = await store.open(file);
    const { index } = slide;
    const level = focusLevel(index.levels, index.mppX);
    const l = index.levels[level];
    const cols = Math.max(1, Math.ceil(l.width / CELL)), rows = Math.max(1, Math.ceil(l.height / CELL));
    const mode = await overviewMode(reader, slide);
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
            cells[(by * BLOCK + cy) * cols + bx * BLOCK + cx] = scoreCell(px, cw, ch, mode).sharpness;
          }
        }
      }
      options.onProgress?.((by + 1) / blocksDown);
    }
    const scale = index.width / l.width;
    return { ...summarizeFocus(cells), level, mode, cellWidth: CELL * scale, cellHeight: CELL * (index.height / l.height), cols, rows };
  } finally {
    store.close();
  }
}

type Opened = Awaited<ReturnType<SlideStore['open']>>;

/** Bright-field or fluorescence, from the finest level small enough to read whole (the coarsest when none is). */
async function overviewMode(reader: TileReader, slide: Opened): Promise<FocusMode> {
  const levels = slide.index.levels;
  const small = levels.findIndex((l) => l.width * l.height <= OVERVIEW_PIXELS);
  const at = small === -1 ? levels.length - 1 : small;
  const l = levels[at];
  const image = await reader.readRegion(slide, at, 0, 0, l.width, l.height);
  return focusModeOf(image.data);
}
