import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import dicomParser from 'dicom-parser';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { writeKfbSlide } from '../../server/modules/slides/demo-slide/kfb-writer.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';
import { md5, multipart } from './upload-helpers.js';

/**
 * A demo slide exported as a DICOM WSI series, then imported back through upload → bind: the pyramid is the
 * same, and every Deep Zoom tile is byte-identical (the frames are the stored tiles, copied).
 */
const W = 1500, H = 1100, T = 256;
let tpl: string;

async function pixels(jpeg: Buffer) {
  return sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
}

beforeAll(async () => {
  tpl = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-dicom-export-tpl-'));
  await generateDemoSlide({ out: path.join(tpl, 'demo.tiff'), width: W, height: H, tileSize: T, mpp: 0.25, seed: 14, slideId: 'DCM-14', label: true });
  await writeKfbSlide({ out: path.join(tpl, 'scan.kfb'), width: 1200, height: 900, tileSize: T, mpp: 0.2431, scanScale: 40, seed: 8, slideId: 'KFB-8', scanTime: new Date('2024-10-11T12:13:14Z') });
}, 60_000);
afterAll(() => fs.rmSync(tpl, { recursive: true, force: true }));

describe.each(databases)('DICOM WSI export [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let admin: string;
  let original: Record<string, any>;
  let exported: Buffer;
  let reimported: Record<string, any>;

  const get = (url: string, token = admin) => call(app, 'GET', url, { token });
  const upload = async (name: string, bytes: Buffer) => {
    const body = multipart({ file_name: name, num: 1, total_num: 1, md5: md5(bytes), total_md5: md5(bytes) }, { field: 'blob', bytes });
    const res = await app.inject({ method: 'POST', url: '/api/upload/large', headers: { 'content-type': body.contentType, authorization: `Bearer ${admin}` }, payload: body.payload });
    expect(res.json().data?.code, res.body).toBe(1);
    return res.json().data.path as string;
  };
  const bind = async (p: string) => {
    const res = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: p } });
    expect(res.statusCode, res.body).toBe(200);
    return ingested(app, admin, res.json().data.id);
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-dicom-export-'));
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir });
    await app.ready();
    admin = await tokenFor(app, 'admin');
    original = await bind(await upload('demo.tiff', fs.readFileSync(path.join(tpl, 'demo.tiff'))));
    const res = await get(`/api/data/kfb/${original.id}/dicom`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    exported = res.rawPayload;
    reimported = await bind(await upload('demo-dicom.zip', exported));
  });
  afterAll(async () => {
    await app.close();
    await h.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes one instance per level plus the label, each a WSI instance of one series', async () => {
    const file = path.join(tpl, `export-${kind}.zip`);
    fs.writeFileSync(file, exported);
    const zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
    const names: string[] = [], series = new Set<string>(), types: string[] = [];
    for await (const entry of zip.eachEntry()) {
      names.push(entry.fileName);
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      const ds = dicomParser.parseDicom(new Uint8Array(Buffer.concat(chunks)), { untilTag: 'x7fe00010' });
      expect(ds.string('x00080016')).toBe('1.2.840.10008.5.1.4.1.1.77.1.6');
      expect(ds.string('x00020010')).toBe('1.2.840.10008.1.2.4.50');
      expect(ds.string('x00209311')).toBe('TILED_FULL');
      series.add(ds.string('x0020000e')!);
      types.push(ds.string('x00080008')!.split('\\')[2]);
    }
    zip.close();
    expect(names).toEqual([...Array.from({ length: original.levels }, (_, i) => `demo/level-${i}.dcm`), 'demo/label.dcm']);
    expect(series.size).toBe(1);
    expect(types).toEqual([...Array(original.levels).fill('VOLUME'), 'LABEL']);
  });

  it('reads back as the same pyramid', () => {
    expect(reimported).toMatchObject({ vendor: 'dicom', status: 'ready', width: W, height: H, levels: original.levels, tile_size: T, has_label: 1 });
    expect(reimported.mpp).toBeCloseTo(original.mpp, 9);
  });

  it('serves every Deep Zoom tile byte for byte as the original does', async () => {
    const top = Math.ceil(Math.log2(Math.max(W, H)));
    let compared = 0;
    for (let level = top; level >= 0; level--) {
      const scale = 2 ** (top - level);
      const across = Math.ceil(Math.ceil(W / scale) / T), down = Math.ceil(Math.ceil(H / scale) / T);
      for (let row = 0; row < down; row++) {
        for (let col = 0; col < across; col++) {
          const url = (id: number) => `/api/tiles/${id}_files/${level}/${col}_${row}.jpeg`;
          const [a, b] = await Promise.all([get(url(original.id)), get(url(reimported.id))]);
          expect(a.statusCode).toBe(200);
          expect(b.statusCode).toBe(200);
          expect(b.rawPayload.equals(a.rawPayload), `tile ${level}/${col}_${row}`).toBe(true);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('carries the label over (re-encoded once: mean absolute difference below 2 of 255)', async () => {
    const [a, b] = await Promise.all([get(`/api/tiles/${original.id}/associated/label`), get(`/api/tiles/${reimported.id}/associated/label`)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const [x, y] = await Promise.all([pixels(a.rawPayload), pixels(b.rawPayload)]);
    expect([y.info.width, y.info.height]).toEqual([x.info.width, x.info.height]);
    let sum = 0;
    for (let i = 0; i < x.data.length; i++) sum += Math.abs(x.data[i] - y.data[i]);
    expect(sum / x.data.length).toBeLessThan(2);
  });

  it("answers 404 for another hospital's slide, and logs each export", async () => {
    const other = await tokenFor(app, 'admin');
    const hospital2 = (await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow()).id;
    expect((await call(app, 'POST', '/api/auth/switch_hospital', { token: other, payload: { hospital_id: hospital2 } })).statusCode).toBe(200);
    const res = await get(`/api/data/kfb/${original.id}/dicom`, other);
    expect(res.statusCode).toBe(404);
    const logs = await h.db.selectFrom('section_logs').select(['slide_id', 'action']).where('action', '=', 'export_dicom').execute();
    expect(logs).toEqual([{ slide_id: original.id, action: 'export_dicom' }]);
  });

  it('re-encodes only what is not a whole stored frame (a KFB: edge tiles are stored cropped)', async () => {
    const kfb = await bind(await upload('scan.kfb', fs.readFileSync(path.join(tpl, 'scan.kfb'))));
    const res = await get(`/api/data/kfb/${kfb.id}/dicom`);
    expect(res.statusCode).toBe(200);
    const back = await bind(await upload('scan-dicom.zip', res.rawPayload));
    expect(back).toMatchObject({ vendor: 'dicom', width: 1200, height: 900 });
    // The KFB stores two 1-pixel-high levels of one size; the export writes one instance for them.
    expect(back.levels).toBe(kfb.levels - 1);
    const top = Math.ceil(Math.log2(1200));
    for (let row = 0; row < Math.ceil(900 / T); row++) {
      for (let col = 0; col < Math.ceil(1200 / T); col++) {
        const url = (id: number) => `/api/tiles/${id}_files/${top}/${col}_${row}.jpeg`;
        const [a, b] = await Promise.all([get(url(kfb.id)), get(url(back.id))]);
        const interior = (col + 1) * T <= 1200 && (row + 1) * T <= 900;
        if (interior) {
          expect(b.rawPayload.equals(a.rawPayload), `interior tile ${col}_${row}`).toBe(true);
        } else {
          // Padded and re-encoded once (quality 90), then cropped and encoded again by the tile server.
          const [x, y] = await Promise.all([pixels(a.rawPayload), pixels(b.rawPayload)]);
          expect([y.info.width, y.info.height]).toEqual([x.info.width, x.info.height]);
          let sum = 0;
          for (let i = 0; i < x.data.length; i++) sum += Math.abs(x.data[i] - y.data[i]);
          expect(sum / x.data.length, `edge tile ${col}_${row}`).toBeLessThan(3);
        }
      }
    }
  });

  it('refuses an unknown slide and a caller without a session', async () => {
    expect((await get('/api/data/kfb/999999/dicom')).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/data/kfb/${original.id}/dicom` })).statusCode).toBe(401);
  });
});
