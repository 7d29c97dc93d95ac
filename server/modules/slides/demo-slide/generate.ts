import fs from 'node:fs/promises';
import sharp from 'sharp';
import { mergeJpegTables } from '../../tiles/jpeg/merge-tables.js';
import { splitJpegTables } from '../../tiles/jpeg/split-tables.js';
import { JpegTileEncoder, jpegImageEntries } from '../../tiles/tiff/jpeg-tiles.js';
import { ResolutionUnit, Tag } from '../../tiles/tiff/tags.js';
import { TiffWriter, type EntrySpec } from '../../tiles/tiff/writer.js';
import { paintLabel } from './label.js';
import { hash3 } from './random.js';
import { blendTextures, downsampleQuad, paintTexture, type Rgb } from './textures.js';
import { makeTissueMap } from './tissue-map.js';

export interface DemoSlideOptions {
  out: string;
  width: number;
  height: number;
  /** Tile edge in pixels (even; 256 as most scanners). */
  tileSize?: number;
  /** Microns per level-0 pixel. */
  mpp?: number;
  seed?: number;
  /** JPEG quality of the tiles. */
  quality?: number;
  slideId?: string;
  /** Append a label image directory (scanners do; some tile servers mistake extra directories for levels). */
  label?: boolean;
  /** The label's pixels (RGB) instead of the painted one: e.g. known text for the OCR test. */
  labelRgb?: { data: Buffer; width: number; height: number };
  /** 'auto' writes BigTIFF only when the file outgrows 4 GiB. */
  bigTiff?: boolean | 'auto';
}

export interface DemoSlideResult {
  file: string;
  width: number;
  height: number;
  tileSize: number;
  mpp: number;
  levels: { width: number; height: number }[];
  bytes: number;
  bigTiff: boolean;
  tiles: number;
  ms: number;
}

interface LevelState {
  width: number;
  height: number;
  across: number;
  down: number;
  offsets: Float64Array;
  counts: Float64Array;
  pendingRow: (Rgb | null)[] | null;
}

const VARIANTS = { tissue: 12, background: 8 };

/**
 * Writes a synthetic H&E-like pyramidal TIFF (JPEG tiles sharing one JPEGTables per level, like SVS),
 * one tile row at a time: memory is a few tile rows per level whatever the slide size. Level-0 tiles
 * inside or outside tissue reuse a few pre-encoded textures; tiles on a tissue outline are blended and
 * encoded; every lower level is a 2×2 box-filtered, freshly encoded copy of the level above.
 */
export async function generateDemoSlide(options: DemoSlideOptions): Promise<DemoSlideResult> {
  const started = Date.now();
  const { out, width, height } = options;
  const T = options.tileSize ?? 256;
  const mpp = options.mpp ?? 0.25;
  const seed = options.seed ?? 1;
  const quality = options.quality ?? 80;
  const slideId = options.slideId ?? `DEMO-${seed}`;
  if (!(width > 0 && height > 0 && T >= 16 && T % 16 === 0)) throw new Error('width, height > 0 and a tile size that is a multiple of 16 are required');

  const encoder = new JpegTileEncoder(quality);
  const map = makeTissueMap(width, height, seed);
  const textures = {
    tissue: Array.from({ length: VARIANTS.tissue }, (_, i) => paintTexture(T, 'tissue', seed * 1000 + i)),
    background: Array.from({ length: VARIANTS.background }, (_, i) => paintTexture(T, 'background', seed * 1000 + 500 + i)),
  };
  const encoded = {
    tissue: await Promise.all(textures.tissue.map((t) => encoder.encode(t, T))),
    background: await Promise.all(textures.background.map((t) => encoder.encode(t, T))),
  };

  const levels: LevelState[] = [];
  for (let w = width, h = height; ; w = Math.ceil(w / 2), h = Math.ceil(h / 2)) {
    const across = Math.ceil(w / T), down = Math.ceil(h / T);
    levels.push({ width: w, height: h, across, down, offsets: new Float64Array(across * down), counts: new Float64Array(across * down), pendingRow: null });
    if (w <= T && h <= T) break;
  }

  const writer = await TiffWriter.create(out);
  let tiles = 0;
  try {
    const writeRow = async (k: number, row: number, data: Buffer[]) => {
      const level = levels[k];
      for (const [col, bytes] of data.entries()) {
        level.offsets[row * level.across + col] = await writer.append(bytes);
        level.counts[row * level.across + col] = bytes.length;
      }
      tiles += data.length;
    };

    /** Feeds a finished row of level k to level k+1, which builds a row from every two. */
    const pushRow = async (k: number, row: number, raw: (Rgb | null)[]): Promise<void> => {
      const level = levels[k];
      if (k + 1 >= levels.length) return;
      const last = row === level.down - 1;
      if (row % 2 === 0 && !last) { level.pendingRow = raw; return; }
      const top = row % 2 === 0 ? raw : level.pendingRow!;
      const bottom = row % 2 === 0 ? [] : raw;
      level.pendingRow = null;
      const next = levels[k + 1];
      const rawRow = Array.from({ length: next.across }, (_, c) =>
        downsampleQuad([top[2 * c] ?? null, top[2 * c + 1] ?? null, bottom[2 * c] ?? null, bottom[2 * c + 1] ?? null], T));
      await writeRow(k + 1, row >> 1, await Promise.all(rawRow.map((r) => encoder.encode(r, T))));
      await pushRow(k + 1, row >> 1, rawRow);
    };

    const level0 = levels[0];
    for (let ty = 0; ty < level0.down; ty++) {
      const raw: Rgb[] = [];
      const bytes: Promise<Buffer>[] = [];
      for (let tx = 0; tx < level0.across; tx++) {
        const h = hash3(tx, ty, seed);
        const tissue = h % VARIANTS.tissue;
        const background = (h >>> 8) % VARIANTS.background;
        const kind = map.classify(tx * T, ty * T, T, T);
        if (kind === 'tissue') { raw.push(textures.tissue[tissue]); bytes.push(Promise.resolve(encoded.tissue[tissue])); continue; }
        if (kind === 'background') { raw.push(textures.background[background]); bytes.push(Promise.resolve(encoded.background[background])); continue; }
        const mixed = blendTextures(textures.background[background], textures.tissue[tissue], T, (x, y) => map.at(tx * T + x, ty * T + y));
        raw.push(mixed);
        bytes.push(encoder.encode(mixed, T));
      }
      await writeRow(0, ty, await Promise.all(bytes));
      await pushRow(0, ty, raw);
    }

    const description = `Aperio Image Library (DSMS synthetic demo slide)\r\n${width}x${height} (${T}x${T}) JPEG/YCbCr Q=${quality}`
      + `|AppMag = ${Math.round(10 / mpp)}|MPP = ${mpp}|Filename = ${slideId}|ScanScope ID = DSMS-DEMO`;
    const pixelsPerCm = 10_000 / mpp;
    levels.forEach((level, k) => {
      const scale = level.width / width;
      writer.addDirectory([
        { tag: Tag.NewSubfileType, type: 'long', values: [k === 0 ? 0 : 1] },
        ...imageEntries(level.width, level.height),
        { tag: Tag.ImageDescription, type: 'ascii', value: k === 0 ? description : `${description}\r\nlevel ${k}` },
        { tag: Tag.XResolution, type: 'rational', values: [rational(pixelsPerCm * scale)] },
        { tag: Tag.YResolution, type: 'rational', values: [rational(pixelsPerCm * (level.height / height))] },
        { tag: Tag.ResolutionUnit, type: 'short', values: [ResolutionUnit.Centimetre] },
        { tag: Tag.TileWidth, type: 'long', values: [T] },
        { tag: Tag.TileLength, type: 'long', values: [T] },
        { tag: Tag.TileOffsets, type: 'offsets', values: level.offsets },
        { tag: Tag.TileByteCounts, type: 'long', values: level.counts },
        { tag: Tag.JPEGTables, type: 'undefined', value: encoder.tables! },
      ]);
    });

    if (options.label !== false) {
      const [lw, lh] = options.labelRgb ? [options.labelRgb.width, options.labelRgb.height] : [600, 400];
      const jpeg = await sharp(options.labelRgb?.data ?? paintLabel(slideId, lw, lh), { raw: { width: lw, height: lh, channels: 3 } })
        .jpeg({ quality: 90, optimiseCoding: false, chromaSubsampling: '4:2:0' }).toBuffer();
      // A complete JPEG in one strip, without the JFIF marker TIFF readers do not expect.
      const split = splitJpegTables(jpeg);
      const strip = mergeJpegTables(split.tables, split.abbreviated, { rgb: false });
      const at = await writer.append(strip);
      writer.addDirectory([
        { tag: Tag.NewSubfileType, type: 'long', values: [1] },
        ...imageEntries(lw, lh),
        { tag: Tag.ImageDescription, type: 'ascii', value: `Aperio Image Library (DSMS synthetic demo slide)\r\nlabel ${lw}x${lh}` },
        { tag: Tag.StripOffsets, type: 'offsets', values: [at] },
        { tag: Tag.RowsPerStrip, type: 'long', values: [lh] },
        { tag: Tag.StripByteCounts, type: 'long', values: [strip.length] },
      ]);
    }
    const { bytes, bigTiff } = await writer.finish(options.bigTiff ?? 'auto');
    return {
      file: out, width, height, tileSize: T, mpp,
      levels: levels.map((l) => ({ width: l.width, height: l.height })),
      bytes, bigTiff, tiles, ms: Date.now() - started,
    };
  } catch (err) {
    await writer.abort();
    await fs.rm(out, { force: true });
    throw err;
  }
}

function imageEntries(width: number, height: number): EntrySpec[] {
  return jpegImageEntries(width, height, 'DSMS make-demo-slide');
}

function rational(v: number): [number, number] {
  return [Math.round(v * 1000), 1000];
}
