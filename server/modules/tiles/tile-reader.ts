import sharp from 'sharp';
import { AppError } from '../../http/errors.js';
import { mergeJpegTables } from './jpeg/merge-tables.js';
import { Lru } from './lru.js';
import type { Level } from './slide-index.js';
import type { OpenedSlide } from './slide-store.js';
import { Compression, Photometric } from './tiff/tags.js';

/** Decoded pixels: 8-bit RGB, row-major. */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}

/** JPEG 2000 inside TIFF (Aperio 33003/33005) and old-style JPEG need decoders that our libvips build lacks. */
const UNSUPPORTED = new Map<number, string>([
  [Compression.AperioJp2kYcc, 'JPEG 2000 (Aperio 33003)'],
  [Compression.AperioJp2kRgb, 'JPEG 2000 (Aperio 33005)'],
  [Compression.OldJpeg, 'old-style JPEG (6)'],
]);

export function canPassThrough(level: Level): boolean {
  return level.compression === Compression.Jpeg && level.bitsPerSample === 8 && (level.samplesPerPixel === 3 || level.samplesPerPixel === 1);
}

export function assertDecodable(level: Level): void {
  const name = UNSUPPORTED.get(level.compression);
  if (name) throw new AppError(415, 'tile.compression_unsupported', { compression: name });
}

/**
 * Reads stored tiles and turns them into pixels. Decoded tiles are kept in a small LRU because
 * neighbouring region and downsample requests read the same source tiles again and again.
 */
export class TileReader {
  private readonly decoded: Lru<string, RgbImage>;

  constructor(decodedCacheBytes = 96 * 2 ** 20) {
    this.decoded = new Lru<string, RgbImage>(decodedCacheBytes, (img) => img.data.length);
  }

  /** A stored JPEG tile made self-contained (tables merged, RGB marked): the pass-through bytes. */
  async storedJpeg(slide: OpenedSlide, levelIndex: number, col: number, row: number): Promise<Buffer> {
    const level = slide.index.levels[levelIndex];
    const i = row * level.tilesAcross + col;
    const offset = level.tileOffsets[i];
    const count = level.tileByteCounts[i];
    if (!(count > 0)) throw new AppError(404, 'tile.not_found');
    const stored = await slide.readAt(offset, count);
    if (stored.length < count) throw new AppError(500, 'tile.read_failed');
    const rgb = level.photometric === Photometric.Rgb && level.samplesPerPixel === 3;
    return mergeJpegTables(level.jpegTables, stored, { rgb });
  }

  /** The full stored tile (tileWidth × tileHeight with TIFF padding, or the cropped edge tile of a KFB) as RGB. */
  async decodeTile(slide: OpenedSlide, levelIndex: number, col: number, row: number): Promise<RgbImage> {
    const key = `${slide.identity}:${levelIndex}:${col}:${row}`;
    const hit = this.decoded.get(key);
    if (hit) return hit;
    const level = slide.index.levels[levelIndex];
    assertDecodable(level);
    let image: RgbImage;
    if (!(level.tileByteCounts[row * level.tilesAcross + col] > 0)) {
      // A tile the file lacks (scanners skip empty glass) is blank: white, like the glass around the tissue.
      const width = Math.min(level.tileWidth, level.width - col * level.tileWidth), height = Math.min(level.tileHeight, level.height - row * level.tileHeight);
      image = { data: Buffer.alloc(width * height * 3, 255), width, height };
    } else if (level.compression === Compression.Jpeg) {
      const { data, info } = await sharp(await this.storedJpeg(slide, levelIndex, col, row))
        .toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
      image = { data, width: info.width, height: info.height };
    } else {
      // Other compressions (none, LZW, deflate…) are rare in slides: let libvips read that page's (or SubIFD's) tile.
      if (level.page < 0) throw new AppError(415, 'tile.compression_unsupported', { compression: String(level.compression) });
      const left = col * level.tileWidth, top = row * level.tileHeight;
      const width = Math.min(level.tileWidth, level.width - left), height = Math.min(level.tileHeight, level.height - top);
      const { data, info } = await sharp(slide.file, { page: level.page, tiff: { subifd: level.subifd ?? -1 }, sequentialRead: false, limitInputPixels: false })
        .extract({ left, top, width, height }).toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
      image = { data, width: info.width, height: info.height };
    }
    this.decoded.set(key, image);
    return image;
  }

  /** Pixels [x, x+width) × [y, y+height) of one level (clipped to the level), assembled from its tiles. */
  async readRegion(slide: OpenedSlide, levelIndex: number, x: number, y: number, width: number, height: number): Promise<RgbImage> {
    const level = slide.index.levels[levelIndex];
    const out = Buffer.alloc(width * height * 3, 255);
    const tw = level.tileWidth, th = level.tileHeight;
    const cols: number[] = [];
    const rows: number[] = [];
    for (let c = Math.max(0, Math.floor(x / tw)); c <= Math.min(level.tilesAcross - 1, Math.floor((x + width - 1) / tw)); c++) cols.push(c);
    for (let r = Math.max(0, Math.floor(y / th)); r <= Math.min(level.tilesDown - 1, Math.floor((y + height - 1) / th)); r++) rows.push(r);
    await Promise.all(rows.flatMap((r) => cols.map(async (c) => {
      const tile = await this.decodeTile(slide, levelIndex, c, r);
      // Copy the overlap of this tile with the region, never past the level's own edge (tiles are padded).
      const x0 = Math.max(x, c * tw), x1 = Math.min(x + width, c * tw + tile.width, level.width);
      const y0 = Math.max(y, r * th), y1 = Math.min(y + height, r * th + tile.height, level.height);
      for (let yy = y0; yy < y1; yy++) {
        const src = ((yy - r * th) * tile.width + (x0 - c * tw)) * 3;
        tile.data.copy(out, ((yy - y) * width + (x0 - x)) * 3, src, src + (x1 - x0) * 3);
      }
    })));
    return { data: out, width, height };
  }
}
