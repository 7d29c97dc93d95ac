import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { readTiffStructure, TiffFormatError, type ReadAt } from '../../server/modules/tiles/tiff/ifd-parser.js';
import { readSlideIndex } from '../../server/modules/tiles/tiff/levels.js';
import { parseImageDescription } from '../../server/modules/tiles/tiff/description.js';
import { REAL_DIR, realSlides } from '../support/real-slides.js';


const fromBuffer = (b: Buffer): ReadAt => async (position, length) => b.subarray(position, position + length);
const fromFile = (file: string) => fromBuffer(fs.readFileSync(file));

let dir: string;
beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-tiff-')); });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('TIFF directory parser', () => {
  it.each([false, true])('indexes a generated pyramid (BigTIFF: %s) the way libvips sees it', async (bigTiff) => {
    const out = path.join(dir, `demo-${bigTiff}.tiff`);
    const made = await generateDemoSlide({ out, width: 1500, height: 1000, tileSize: 256, mpp: 0.5, seed: 3, bigTiff });
    expect(made.bigTiff).toBe(bigTiff);
    const index = await readSlideIndex(fromFile(out));
    expect(index.bigTiff).toBe(bigTiff);
    expect(index).toMatchObject({ width: 1500, height: 1000, vendor: 'aperio', mppX: 0.5, mppY: 0.5, appMag: 20 });
    expect(index.levels.map((l) => [l.width, l.height])).toEqual([[1500, 1000], [750, 500], [375, 250], [188, 125]]);
    for (const [i, level] of index.levels.entries()) {
      expect(level).toMatchObject({ tileWidth: 256, tileHeight: 256, compression: 7, photometric: 6, samplesPerPixel: 3, bitsPerSample: 8, page: i });
      expect(level.tileOffsets.length).toBe(level.tilesAcross * level.tilesDown);
      expect(level.jpegTables!.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      const meta = await sharp(out, { page: i }).metadata();
      expect([meta.width, meta.height]).toEqual([level.width, level.height]);
    }
    expect(index.levels.map((l) => l.downsample)).toEqual([1, 2, 4, expect.closeTo(7.99, 1)]);
    expect(index.associated).toEqual([{ name: 'label', width: 600, height: 400, page: 4 }]);
  });

  it('reads big-endian files, rationals, and MPP from the resolution when the description has none', async () => {
    const tiff = bigEndianTiff();
    const index = await readSlideIndex(fromBuffer(tiff));
    expect(index).toMatchObject({ width: 300, height: 200, vendor: 'generic-tiff', appMag: null });
    expect(index.mppX).toBeCloseTo(0.5);
    expect(index.levels[0]).toMatchObject({ tileWidth: 256, tileHeight: 256, tilesAcross: 2, tilesDown: 1, compression: 7, photometric: 2 });
    expect([...index.levels[0].tileOffsets]).toEqual([1000, 2000]);
    expect([...index.levels[0].tileByteCounts]).toEqual([10, 20]);
  });

  it('refuses what is not a TIFF and directory chains that loop', async () => {
    await expect(readTiffStructure(fromBuffer(Buffer.from('GIF89a not a tiff')))).rejects.toBeInstanceOf(TiffFormatError);
    const looping = bigEndianTiff();
    const ifd = looping.readUInt32BE(4);
    looping.writeUInt32BE(ifd, ifd + 2 + looping.readUInt16BE(ifd) * 12);
    await expect(readTiffStructure(fromBuffer(looping))).rejects.toThrow(/loops/);
  });

  it('reads Aperio fields from an ImageDescription', () => {
    expect(parseImageDescription('Aperio Image Library v11.2.1\r\n46000x32914 [0,100 46000x32814] (240x240) JPEG/RGB Q=30|AppMag = 20|MPP = 0.4990|ScanScope ID = CPAPERIOCS'))
      .toMatchObject({ vendor: 'aperio', mpp: 0.499, appMag: 20, properties: { 'ScanScope ID': 'CPAPERIOCS' } });
    expect(parseImageDescription('ImageJ=1.52')).toMatchObject({ vendor: null, mpp: null, appMag: null });
  });

  it.runIf(realSlides('CMU-1-Small-Region.svs'))('finds one RGB JPEG level and three associated images in CMU-1-Small-Region.svs', async () => {
    const index = await readSlideIndex(fromFile(path.join(REAL_DIR, 'CMU-1-Small-Region.svs')));
    expect(index).toMatchObject({ width: 2220, height: 2967, vendor: 'aperio', mppX: 0.499, appMag: 20, bigTiff: false });
    expect(index.levels).toHaveLength(1);
    expect(index.levels[0]).toMatchObject({ tileWidth: 240, tileHeight: 240, compression: 7, photometric: 2, tilesAcross: 10, tilesDown: 13 });
    expect(index.associated.map((a) => a.name)).toEqual(['thumbnail', 'label', 'macro']);
  });
});

/** A hand-made big-endian classic TIFF: one 300×200 tiled directory, 1000 pixels per cm (0.5 µm would be 20000). */
function bigEndianTiff(): Buffer {
  const b = Buffer.alloc(512);
  b.write('MM', 0, 'latin1');
  b.writeUInt16BE(42, 2);
  b.writeUInt32BE(8, 4);
  const entries: [number, number, number, number][] = [
    // tag, type, count, value-or-offset
    [256, 3, 1, 300 << 16], [257, 4, 1, 200], [259, 3, 1, 7 << 16], [262, 3, 1, 2 << 16], [277, 3, 1, 3 << 16],
    [282, 5, 1, 300], [283, 5, 1, 300], [296, 3, 1, 3 << 16], [322, 3, 1, 256 << 16], [323, 3, 1, 256 << 16],
    [324, 4, 2, 320], [325, 4, 2, 328],
  ];
  b.writeUInt16BE(entries.length, 8);
  entries.forEach(([tag, type, count, value], i) => {
    const p = 10 + i * 12;
    b.writeUInt16BE(tag, p); b.writeUInt16BE(type, p + 2); b.writeUInt32BE(count, p + 4); b.writeUInt32BE(value >>> 0, p + 8);
  });
  b.writeUInt32BE(0, 10 + entries.length * 12);
  b.writeUInt32BE(20000, 300); b.writeUInt32BE(1, 304); // 20000 px/cm → 0.5 µm
  b.writeUInt32BE(1000, 320); b.writeUInt32BE(2000, 324);
  b.writeUInt32BE(10, 328); b.writeUInt32BE(20, 332);
  return b;
}
