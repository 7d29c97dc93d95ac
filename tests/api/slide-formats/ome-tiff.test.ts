import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { writeOmeTiff, type OmeWriteResult } from '../../../server/modules/slides/demo-slide/ome-writer.js';
import { databases } from '../harness.js';
import { formatsSuite } from './suite.js';
import { meanAbsDiff, rgb, T } from './pixels.js';
import { templates } from './templates.js';

/** OME-TIFF bound as a finished upload: metadata from the OME-XML, tiles against libvips reading the same directories. */
let omeJpeg: OmeWriteResult;
let omeDeflate: OmeWriteResult;
templates(async (file) => {
  omeJpeg = await writeOmeTiff({ out: file('brightfield.ome.tif'), width: 1300, height: 900, mpp: 0.25, objective: 40, acquisitionDate: '2023-04-05T06:07:08', compression: 'jpeg', seed: 9 });
  omeDeflate = await writeOmeTiff({ out: file('lossless.ome.tiff'), width: 900, height: 700, mpp: 0.5, objective: 20, compression: 'deflate', seed: 10, associated: false });
});

describe.each(databases)('slide formats: OME-TIFF [%s]', (kind) => {
  const s = formatsSuite(kind);
  const { bind, get, dziTile } = s;

  describe('OME-TIFF (SubIFD pyramid, OME-XML metadata)', () => {
    it('reads size, levels, pixel size, objective and acquisition time from the OME-XML', async () => {
      const row = await bind(omeJpeg.file);
      expect(row).toMatchObject({
        vendor: 'ome-tiff', status: 'ready', width: 1300, height: 900, levels: 4, objective_power: 40, tile_size: T,
        scan_at: '2023-04-05T06:07:08', has_label: 1, has_macro: 1, format_note: null,
      });
      expect(row.mpp).toBeCloseTo(0.25, 6);
      expect((await get(`/api/data/kfb/thumb/${row.id}`)).statusCode).toBe(200);
      const served = path.join(s.dataDir, row.file_path);
      // Full resolution (the main IFD) and the first SubIFD level, against libvips reading the same directories.
      for (const [level, subifd, col, r] of [[11, -1, 2, 1], [11, -1, 5, 3], [10, 0, 1, 0], [10, 0, 2, 1]] as const) {
        const got = await rgb(await dziTile(row.id, level, col, r));
        const ref = sharp(served, { page: 0, tiff: { subifd } });
        const { width, height } = await ref.metadata();
        const rect = { left: col * T, top: r * T, width: Math.min(T, width! - col * T), height: Math.min(T, height! - r * T) };
        expect(meanAbsDiff(got, await rgb(ref.extract(rect))), `tile ${level}/${col}_${r}`).toBeLessThan(level === 11 && rect.width === T && rect.height === T ? 0.01 : 3);
      }
      const label = await sharp((await get(`/api/tiles/${row.id}/associated/label`)).rawPayload).metadata();
      expect([label.width, label.height]).toEqual([600, 400]);
    });

    it('decodes deflate-compressed SubIFD levels losslessly', async () => {
      const row = await bind(omeDeflate.file);
      expect(row).toMatchObject({ vendor: 'ome-tiff', status: 'ready', width: 900, height: 700, levels: 3, objective_power: 20, has_label: 0 });
      expect(row.mpp).toBeCloseTo(0.5, 6);
      const served = path.join(s.dataDir, row.file_path);
      // Whole tiles of the main IFD and of the first SubIFD, as PNG through IIIF: lossless end to end.
      for (const [level, subifd, col, r] of [[10, -1, 1, 1], [10, -1, 2, 0], [9, 0, 0, 0]] as const) {
        const span = T * 2 ** (10 - level);
        const png = await get(`/api/iiif/${row.id}/${col * span},${r * span},${span},${span}/${T},/0/default.png`);
        expect(png.statusCode).toBe(200);
        const expected = await rgb(sharp(served, { page: 0, tiff: { subifd } }).extract({ left: col * T, top: r * T, width: T, height: T }));
        expect(meanAbsDiff(await rgb(png.rawPayload), expected), `level ${level} (${col}, ${r})`).toBe(0);
      }
    });
  });
});
