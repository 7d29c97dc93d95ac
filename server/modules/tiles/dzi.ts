import type { Rect } from './render.js';
import { canPassThrough } from './tile-reader.js';
import type { SlideIndex } from './slide-index.js';

/**
 * Deep Zoom geometry. Level `maxLevel` is the full image and each level below halves it (rounding up)
 * down to 1×1; tiles are `tileSize` square with no overlap, so a DZI tile can be a stored tile as is.
 */
export interface DziGeometry {
  width: number;
  height: number;
  tileSize: number;
  maxLevel: number;
}

export function dziGeometry(index: SlideIndex): DziGeometry {
  const { width, height } = index;
  return { width, height, tileSize: index.levels[0].tileWidth, maxLevel: Math.ceil(Math.log2(Math.max(width, height))) };
}

export function dziLevelSize(g: DziGeometry, level: number): { width: number; height: number } {
  const scale = 2 ** (g.maxLevel - level);
  return { width: Math.max(1, Math.ceil(g.width / scale)), height: Math.max(1, Math.ceil(g.height / scale)) };
}

export function dziXml(g: DziGeometry, format = 'jpeg'): string {
  return '<?xml version="1.0" encoding="UTF-8"?>\n'
    + `<Image xmlns="http://schemas.microsoft.com/deepzoom/2008" Format="${format}" Overlap="0" TileSize="${g.tileSize}">`
    + `<Size Width="${g.width}" Height="${g.height}"/></Image>\n`;
}

export type DziTilePlan =
  /** The stored tile of file level `level` at (col, row) is exactly this DZI tile: send its bytes. */
  | { kind: 'stored'; level: number; col: number; row: number }
  /**
   * Decode and produce: an edge tile (cropped), or a level the file lacks (downsampled). `aligned`: the file level
   * that passes this Deep Zoom level's other tiles through is a pixel off its size (1001 px halve to 500 in the file,
   * 501 here); the tile is read from that level pixel for pixel at (x, y), so it continues the stored tiles beside it
   * (cut from the Deep Zoom grid instead it came half a pixel off: a row or column of its neighbour again, issue 30).
   */
  | { kind: 'render'; rect: Rect; width: number; height: number; aligned?: { level: number; x: number; y: number } };

/** How to produce DZI tile (level, col, row), or null when it lies outside the image. */
export function planDziTile(index: SlideIndex, g: DziGeometry, level: number, col: number, row: number): DziTilePlan | null {
  if (!Number.isInteger(level) || level < 0 || level > g.maxLevel || col < 0 || row < 0) return null;
  const size = dziLevelSize(g, level);
  const T = g.tileSize;
  if (col * T >= size.width || row * T >= size.height) return null;
  const width = Math.min(T, size.width - col * T);
  const height = Math.min(T, size.height - row * T);

  const sx = g.width / size.width, sy = g.height / size.height;
  const rect = { x: col * T * sx, y: row * T * sy, width: width * sx, height: height * sy };

  // A file level serves this DZI level as is when its size matches (scanners round either way, hence ±1)
  // and its tiles are the DZI tile size. Whole interior tiles pass through; edge tiles only when the file
  // stores them cropped (KFB) and the level is exactly the DZI level's size: TIFF pads them.
  const stored = index.levels.findIndex((l) => l.tileWidth === T && l.tileHeight === T && canPassThrough(l)
    && Math.abs(l.width - size.width) <= 1 && Math.abs(l.height - size.height) <= 1);
  if (stored >= 0) {
    const l = index.levels[stored];
    const whole = (col + 1) * T <= Math.min(l.width, size.width) && (row + 1) * T <= Math.min(l.height, size.height);
    const exactEdge = !!l.edgeTilesCropped && l.width === size.width && l.height === size.height;
    if ((whole || exactEdge) && l.tileByteCounts[row * l.tilesAcross + col] > 0) {
      return { kind: 'stored', level: stored, col, row };
    }
    // A pixel off the DZI size, the level's grid and the DZI grid part by up to half a pixel: follow the level's.
    if (l.width !== size.width || l.height !== size.height) return { kind: 'render', rect, width, height, aligned: { level: stored, x: col * T, y: row * T } };
  }
  return { kind: 'render', rect, width, height };
}
