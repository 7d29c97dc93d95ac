import { describe, expect, it } from 'vitest';
import { AppError } from '../../server/http/errors.js';
import { dziGeometry, dziLevelSize, planDziTile } from '../../server/modules/tiles/dzi.js';
import { iiifAsDziTile, parseIiifRequest, parseRegion, parseSize } from '../../server/modules/tiles/iiif.js';
import type { Level, SlideIndex } from '../../server/modules/tiles/tiff/levels.js';

function level(width: number, height: number, compression = 7): Level {
  const tilesAcross = Math.ceil(width / 256), tilesDown = Math.ceil(height / 256);
  return {
    width, height, tileWidth: 256, tileHeight: 256, tilesAcross, tilesDown, downsample: 1, compression, photometric: 6,
    samplesPerPixel: 3, bitsPerSample: 8, jpegTables: null, page: 0,
    tileOffsets: new Float64Array(tilesAcross * tilesDown), tileByteCounts: new Float64Array(tilesAcross * tilesDown).fill(100),
  };
}

/** A 10000×7000 slide stored at 1, 1/4 and 1/16 (Aperio-style 4× steps, sizes rounded down). */
const index: SlideIndex = {
  width: 10000, height: 7000, levels: [level(10000, 7000), level(2500, 1750), level(625, 437)],
  associated: [], vendor: 'aperio', mppX: 0.25, mppY: 0.25, appMag: 40, bigTiff: false,
};
const g = dziGeometry(index);

describe('Deep Zoom planning', () => {
  it('has levels down to 1×1 with sizes rounded up', () => {
    expect(g).toEqual({ width: 10000, height: 7000, tileSize: 256, maxLevel: 14 });
    expect(dziLevelSize(g, 14)).toEqual({ width: 10000, height: 7000 });
    expect(dziLevelSize(g, 10)).toEqual({ width: 625, height: 438 });
    expect(dziLevelSize(g, 0)).toEqual({ width: 1, height: 1 });
  });

  it('passes interior tiles of stored levels through, including a level rounded the other way', () => {
    expect(planDziTile(index, g, 14, 3, 2)).toEqual({ kind: 'stored', level: 0, col: 3, row: 2 });
    expect(planDziTile(index, g, 12, 8, 5)).toEqual({ kind: 'stored', level: 1, col: 8, row: 5 });
    expect(planDziTile(index, g, 12, 9, 5)).toMatchObject({ kind: 'render', width: 2500 - 9 * 256 });
    expect(planDziTile(index, g, 10, 1, 0)).toEqual({ kind: 'stored', level: 2, col: 1, row: 0 });
  });

  it('renders edge tiles cropped to the image and levels the file lacks', () => {
    expect(planDziTile(index, g, 14, 39, 27)).toEqual({ kind: 'render', rect: { x: 9984, y: 6912, width: 16, height: 88 }, width: 16, height: 88 });
    const missing = planDziTile(index, g, 13, 0, 0);
    expect(missing).toMatchObject({ kind: 'render', width: 256, height: 256, rect: { x: 0, y: 0, width: 512, height: 512 } });
    expect(planDziTile(index, g, 0, 0, 0)).toMatchObject({ kind: 'render', width: 1, height: 1 });
  });

  it('returns nothing outside the pyramid', () => {
    expect(planDziTile(index, g, 15, 0, 0)).toBeNull();
    expect(planDziTile(index, g, 14, 40, 0)).toBeNull();
    expect(planDziTile(index, g, 14, 0, 28)).toBeNull();
    expect(planDziTile(index, g, -1, 0, 0)).toBeNull();
  });

  it('never passes through compressions it cannot send as JPEG', () => {
    const jp2k: SlideIndex = { ...index, levels: [level(10000, 7000, 33005)] };
    expect(planDziTile(jp2k, dziGeometry(jp2k), 14, 3, 2)).toMatchObject({ kind: 'render' });
  });
});

describe('IIIF Image API 3 parameters', () => {
  const errorKey = (f: () => unknown) => {
    try { f(); } catch (e) { return `${(e as AppError).status} ${(e as AppError).key}`; }
    return 'no error';
  };

  it('parses regions, cropping at the image edge', () => {
    expect(parseRegion(1000, 600, 'full')).toEqual({ x: 0, y: 0, width: 1000, height: 600 });
    expect(parseRegion(1000, 600, 'square')).toEqual({ x: 200, y: 0, width: 600, height: 600 });
    expect(parseRegion(1000, 600, '900,500,300,300')).toEqual({ x: 900, y: 500, width: 100, height: 100 });
    expect(parseRegion(1000, 600, 'pct:10,50,25.5,50')).toEqual({ x: 100, y: 300, width: 255, height: 300 });
    for (const bad of ['1000,0,10,10', '0,0,0,10', '1,2,3', 'pct:a,0,1,1', '-1,0,5,5']) {
      expect(errorKey(() => parseRegion(1000, 600, bad)), bad).toBe('400 iiif.bad_region');
    }
  });

  it('parses sizes, refusing upscaling without ^', () => {
    const r = { x: 0, y: 0, width: 1000, height: 600 };
    expect(parseSize(r, 'max')).toEqual({ width: 1000, height: 600 });
    expect(parseSize(r, '500,')).toEqual({ width: 500, height: 300 });
    expect(parseSize(r, ',300')).toEqual({ width: 500, height: 300 });
    expect(parseSize(r, 'pct:25')).toEqual({ width: 250, height: 150 });
    expect(parseSize(r, '100,100')).toEqual({ width: 100, height: 100 });
    expect(parseSize(r, '!200,200')).toEqual({ width: 200, height: 120 });
    expect(parseSize(r, '!5000,5000')).toEqual({ width: 1000, height: 600 });
    expect(parseSize(r, '^!2000,2000')).toEqual({ width: 2000, height: 1200 });
    expect(parseSize(r, '^1500,')).toEqual({ width: 1500, height: 900 });
    expect(parseSize({ x: 0, y: 0, width: 50000, height: 40000 }, 'max')).toEqual({ width: 4579, height: 3663 });
    for (const bad of ['1500,', 'pct:150', ',', '!200,', 'abc', '0,10']) {
      expect(errorKey(() => parseSize(r, bad)), bad).toBe('400 iiif.bad_size');
    }
    expect(errorKey(() => parseSize(r, '^5000,5000'))).toBe('400 iiif.too_large');
  });

  it('upscales with ^ up to maxArea: ^max, ^w,, ^,h, ^pct:, ^w,h (issue 30: ^max stayed at the region size)', () => {
    const r = { x: 0, y: 0, width: 1000, height: 600 };
    expect(parseSize(r, '^max')).toEqual({ width: 5287, height: 3172 });
    expect(parseSize({ x: 0, y: 0, width: 100, height: 50 }, '^max')).toEqual({ width: 5792, height: 2896 });
    expect(parseSize({ x: 7, y: 7, width: 1, height: 1 }, '^max')).toEqual({ width: 4096, height: 4096 });
    // A region over maxArea is scaled down by ^max just as by max.
    expect(parseSize({ x: 0, y: 0, width: 50000, height: 40000 }, '^max')).toEqual(parseSize({ x: 0, y: 0, width: 50000, height: 40000 }, 'max'));
    expect(parseSize(r, '^2000,')).toEqual({ width: 2000, height: 1200 });
    expect(parseSize(r, '^,1200')).toEqual({ width: 2000, height: 1200 });
    expect(parseSize(r, '^pct:250')).toEqual({ width: 2500, height: 1500 });
    expect(parseSize(r, '^3000,1000')).toEqual({ width: 3000, height: 1000 });
    // ^ allows upscaling, it does not require it.
    expect(parseSize(r, '^500,')).toEqual({ width: 500, height: 300 });
    for (const tooLarge of ['^pct:700', '^8000,', '^,8000']) expect(errorKey(() => parseSize(r, tooLarge)), tooLarge).toBe('400 iiif.too_large');
    expect(errorKey(() => parseSize(r, '^pct:0'))).toBe('400 iiif.bad_size');
  });

  it('parses rotation, quality and format', () => {
    expect(parseIiifRequest(1000, 600, 'full', 'max', '!270', 'gray.png')).toMatchObject({ rotation: 270, mirror: true, quality: 'gray', format: 'png' });
    expect(parseIiifRequest(1000, 600, 'full', 'max', '360', 'default.webp')).toMatchObject({ rotation: 0, mirror: false });
    expect(errorKey(() => parseIiifRequest(1000, 600, 'full', 'max', '22.5', 'default.jpg'))).toBe('501 iiif.rotation_unsupported');
    expect(errorKey(() => parseIiifRequest(1000, 600, 'full', 'max', '400', 'default.jpg'))).toBe('400 iiif.bad_rotation');
    expect(errorKey(() => parseIiifRequest(1000, 600, 'full', 'max', '0', 'native.jpg'))).toBe('400 iiif.bad_quality');
    expect(errorKey(() => parseIiifRequest(1000, 600, 'full', 'max', '0', 'default.tif'))).toBe('501 iiif.format_unsupported');
    expect(errorKey(() => parseIiifRequest(1000, 600, 'full', 'max', '0', 'default.bmp'))).toBe('400 iiif.bad_quality');
  });

  it('recognises requests on the announced tile grid as Deep Zoom tiles', () => {
    const tile = (region: string, size: string, qf = 'default.jpg') => iiifAsDziTile(g, parseIiifRequest(10000, 7000, region, size, '0', qf));
    expect(tile('512,256,256,256', '256,')).toEqual({ level: 14, col: 2, row: 1 });
    expect(tile('9984,6912,16,88', '16,88')).toEqual({ level: 14, col: 39, row: 27 });
    expect(tile('4096,2048,2048,2048', '256,256')).toEqual({ level: 11, col: 2, row: 1 });
    expect(tile('8192,4096,1808,2048', '226,')).toEqual({ level: 11, col: 4, row: 2 });
    expect(tile('512,256,256,256', '256,', 'gray.jpg')).toBeNull();
    expect(tile('500,256,256,256', '256,')).toBeNull();
    expect(tile('512,256,256,256', '128,')).toBeNull();
  });
});
