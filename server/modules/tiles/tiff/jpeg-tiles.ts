import sharp from 'sharp';
import { splitJpegTables } from '../jpeg/split-tables.js';
import { Compression, Photometric, Tag } from './tags.js';
import type { EntrySpec } from './writer.js';

/**
 * Encodes RGB tiles as JPEG with fixed quality and the standard Huffman tables, so every tile of a level
 * shares one table set (stored once as JPEGTables, as SVS does) and keeps only its abbreviated stream.
 * A tile whose tables differ keeps them inline, which is valid TIFF and decodes the same after the merge.
 */
export class JpegTileEncoder {
  tables: Buffer | null = null;
  constructor(private readonly quality: number) {}

  async encode(raw: Buffer, width: number, height = width): Promise<Buffer> {
    const jpeg = await sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: this.quality, optimiseCoding: false, chromaSubsampling: '4:2:0' })
      .toBuffer();
    const { tables, abbreviated } = splitJpegTables(jpeg);
    this.tables ??= tables;
    return tables.equals(this.tables) ? abbreviated : jpeg;
  }
}

/** The directory entries every YCbCr JPEG image of ours carries, tiled or not. */
export function jpegImageEntries(width: number, height: number, software = 'DSMS'): EntrySpec[] {
  return [
    { tag: Tag.ImageWidth, type: 'long', values: [width] },
    { tag: Tag.ImageLength, type: 'long', values: [height] },
    { tag: Tag.BitsPerSample, type: 'short', values: [8, 8, 8] },
    { tag: Tag.Compression, type: 'short', values: [Compression.Jpeg] },
    { tag: Tag.Photometric, type: 'short', values: [Photometric.YCbCr] },
    { tag: Tag.SamplesPerPixel, type: 'short', values: [3] },
    { tag: Tag.PlanarConfiguration, type: 'short', values: [1] },
    { tag: Tag.Software, type: 'ascii', value: software },
    { tag: Tag.YCbCrSubSampling, type: 'short', values: [2, 2] },
  ];
}
