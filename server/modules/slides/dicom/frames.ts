import sharp from '../../tiles/vips.js';
import type { Level } from '../../tiles/slide-index.js';
import { canPassThrough, type RgbImage } from '../../tiles/tile-reader.js';
import type { SlideHandle, TileService } from '../../tiles/tile-service.js';

const QUALITY = 90;

/**
 * Tile (col, row) of level `i` as a whole DICOM frame: the stored JPEG when it is one (copied, no re-encode), else
 * decoded, padded white to the tile size and encoded (quality 90): KFB's cropped edge tiles, missing tiles, other
 * compressions. One tile in memory at a time.
 */
export async function frameJpeg(service: TileService, { slide }: SlideHandle, i: number, level: Level, col: number, row: number): Promise<Buffer> {
  const t = row * level.tilesAcross + col;
  const interior = (col + 1) * level.tileWidth <= level.width && (row + 1) * level.tileHeight <= level.height;
  const present = level.tileByteCounts[t] > 0;
  if (present && canPassThrough(level) && (interior || !level.edgeTilesCropped)) return service.reader.storedJpeg(slide, i, col, row);
  const tile: RgbImage | null = present ? await service.reader.decodeTile(slide, i, col, row) : null;
  const tw = level.tileWidth, th = level.tileHeight;
  let canvas = sharp({ create: { width: tw, height: th, channels: 3, background: { r: 255, g: 255, b: 255 } } });
  if (tile) {
    const width = Math.min(tile.width, tw), height = Math.min(tile.height, th);
    const input = width === tile.width && height === tile.height
      ? tile.data
      : await sharp(tile.data, { raw: { width: tile.width, height: tile.height, channels: 3 } }).extract({ left: 0, top: 0, width, height }).raw().toBuffer();
    // Compositing adds an alpha channel: drop it so the raw buffer is the 3-channel tile it is read back as.
    canvas = sharp(await canvas.composite([{ input, raw: { width, height, channels: 3 }, left: 0, top: 0 }]).removeAlpha().raw().toBuffer(), { raw: { width: tw, height: th, channels: 3 } });
  }
  if (level.samplesPerPixel === 1) canvas = canvas.grayscale();
  return canvas.jpeg({ quality: QUALITY, chromaSubsampling: '4:2:0' }).toBuffer();
}
