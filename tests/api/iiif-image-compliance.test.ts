import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { combineProfiles, extraFeatures as KNOWN_FEATURES, getImageServiceLevel, imageServiceSupportsRequest, isImageService, parseImageServiceRequest } from '@iiif/parser/image-3';
import type { ImageService } from '@iiif/presentation-3';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';

/**
 * Issue 30: info.json claims IIIF Image API 3.0 level 2 and more; this holds the service to every feature, quality
 * and format it claims, the way the IIIF image validator does: @iiif/parser (IIIF Commons) reads info.json as an
 * image service, gives its compliance level and the whole feature set the level and extras add up to, and says
 * whether each request is one the service offers; each claimed feature gets a request here whose answer must have
 * the size, pixels or headers the specification says. What the parser finds unoffered is refused (501/400).
 */
const W = 2000, H = 1500, T = 256;
const PUBLIC = 'https://dsms.example-hospital.org';
let dir: string;
let file: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-iiif-compliance-'));
  fs.mkdirSync(path.join(dir, 'slides'));
  file = path.join(dir, 'slides', 'comply.tiff');
  await generateDemoSlide({ out: file, width: W, height: H, tileSize: T, mpp: 0.25, seed: 17, slideId: 'COMPLY' });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function pixels(input: Buffer | Sharp) {
  const s = Buffer.isBuffer(input) ? sharp(input) : input;
  const { data, info } = await s.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

const meanDiff = (a: Buffer, b: Buffer) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]), 0) / a.length;

describe.each(databases)('IIIF Image API 3 compliance of info.json [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let token: string;
  let S: string;
  let info: ImageService & Record<string, unknown>;
  const get = (url: string, headers: Record<string, string> = {}) => call(app, 'GET', url, { token, headers });
  /** An image request as a client builds it from the service id; it must be one the parser says the service offers. */
  const image = async (request: string): Promise<LightMyRequestResponse> => {
    const offered = imageServiceSupportsRequest(info, parseImageServiceRequest(`${info.id}/${request}`, 'api/iiif'));
    expect(offered, `${request} is offered by info.json`).toEqual([true]);
    const res = await get(`/api/iiif/${S}/${request}`);
    expect(res.statusCode, `${request}: ${res.statusCode === 200 ? '' : res.body}`).toBe(200);
    return res;
  };
  const size = async (request: string) => {
    const meta = await sharp((await image(request)).rawPayload).metadata();
    return [meta.width, meta.height];
  };

  beforeAll(async () => {
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir: dir, publicUrl: PUBLIC });
    await app.ready();
    token = await tokenFor(app, 'admin');
    const bound = await call(app, 'POST', '/api/data/kfb/bind', { token, payload: { path: 'slides/comply.tiff' } });
    expect(bound.statusCode, bound.body).toBe(200);
    S = String((await ingested(app, token, bound.json().data.id)).id);
    info = (await get(`/api/iiif/${S}/info.json`)).json();
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('is an image service of level 2 whose every claimed feature is one the specification names', () => {
    expect(isImageService(info)).toBe(true);
    expect(getImageServiceLevel(info)).toBe(2);
    expect(info).toMatchObject({ '@context': 'http://iiif.io/api/image/3/context.json', id: `${PUBLIC}/api/iiif/${S}`, type: 'ImageService3', protocol: 'http://iiif.io/api/image', width: W, height: H });
    for (const feature of (info.extraFeatures as string[])) expect(KNOWN_FEATURES as readonly string[], feature).toContain(feature);
    expect(['color', 'gray', 'bitonal']).toEqual(expect.arrayContaining(info.extraQualities as string[]));
  });

  it('answers a request for every feature it claims, as the specification says', async () => {
    const claimed = new Set(combineProfiles(info).extraFeatures);
    const probes: Record<string, () => Promise<void>> = {
      regionByPx: async () => {
        const got = await pixels((await image('100,200,300,150/max/0/default.png')).rawPayload);
        const source = await pixels(sharp(file, { page: 0 }).extract({ left: 100, top: 200, width: 300, height: 150 }));
        expect([got.width, got.height]).toEqual([300, 150]);
        expect(meanDiff(got.data, source.data)).toBeLessThan(1);
      },
      regionByPct: async () => expect(await size('pct:10,20,30,40/max/0/default.jpg')).toEqual([600, 600]),
      regionSquare: async () => expect(await size('square/max/0/default.jpg')).toEqual([1500, 1500]),
      sizeByW: async () => expect(await size('full/500,/0/default.jpg')).toEqual([500, 375]),
      sizeByH: async () => expect(await size('full/,300/0/default.jpg')).toEqual([400, 300]),
      sizeByWh: async () => expect(await size('full/400,100/0/default.jpg')).toEqual([400, 100]),
      sizeByPct: async () => expect(await size('full/pct:5/0/default.jpg')).toEqual([100, 75]),
      sizeByConfinedWh: async () => expect(await size('full/!300,300/0/default.jpg')).toEqual([300, 225]),
      sizeByWhListed: async () => {
        for (const s of info.sizes!) expect(await size(`full/${s.width},${s.height}/0/default.jpg`)).toEqual([s.width, s.height]);
      },
      sizeUpscaling: async () => {
        const scale = Math.sqrt((info.maxArea as number) / (64 * 32));
        expect(await size('0,0,64,32/^max/0/default.jpg')).toEqual([Math.floor(64 * scale), Math.floor(32 * scale)]);
        expect(await size('0,0,64,32/^128,/0/default.jpg')).toEqual([128, 64]);
        expect(await size('0,0,64,32/^pct:300/0/default.jpg')).toEqual([192, 96]);
      },
      rotationBy90s: async () => {
        const upright = (await image('0,0,200,100/max/0/default.png')).rawPayload;
        for (const degrees of [90, 180, 270]) {
          const got = await pixels((await image(`0,0,200,100/max/${degrees}/default.png`)).rawPayload);
          const expected = await pixels(sharp(upright).rotate(degrees));
          expect([got.width, got.height]).toEqual([expected.width, expected.height]);
          expect(got.data.equals(expected.data), `rotated ${degrees}`).toBe(true);
        }
      },
      mirroring: async () => {
        const upright = (await image('0,0,200,100/max/0/default.png')).rawPayload;
        const got = await pixels((await image('0,0,200,100/max/!0/default.png')).rawPayload);
        expect(got.data.equals((await pixels(sharp(upright).flop())).data)).toBe(true);
        // Mirrored, then rotated (the specification's order).
        const both = await pixels((await image('0,0,200,100/max/!90/default.png')).rawPayload);
        expect(both.data.equals((await pixels(sharp(upright).flop().rotate(90))).data)).toBe(true);
      },
      baseUriRedirect: async () => {
        const res = await get(`/api/iiif/${S}`);
        expect([res.statusCode, res.headers.location]).toEqual([303, `${S}/info.json`]);
      },
      cors: async () => expect((await get(`/api/iiif/${S}/info.json`, { origin: 'https://viewer.example.org' })).headers['access-control-allow-origin']).toBe('*'),
      jsonldMediaType: async () => expect((await get(`/api/iiif/${S}/info.json`)).headers['content-type']).toMatch(/^application\/ld\+json; ?profile="http:\/\/iiif\.io\/api\/image\/3\/context\.json"/),
    };
    const unprobed = [...claimed].filter((f) => !probes[f]);
    expect(unprobed, 'claimed features without a probe').toEqual([]);
    for (const feature of claimed) await probes[feature]!();
  });

  it('answers every quality and format it claims', async () => {
    const { extraQualities, extraFormats } = combineProfiles(info);
    for (const quality of extraQualities) {
      const got = await pixels((await image(`0,0,300,300/150,/0/${quality}.png`)).rawPayload);
      const values = new Set(got.data);
      if (quality === 'bitonal') expect([...values].every((v) => v === 0 || v === 255), quality).toBe(true);
      if (quality === 'gray' || quality === 'bitonal') {
        for (let i = 0; i < got.data.length; i += got.channels) expect(got.data[i] === got.data[i + 1] && got.data[i] === got.data[i + 2] || got.channels === 1, quality).toBe(true);
      } else {
        let coloured = 0;
        for (let i = 0; i < got.data.length; i += 3) if (Math.abs(got.data[i] - got.data[i + 2]) > 10) coloured++;
        expect(coloured, `${quality} keeps the stain's colour`).toBeGreaterThan(100);
      }
    }
    const names: Record<string, string> = { jpg: 'jpeg', png: 'png', webp: 'webp' };
    for (const format of extraFormats) {
      const meta = await sharp((await image(`full/!200,200/0/default.${format}`)).rawPayload).metadata();
      expect(meta.format, format).toBe(names[format]);
    }
  });

  it('answers the tiles of its tile grid at every scale factor', async () => {
    for (const tiles of info.tiles!) {
      for (const s of tiles.scaleFactors) {
        const span = tiles.width * s;
        const [x, y] = [Math.floor((W - 1) / span) * span, Math.floor((H - 1) / span) * span];
        for (const [left, top] of [[0, 0], [x, y]]) {
          const w = Math.min(span, W - left), h = Math.min(span, H - top);
          expect(await size(`${left},${top},${w},${h}/${Math.ceil(w / s)},/0/default.jpg`), `scale ${s} at ${left},${top}`).toEqual([Math.ceil(w / s), Math.ceil(h / s)]);
        }
      }
    }
  });

  it('refuses what the parser finds it does not offer', async () => {
    for (const [request, status] of [['full/max/45/default.jpg', 501], ['full/max/0/default.tif', 501], ['0,0,64,32/128,/0/default.jpg', 400]] as const) {
      const offered = imageServiceSupportsRequest(info, parseImageServiceRequest(`${info.id}/${request}`, 'api/iiif'));
      const res = await get(`/api/iiif/${S}/${request}`);
      // Upscaling without ^ is no feature at all: the parser has no word for it, the specification says 400.
      if (status === 501) expect(offered[0], request).toBe(false);
      expect(res.statusCode, request).toBe(status);
    }
  });
});
