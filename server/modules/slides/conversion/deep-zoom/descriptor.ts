import type { MessageKey } from '../../../../i18n/messages.js';
import type { Params } from '../../../../i18n/translate.js';

/** A Deep Zoom image descriptor (`.dzi`): `<Image TileSize Overlap Format><Size Width Height/></Image>`. */
export interface DziDescriptor {
  tileSize: number;
  overlap: number;
  /** File extension of the tiles: jpeg, jpg or png. */
  format: string;
  width: number;
  height: number;
}

/**
 * Why a Deep Zoom upload cannot become a slide; the code is stored as the slide's format note. A `refused`
 * one is not stored at all: the bind answers it as a 422 with this message, and the upload stays unbound.
 */
export class DeepZoomError extends Error {
  constructor(
    readonly code: 'dzi_unreadable' | 'zip_unsafe_path' | 'zip_not_deep_zoom' | 'dzi_too_large' | 'dzi_tiles_mismatch',
    detail: string,
    readonly refused?: { key: MessageKey; params: Params },
  ) {
    super(detail);
  }
}

/**
 * What a Deep Zoom import may declare, checked before a byte is allocated for it (a 208-byte zip declaring
 * 1,000,000 × 1,000,000 px once made the converter allocate 0.8 GB). A side of 250,000 px holds a whole
 * 75 mm slide at 0.3 µm/px; 4·10^10 px is 200,000 × 200,000, beyond any scan we know of. The converter
 * keeps a band of the widest level and the decoded tile rows feeding it: at most 1 GiB of them.
 */
export const DZI_LIMITS = { side: 250_000, pixels: 40_000_000_000, workingBytes: 1 << 30 };

/** Parses the descriptor by pattern (two elements, five attributes): no XML library, no entity expansion. */
export function parseDziDescriptor(xml: string): DziDescriptor {
  const image = attributes(xml.match(/<(?:\w+:)?Image\b([^>]*)>/)?.[1]);
  const size = attributes(xml.match(/<(?:\w+:)?Size\b([^>]*)\/?>/)?.[1]);
  const int = (v: string | undefined) => (v !== undefined && /^\d{1,9}$/.test(v.trim()) ? Number(v) : NaN);
  const d: DziDescriptor = {
    tileSize: int(image.TileSize),
    overlap: int(image.Overlap ?? '0'),
    format: (image.Format ?? '').toLowerCase(),
    width: int(size.Width),
    height: int(size.Height),
  };
  if (!(d.tileSize >= 1 && d.tileSize <= 8192)) throw new DeepZoomError('dzi_unreadable', `TileSize ${image.TileSize}`);
  if (!(d.overlap >= 0 && d.overlap < d.tileSize)) throw new DeepZoomError('dzi_unreadable', `Overlap ${image.Overlap}`);
  if (!['jpeg', 'jpg', 'png'].includes(d.format)) throw new DeepZoomError('dzi_unreadable', `Format ${image.Format}`);
  if (!(d.width >= 1 && d.height >= 1)) throw new DeepZoomError('dzi_unreadable', `Size ${size.Width}x${size.Height}`);
  if (d.width > DZI_LIMITS.side || d.height > DZI_LIMITS.side || d.width * d.height > DZI_LIMITS.pixels) {
    throw new DeepZoomError('dzi_too_large', `Size ${d.width}x${d.height}`, {
      key: 'slide.dzi_too_large', params: { width: n(d.width), height: n(d.height), side: n(DZI_LIMITS.side), pixels: n(DZI_LIMITS.pixels) },
    });
  }
  return d;
}

/**
 * Bytes the converter holds at once for the full-size level: one band of `band` output rows, plus the decoded
 * Deep Zoom tile rows (overlap included) that feed it. Refuses an image whose tiles are so tall, at that width,
 * that these exceed the budget: tiny files of large blank tiles would otherwise decode to gigabytes.
 */
export function checkWorkingMemory(d: DziDescriptor, band: number): void {
  const across = Math.ceil(d.width / d.tileSize), down = Math.ceil(d.height / d.tileSize);
  const rowsHeld = Math.min(down, Math.floor((band - 1) / d.tileSize) + 2);
  const rowBytes = (d.width + 2 * d.overlap * across) * (d.tileSize + 2 * d.overlap) * 3;
  const bytes = d.width * band * 3 + rowsHeld * rowBytes;
  if (bytes > DZI_LIMITS.workingBytes) {
    const mb = (b: number) => Math.ceil(b / 2 ** 20);
    throw new DeepZoomError('dzi_too_large', `needs ${bytes} bytes`, {
      key: 'slide.dzi_memory', params: { tile: d.tileSize, width: n(d.width), needed: n(mb(bytes)), limit: n(mb(DZI_LIMITS.workingBytes)) },
    });
  }
}

/**
 * The full-size level's tiles that are present must be exactly its grid: every `col_row` of
 * ceil(width / tileSize) × ceil(height / tileSize), none outside it. The converter needs each of them (a
 * missing one would fail the import halfway), so a declared size its tiles do not fill is a lie about the
 * image, refused before any work; a tile outside the grid says the declared size is too small.
 */
export function checkTilesPresent(d: DziDescriptor, present: Iterable<readonly [number, number]>): void {
  const across = Math.ceil(d.width / d.tileSize), down = Math.ceil(d.height / d.tileSize);
  let inside = 0, found = 0;
  for (const [col, row] of present) {
    found++;
    if (col < across && row < down) inside++;
  }
  if (found !== inside || inside !== across * down) {
    throw new DeepZoomError('dzi_tiles_mismatch', `${found} tiles for a ${across}x${down} grid`, {
      key: 'slide.dzi_tiles_mismatch', params: { width: n(d.width), height: n(d.height), expected: n(across * down), found: n(found) },
    });
  }
}

/** `col_row.format` with canonical numbers (no leading zeros: `01_0` is not the tile the converter reads), else null. */
export function tileCoordinates(name: string, format: string): [number, number] | null {
  const m = name.match(/^(0|[1-9]\d{0,8})_(0|[1-9]\d{0,8})\.(\w+)$/);
  return m && m[3] === format ? [Number(m[1]), Number(m[2])] : null;
}

/** Levels 0 (1×1) … maxLevel (full size): ceil(log2(longest side)) + 1. */
export function dziLevelCount(d: DziDescriptor): number {
  return Math.ceil(Math.log2(Math.max(d.width, d.height))) + 1;
}

/** Deep Zoom level `level`: the image halved (rounding up) maxLevel − level times. */
export function dziLevelDims(d: DziDescriptor, level: number): { width: number; height: number } {
  const scale = 2 ** (dziLevelCount(d) - 1 - level);
  return { width: Math.max(1, Math.ceil(d.width / scale)), height: Math.max(1, Math.ceil(d.height / scale)) };
}

/** Pixels of the level a stored tile covers, overlap included: what its image must measure. */
export function dziTileRect(d: DziDescriptor, levelSize: { width: number; height: number }, col: number, row: number) {
  const { tileSize: T, overlap: O } = d;
  const x0 = Math.max(0, col * T - O), y0 = Math.max(0, row * T - O);
  const x1 = Math.min(levelSize.width, (col + 1) * T + O), y1 = Math.min(levelSize.height, (row + 1) * T + O);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Numbers in messages, grouped by thousands (read the same in both languages). */
const n = (v: number) => v.toLocaleString('en-US');

function attributes(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (text ?? '').matchAll(/(\w+)\s*=\s*"([^"]*)"/g)) out[m[1]] = m[2];
  for (const m of (text ?? '').matchAll(/(\w+)\s*=\s*'([^']*)'/g)) out[m[1]] ??= m[2];
  return out;
}
