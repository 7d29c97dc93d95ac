import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { writeKfbSlide, type KfbWriteResult } from '../../server/modules/slides/demo-slide/kfb-writer.js';
import { writeOmeTiff, type OmeWriteResult } from '../../server/modules/slides/demo-slide/ome-writer.js';
import { readSlideIndex } from '../../server/modules/tiles/tiff/levels.js';
import { jobTypesFor } from '../../server/modules/jobs/registry.js';
import { startJobRunner, type JobRunner } from '../../server/modules/jobs/runner.js';
import { vipsEnv } from '../../server/modules/slides/conversion/vips-cli.js';
import { call, databases, startApp, testApp, tokenFor, type Harness } from './harness.js';

/**
 * Every slide format the ingest reads or converts, bound the way a finished upload is, then served:
 * metadata from the row, tiles checked against libvips reading the same file (or the picture a Deep Zoom
 * image was made from), and KFB tiles against the JPEG bytes the test writer put in the file.
 */
let tpl: string;
let kfb: KfbWriteResult;
let omeJpeg: OmeWriteResult;
let omeDeflate: OmeWriteResult;
/** The picture the Deep Zoom images and TIFFs below are made of: 6-pixel blocks, so a 1-pixel misalignment shows. */
const PIC = { width: 1100, height: 800 };
let picture: Buffer;
const T = 256;
/** The VMS below: whole JPEG MCU rows, as a scanner writes them. */
const VMS = { width: 1024, height: 768 };

const file = (name: string) => path.join(tpl, name);

beforeAll(async () => {
  tpl = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-formats-tpl-'));
  kfb = await writeKfbSlide({ out: file('scan.kfb'), width: 1200, height: 900, tileSize: T, mpp: 0.2431, scanScale: 40, seed: 8, slideId: 'KFB-8', scanTime: new Date('2024-10-11T12:13:14Z') });
  omeJpeg = await writeOmeTiff({ out: file('brightfield.ome.tif'), width: 1300, height: 900, mpp: 0.25, objective: 40, acquisitionDate: '2023-04-05T06:07:08', compression: 'jpeg', seed: 9 });
  omeDeflate = await writeOmeTiff({ out: file('lossless.ome.tiff'), width: 900, height: 700, mpp: 0.5, objective: 20, compression: 'deflate', seed: 10, associated: false });

  picture = await sharp({ create: { width: 184, height: 134, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .resize(184 * 6, 134 * 6, { kernel: 'nearest' }).extract({ left: 0, top: 0, ...PIC }).blur(1).raw().toBuffer();
  const pic = () => sharp(picture, { raw: { ...PIC, channels: 3 } });
  // Deep Zoom as libvips writes it (254-pixel tiles, 1 pixel of overlap): a zip of PNG tiles, and a folder of JPEG tiles.
  await pic().png().tile({ size: 254, overlap: 1, layout: 'dz' }).toFile(file('dz.zip'));
  fs.mkdirSync(file('folder'));
  await pic().jpeg({ quality: 95 }).tile({ size: 254, overlap: 1, layout: 'dz' }).toFile(file('folder/field'));
  // A plain striped TIFF, and tiled pyramids in each lossless compression.
  await pic().tiff({ compression: 'lzw' }).toFile(file('striped.tif'));
  for (const compression of ['lzw', 'deflate', 'none'] as const) {
    await pic().tiff({ tile: true, pyramid: true, tileWidth: T, tileHeight: T, compression }).toFile(file(`tiled-${compression}.tif`));
  }

  await writeZip(file('slip.zip'), { 'slide.dzi': '<Image TileSize="254" Overlap="1" Format="png"/>', 'aa/evil.txt': 'outside' }, (b) => patchName(b, 'aa/evil.txt', '../evil.txt'));
  await writeZip(file('notes.zip'), { 'readme.txt': 'no slide here' });
  // A Hamamatsu VMS (key file, JPEG with restart markers, map and macro images) as a scanner leaves it in a folder, zipped;
  // the same zip with a name leaving the folder; and one that inflates far more than scanner data can.
  const vips = (...args: string[]) => promisify(execFile)('vips', args, { env: vipsEnv() });
  fs.mkdirSync(file('vms/scan-7'), { recursive: true });
  // OpenSlide wants whole rows of MCUs between restart markers: 1024 × 768 in 8-pixel MCUs (no chroma
  // subsampling at quality 90), a marker every 8.
  await pic().extract({ left: 0, top: 0, ...VMS }).png().toFile(file('vms/plain.png'));
  await vips('jpegsave', file('vms/plain.png'), file('vms/scan-7/scan-7.jpg'), '--restart-interval', '8', '--Q', '90');
  await sharp(picture, { raw: { ...PIC, channels: 3 } }).resize(256, 192).png().toFile(file('vms/map-plain.png'));
  await vips('jpegsave', file('vms/map-plain.png'), file('vms/scan-7/scan-7_map.jpg'), '--restart-interval', '8', '--Q', '90');
  await sharp(picture, { raw: { ...PIC, channels: 3 } }).resize(300, 100, { fit: 'fill' }).jpeg().toFile(file('vms/scan-7/scan-7_macro.jpg'));
  fs.writeFileSync(file('vms/scan-7/scan-7.vms'), ['[Virtual Microscope Specimen]', 'NoLayers=1', 'NoJpegColumns=1', 'NoJpegRows=1',
    'ImageFile=scan-7.jpg', 'MapFile=scan-7_map.jpg', 'MacroImage=scan-7_macro.jpg', 'SourceLens=20', `PhysicalWidth=${VMS.width * 460}`, `PhysicalHeight=${VMS.height * 460}`, ''].join('\r\n'));
  const vmsEntries = Object.fromEntries(fs.readdirSync(file('vms/scan-7')).map((n) => [`scan-7/${n}`, fs.readFileSync(file(`vms/scan-7/${n}`))]));
  await writeZip(file('vms.zip'), vmsEntries);
  await writeZip(file('vms-slip.zip'), { ...vmsEntries, 'aa/evil.txt': Buffer.from('outside') }, (b) => patchName(b, 'aa/evil.txt', '../evil.txt'));
  await writeZip(file('vms-bomb.zip'), { ...vmsEntries, 'scan-7/filler.bin': Buffer.alloc(256 * 2 ** 20) });

  // A KFB cut inside its tile table.
  const whole = fs.readFileSync(kfb.file);
  fs.writeFileSync(file('cut.kfb'), whole.subarray(0, kfb.tableOffset + 100));
}, 120_000);
afterAll(() => fs.rmSync(tpl, { recursive: true, force: true }));

describe.each(databases)('slide formats [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let admin: string;
  let runner: JobRunner;

  /** A slide bound as 'converting', once its conversion job has made it ready: the row as the API answers it then. */
  const converted = async (row: Record<string, any>) => {
    expect(row.status).toBe('converting');
    const end = Date.now() + 120_000;
    for (;;) {
      const now = (await get(`/api/data/kfb/item/${row.id}`)).json().data;
      if (now.status !== 'converting') return now as Record<string, any>;
      if (Date.now() > end) throw new Error(`slide ${row.id} still converting: ${(await get(`/api/jobs/slide/${row.id}`)).body}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  /** Copies a template to where a finished upload leaves its file and binds it; answers the new row. */
  const bind = async (template: string, as = path.basename(template)) => {
    const id = `u${Math.random().toString(36).slice(2, 10)}`;
    const dir = path.join(dataDir, 'uploads', 'complete', id);
    fs.mkdirSync(dir, { recursive: true });
    fs.cpSync(template, path.join(dir, as), { recursive: true });
    const res = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: `uploads/complete/${id}/${as}` } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Record<string, any>;
  };
  const get = (url: string) => call(app, 'GET', url, { token: admin });
  const dziTile = async (id: number, level: number, col: number, row: number) => {
    const res = await get(`/api/tiles/${id}_files/${level}/${col}_${row}.jpeg`);
    expect(res.statusCode, `tile ${level}/${col}_${row}`).toBe(200);
    return res.rawPayload;
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-formats-'));
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir });
    await app.ready();
    admin = await tokenFor(app, 'admin');
    runner = startJobRunner(h.db, { types: jobTypesFor({ dataDir, jobLeaseMs: 30_000 }), log: { info() {}, warn() {}, error() {} }, pollMs: 50 });
  });
  afterAll(async () => {
    await runner.stop();
    await app.close();
    await h.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe('KFB (experimental native reader)', () => {
    let row: Record<string, any>;
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
      const stored = fs.readFileSync(path.join(dataDir, row.file_path));
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
      // Level 3 is 150×112 in the file (floor), 150×113 in Deep Zoom (ceil): decoded and resized, not passed through.
      const body = await dziTile(row.id, 8, 0, 0);
      const t = kfb.tiles.find((x) => x.level === 3)!;
      expect(body.equals(fs.readFileSync(path.join(dataDir, row.file_path)).subarray(t.offset, t.offset + t.length))).toBe(false);
      const got = await rgb(body);
      expect([got.width, got.height]).toEqual([150, 113]);
      const expected = await rgb(sharp(fs.readFileSync(kfb.file).subarray(t.offset, t.offset + t.length)).resize(150, 113, { fit: 'fill' }));
      expect(meanAbsDiff(got, expected)).toBeLessThan(4);
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

  describe('OME-TIFF (SubIFD pyramid, OME-XML metadata)', () => {
    it('reads size, levels, pixel size, objective and acquisition time from the OME-XML', async () => {
      const row = await bind(omeJpeg.file);
      expect(row).toMatchObject({
        vendor: 'ome-tiff', status: 'ready', width: 1300, height: 900, levels: 4, objective_power: 40, tile_size: T,
        scan_at: '2023-04-05T06:07:08', has_label: 1, has_macro: 1, format_note: null,
      });
      expect(row.mpp).toBeCloseTo(0.25, 6);
      expect((await get(`/api/data/kfb/thumb/${row.id}`)).statusCode).toBe(200);
      const served = path.join(dataDir, row.file_path);
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
      const served = path.join(dataDir, row.file_path);
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

  describe('Deep Zoom', () => {
    it('converts a .zip once, in a background job, to a pyramidal TIFF beside it, overlap removed', async () => {
      const row = await converted(await bind(file('dz.zip'), 'field.zip'));
      expect(row).toMatchObject({ vendor: 'deepzoom', status: 'ready', width: PIC.width, height: PIC.height, levels: 4, tile_size: T, format_note: null });
      expect(row.file_path).toMatch(/^slides\/\d{4}\/\d{2}\/field\.zip\.tiff$/);
      expect(fs.existsSync(path.join(dataDir, row.file_path.slice(0, -'.tiff'.length)))).toBe(true);
      await expectPicture(row.id);
      // Deleting the slide takes the zip with it.
      expect((await call(app, 'DELETE', '/api/data/kfb/destroy', { token: admin, payload: { ids: [row.id] } })).statusCode).toBe(200);
      expect(fs.existsSync(path.join(dataDir, row.file_path.slice(0, -'.tiff'.length)))).toBe(false);
    });

    it('converts a .dzi with its _files folder, moving both from the upload', async () => {
      const id = 'udz';
      const dir = path.join(dataDir, 'uploads', 'complete', id);
      fs.mkdirSync(dir, { recursive: true });
      fs.cpSync(file('folder'), dir, { recursive: true });
      const res = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: `uploads/complete/${id}/field.dzi` } });
      expect(res.statusCode, res.body).toBe(200);
      const row = await converted(res.json().data);
      expect(row).toMatchObject({ vendor: 'deepzoom', status: 'ready', width: PIC.width, height: PIC.height });
      const placed = path.join(dataDir, path.dirname(row.file_path));
      expect(fs.existsSync(path.join(placed, 'field.dzi'))).toBe(true);
      expect(fs.statSync(path.join(placed, 'field_files')).isDirectory()).toBe(true);
      expect(fs.existsSync(dir)).toBe(false);
      await expectPicture(row.id);
      expect((await call(app, 'DELETE', '/api/data/kfb/destroy', { token: admin, payload: { ids: [row.id] } })).statusCode).toBe(200);
      expect(fs.existsSync(path.join(placed, 'field_files'))).toBe(false);
    });

    it('refuses a zip naming paths outside itself, and writes nothing there', async () => {
      const row = await bind(file('slip.zip'));
      expect(row).toMatchObject({ status: 'error', vendor: 'zip', format_note: 'zip_unsafe_path', width: null });
      const up = path.dirname(path.join(dataDir, row.file_path));
      expect(fs.existsSync(path.join(up, '..', 'evil.txt'))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, row.file_path))).toBe(true);
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

  describe('multi-file formats as a zip (VMS)', () => {
    it('converts the zip in a job: OpenSlide reads the unpacked key file, the macro follows, the zip is the original', async () => {
      const bound = await bind(file('vms.zip'), 'scan-7.zip');
      expect(bound).toMatchObject({ vendor: 'hamamatsu', status: 'converting' });
      const row = await converted(bound);
      expect(row).toMatchObject({ status: 'ready', width: VMS.width, height: VMS.height, tile_size: T, format_note: 'converted_vms', has_macro: 1 });
      expect(row.file_path).toMatch(/^slides\/\d{4}\/\d{2}\/scan-7\.zip\.tiff$/);
      const placed = path.dirname(path.join(dataDir, row.file_path));
      // What was unpacked for the conversion is gone; the zip stays, byte for byte.
      expect(fs.readdirSync(placed).filter((n) => n.startsWith('scan-7.zip')).sort()).toEqual(['scan-7.zip', 'scan-7.zip.tiff']);
      expect(fs.readFileSync(path.join(placed, 'scan-7.zip')).equals(fs.readFileSync(file('vms.zip')))).toBe(true);
      // Tiles against the key file's JPEG (what OpenSlide reads), and the macro image.
      for (const [col, r] of [[1, 1], [3, 2]]) {
        const got = await rgb(await dziTile(row.id, 10, col, r));
        const rect = { left: col * T, top: r * T, width: T, height: T };
        expect(meanAbsDiff(got, await rgb(sharp(file('vms/scan-7/scan-7.jpg')).extract(rect))), `tile ${col}_${r}`).toBeLessThan(3);
      }
      const macro = await sharp((await get(`/api/tiles/${row.id}/associated/macro`)).rawPayload).metadata();
      expect([macro.width, macro.height]).toEqual([300, 100]);
    }, 180_000);

    it('refuses a zip whose names leave its folder, and one that inflates like a bomb, writing nothing', async () => {
      for (const [zip, note] of [['vms-slip.zip', 'zip_unsafe_path'], ['vms-bomb.zip', 'zip_too_large']] as const) {
        const row = await bind(file(zip));
        expect(row, zip).toMatchObject({ status: 'error', vendor: 'zip', format_note: note, width: null });
        const placed = path.dirname(path.join(dataDir, row.file_path));
        expect(fs.readdirSync(placed).filter((n) => n.startsWith(zip)), zip).toEqual([zip]);
        expect(fs.existsSync(path.join(placed, '..', 'evil.txt'))).toBe(false);
        const job = (await get(`/api/jobs/slide/${row.id}`)).json().data;
        expect(job, zip).toBeNull();
      }
    });
  });

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
      const served = path.join(dataDir, row.file_path);
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

interface Rgb { data: Buffer; width: number; height: number }

async function rgb(input: Buffer | Sharp): Promise<Rgb> {
  const s = Buffer.isBuffer(input) ? sharp(input) : input;
  const { data, info } = await s.toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Lossy but in place: close to the reference, and clearly closer than the reference moved by one pixel either way. */
function expectAligned(got: Rgb, ref: Rgb, maxDiff: number, what: string): void {
  const aligned = meanAbsDiff(got, ref, 1, 1, 0, 0);
  expect(aligned, what).toBeLessThan(maxDiff);
  for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    expect(aligned, `${what} against itself moved by (${dx}, ${dy})`).toBeLessThan(meanAbsDiff(got, ref, 1, 1, dx, dy) - 2);
  }
}

/** Mean absolute difference over the pixels `margin` inside both images, `b` read shifted by (dx, dy). */
function meanAbsDiff(a: Rgb, b: Rgb, marginX = 0, marginY = 0, dx = 0, dy = 0): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let sum = 0, n = 0;
  for (let y = marginY; y < a.height - marginY; y++) {
    for (let x = marginX; x < a.width - marginX; x++) {
      for (let c = 0; c < 3; c++) sum += Math.abs(a.data[(y * a.width + x) * 3 + c] - b.data[((y + dy) * b.width + x + dx) * 3 + c]);
      n += 3;
    }
  }
  return sum / n;
}

async function writeZip(out: string, files: Record<string, string | Buffer>, patch?: (b: Buffer) => void): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) zip.addBuffer(Buffer.isBuffer(text) ? text : Buffer.from(text), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  patch?.(bytes);
  fs.writeFileSync(out, bytes);
}

/** Renames an entry in place (local header and central directory): zip writers refuse to write `..` themselves. */
function patchName(b: Buffer, from: string, to: string): void {
  expect(to.length).toBe(from.length);
  let at = b.indexOf(from);
  expect(at).toBeGreaterThan(0);
  for (; at >= 0; at = b.indexOf(from, at + 1)) b.write(to, at, 'latin1');
}
