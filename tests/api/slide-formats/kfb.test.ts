import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeKfbSlide, type KfbWriteResult } from '../../../server/modules/slides/demo-slide/kfb-writer.js';
import { databases } from '../harness.js';
import { formatsSuite, type Row } from './suite.js';
import { meanAbsDiff, rgb, T } from './pixels.js';
import { templates } from './templates.js';

/** KFB bound as a finished upload: metadata from the header, tiles against the JPEG bytes the test writer put in the file. */
let kfb: KfbWriteResult;
const file = templates(async (file) => {
  kfb = await writeKfbSlide({ out: file('scan.kfb'), width: 1200, height: 900, tileSize: T, mpp: 0.2431, scanScale: 40, seed: 8, slideId: 'KFB-8', scanTime: new Date('2024-10-11T12:13:14Z') });
  // A KFB cut inside its tile table.
  const whole = fs.readFileSync(kfb.file);
  fs.writeFileSync(file('cut.kfb'), whole.subarray(0, kfb.tableOffset + 100));
});

describe.each(databases)('slide formats: KFB [%s]', (kind) => {
  const s = formatsSuite(kind);
  const { bind, get, dziTile } = s;

  describe('KFB (experimental native reader)', () => {
    let row: Row;
    beforeAll(async () => { row = await bind(kfb.file); });

    it('reads the header into the row and says the reader is experimental', async () => {
      expect(row).toMatchObject({
        vendor: 'kfbio', status: 'ready', width: 1200, height: 900, levels: 12, objective_power: 40, tile_size: T,
        scan_at: '2024-10-11T12:13:14Z', has_label: 1, has_macro: 1, format_note: 'kfb_experimental',
      });
      expect(row.mpp).toBeCloseTo(0.2431, 6);
      expect(row.file_path).toMatch(/^slides\/\d{4}\/\d{2}\/scan\.kfb$/);
      const thumb = await get(`/api/data/kfb/thumb/${row.id}`);
      expect(thumb.statusCode).toBe(200);
      const meta = await sharp(thumb.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([512, 384]);
    });

    it('passes stored tiles through byte for byte wherever the Deep Zoom grid matches, edge tiles included', async () => {
      const dzi = await get(`/api/tiles/${row.id}.dzi`);
      expect(dzi.body).toContain(`TileSize="${T}"`);
      expect(dzi.body).toContain('<Size Width="1200" Height="900"/>');
      const stored = fs.readFileSync(path.join(s.dataDir, row.file_path));
      const top = 11; // ceil(log2(1200))
      // Level 0 (1200×900) and level 2 (300×225) match Deep Zoom's sizes exactly: every tile passes through.
      const matching = kfb.tiles.filter((t) => t.level === 0 || t.level === 2);
      expect(matching.length).toBe(20 + 2);
      for (const t of matching) {
        const body = await dziTile(row.id, top - t.level, t.col, t.row);
        expect(body.equals(stored.subarray(t.offset, t.offset + t.length)), `tile ${t.level}/${t.col}_${t.row}`).toBe(true);
      }
    });

    it('renders tiles of levels whose size differs from Deep Zoom by rounding, with the right pixels', async () => {
      // Level 3 is 150×112 in the file (floor), 150×113 in Deep Zoom (ceil): decoded, not passed through. Both are the
      // image at 1/8, so the file's rows are the Deep Zoom level's rows as they are, and the one row the file lacks
      // repeats its last (issue 30: stretched 112 → 113 rows, the tile drifted up to a row from the stored pixels).
      const body = await dziTile(row.id, 8, 0, 0);
      const t = kfb.tiles.find((x) => x.level === 3)!;
      expect(body.equals(fs.readFileSync(path.join(s.dataDir, row.file_path)).subarray(t.offset, t.offset + t.length))).toBe(false);
      const got = await rgb(body);
      expect([got.width, got.height]).toEqual([150, 113]);
      const expected = await rgb(sharp(fs.readFileSync(kfb.file).subarray(t.offset, t.offset + t.length)).extend({ bottom: 1, extendWith: 'copy' }));
      expect(meanAbsDiff(got, expected)).toBeLessThan(3);
    });

    it('serves the label, macro and preview blocks', async () => {
      for (const [name, w, h] of [['label', 600, 400], ['macro', 1200, 400], ['thumbnail', 512, 384]] as const) {
        const res = await get(`/api/tiles/${row.id}/associated/${name}`);
        expect(res.statusCode, name).toBe(200);
        const meta = await sharp(res.rawPayload).metadata();
        expect([meta.format, meta.width, meta.height], name).toEqual(['jpeg', w, h]);
      }
    });

    it('keeps a KFB it cannot parse, waiting for conversion, and says why', async () => {
      const cut = await bind(file('cut.kfb'));
      expect(cut).toMatchObject({ vendor: 'kfbio', status: 'needs_conversion', width: null, levels: null, format_note: 'kfb_unreadable' });
      expect((await get(`/api/tiles/${cut.id}.dzi`)).statusCode).toBe(404);
      // The same file under another name is still recognised by its bytes.
      const renamed = await bind(kfb.file, 'scan-copy.bin');
      expect(renamed).toMatchObject({ vendor: 'kfbio', status: 'ready', format_note: 'kfb_experimental' });
    });
  });
});
