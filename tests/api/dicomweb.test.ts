import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import dicomParser from 'dicom-parser';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';

/**
 * Issue 30: the slides over DICOMweb. QIDO-RS finds a demo slide's study (its case), series (the slide) and
 * instances (its levels and label) within the caller's hospitals; WADO-RS answers metadata a WSI viewer reads,
 * frames that are the slide's tiles (byte for byte where stored as JPEG), and whole instances; UIDs stay the same
 * across calls, restarts and the zip export; forged UIDs, another hospital's slide and callers without a session
 * or permission get nothing.
 */
const W = 1500, H = 1100, T = 256;
const BASE = '/api/dicomweb';
const WSI = '1.2.840.10008.5.1.4.1.1.77.1.6';
const JPEG = 'multipart/related; type="image/jpeg"';
const VIEWER = 'multipart/related; type="application/octet-stream"; transfer-syntax=*';
let dir: string;

type Json = Record<string, { vr: string; Value?: any[]; InlineBinary?: string }>;
const value = (item: Json, tag: string) => item[tag]?.Value?.[0];

/** The parts of a multipart/related answer, with each part's headers. */
function parts(res: LightMyRequestResponse): { type: string; body: Buffer }[] {
  const boundary = /boundary=([^;]+)/.exec(String(res.headers['content-type']))?.[1];
  expect(boundary, String(res.headers['content-type'])).toBeTruthy();
  const body = res.rawPayload;
  const marker = Buffer.from(`--${boundary}`);
  const out: { type: string; body: Buffer }[] = [];
  let at = body.indexOf(marker);
  for (;;) {
    const start = at + marker.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const headEnd = body.indexOf('\r\n\r\n', start);
    const head = body.subarray(start + 2, headEnd).toString('latin1');
    const next = body.indexOf(marker, headEnd);
    out.push({ type: /content-type:\s*(.+)/i.exec(head)![1].trim(), body: body.subarray(headEnd + 4, next - 2) });
    at = next;
  }
  return out;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-dicomweb-'));
  fs.mkdirSync(path.join(dir, 'slides'), { recursive: true });
  await generateDemoSlide({ out: path.join(dir, 'slides', 'dw-1.tiff'), width: W, height: H, tileSize: T, mpp: 0.25, seed: 51, slideId: 'DW-1', label: true });
  await generateDemoSlide({ out: path.join(dir, 'slides', 'dw-2.tiff'), width: 800, height: 600, tileSize: T, mpp: 0.5, seed: 52, slideId: 'DW-2' });
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each(databases)('DICOMweb [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  const t: Record<string, string> = {};
  /** Slide 1: hospital 1's case P2026-00001. Slide 2: hospital 2's case of the same number. */
  const slide: number[] = [];
  let levels = 0;
  let study = '', series = '', otherStudy = '', otherSeries = '';
  let instances: Json[] = [];

  const get = (url: string, token = t.primary, accept?: string) => call(app, 'GET', url, { token, lang: 'en-US', headers: accept ? { accept } : {} });
  const level0 = () => instances.find((i) => value(i, '00200013') === 1)!;
  const label = () => instances.find((i) => i['00080008'].Value![2] === 'LABEL')!;
  const frames = (sop: string, list: string, accept = JPEG, token = t.primary) => get(`${BASE}/studies/${study}/series/${series}/instances/${sop}/frames/${list}`, token, accept);

  beforeAll(async () => {
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir: dir });
    await app.ready();
    for (const u of ['primary', 'technician', 'registrar']) t[u] = await tokenFor(app, u);
    const hospitals = await h.db.selectFrom('hospitals').select(['id', 'code']).orderBy('id').execute();
    for (const [i, code] of ['H001', 'H002'].entries()) {
      const hospital = hospitals.find((x) => x.code === code)!.id;
      const kase = await h.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital).where('pathology_number', '=', 'P2026-00001').executeTakeFirstOrThrow();
      const id = await registerSlide(h.db, dir, path.join(dir, 'slides', `dw-${i + 1}.tiff`), { name: `DW-${i + 1}`, hospital_id: hospital, case_id: kase.id, uploaded_by: null });
      // The API's slide item answers for the hospital in view (the first): the ingest is waited for in the table.
      for (let tries = 0; (await h.db.selectFrom('slides').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status === 'ingesting'; tries++) {
        if (tries > 1200) throw new Error(`slide ${id} still ingesting`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await h.db.selectFrom('slides').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('ready');
      if (i === 0) levels = (await ingested(app, t.primary, id)).levels;
      slide.push(id);
    }
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('finds the study, series and instances of a slide of the caller\'s hospital', async () => {
    const studies = await get(`${BASE}/studies?AccessionNumber=P2026-00001`, t.technician);
    expect(studies.statusCode, studies.body).toBe(200);
    expect(studies.headers['content-type']).toMatch(/^application\/dicom\+json/);
    const found = studies.json() as Json[];
    // The technician works in hospital 1 only: hospital 2's case of the same number is not theirs.
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ '00080050': { vr: 'SH', Value: ['P2026-00001'] }, '00080061': { vr: 'CS', Value: ['SM'] }, '00201206': { vr: 'IS', Value: [1] } });
    study = value(found[0], '0020000D');
    expect(study).toMatch(/^2\.25\.\d+$/);

    const list = await get(`${BASE}/studies/${study}/series`, t.technician);
    expect(list.statusCode, list.body).toBe(200);
    const s = list.json() as Json[];
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({ '00080060': { Value: ['SM'] }, '0008103E': { Value: ['DW-1'] }, '00201209': { Value: [levels + 1] } });
    series = value(s[0], '0020000E');

    const res = await get(`${BASE}/studies/${study}/series/${series}/instances`, t.technician);
    expect(res.statusCode, res.body).toBe(200);
    instances = res.json() as Json[];
    expect(instances).toHaveLength(levels + 1);
    expect(instances.every((i) => value(i, '00080016') === WSI && value(i, '0020000E') === series)).toBe(true);
    expect(instances.map((i) => i['00080008'].Value![2])).toEqual([...Array(levels).fill('VOLUME'), 'LABEL']);
    expect(level0()).toMatchObject({ '00480006': { Value: [W] }, '00480007': { Value: [H] }, '00280010': { Value: [T] }, '00280008': { Value: [Math.ceil(W / T) * Math.ceil(H / T)] } });

    // The flat searches agree.
    const flat = await get(`${BASE}/series?SeriesInstanceUID=${series}`, t.technician);
    expect((flat.json() as Json[]).map((x) => value(x, '0020000D'))).toEqual([study]);
    const sop = value(level0(), '00080018');
    const one = await get(`${BASE}/instances?SOPInstanceUID=${sop}&includefield=TotalPixelMatrixColumns`, t.technician);
    expect((one.json() as Json[]).map((x) => value(x, '00080018'))).toEqual([sop]);
  });

  it('sees another hospital\'s slide only as a user of that hospital', async () => {
    const all = (await get(`${BASE}/studies?AccessionNumber=P2026-00001`)).json() as Json[];
    expect(all).toHaveLength(2);
    otherStudy = all.map((x) => value(x, '0020000D')).find((u) => u !== study);
    const other = (await get(`${BASE}/studies/${otherStudy}/series`)).json() as Json[];
    otherSeries = value(other[0], '0020000E');
    expect(value(other[0], '0008103E')).toBe('DW-2');

    // To the technician of hospital 1 it does not exist: empty searches, 404 reads.
    expect((await get(`${BASE}/studies/${otherStudy}/series`, t.technician)).json()).toEqual([]);
    expect((await get(`${BASE}/series?SeriesInstanceUID=${otherSeries}`, t.technician)).json()).toEqual([]);
    expect((await get(`${BASE}/instances`, t.technician)).json().map((x: Json) => value(x, '0020000E'))).not.toContain(otherSeries);
    const meta = await get(`${BASE}/studies/${otherStudy}/series/${otherSeries}/metadata`, t.technician);
    expect(meta.statusCode).toBe(404);
    expect(meta.body).not.toContain('DW-2');
    expect((await get(`${BASE}/studies/${otherStudy}/series/${otherSeries}/metadata`)).statusCode).toBe(200);
  });

  it('matches the query keys and limits, and names back the keys it ignores', async () => {
    const q = async (query: string) => (await get(`${BASE}/studies?${query}`)).json() as Json[];
    expect((await q(`StudyInstanceUID=${study}`)).map((x) => value(x, '0020000D'))).toEqual([study]);
    expect((await q(`0020000D=${study},${otherStudy}`)).length).toBe(2);
    expect(await q('ModalitiesInStudy=CT')).toEqual([]);
    expect((await q('AccessionNumber=P2026-0000*')).length).toBeGreaterThanOrEqual(2);
    expect(await q('AccessionNumber=NOPE-1')).toEqual([]);
    expect((await q('AccessionNumber=P2026-00001&limit=1')).length).toBe(1);
    expect((await q('AccessionNumber=P2026-00001&limit=1&offset=1')).length).toBe(1);
    expect(await q('AccessionNumber=P2026-00001&offset=2')).toEqual([]);
    const patient = value((await q(`StudyInstanceUID=${study}&includefield=PatientID`))[0], '00100020');
    if (patient) expect((await q(`PatientID=${patient}&StudyInstanceUID=${study}`)).length).toBe(1);
    const warned = await get(`${BASE}/studies?StudyDate=20260101&AccessionNumber=P2026-00001`);
    expect(warned.headers.warning).toMatch(/^299 .*StudyDate/);
    expect(warned.json().length).toBe(2);
    const bad = await get(`${BASE}/studies?limit=-3`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('limit');
    // includefield=all: every attribute the study has, the institution among them.
    expect(value((await q(`StudyInstanceUID=${study}&includefield=all`))[0], '00080080')).toBeTruthy();
    expect((await q(`StudyInstanceUID=${study}`))[0]['00080080']).toBeUndefined();
  });

  it('answers the metadata a WSI viewer reads: TILED_FULL, the total pixel matrix, spacing, the ICC profile', async () => {
    const res = await get(`${BASE}/studies/${study}/series/${series}/metadata`, t.technician);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/dicom\+json/);
    const meta = res.json() as Json[];
    expect(meta).toHaveLength(levels + 1);
    const top = meta.find((m) => value(m, '00200013') === 1)!;
    expect(top).toMatchObject({
      '00080016': { vr: 'UI', Value: [WSI] }, '00080060': { Value: ['SM'] }, '00209311': { vr: 'CS', Value: ['TILED_FULL'] },
      '00080008': { Value: ['DERIVED', 'PRIMARY', 'VOLUME', 'NONE'] }, '00480006': { vr: 'UL', Value: [W] }, '00480007': { vr: 'UL', Value: [H] },
      '00280011': { vr: 'US', Value: [T] }, '00280002': { Value: [3] }, '00280004': { Value: ['YBR_FULL_422'] },
      // Rows along the slide's +Y, columns along +X: viewers show the image the way up DSMS's viewer does.
      '00480102': { vr: 'DS', Value: [0, 1, 0, 1, 0, 0] },
    });
    const spacing = top['52009229'].Value![0]['00289110'].Value![0]['00280030'].Value!;
    expect(spacing[0]).toBeCloseTo(0.00025, 9);
    const icc = Buffer.from(top['00480105'].Value![0]['00282000'].InlineBinary!, 'base64');
    expect(icc.toString('latin1', 36, 40)).toBe('acsp');
    expect(top['7FE00010']).toBeUndefined();
    // Every instance's metadata is the series' entry for it.
    const one = await get(`${BASE}/studies/${study}/series/${series}/instances/${value(top, '00080018')}/metadata`);
    expect(one.json()).toEqual([top]);
  });

  it('serves frames that are the slide\'s tiles: byte for byte, in the forms viewers ask for', async () => {
    const sop = value(level0(), '00080018');
    const res = await frames(sop, '1');
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toMatch(/^multipart\/related; type="image\/jpeg"; boundary=/);
    const [frame] = parts(res);
    expect(frame.type).toBe('image/jpeg; transfer-syntax=1.2.840.10008.1.2.4.50');
    const { width, height } = await sharp(frame.body).metadata();
    expect([width, height]).toEqual([T, T]);
    // The first frame is the top-left tile of the full-resolution level: the Deep Zoom tile, copied.
    const dzi = await get(`/api/tiles/${slide[0]}_files/${Math.ceil(Math.log2(W))}/0_0.jpeg`);
    expect(frame.body.equals(dzi.rawPayload)).toBe(true);

    // Frames 2..4 in one answer: columns 1..3 of the first row.
    const three = parts(await frames(sop, '2,3,4'));
    expect(three).toHaveLength(3);
    const col2 = await get(`/api/tiles/${slide[0]}_files/${Math.ceil(Math.log2(W))}/2_0.jpeg`);
    expect(three[1].body.equals(col2.rawPayload)).toBe(true);

    // dicom-microscopy-viewer's Accept: octet-stream, any transfer syntax: the JPEG, said so.
    const viewer = parts(await frames(sop, '1', VIEWER));
    expect(viewer[0].type).toBe('application/octet-stream; transfer-syntax=1.2.840.10008.1.2.4.50');
    expect(viewer[0].body.equals(frame.body)).toBe(true);
    // Uncompressed (Explicit VR Little Endian): the decoded pixels.
    const raw = parts(await frames(sop, '1', 'multipart/related; type="application/octet-stream"'));
    expect(raw[0].type).toBe('application/octet-stream; transfer-syntax=1.2.840.10008.1.2.1');
    expect(raw[0].body.length).toBe(T * T * 3);
    // One frame may come bare.
    const bare = await frames(sop, '1', 'image/jpeg');
    expect(bare.headers['content-type']).toBe('image/jpeg');
    expect(bare.rawPayload.equals(frame.body)).toBe(true);
    // The label is one frame: its JPEG.
    const labelFrame = parts(await frames(value(label(), '00080018'), '1'));
    expect((await sharp(labelFrame[0].body).metadata()).format).toBe('jpeg');
  });

  it('refuses frames it cannot give: bad lists, too many, beyond the instance, media types it has not', async () => {
    const sop = value(level0(), '00080018');
    const count = value(level0(), '00280008') as number;
    expect((await frames(sop, '0')).statusCode).toBe(400);
    expect((await frames(sop, '1,x')).statusCode).toBe(400);
    const many = await frames(sop, Array.from({ length: 65 }, (_, i) => i + 1).join(','));
    expect(many.statusCode).toBe(400);
    expect(many.json().message).toContain('64');
    expect((await frames(sop, String(count + 1))).statusCode).toBe(404);
    expect((await frames(sop, String(count))).statusCode).toBe(200);
    expect((await frames(sop, '1', 'multipart/related; type="image/jp2"')).statusCode).toBe(406);
  });

  it('answers 404 for forged, stale and mismatched UIDs, 401 without a session and 403 without slide_view', async () => {
    const sop = value(level0(), '00080018');
    const forged = `2.25.${'1'.repeat(38)}`;
    const urls = [
      `${BASE}/studies/${forged}/series/${series}/metadata`,
      `${BASE}/studies/${study}/series/${forged}/metadata`,
      `${BASE}/studies/${study}/series/${series}/instances/${forged}/metadata`,
      `${BASE}/studies/${study}/series/${series}/instances/${forged}/frames/1`,
      // A real series under another real study.
      `${BASE}/studies/${otherStudy}/series/${series}/metadata`,
      `${BASE}/studies/${study}/series/${otherSeries}/instances/${sop}/frames/1`,
      // One digit changed: another number under the root, not one of ours.
      `${BASE}/studies/${study}/series/${series.slice(0, -1)}${(Number(series.slice(-1)) + 1) % 10}/metadata`,
    ];
    for (const url of urls) expect((await get(url)).statusCode, url).toBe(404);
    expect((await get(`${BASE}/studies?StudyInstanceUID=${forged}`)).json()).toEqual([]);
    expect((await get(`${BASE}/studies/not-a-uid/series`)).statusCode).toBeGreaterThanOrEqual(400);

    for (const url of [`${BASE}/studies`, `${BASE}/studies/${study}/series/${series}/metadata`, `${BASE}/studies/${study}/series/${series}/instances/${sop}/frames/1`]) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      expect((await get(url, t.registrar)).statusCode, url).toBe(403);
    }
  });

  it('gives the same UIDs on every call, after a restart, and in the zip export', async () => {
    const again = await testApp(h.db, { dataDir: dir });
    await again.ready();
    try {
      const token = await tokenFor(again, 'primary');
      const res = await call(again, 'GET', `${BASE}/studies/${study}/series/${series}/instances`, { token });
      expect((res.json() as Json[]).map((i) => value(i, '00080018'))).toEqual(instances.map((i) => value(i, '00080018')));
    } finally {
      await again.close();
    }
    const zip = await get(`/api/data/kfb/${slide[0]}/dicom`);
    expect(zip.statusCode).toBe(200);
    const file = path.join(dir, `export-${kind}.zip`);
    fs.writeFileSync(file, zip.rawPayload);
    const archive = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
    const uids: string[][] = [];
    for await (const entry of archive.eachEntry()) {
      const chunks: Buffer[] = [];
      for await (const chunk of await archive.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      const ds = dicomParser.parseDicom(new Uint8Array(Buffer.concat(chunks)), { untilTag: 'x7fe00010' });
      uids.push([ds.string('x0020000d')!, ds.string('x0020000e')!, ds.string('x00080018')!]);
    }
    archive.close();
    expect(uids).toEqual(instances.map((i) => [study, series, value(i, '00080018')]));
  });

  it('sends whole instances as DICOM files to those who may download', async () => {
    const sop = value(label(), '00080018');
    const url = `${BASE}/studies/${study}/series/${series}/instances/${sop}`;
    const res = await get(url, t.primary, 'multipart/related; type="application/dicom"');
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toMatch(/^multipart\/related; type="application\/dicom"; boundary=/);
    const [part] = parts(res);
    expect(part.type).toBe('application/dicom; transfer-syntax=1.2.840.10008.1.2.4.50');
    const ds = dicomParser.parseDicom(new Uint8Array(part.body));
    expect([ds.string('x00080018'), ds.string('x00020010'), ds.string('x00080008')?.split('\\')[2]]).toEqual([sop, '1.2.840.10008.1.2.4.50', 'LABEL']);
    const pixel = ds.elements.x7fe00010;
    expect(pixel.fragments?.length).toBe(1);
    // The technician may view, not download.
    expect((await get(url, t.technician, 'multipart/related; type="application/dicom"')).statusCode).toBe(403);
    expect((await get(url, t.primary, 'multipart/related; type="application/dicom"; transfer-syntax=1.2.840.10008.1.2.1')).statusCode).toBe(406);
  });

  it('answers many frame requests at once, each its own tile', async () => {
    const sop = value(level0(), '00080018');
    const top = Math.ceil(Math.log2(W)), across = Math.ceil(W / T);
    // Interior tiles (the edge ones are cropped in Deep Zoom, whole in DICOM), each asked for twice.
    const interior = Array.from({ length: across * Math.ceil(H / T) }, (_, n) => n).filter((n) => (n % across + 1) * T <= W && (Math.floor(n / across) + 1) * T <= H);
    const numbers = [...interior, ...interior].map((n) => n + 1);
    const answers = await Promise.all(numbers.map((n) => frames(sop, String(n), VIEWER, t.technician)));
    for (const [k, res] of answers.entries()) {
      expect(res.statusCode).toBe(200);
      const n = numbers[k] - 1;
      const tile = await get(`/api/tiles/${slide[0]}_files/${top}/${n % across}_${Math.floor(n / across)}.jpeg`);
      expect(parts(res)[0].body.equals(tile.rawPayload), `frame ${n + 1}`).toBe(true);
    }
  });
});
