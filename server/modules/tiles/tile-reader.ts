import sharp from 'sharp';
import { AppError } from '../../http/errors.js';
import { mergeJpegTables } from './jpeg/merge-tables.js';
import { Lru } from './lru.js';
import type { Level } from './slide-index.js';
import type { OpenedSlide } from './slide-store.js';
import { Compression, Photometric } from './tiff/tags.js';
import { COMPRESSION_JPEG2000 } from './dicom/series-index.js';
import { decodeJpeg2000 } from './dicom/jpeg2000.js';
import { rawToRgb } from './dicom/raw-pixels.js';

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

/** The largest stored tile decoded (8192 px square, 192 MiB of RGB): scanners write 256 to 1024. */
export const MAX_TILE_PIXELS = 8192 * 8192;

/** Refuses (422, translated) an image of an accepted slide too large to decode for one answer. */
export function checkImagePixels(width: number, height: number, limit: number): void {
  if (width * height > limit) throw new AppError(422, 'tile.image_too_large', { width, height, limit });
}

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
    return this.levelJpeg(slide, slide.index.levels[levelIndex], col, row);
  }

  private async levelJpeg(slide: OpenedSlide, level: Level, col: number, row: number): Promise<Buffer> {
    let stored = await storedBytes(slide, level, row * level.tilesAcross + col);
    // DICOM pads odd-length fragments with one zero byte after EOI: the JPEG itself ends at EOI.
    const n = stored.length;
    if (n > 3 && stored[n - 1] === 0 && stored[n - 2] === 0xd9 && stored[n - 3] === 0xff) stored = stored.subarray(0, n - 1);
    const rgb = level.photometric === Photometric.Rgb && level.samplesPerPixel === 3;
    return mergeJpegTables(level.jpegTables, stored, { rgb });
  }

  /** The full stored tile (tileWidth × tileHeight with TIFF padding, or the cropped edge tile of a KFB) as RGB. */
  async decodeTile(slide: OpenedSlide, levelIndex: number, col: number, row: number): Promise<RgbImage> {
    return this.decodeLevelTile(slide, slide.index.levels[levelIndex], String(levelIndex), col, row);
  }

  /** `levelKey` names the level in the decoded-tile cache: its index, or an associated image's name. */
  private async decodeLevelTile(slide: OpenedSlide, level: Level, levelKey: string, col: number, row: number): Promise<RgbImage> {
    const key = `${slide.identity}:${levelKey}:${col}:${row}`;
    const hit = this.decoded.get(key);
    if (hit) return hit;
    assertDecodable(level);
    let image: RgbImage;
    if (!(level.tileByteCounts[row * level.tilesAcross + col] > 0)) {
      // A tile the file lacks (scanners skip empty glass) is blank: white, like the glass around the tissue.
      const width = Math.min(level.tileWidth, level.width - col * level.tileWidth), height = Math.min(level.tileHeight, level.height - row * level.tileHeight);
      image = { data: Buffer.alloc(width * height * 3, 255), width, height };
    } else if (level.compression === Compression.Jpeg) {
      const { data, info } = await sharp(await this.levelJpeg(slide, level, col, row))
        .toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
      image = { data, width: info.width, height: info.height };
    } else if (level.page < 0 && level.compression === Compression.None) {
      // Uncompressed frames outside any TIFF (DICOM native pixel data): the bytes are the pixels.
      image = rawToRgb(await storedBytes(slide, level, row * level.tilesAcross + col), level);
    } else if (level.page < 0 && level.compression === COMPRESSION_JPEG2000) {
      image = await decodeJpeg2000(await storedBytes(slide, level, row * level.tilesAcross + col));
    } else {
      // Other compressions (none, LZW, deflate…) are rare in slides: let libvips read that page's (or SubIFD's) tile.
      // Nor for a slide in object storage, which libvips cannot open (no local file): those are converted at ingest.
      if (level.page < 0 || slide.remote) throw new AppError(415, 'tile.compression_unsupported', { compression: String(level.compression) });
      // libvips decodes only the stored tiles a region touches, here one: bounded by the tile, not the page, which in a
      // real slide is gigapixels (so the page is not held to a pixel limit, and the tile is).
      checkImagePixels(level.tileWidth, level.tileHeight, MAX_TILE_PIXELS);
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
    return this.readLevelRegion(slide, slide.index.levels[levelIndex], String(levelIndex), x, y, width, height);
  }

  /** An image stored as tiles beside the pyramid (a DICOM label or overview), whole. */
  async readTiledImage(slide: OpenedSlide, level: Level, name: string): Promise<RgbImage> {
    return this.readLevelRegion(slide, level, `associated-${name}`, 0, 0, level.width, level.height);
  }

  /** Pixels [x, x+width) × [y, y+height) of one level (clipped to the level), assembled from its tiles. */
  private async readLevelRegion(slide: OpenedSlide, level: Level, levelKey: string, x: number, y: number, width: number, height: number): Promise<RgbImage> {
    const out = Buffer.alloc(width * height * 3, 255);
    const tw = level.tileWidth, th = level.tileHeight;
    const cols: number[] = [];
    const rows: number[] = [];
    for (let c = Math.max(0, Math.floor(x / tw)); c <= Math.min(level.tilesAcross - 1, Math.floor((x + width - 1) / tw)); c++) cols.push(c);
    for (let r = Math.max(0, Math.floor(y / th)); r <= Math.min(level.tilesDown - 1, Math.floor((y + height - 1) / th)); r++) rows.push(r);
    await Promise.all(rows.flatMap((r) => cols.map(async (c) => {
      const tile = await this.decodeLevelTile(slide, level, levelKey, c, r);
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

/** The stored bytes of tile `i`: one range, or (DICOM fragments) several joined in order. */
async function storedBytes(slide: OpenedSlide, level: Level, i: number): Promise<Buffer> {
  const pieces = level.fragmentedTiles?.get(i) ?? [{ offset: level.tileOffsets[i], length: level.tileByteCounts[i] }];
  if (!(level.tileByteCounts[i] > 0)) throw new AppError(404, 'tile.not_found');
  const parts = await Promise.all(pieces.map(async ({ offset, length }) => {
    const bytes = await slide.readAt(offset, length);
    if (bytes.length < length) throw new AppError(500, 'tile.read_failed');
    return bytes;
  }));
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}
