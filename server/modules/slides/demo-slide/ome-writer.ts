import fs from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { mergeJpegTables } from '../../tiles/jpeg/merge-tables.js';
import { splitJpegTables } from '../../tiles/jpeg/split-tables.js';
import { JpegTileEncoder, jpegImageEntries } from '../../tiles/tiff/jpeg-tiles.js';
import { Compression, Photometric, Tag } from '../../tiles/tiff/tags.js';
import { TiffWriter, type EntrySpec } from '../../tiles/tiff/writer.js';
import { demoAssociatedImages } from './associated.js';
import { paintDemoRaster, resizeRaster } from './raster.js';
import type { Rgb } from './textures.js';

export interface OmeWriteOptions {
  out: string;
  width: number;
  height: number;
  tileSize?: number;
  /** Microns per level-0 pixel (PhysicalSizeX/Y, written in µm). */
  mpp?: number;
  /** NominalMagnification of the objective. */
  objective?: number;
  /** AcquisitionDate, ISO 8601. */
  acquisitionDate?: string;
  compression?: 'jpeg' | 'deflate' | 'none';
  seed?: number;
  quality?: number;
  slideId?: string;
  /** Write label and macro images as their own OME Images (IFDs 1 and 2). */
  associated?: boolean;
}

export interface OmeWriteResult {
  file: string;
  levels: { width: number; height: number }[];
  /** The level-0 picture that was written, for comparing what a reader serves. */
  raster: Rgb;
}

/**
 * Writes a synthetic RGB brightfield OME-TIFF the way Bio-Formats and QuPath do: the full-resolution
 * tiled image first, its reduced levels as SubIFDs, label and macro as further IFDs, and the metadata as
 * OME-XML in the first ImageDescription. No resolution tags: the pixel size is in the XML only.
 */
export async function writeOmeTiff(options: OmeWriteOptions): Promise<OmeWriteResult> {
  const { out, width, height } = options;
  const T = options.tileSize ?? 256;
  const compression = options.compression ?? 'jpeg';
  const raster0 = paintDemoRaster({ width, height, seed: options.seed ?? 1 });
  const sizes: { width: number; height: number }[] = [];
  for (let w = width, h = height; ; w = Math.ceil(w / 2), h = Math.ceil(h / 2)) {
    sizes.push({ width: w, height: h });
    if (w <= T && h <= T) break;
  }

  const writer = await TiffWriter.create(out);
  try {
    const encoder = new JpegTileEncoder(options.quality ?? 85);
    const directories: EntrySpec[][] = [];
    let raster = raster0;
    for (const [k, size] of sizes.entries()) {
      if (k > 0) raster = await resizeRaster(raster, sizes[k - 1].width, sizes[k - 1].height, size.width, size.height);
      const across = Math.ceil(size.width / T), down = Math.ceil(size.height / T);
      const offsets: number[] = [], counts: number[] = [];
      for (let row = 0; row < down; row++) {
        for (let col = 0; col < across; col++) {
          const tile = await paddedTile(raster, size.width, size.height, col * T, row * T, T);
          const bytes = compression === 'jpeg' ? await encoder.encode(tile, T) : compression === 'deflate' ? deflateSync(tile) : tile;
          offsets.push(await writer.append(bytes));
          counts.push(bytes.length);
        }
      }
      directories.push([
        { tag: Tag.NewSubfileType, type: 'long', values: [k === 0 ? 0 : 1] },
        ...(compression === 'jpeg' ? jpegImageEntries(size.width, size.height) : rgbEntries(size.width, size.height, compression)),
        { tag: Tag.TileWidth, type: 'long', values: [T] },
        { tag: Tag.TileLength, type: 'long', values: [T] },
        { tag: Tag.TileOffsets, type: 'offsets', values: offsets },
        { tag: Tag.TileByteCounts, type: 'long', values: counts },
        ...(compression === 'jpeg' ? [{ tag: Tag.JPEGTables, type: 'undefined' as const, value: encoder.tables! }] : []),
      ]);
    }

    const withAssociated = options.associated !== false;
    const images = withAssociated ? await demoAssociatedImages(raster0, width, height, options.slideId ?? 'OME-1') : null;
    // OME-XML is UTF-8 ("µm"); the writer stores ASCII values byte for byte as latin1, so hand it the UTF-8 bytes.
    const xml = omeXml(options, sizes[0], images ? [images.label, images.macro] : []);
    writer.addDirectory([...directories[0], { tag: Tag.ImageDescription, type: 'ascii', value: Buffer.from(xml, 'utf8').toString('latin1') }], directories.slice(1));
    if (images) {
      for (const image of [images.label, images.macro]) {
        // One strip holding a complete JPEG, without the JFIF marker TIFF readers do not expect.
        const split = splitJpegTables(image.jpeg);
        const strip = mergeJpegTables(split.tables, split.abbreviated, { rgb: false });
        const at = await writer.append(strip);
        writer.addDirectory([
          { tag: Tag.NewSubfileType, type: 'long', values: [0] },
          ...jpegImageEntries(image.width, image.height),
          { tag: Tag.StripOffsets, type: 'offsets', values: [at] },
          { tag: Tag.RowsPerStrip, type: 'long', values: [image.height] },
          { tag: Tag.StripByteCounts, type: 'long', values: [strip.length] },
        ]);
      }
    }
    await writer.finish(false);
    return { file: out, levels: sizes, raster: raster0 };
  } catch (err) {
    await writer.abort();
    await fs.rm(out, { force: true });
    throw err;
  }
}

/** A full T × T tile (TIFF tiles are padded at the edges), white beyond the image. */
async function paddedTile(raster: Rgb, width: number, height: number, left: number, top: number, T: number): Promise<Rgb> {
  const w = Math.min(T, width - left), h = Math.min(T, height - top);
  return sharp(raster, { raw: { width, height, channels: 3 } })
    .extract({ left, top, width: w, height: h })
    .extend({ right: T - w, bottom: T - h, background: { r: 255, g: 255, b: 255 } })
    .raw().toBuffer();
}

function rgbEntries(width: number, height: number, compression: 'deflate' | 'none'): EntrySpec[] {
  return [
    { tag: Tag.ImageWidth, type: 'long', values: [width] },
    { tag: Tag.ImageLength, type: 'long', values: [height] },
    { tag: Tag.BitsPerSample, type: 'short', values: [8, 8, 8] },
    { tag: Tag.Compression, type: 'short', values: [compression === 'deflate' ? Compression.AdobeDeflate : Compression.None] },
    { tag: Tag.Photometric, type: 'short', values: [Photometric.Rgb] },
    { tag: Tag.SamplesPerPixel, type: 'short', values: [3] },
    { tag: Tag.PlanarConfiguration, type: 'short', values: [1] },
    { tag: Tag.Software, type: 'ascii', value: 'DSMS OME test writer' },
  ];
}

function omeXml(o: OmeWriteOptions, size: { width: number; height: number }, associated: { width: number; height: number }[]): string {
  const mpp = o.mpp ?? 0.5;
  const pixels = (i: number, w: number, h: number, extra = '') => `<Pixels ID="Pixels:${i}" DimensionOrder="XYCZT" Type="uint8" SizeX="${w}" SizeY="${h}" SizeC="3" SizeZ="1" SizeT="1" Interleaved="true"${extra}>`
    + `<Channel ID="Channel:${i}:0" SamplesPerPixel="3"><LightPath/></Channel><TiffData IFD="${i}" PlaneCount="1"/></Pixels>`;
  const names = ['label image', 'macro image'];
  return '<?xml version="1.0" encoding="UTF-8"?>'
    + '<OME xmlns="http://www.openmicroscopy.org/Schemas/OME/2016-06" Creator="DSMS OME test writer">'
    + `<Instrument ID="Instrument:0"><Objective ID="Objective:0:0" NominalMagnification="${o.objective ?? 20}"/></Instrument>`
    + `<Image ID="Image:0" Name="${o.slideId ?? 'OME-1'}"><AcquisitionDate>${o.acquisitionDate ?? '2023-04-05T06:07:08'}</AcquisitionDate>`
    + '<InstrumentRef ID="Instrument:0"/><ObjectiveSettings ID="Objective:0:0"/>'
    + pixels(0, size.width, size.height, ` PhysicalSizeX="${mpp}" PhysicalSizeXUnit="µm" PhysicalSizeY="${mpp}" PhysicalSizeYUnit="µm"`)
    + '</Image>'
    + associated.map((a, i) => `<Image ID="Image:${i + 1}" Name="${names[i]}">${pixels(i + 1, a.width, a.height)}</Image>`).join('')
    + '</OME>';
}
