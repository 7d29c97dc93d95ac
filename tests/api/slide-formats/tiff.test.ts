import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readSlideIndex } from '../../../server/modules/tiles/tiff/levels.js';
import { databases } from '../harness.js';
import { formatsSuite } from './suite.js';
import { expectAligned, makePicture, meanAbsDiff, PIC, pictureImage, rgb, T } from './pixels.js';
import { templates } from './templates.js';

/** A plain striped TIFF converted once, and tiled pyramids in each lossless compression served as they are. */
let picture: Buffer;
const file = templates(async (file) => {
  picture = await makePicture();
  const pic = () => pictureImage(picture);
  await pic().tiff({ compression: 'lzw' }).toFile(file('striped.tif'));
  for (const compression of ['lzw', 'deflate', 'none'] as const) {
    await pic().tiff({ tile: true, pyramid: true, tileWidth: T, tileHeight: T, compression }).toFile(file(`tiled-${compression}.tif`));
  }
});

describe.each(databases)('slide formats: TIFF [%s]', (kind) => {
  const s = formatsSuite(kind);
  const { bind, get, dziTile } = s;

  describe('plain and non-JPEG TIFFs', () => {
    it('converts a striped TIFF once and serves the pyramid', async () => {
      const row = await bind(file('striped.tif'), 'scan.tif');
      expect(row).toMatchObject({ vendor: 'generic-tiff', status: 'ready', width: PIC.width, height: PIC.height, levels: 4, tile_size: T });
      expect(row.file_path).toMatch(/^slides\/\d{4}\/\d{2}\/scan\.tif\.tiff$/);
      const got = await rgb(await dziTile(row.id, 11, 1, 1));
      const ref = await rgb(sharp(picture, { raw: { ...PIC, channels: 3 } }).extract({ left: T, top: T, width: T, height: T }));
      expectAligned(got, ref, 10, 'tile 1_1');
      expect((await get(`/api/data/kfb/thumb/${row.id}`)).statusCode).toBe(200);
    });

    it.each([['lzw', 5], ['deflate', 8], ['none', 1]] as const)('serves a tiled %s pyramid with the pixels libvips reads', async (compression, code) => {
      const row = await bind(file(`tiled-${compression}.tif`));
      expect(row).toMatchObject({ vendor: 'generic-tiff', status: 'ready', width: PIC.width, height: PIC.height, tile_size: T });
      const served = path.join(s.dataDir, row.file_path);
      const bytes = fs.readFileSync(served);
      const index = await readSlideIndex(async (at, length) => bytes.subarray(at, at + length));
      expect(index.levels.map((l) => l.compression)).toEqual(index.levels.map(() => code));
      // Whole tiles of the full-resolution page and of the next page, as PNG through IIIF (lossless) and as Deep Zoom JPEG.
      for (const [level, page, col, r] of [[11, 0, 1, 2], [11, 0, 3, 1], [10, 1, 1, 0], [10, 1, 0, 0]] as const) {
        const span = T * 2 ** (11 - level);
        const png = await get(`/api/iiif/${row.id}/${col * span},${r * span},${span},${span}/${T},/0/default.png`);
        expect(png.statusCode).toBe(200);
        const expected = await rgb(sharp(served, { page }).extract({ left: col * T, top: r * T, width: T, height: T }));
        expect(meanAbsDiff(await rgb(png.rawPayload), expected), `level ${level} (${col}, ${r})`).toBe(0);
        // This blocky picture is hard on JPEG: the Deep Zoom tile is close, not equal.
        expectAligned(await rgb(await dziTile(row.id, level, col, r)), expected, 16, `Deep Zoom tile ${level}/${col}_${r}`);
      }
    });
  });
});
