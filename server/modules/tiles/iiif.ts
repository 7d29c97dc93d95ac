import { AppError } from '../../http/errors.js';
import type { MessageKey } from '../../i18n/messages.js';
import type { DziGeometry } from './dzi.js';
import type { OutputFormat, Rect } from './render.js';

/**
 * IIIF Image API 3.0: `{region}/{size}/{rotation}/{quality}.{format}` parsed into integer pixels.
 * Malformed or out-of-bounds requests are 400s, well-formed requests for features we do not offer
 * (arbitrary rotation, tif/gif/jp2/pdf) are 501s, as the specification's status codes ask.
 */
export interface IiifRequest {
  region: Rect;
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  mirror: boolean;
  quality: 'default' | 'color' | 'gray' | 'bitonal';
  format: OutputFormat;
}

/** The largest image we produce for one request (4096²), announced as `maxArea` in info.json. */
export const MAX_AREA = 4096 * 4096;
const FORMATS: Record<string, OutputFormat | null> = { jpg: 'jpg', png: 'png', webp: 'webp', tif: null, gif: null, jp2: null, pdf: null };
const QUALITIES = ['default', 'color', 'gray', 'bitonal'] as const;

const bad = (key: MessageKey, value: string) => new AppError(400, key, { value });

export function parseIiifRequest(width: number, height: number, region: string, size: string, rotation: string, qualityFormat: string): IiifRequest {
  const rect = parseRegion(width, height, region);
  const out = parseSize(rect, size);
  const rot = rotation.match(/^(!?)(\d+(?:\.\d+)?)$/);
  if (!rot || Number(rot[2]) > 360) throw bad('iiif.bad_rotation', rotation);
  const degrees = Number(rot[2]) % 360;
  if (degrees % 90 !== 0) throw new AppError(501, 'iiif.rotation_unsupported', { value: rotation });
  const qf = qualityFormat.match(/^(\w+)\.(\w+)$/);
  if (!qf || !(QUALITIES as readonly string[]).includes(qf[1])) throw bad('iiif.bad_quality', qualityFormat);
  if (!(qf[2] in FORMATS)) throw bad('iiif.bad_quality', qualityFormat);
  const format = FORMATS[qf[2]];
  if (!format) throw new AppError(501, 'iiif.format_unsupported', { value: qf[2] });
  return {
    region: rect, width: out.width, height: out.height,
    rotation: degrees as IiifRequest['rotation'], mirror: rot[1] === '!',
    quality: qf[1] as IiifRequest['quality'], format,
  };
}

export function parseRegion(width: number, height: number, region: string): Rect {
  if (region === 'full') return { x: 0, y: 0, width, height };
  if (region === 'square') {
    const side = Math.min(width, height);
    return { x: Math.floor((width - side) / 2), y: Math.floor((height - side) / 2), width: side, height: side };
  }
  const pct = region.startsWith('pct:');
  const nums = (pct ? region.slice(4) : region).split(',');
  const pattern = pct ? /^\d+(\.\d+)?$/ : /^\d+$/;
  if (nums.length !== 4 || !nums.every((n) => pattern.test(n))) throw bad('iiif.bad_region', region);
  let [x, y, w, h] = nums.map(Number);
  if (pct) {
    [x, w] = [Math.round((x * width) / 100), Math.round((w * width) / 100)];
    [y, h] = [Math.round((y * height) / 100), Math.round((h * height) / 100)];
  }
  // A region partly outside the image is cropped to it; one wholly outside, or empty, is an error.
  if (w <= 0 || h <= 0 || x >= width || y >= height) throw bad('iiif.bad_region', region);
  return { x, y, width: Math.min(w, width - x), height: Math.min(h, height - y) };
}

export function parseSize(region: Rect, size: string): { width: number; height: number } {
  const upscale = size.startsWith('^');
  const s = upscale ? size.slice(1) : size;
  const rw = region.width, rh = region.height;
  let w: number, h: number;
  let m: RegExpMatchArray | null;
  if (s === 'max') {
    // `max`: the region as it is, scaled down only to fit maxArea; `^max`: scaled to maxArea, up as well (sizeUpscaling).
    const scale = Math.sqrt(MAX_AREA / (rw * rh));
    const fit = upscale ? scale : Math.min(1, scale);
    [w, h] = [Math.max(1, Math.floor(rw * fit)), Math.max(1, Math.floor(rh * fit))];
  } else if ((m = s.match(/^pct:(\d+(?:\.\d+)?)$/))) {
    const n = Number(m[1]);
    if (n <= 0 || (!upscale && n > 100)) throw bad('iiif.bad_size', size);
    [w, h] = [Math.round((rw * n) / 100), Math.round((rh * n) / 100)];
  } else if ((m = s.match(/^(!?)(\d*),(\d*)$/)) && (m[2] || m[3])) {
    const confined = m[1] === '!';
    const rqW = m[2] ? Number(m[2]) : null, rqH = m[3] ? Number(m[3]) : null;
    if (confined) {
      if (rqW === null || rqH === null) throw bad('iiif.bad_size', size);
      const scale = Math.min(rqW / rw, rqH / rh, upscale ? Infinity : 1);
      [w, h] = [Math.round(rw * scale), Math.round(rh * scale)];
    } else if (rqW !== null && rqH !== null) {
      [w, h] = [rqW, rqH];
    } else if (rqW !== null) {
      [w, h] = [rqW, Math.round((rqW * rh) / rw)];
    } else {
      [w, h] = [Math.round((rqH! * rw) / rh), rqH!];
    }
  } else {
    throw bad('iiif.bad_size', size);
  }
  if (w < 1 || h < 1) throw bad('iiif.bad_size', size);
  if (!upscale && (w > rw || h > rh)) throw bad('iiif.bad_size', size);
  if (w * h > MAX_AREA) throw new AppError(400, 'iiif.too_large', { value: size, limit: MAX_AREA });
  return { width: w, height: h };
}

/**
 * OpenSeadragon and Mirador ask for IIIF tiles as `x,y,w,h/w,/0/default.jpg` on the grid announced in
 * info.json. Such a request is exactly a Deep Zoom tile; recognising it lets IIIF viewers share the
 * pass-through path and the tile cache. Returns the DZI address, or null for any other request.
 */
export function iiifAsDziTile(g: DziGeometry, r: IiifRequest): { level: number; col: number; row: number } | null {
  if (r.rotation || r.mirror || (r.quality !== 'default' && r.quality !== 'color') || r.format !== 'jpg') return null;
  const T = g.tileSize;
  const { x, y, width, height } = r.region;
  for (let s = 1, level = g.maxLevel; level >= 0; s *= 2, level--) {
    const span = T * s;
    if (x % span || y % span) continue;
    if (width !== Math.min(span, g.width - x) || height !== Math.min(span, g.height - y)) continue;
    if (r.width !== Math.ceil(width / s) || r.height !== Math.ceil(height / s)) continue;
    return { level, col: x / span, row: y / span };
  }
  return null;
}

export function iiifInfo(id: string, g: DziGeometry, levels: { width: number; height: number }[]) {
  const scaleFactors: number[] = [];
  for (let s = 1; ; s *= 2) {
    scaleFactors.push(s);
    if (Math.max(g.width, g.height) / s <= g.tileSize) break;
  }
  return {
    '@context': 'http://iiif.io/api/image/3/context.json',
    id,
    type: 'ImageService3',
    protocol: 'http://iiif.io/api/image',
    profile: 'level2',
    width: g.width,
    height: g.height,
    maxArea: MAX_AREA,
    sizes: levels.filter((l) => l.width * l.height <= MAX_AREA).map((l) => ({ width: l.width, height: l.height })).reverse(),
    tiles: [{ width: g.tileSize, height: g.tileSize, scaleFactors }],
    extraQualities: ['color', 'gray', 'bitonal'],
    extraFormats: ['webp'],
    extraFeatures: ['mirroring', 'rotationBy90s', 'regionByPct', 'regionSquare', 'sizeByConfinedWh', 'sizeByPct', 'sizeUpscaling'],
  };
}
