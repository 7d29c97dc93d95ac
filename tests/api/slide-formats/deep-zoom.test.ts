import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { call, ingested } from '../harness.js';
import { databases } from '../harness.js';
import { formatsSuite } from './suite.js';
import { expectAligned, makePicture, PIC, pictureImage, rgb, T } from './pixels.js';
import { templates } from './templates.js';
import { patchName, writeZip } from './zips.js';

/** Deep Zoom (a zip, or a .dzi with its folder) converted in a background job; tiles against the picture it was made of. */
let picture: Buffer;
const file = templates(async (file) => {
  picture = await makePicture();
  const pic = () => pictureImage(picture);
  // Deep Zoom as libvips writes it (254-pixel tiles, 1 pixel of overlap): a zip of PNG tiles, and a folder of JPEG tiles.
  await pic().png().tile({ size: 254, overlap: 1, layout: 'dz' }).toFile(file('dz.zip'));
  fs.mkdirSync(file('folder'));
  await pic().jpeg({ quality: 95 }).tile({ size: 254, overlap: 1, layout: 'dz' }).toFile(file('folder/field'));
  await writeZip(file('slip.zip'), { 'slide.dzi': '<Image TileSize="254" Overlap="1" Format="png"/>', 'aa/evil.txt': 'outside' }, (b) => patchName(b, 'aa/evil.txt', '../evil.txt'));
  await writeZip(file('notes.zip'), { 'readme.txt': 'no slide here' });
});

describe.each(databases)('slide formats: Deep Zoom [%s]', (kind) => {
  const s = formatsSuite(kind);
  const { bind, converted, dziTile } = s;

  describe('Deep Zoom', () => {
    it('converts a .zip once, in a background job, to a pyramidal TIFF beside it, overlap removed', async () => {
      const row = await converted(await bind(file('dz.zip'), 'field.zip'));
      expect(row).toMatchObject({ vendor: 'deepzoom', status: 'ready', width: PIC.width, height: PIC.height, levels: 4, tile_size: T, format_note: null });
      expect(row.file_path).toMatch(/^slides\/\d{4}\/\d{2}\/field\.zip\.tiff$/);
      expect(fs.existsSync(path.join(s.dataDir, row.file_path.slice(0, -'.tiff'.length)))).toBe(true);
      await expectPicture(row.id);
      // Deleting the slide takes the zip with it.
      expect((await call(s.app, 'DELETE', '/api/data/kfb/destroy', { token: s.admin, payload: { ids: [row.id] } })).statusCode).toBe(200);
      expect(fs.existsSync(path.join(s.dataDir, row.file_path.slice(0, -'.tiff'.length)))).toBe(false);
    });

    it('converts a .dzi with its _files folder, moving both from the upload', async () => {
      const id = 'udz';
      const dir = path.join(s.dataDir, 'uploads', 'complete', id);
      fs.mkdirSync(dir, { recursive: true });
      fs.cpSync(file('folder'), dir, { recursive: true });
      const res = await call(s.app, 'POST', '/api/data/kfb/bind', { token: s.admin, payload: { path: `uploads/complete/${id}/field.dzi` } });
      expect(res.statusCode, res.body).toBe(200);
      const row = await converted(await ingested(s.app, s.admin, res.json().data.id));
      expect(row).toMatchObject({ vendor: 'deepzoom', status: 'ready', width: PIC.width, height: PIC.height });
      const placed = path.join(s.dataDir, path.dirname(row.file_path));
      expect(fs.existsSync(path.join(placed, 'field.dzi'))).toBe(true);
      expect(fs.statSync(path.join(placed, 'field_files')).isDirectory()).toBe(true);
      expect(fs.existsSync(dir)).toBe(false);
      await expectPicture(row.id);
      expect((await call(s.app, 'DELETE', '/api/data/kfb/destroy', { token: s.admin, payload: { ids: [row.id] } })).statusCode).toBe(200);
      expect(fs.existsSync(path.join(placed, 'field_files'))).toBe(false);
    });

    it('refuses a zip naming paths outside itself, and writes nothing there', async () => {
      const row = await bind(file('slip.zip'));
      expect(row).toMatchObject({ status: 'error', vendor: 'zip', format_note: 'zip_unsafe_path', width: null });
      const up = path.dirname(path.join(s.dataDir, row.file_path));
      expect(fs.existsSync(path.join(up, '..', 'evil.txt'))).toBe(false);
      expect(fs.existsSync(path.join(s.dataDir, row.file_path))).toBe(true);
    });

    it('keeps a zip without a Deep Zoom image for conversion', async () => {
      const row = await bind(file('notes.zip'));
      expect(row).toMatchObject({ status: 'needs_conversion', vendor: 'zip', format_note: 'zip_not_deep_zoom' });
    });

    /** Served tiles of the top level against the picture: aligned closer than the same tile shifted by one pixel. */
    async function expectPicture(id: number) {
      const top = 11; // ceil(log2(1100))
      for (const [col, r] of [[0, 0], [1, 1], [3, 2], [4, 3]]) {
        const got = await rgb(await dziTile(id, top, col, r));
        const rect = { left: col * T, top: r * T, width: Math.min(T, PIC.width - col * T), height: Math.min(T, PIC.height - r * T) };
        expect([got.width, got.height]).toEqual([rect.width, rect.height]);
        const ref = await rgb(sharp(picture, { raw: { ...PIC, channels: 3 } }).extract(rect));
        // Our tiles are JPEG (the folder's were already), so the pixels differ; misplaced by one, they differ much more.
        expectAligned(got, ref, 14, `tile ${col}_${r}`);
      }
      const low = await rgb(await dziTile(id, top - 2, 0, 0));
      expect([low.width, low.height]).toEqual([T, 200]);
      expect((await rgb(await dziTile(id, 0, 0, 0))).width).toBe(1);
    }
  });
});
