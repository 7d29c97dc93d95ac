/** A Deep Zoom image descriptor (`.dzi`): `<Image TileSize Overlap Format><Size Width Height/></Image>`. */
export interface DziDescriptor {
  tileSize: number;
  overlap: number;
  /** File extension of the tiles: jpeg, jpg or png. */
  format: string;
  width: number;
  height: number;
}

/** Why a Deep Zoom upload cannot become a slide; the code is stored as the slide's format note. */
export class DeepZoomError extends Error {
  constructor(readonly code: 'dzi_unreadable' | 'zip_unsafe_path' | 'zip_not_deep_zoom', detail: string) {
    super(detail);
  }
}

const MAX_SIDE = 4_000_000;

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
  if (!(d.width >= 1 && d.height >= 1 && d.width <= MAX_SIDE && d.height <= MAX_SIDE)) throw new DeepZoomError('dzi_unreadable', `Size ${size.Width}x${size.Height}`);
  return d;
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

function attributes(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (text ?? '').matchAll(/(\w+)\s*=\s*"([^"]*)"/g)) out[m[1]] = m[2];
  for (const m of (text ?? '').matchAll(/(\w+)\s*=\s*'([^']*)'/g)) out[m[1]] ??= m[2];
  return out;
}
