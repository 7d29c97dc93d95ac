import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../server/i18n/translate.js';
import { generateDemoSlide, type DemoSlideResult } from '../../server/modules/slides/demo-slide/generate.js';
import { mulberry32 } from '../../server/modules/slides/demo-slide/random.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { REAL_DIR, realSlides } from '../support/real-slides.js';

/**
 * Tiles are checked against an independent reading of the same file: libvips (through sharp) decodes
 * the TIFF page itself, and the pass-through bytes are re-derived here from the raw TIFF directory.
 */
/** CI checks out shared/ beside the repository; without it the real-file tests are skipped, and say so. */

const W = 4000;
const H = 3000;
const T = 256;
const MAX_LEVEL = 12; // ceil(log2(4000))

let dir: string;
let demo: DemoSlideResult;
let demoFile: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-tiles-'));
  fs.mkdirSync(path.join(dir, 'slides'));
  demoFile = path.join(dir, 'slides', 'demo-7.tiff');
  demo = await generateDemoSlide({ out: demoFile, width: W, height: H, tileSize: T, mpp: 0.25, seed: 7, slideId: 'DEMO-7' });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each(databases)('tiles [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let token: string;
  /** The demo slide's id: images are reached through the slides table only, never by file name (issue 27). */
  let S: string;
  /** An operator's file under slides/, bound where it lies (bind by path): its slide id. */
  const bindInPlace = async (file: string) => {
    const res = await call(app, 'POST', '/api/data/kfb/bind', { token, payload: { path: `slides/${file}` } });
    expect(res.statusCode, res.body).toBe(200);
    return ingested(app, token, res.json().data.id);
  };
  beforeAll(async () => {
    h = await startApp(kind);
    // A second app on the harness database, pointed at this suite's slide folder.
    app = await testApp(h.db, { dataDir: dir });
    await app.ready();
    token = await tokenFor(app, 'admin');
    const row = await bindInPlace('demo-7.tiff');
    expect(row.status).toBe('ready');
    S = String(row.id);
  });
  afterAll(async () => {
    await app.close();
    await h.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => call(app, 'GET', url, { token, headers });

  it('describes the slide as Deep Zoom with the file tile size and no overlap', async () => {
    const res = await get(`/api/tiles/${S}.dzi`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.body).toContain(`TileSize="${T}"`);
    expect(res.body).toContain('Overlap="0"');
    expect(res.body).toContain('Format="jpeg"');
    expect(res.body).toContain(`<Size Width="${W}" Height="${H}"/>`);
    const again = await get(`/api/tiles/${S}.dzi`, { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('serves 100 random tiles of every level with the pixels of an independent read', async () => {
    const rand = mulberry32(42);
    const stored = demo.levels.length;
    const kinds = { passThrough: 0, edge: 0, downsampled: 0 };
    for (let i = 0; i < 100; i++) {
      const level = Math.floor(rand() * (MAX_LEVEL + 1));
      const scale = 2 ** (MAX_LEVEL - level);
      const lw = Math.ceil(W / scale), lh = Math.ceil(H / scale);
      const col = Math.floor(rand() * Math.ceil(lw / T)), row = Math.floor(rand() * Math.ceil(lh / T));
      const tw = Math.min(T, lw - col * T), th = Math.min(T, lh - row * T);

      const res = await get(`/api/tiles/${S}_files/${level}/${col}_${row}.jpeg`);
      expect(res.statusCode, `tile ${level}/${col}_${row}`).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      const got = await rgb(res.rawPayload);
      expect([got.width, got.height]).toEqual([tw, th]);

      const page = MAX_LEVEL - level;
      if (page < stored) {
        const expected = await rgb(sharp(demoFile, { page }).extract({ left: col * T, top: row * T, width: tw, height: th }));
        if (tw === T && th === T) {
          kinds.passThrough++;
          expect(got.data.equals(expected.data), `pass-through tile ${level}/${col}_${row} pixels`).toBe(true);
          expect(res.rawPayload.equals(mergedFromFile(demoFile, page, row * Math.ceil(demo.levels[page].width / T) + col))).toBe(true);
        } else {
          kinds.edge++;
          expect(meanAbsDiff(got, expected), `edge tile ${level}/${col}_${row}`).toBeLessThan(3);
        }
      } else {
        kinds.downsampled++;
        // Levels the file lacks come from its smallest level; compare with libvips resizing that level whole.
        const smallest = demo.levels[stored - 1];
        const expected = await rgb(sharp(demoFile, { page: stored - 1 }).resize(lw, lh, { fit: 'fill' })
          .extract({ left: col * T, top: row * T, width: tw, height: th }));
        expect(smallest.width).toBeGreaterThanOrEqual(lw);
        expect(meanAbsDiff(got, expected), `downsampled tile ${level}/${col}_${row}`).toBeLessThan(8);
      }
    }
    expect(kinds.passThrough).toBeGreaterThan(10);
    expect(kinds.edge).toBeGreaterThan(5);
    expect(kinds.downsampled).toBeGreaterThan(10);
  });

  it('answers 404 outside the image and for unknown or unsafe slide keys', async () => {
    expect((await get(`/api/tiles/${S}_files/${MAX_LEVEL}/99_0.jpeg`)).statusCode).toBe(404);
    expect((await get(`/api/tiles/${S}_files/${MAX_LEVEL + 1}/0_0.jpeg`)).statusCode).toBe(404);
    const missing = await get('/api/tiles/nothing-here.dzi');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: translate('zh-CN', 'slide.not_found') });
    expect((await get('/api/tiles/..%2Fslides%2Fdemo-7.dzi')).statusCode).toBe(404);
    // The file's name is no key: slides are reached through the slides table only (issue 27).
    for (const byName of ['/api/tiles/demo-7.dzi', '/api/tiles/demo-7.tiff.dzi', `/api/tiles/demo-7_files/${MAX_LEVEL}/0_0.jpeg`, '/api/iiif/demo-7/info.json']) {
      expect((await get(byName)).statusCode, byName).toBe(404);
    }
    expect((await get('/api/iiif/..%2F..%2Fetc%2Fpasswd/info.json')).statusCode).toBe(404);
  });

  it('revalidates with a strong ETag and long-lived cache headers', async () => {
    const url = `/api/tiles/${S}_files/${MAX_LEVEL}/3_2.jpeg`;
    const first = await get(url);
    expect(first.headers.etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    const again = await get(url, { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const other = await get(`/api/tiles/${S}_files/${MAX_LEVEL}/3_3.jpeg`);
    expect(other.headers.etag).not.toBe(first.headers.etag);
  });

  it('refuses tiles without a session, accepts the image cookie and never a token in the query', async () => {
    const url = `/api/tiles/${S}_files/${MAX_LEVEL}/1_1.jpeg`;
    const anonymous = await call(app, 'GET', url, { lang: 'en-US' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: translate('en-US', 'error.unauthenticated') });
    expect((await call(app, 'GET', url, { headers: { cookie: 'dsms_image=not-a-token' } })).statusCode).toBe(401);
    expect((await call(app, 'GET', `${url}?token=${encodeURIComponent(token)}`)).statusCode).toBe(401);
    expect((await call(app, 'GET', `/api/iiif/${S}/info.json`)).statusCode).toBe(401);
    const viaCookie = await call(app, 'GET', url, { headers: { cookie: `dsms_image=${token}` } });
    expect(viaCookie.statusCode).toBe(200);
    expect(viaCookie.rawPayload.equals((await get(url)).rawPayload)).toBe(true);
  });

  it('stops a logged-out token at once on the header path', async () => {
    const own = await tokenFor(app, 'technician');
    const url = `/api/tiles/${S}_files/${MAX_LEVEL}/0_0.jpeg`;
    expect((await call(app, 'GET', url, { token: own })).statusCode).toBe(200);
    expect((await call(app, 'POST', '/api/auth/logout', { token: own })).statusCode).toBe(200);
    expect((await call(app, 'GET', url, { token: own })).statusCode).toBe(401);
  });

  it('serves the label the generator wrote beside the pyramid, and 404 for images the slide lacks', async () => {
    const label = await get(`/api/tiles/${S}/associated/label`);
    expect(label.statusCode).toBe(200);
    const meta = await sharp(label.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 600, 400]);
    expect((await get(`/api/tiles/${S}/associated/macro`)).statusCode).toBe(404);
  });

  it('publishes IIIF Image API 3 information', async () => {
    const res = await get(`/api/iiif/${S}/info.json`);
    expect(res.statusCode).toBe(200);
    const info = res.json();
    expect(info).toMatchObject({
      '@context': 'http://iiif.io/api/image/3/context.json',
      type: 'ImageService3',
      protocol: 'http://iiif.io/api/image',
      profile: 'level2',
      width: W,
      height: H,
    });
    expect(info.id).toMatch(new RegExp(`^http://[^/]+/api/iiif/${S}$`));
    expect(info.tiles).toEqual([{ width: T, height: T, scaleFactors: [1, 2, 4, 8, 16] }]);
    expect(info.sizes).toContainEqual({ width: 250, height: 188 });
    const base = await get(`/api/iiif/${S}`);
    expect(base.statusCode).toBe(303);
    expect(base.headers.location).toBe(`${S}/info.json`);
  });

  it('answers IIIF region, size, rotation and quality requests with the right image', async () => {
    const cases: [string, number, number, string][] = [
      ['1000,800,1200,600/600,/0/default.jpg', 600, 300, 'jpeg'],
      ['full/!256,256/0/default.png', 256, 192, 'png'],
      ['square/128,/0/gray.webp', 128, 128, 'webp'],
      ['pct:10,10,50,50/,150/90/color.jpg', 150, 200, 'jpeg'],
      ['0,0,100,50/^200,100/!180/bitonal.png', 200, 100, 'png'],
      ['3900,2900,500,500/max/0/default.jpg', 100, 100, 'jpeg'],
    ];
    for (const [request, width, height, format] of cases) {
      const res = await get(`/api/iiif/${S}/${request}`);
      expect(res.statusCode, request).toBe(200);
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.width, meta.height, meta.format], request).toEqual([width, height, format]);
    }
    const gray = await sharp((await get(`/api/iiif/${S}/square/64,/0/gray.png`)).rawPayload).stats();
    expect(gray.isOpaque).toBe(true);
    const region = await rgb((await get(`/api/iiif/${S}/1024,512,256,256/256,/0/default.png`)).rawPayload);
    const reference = await rgb(sharp(demoFile, { page: 0 }).extract({ left: 1024, top: 512, width: 256, height: 256 }));
    expect(meanAbsDiff(region, reference)).toBeLessThan(1);
  });

  it('serves an IIIF request on the tile grid as the Deep Zoom tile itself', async () => {
    const iiif = await get(`/api/iiif/${S}/512,256,256,256/256,/0/default.jpg`);
    const dzi = await get(`/api/tiles/${S}_files/${MAX_LEVEL}/2_1.jpeg`);
    expect(iiif.rawPayload.equals(dzi.rawPayload)).toBe(true);
    const coarse = await get(`/api/iiif/${S}/2048,2048,1952,952/244,119/0/default.jpg`);
    const coarseDzi = await get(`/api/tiles/${S}_files/${MAX_LEVEL - 3}/1_1.jpeg`);
    expect(coarse.rawPayload.equals(coarseDzi.rawPayload)).toBe(true);
  });

  it('refuses malformed IIIF requests with translated 400s and unsupported features with 501', async () => {
    const expectError = async (request: string, status: number, key: Parameters<typeof translate>[1], value: string) => {
      const res = await call(app, 'GET', `/api/iiif/${S}/${request}`, { token, lang: 'en-US' });
      expect(res.statusCode, request).toBe(status);
      expect(res.json().message).toBe(translate('en-US', key, { value }));
    };
    await expectError('5000,0,10,10/max/0/default.jpg', 400, 'iiif.bad_region', '5000,0,10,10');
    await expectError('0,0,100,100/200,/0/default.jpg', 400, 'iiif.bad_size', '200,');
    await expectError('full/max/45/default.jpg', 501, 'iiif.rotation_unsupported', '45');
    await expectError('full/max/0/sepia.jpg', 400, 'iiif.bad_quality', 'sepia.jpg');
    await expectError('full/max/0/default.jp2', 501, 'iiif.format_unsupported', 'jp2');
  });

  describe.runIf(realSlides())('real Aperio SVS files (shared/data/real)', () => {
    let cmu: string;
    let tcga: string;
    beforeAll(async () => {
      for (const f of ['CMU-1-Small-Region.svs', 'tcga-cr-7395-01a-01-ts1.svs']) {
        const link = path.join(dir, 'slides', f);
        if (!fs.existsSync(link)) fs.symlinkSync(path.join(REAL_DIR, f), link);
      }
      const cmuRow = await bindInPlace('CMU-1-Small-Region.svs');
      expect(cmuRow.status).toBe('ready');
      cmu = String(cmuRow.id);
      // Bind queues the JPEG 2000 file's conversion (status converting), which no runner does here: the row is set
      // ready on the original, as a slide bound before conversions existed, so the route reads the file itself.
      const tcgaRow = await bindInPlace('tcga-cr-7395-01a-01-ts1.svs');
      expect(tcgaRow.status).toBe('converting');
      await h.db.updateTable('slides').set({ status: 'ready' }).where('id', '=', tcgaRow.id).execute();
      tcga = String(tcgaRow.id);
    }, 120_000);

    it('reads the CMU SVS pyramid and serves RGB-photometric JPEG tiles in true colour', async () => {
      const dzi = await get(`/api/tiles/${cmu}.dzi`);
      expect(dzi.body).toContain('TileSize="240"');
      expect(dzi.body).toContain('<Size Width="2220" Height="2967"/>');
      const info = (await get(`/api/iiif/${cmu}/info.json`)).json();
      expect([info.width, info.height]).toEqual([2220, 2967]);

      // Level 12 is the full image (ceil(log2(2967))); tile (3, 4) is an interior stored tile.
      const res = await get(`/api/tiles/${cmu}_files/12/3_4.jpeg`);
      expect(res.statusCode).toBe(200);
      const body = res.rawPayload;
      expect(body.indexOf(Buffer.from([0xff, 0xee, 0x00, 0x0e, 0x41, 0x64, 0x6f, 0x62, 0x65]))).toBe(2);
      const got = await rgb(body);
      const expected = await rgb(sharp(path.join(REAL_DIR, 'CMU-1-Small-Region.svs')).extract({ left: 720, top: 960, width: 240, height: 240 }));
      expect(meanAbsDiff(got, expected)).toBeLessThan(2);
      // Without the Adobe marker the same bytes decode as YCbCr: visibly wrong, which is what the marker prevents.
      const unmarked = Buffer.concat([body.subarray(0, 2), body.subarray(2 + 16)]);
      expect(meanAbsDiff(await rgb(unmarked), expected)).toBeGreaterThan(20);

      const edge = await rgb((await get(`/api/tiles/${cmu}_files/12/9_12.jpeg`)).rawPayload);
      expect([edge.width, edge.height]).toEqual([2220 - 9 * 240, 2967 - 12 * 240]);
      const low = await rgb((await get(`/api/tiles/${cmu}_files/8/0_0.jpeg`)).rawPayload);
      expect([low.width, low.height]).toEqual([139, 186]);
      const label = await sharp((await get(`/api/tiles/${cmu}/associated/label`)).rawPayload).metadata();
      expect([label.width, label.height]).toEqual([387, 463]);
    });

    it('describes the JPEG 2000 TCGA slide and explains that its tiles cannot be decoded', async () => {
      const info = (await get(`/api/iiif/${tcga}/info.json`)).json();
      expect([info.width, info.height]).toEqual([4443, 3567]);
      const res = await call(app, 'GET', `/api/tiles/${tcga}_files/13/0_0.jpeg`, { token, lang: 'en-US' });
      expect(res.statusCode).toBe(415);
      expect(res.json().message).toBe(translate('en-US', 'tile.compression_unsupported', { compression: 'JPEG 2000 (Aperio 33005)' }));
    });
  });
});

interface Rgb { data: Buffer; width: number; height: number }

async function rgb(input: Buffer | Sharp): Promise<Rgb> {
  const s = Buffer.isBuffer(input) ? sharp(input) : input;
  const { data, info } = await s.toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function meanAbsDiff(a: Rgb, b: Rgb): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i] - b.data[i]);
  return sum / a.data.length;
}

/**
 * The pass-through tile re-derived without the server's parser: walk the classic little-endian TIFF
 * directory chain to `page`, take tile `index` and the JPEGTables, and splice them (tables without EOI,
 * tile without SOI). The demo generator writes classic TIFF for slides this small.
 */
function mergedFromFile(file: string, page: number, index: number): Buffer {
  const bytes = fs.readFileSync(file);
  expect(bytes.toString('latin1', 0, 2)).toBe('II');
  let ifd = bytes.readUInt32LE(4);
  for (let p = 0; p < page; p++) ifd = bytes.readUInt32LE(ifd + 2 + bytes.readUInt16LE(ifd) * 12);
  const entries = new Map<number, { type: number; count: number; at: number }>();
  for (let i = 0; i < bytes.readUInt16LE(ifd); i++) {
    const e = ifd + 2 + i * 12;
    const type = bytes.readUInt16LE(e + 2), count = bytes.readUInt32LE(e + 4);
    const size = ({ 3: 2, 4: 4, 7: 1 } as Record<number, number>)[type] ?? 8;
    entries.set(bytes.readUInt16LE(e), { type, count, at: size * count <= 4 ? e + 8 : bytes.readUInt32LE(e + 8) });
  }
  const long = (tag: number, i: number) => bytes.readUInt32LE(entries.get(tag)!.at + 4 * i);
  const offset = long(324, index), count = long(325, index);
  const tables = entries.get(347)!;
  const tile = bytes.subarray(offset, offset + count);
  return Buffer.concat([bytes.subarray(tables.at, tables.at + tables.count - 2), tile.subarray(2)]);
}
