import { createRequire } from 'node:module';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { frameItem, instanceHeader, pixelDataEnd, pixelDataStart } from '../../server/modules/slides/dicom/instance-writer.js';
import { DicomSeriesError } from '../../server/modules/tiles/dicom/errors.js';
import { readDicomSeriesIndex, type SeriesPart } from '../../server/modules/tiles/dicom/series-index.js';
import type { OpenedSlide } from '../../server/modules/tiles/slide-store.js';
import { TileReader } from '../../server/modules/tiles/tile-reader.js';
import type { ReadAt } from '../../server/modules/tiles/tiff/ifd-parser.js';

/**
 * The DICOM WSI reader on series written here (dcmjs headers, hand-laid pixel data): TILED_SPARSE positions with a
 * second focal plane, frames split over fragments, native RGB and YBR_FULL frames, JPEG 2000 frames, the
 * Extended Offset Table, and refusals.
 */
const T = 64;
const UNCOMPRESSED = '1.2.840.10008.1.2.1';
const J2K = '1.2.840.10008.1.2.4.91';

const solid = (r: number, g: number, b: number) => ({ create: { width: T, height: T, channels: 3 as const, background: { r, g, b } } });
const jpeg = (r: number, g: number, b: number) => sharp(solid(r, g, b)).jpeg({ quality: 95 }).toBuffer();

function dataset(extra: Record<string, unknown>): Record<string, unknown> {
  return {
    SOPInstanceUID: `2.25.${Math.floor(Math.random() * 1e12)}`, StudyInstanceUID: '2.25.1', SeriesInstanceUID: '2.25.2', Modality: 'SM',
    ImageType: ['DERIVED', 'PRIMARY', 'VOLUME', 'NONE'], SamplesPerPixel: 3, PhotometricInterpretation: 'YBR_FULL_422', PlanarConfiguration: 0,
    Rows: T, Columns: T, BitsAllocated: 8, BitsStored: 8, HighBit: 7, PixelRepresentation: 0,
    TotalPixelMatrixColumns: 2 * T, TotalPixelMatrixRows: 2 * T, DimensionOrganizationType: 'TILED_FULL',
    SharedFunctionalGroupsSequence: [{ PixelMeasuresSequence: [{ PixelSpacing: [0.0005, 0.00025], SliceThickness: 0 }] }],
    ...extra,
  };
}

/** Encapsulated frames, each a list of fragments. */
const encapsulated = (header: Buffer, frames: Buffer[][]) => Buffer.concat([header, pixelDataStart(), ...frames.flatMap((f) => f.flatMap(frameItem)), pixelDataEnd()]);

/** Native pixel data (OB, defined length) after the header. */
function native(header: Buffer, pixels: Buffer): Buffer {
  const el = Buffer.alloc(12);
  el.writeUInt16LE(0x7fe0, 0); el.writeUInt16LE(0x0010, 2); el.write('OB', 4, 'latin1'); el.writeUInt32LE(pixels.length, 8);
  return Buffer.concat([header, el, pixels]);
}

function series(files: Buffer[]): { readAt: ReadAt; parts: SeriesPart[]; slide: (index: Awaited<ReturnType<typeof readDicomSeriesIndex>>) => OpenedSlide } {
  const all = Buffer.concat(files);
  let base = 0;
  const parts = files.map((f, i) => { const p = { name: `${i}.dcm`, base, size: f.length }; base += f.length; return p; });
  const readAt: ReadAt = async (position, length) => all.subarray(position, position + length);
  return { readAt, parts, slide: (index) => ({ file: '/nonexistent', identity: `t${Math.random()}`, index, readAt }) };
}

const mean = (img: { data: Buffer }, c: number) => {
  let s = 0;
  for (let i = c; i < img.data.length; i += 3) s += img.data[i];
  return s / (img.data.length / 3);
};

describe('DICOM WSI reader', () => {
  it('places TILED_SPARSE frames by their positions, keeps the first focal plane, and leaves missing tiles blank', async () => {
    const position = (col: number, row: number, z: number) => ({
      PlanePositionSlideSequence: [{ ColumnPositionInTotalImagePixelMatrix: col * T + 1, RowPositionInTotalImagePixelMatrix: row * T + 1, ZOffsetInSlideCoordinateSystem: z }],
    });
    const frames = [await jpeg(200, 0, 0), await jpeg(0, 200, 0), await jpeg(0, 0, 200), await jpeg(90, 90, 90)];
    const header = instanceHeader(dataset({
      DimensionOrganizationType: 'TILED_SPARSE', NumberOfFrames: 4,
      PerFrameFunctionalGroupsSequence: [position(1, 0, 0), position(0, 1, 0), position(1, 1, 0), position(0, 0, 5)],
    }));
    const s = series([encapsulated(header, frames.map((f) => [f]))]);
    const index = await readDicomSeriesIndex(s.readAt, s.parts);
    expect(index).toMatchObject({ width: 2 * T, height: 2 * T, vendor: 'dicom' });
    expect(index.mppX).toBeCloseTo(0.25, 9);
    expect(index.mppY).toBeCloseTo(0.5, 9);
    const level = index.levels[0];
    // (0,0) exists only in the second focal plane: not part of the first.
    expect(Array.from(level.tileByteCounts).map((c) => c > 0)).toEqual([false, true, true, true]);
    const reader = new TileReader();
    const slide = s.slide(index);
    expect((await reader.storedJpeg(slide, 0, 1, 0)).equals(frames[0])).toBe(true);
    expect((await reader.storedJpeg(slide, 0, 0, 1)).equals(frames[1])).toBe(true);
    const blank = await reader.decodeTile(slide, 0, 0, 0);
    expect(mean(blank, 0)).toBe(255);
  });

  it('joins a frame split over fragments (an empty Basic Offset Table: grouped by each frame\'s JPEG start marker)', async () => {
    const frames = await Promise.all([jpeg(10, 20, 30), jpeg(40, 50, 60), jpeg(70, 80, 90), jpeg(100, 110, 120)]);
    const split = frames.map((f) => [f.subarray(0, 100), f.subarray(100)]);
    const s = series([encapsulated(instanceHeader(dataset({ NumberOfFrames: 4 })), split)]);
    const index = await readDicomSeriesIndex(s.readAt, s.parts);
    const reader = new TileReader();
    for (let i = 0; i < 4; i++) expect((await reader.storedJpeg(s.slide(index), 0, i % 2, Math.floor(i / 2))).equals(frames[i]), `frame ${i}`).toBe(true);
  });

  it('reads native RGB (interleaved and planar) and YBR_FULL frames', async () => {
    const rgb = Buffer.alloc(T * T * 3);
    for (let i = 0; i < T * T; i++) rgb.set([200, 100, 50], i * 3);
    const planar = Buffer.concat([Buffer.alloc(T * T, 200), Buffer.alloc(T * T, 100), Buffer.alloc(T * T, 50)]);
    // Y, Cb, Cr of (200, 100, 50) with the full-range BT.601 matrix.
    const y = 0.299 * 200 + 0.587 * 100 + 0.114 * 50, cb = 128 + (50 - y) / 1.772, cr = 128 + (200 - y) / 1.402;
    const ybr = Buffer.alloc(T * T * 3);
    for (let i = 0; i < T * T; i++) ybr.set([Math.round(y), Math.round(cb), Math.round(cr)], i * 3);
    const one = { TotalPixelMatrixColumns: T, TotalPixelMatrixRows: T, NumberOfFrames: 1 };
    for (const [name, extra, pixels] of [
      ['interleaved', { PhotometricInterpretation: 'RGB' }, rgb],
      ['planar', { PhotometricInterpretation: 'RGB', PlanarConfiguration: 1 }, planar],
      ['YBR_FULL', { PhotometricInterpretation: 'YBR_FULL' }, ybr],
    ] as const) {
      const s = series([native(instanceHeader(dataset({ ...one, ...extra }), UNCOMPRESSED), pixels)]);
      const index = await readDicomSeriesIndex(s.readAt, s.parts);
      const tile = await new TileReader().decodeTile(s.slide(index), 0, 0, 0);
      expect([mean(tile, 0), mean(tile, 1), mean(tile, 2)].map(Math.round), name).toEqual([200, 100, 50]);
    }
  });

  it('decodes JPEG 2000 frames', async () => {
    const require = createRequire(import.meta.url);
    const factory = require('@cornerstonejs/codec-openjpeg/wasmjs') as (o: object) => Promise<any>;
    const codec = await factory({ print: () => {}, printErr: () => {} });
    const encoder = new codec.J2KEncoder();
    const raw = encoder.getDecodedBuffer({ width: T, height: T, bitsPerSample: 8, componentCount: 3, isSigned: false, isUsingColorTransform: true });
    for (let i = 0; i < T * T; i++) raw.set([30, 160, 220], i * 3);
    encoder.encode();
    const j2k = Buffer.from(encoder.getEncodedBuffer());
    encoder.delete();
    const one = { TotalPixelMatrixColumns: T, TotalPixelMatrixRows: T, NumberOfFrames: 1, PhotometricInterpretation: 'YBR_ICT' };
    const s = series([encapsulated(instanceHeader(dataset(one), J2K), [[j2k]])]);
    const index = await readDicomSeriesIndex(s.readAt, s.parts);
    const tile = await new TileReader().decodeTile(s.slide(index), 0, 0, 0);
    expect([mean(tile, 0), mean(tile, 1), mean(tile, 2)].map(Math.round)).toEqual([30, 160, 220]);
  });

  it('takes levels from the instances and LABEL / OVERVIEW as associated images', async () => {
    const level0 = encapsulated(instanceHeader(dataset({ NumberOfFrames: 4 })), await Promise.all([1, 2, 3, 4].map(async (v) => [await jpeg(v * 40, 0, 0)])));
    const level1 = encapsulated(instanceHeader(dataset({ NumberOfFrames: 1, TotalPixelMatrixColumns: T, TotalPixelMatrixRows: T, ImageType: ['DERIVED', 'PRIMARY', 'VOLUME', 'RESAMPLED'] })), [[await jpeg(1, 2, 3)]]);
    const label = encapsulated(instanceHeader(dataset({ NumberOfFrames: 1, TotalPixelMatrixColumns: T, TotalPixelMatrixRows: T, ImageType: ['ORIGINAL', 'PRIMARY', 'LABEL', 'NONE'] })), [[await jpeg(9, 9, 9)]]);
    const s = series([label, level1, level0]);
    const index = await readDicomSeriesIndex(s.readAt, s.parts);
    expect(index.levels.map((l) => [l.width, l.downsample])).toEqual([[2 * T, 1], [T, 2]]);
    expect(index.associated.map((a) => a.name)).toEqual(['label']);
  });

  it('refuses two series, a non-WSI object, an over-declared frame count and a truncated file', async () => {
    const frames = await Promise.all([1, 2, 3, 4].map(async (v) => [await jpeg(v, v, v)]));
    const good = encapsulated(instanceHeader(dataset({ NumberOfFrames: 4 })), frames);
    const code = async (files: Buffer[]) => {
      const s = series(files);
      const err = await readDicomSeriesIndex(s.readAt, s.parts).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DicomSeriesError);
      return (err as DicomSeriesError).code;
    };
    expect(await code([good, encapsulated(instanceHeader(dataset({ NumberOfFrames: 4, SeriesInstanceUID: '2.25.3' })), frames)])).toBe('mixed_series');
    const ct = instanceHeader(dataset({ NumberOfFrames: 4 }));
    const ctClass = Buffer.from(ct.toString('latin1').replaceAll('1.2.840.10008.5.1.4.1.1.77.1.6', '1.2.840.10008.5.1.4.1.1.2.0000'), 'latin1');
    expect(await code([encapsulated(ctClass, frames)])).toBe('not_wsi');
    expect(await code([encapsulated(instanceHeader(dataset({ NumberOfFrames: 50_000_000 })), frames)])).toBe('too_many_frames');
    expect(await code([good.subarray(0, good.length - 400)])).toBe('truncated');
    expect(await code([encapsulated(instanceHeader(dataset({ NumberOfFrames: 5 })), frames)])).toBe('truncated');
  });
});
