import { constants, publicEncrypt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { e2eApp, evidence } from './harness.js';

/**
 * Issue 30: a DICOMweb whole-slide viewer opens a slide. dicom-microscopy-viewer (its prebuilt bundle from npm, with
 * its web worker and WebAssembly decoders) and dicomweb-client run in a page of this test's own server, which passes
 * /api/ on to the app, as a site that hosts a viewer beside its archive does. The page is handed a sign-in token;
 * it searches the study by its accession number (QIDO-RS), the slide's series in it, reads the series' metadata and
 * opens a VolumeImageViewer on its VOLUME instances, which asks for frames (WADO-RS). Frames must come back 200 and
 * the viewer's canvas must show the stained tissue.
 */
const require = createRequire(import.meta.url);
// The package's main export is its UMD bundle; its worker and decoders lie beside it.
const VIEWER_DIST = path.dirname(require.resolve('dicom-microscopy-viewer'));
const CLIENT = require.resolve('dicomweb-client/build/dicomweb-client.js');
const SLIDE = { name: 'DICOMWEB-1', width: 4096, height: 3072, mpp: 0.25, seed: 43 };
const ACCESSION = 'P2026-00001';

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>DICOMweb viewer</title></head><body style="margin:0">
<div id="viewport" style="position:absolute;inset:0"></div>
<script>
  // Where the bundle finds its web worker (it fails to work that out from its own address).
  window.PUBLIC_URL = '/viewer/';
  window.PUBLIC_LIB_URL = './';
</script>
<script src="/viewer/dicomweb-client.js"></script>
<script src="/viewer/dicomMicroscopyViewer.bundle.min.js"></script>
<script>
  (async () => {
    const { token, accession, slide } = window.dsms;
    const client = new DICOMwebClient.api.DICOMwebClient({ url: location.origin + '/api/dicomweb', headers: { Authorization: 'Bearer ' + token } });
    const uid = (item, tag) => item[tag].Value[0];
    const studies = await client.searchForStudies({ queryParams: { AccessionNumber: accession } });
    let found;
    for (const study of studies) {
      const series = await client.searchForSeries({ studyInstanceUID: uid(study, '0020000D'), queryParams: { Modality: 'SM', includefield: 'SeriesDescription' } });
      const match = series.find((s) => s['0008103E'] && s['0008103E'].Value[0] === slide);
      if (match) found = { study: uid(study, '0020000D'), series: uid(match, '0020000E') };
    }
    if (!found) throw new Error('series not found among ' + studies.length + ' studies');
    const metadata = await client.retrieveSeriesMetadata({ studyInstanceUID: found.study, seriesInstanceUID: found.series });
    const images = metadata.map((m) => new dicomMicroscopyViewer.metadata.VLWholeSlideMicroscopyImage({ metadata: m }))
      .filter((image) => image.ImageType[2] === 'VOLUME');
    const viewer = new dicomMicroscopyViewer.viewer.VolumeImageViewer({ client, metadata: images });
    viewer.render({ container: document.getElementById('viewport') });
    window.viewerOpened = { ...found, volumes: images.length };
  })().catch((error) => { window.viewerFailed = String((error && error.stack) || error); });
</script></body></html>`;

/** Files of the viewer page by name; anything else under /viewer/ is the bundle's own (its worker, its .wasm decoders). */
function viewerFile(name: string): { file: string; type: string } | null {
  if (name === 'dicomweb-client.js') return { file: CLIENT, type: 'text/javascript' };
  // The bundle asks for its worker under the name of the dynamic-import build.
  if (name === 'dataLoader.worker.min.js') return { file: path.join(VIEWER_DIST, 'dataLoader.worker.bundle.min.js'), type: 'text/javascript' };
  if (!/^[\w.-]+\.(js|wasm|map)$/.test(name)) return null;
  const file = path.join(VIEWER_DIST, name);
  return fs.existsSync(file) ? { file, type: name.endsWith('.wasm') ? 'application/wasm' : name.endsWith('.map') ? 'application/json' : 'text/javascript' } : null;
}

/** The viewer's site: the page and the bundle's files, and /api/ passed on to the app (one origin, as deployed). */
function startSite(app: string): Promise<{ origin: string; close(): Promise<void> }> {
  const target = new URL(app);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    if (url.pathname.startsWith('/api/')) {
      const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
      return;
    }
    if (url.pathname === '/viewer/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      return;
    }
    const found = url.pathname.startsWith('/viewer/') ? viewerFile(url.pathname.slice('/viewer/'.length)) : null;
    if (!found) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': found.type });
    fs.createReadStream(found.file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  })));
}

/** A bearer token for a demo account, signed in as the app's login page does (the password sealed with RSA-OAEP). */
async function signIn(app: string, username: string): Promise<string> {
  const challenge = (await (await fetch(`${app}/api/auth/challenge`)).json()) as { data: { key_id: string; public_key: string; nonce: string } };
  const { key_id, public_key, nonce } = challenge.data;
  const password = publicEncrypt({ key: public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(`${nonce}:${DEMO_PASSWORDS.others}`)).toString('base64');
  const res = await fetch(`${app}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, key_id, password }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

describe('a slide opened in dicom-microscopy-viewer over DICOMweb', () => {
  let site: Awaited<ReturnType<typeof startSite>> | undefined;
  const app = e2eApp({
    ownDataDir: true,
    async setup(server) {
      const dir = path.join(server.dataDir, 'slides', 'e2e');
      fs.mkdirSync(dir, { recursive: true });
      const hospital = await server.db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow();
      const kase = await server.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital.id).where('pathology_number', '=', ACCESSION).executeTakeFirstOrThrow();
      const out = path.join(dir, `${SLIDE.name}.tiff`);
      await generateDemoSlide({ out, width: SLIDE.width, height: SLIDE.height, mpp: SLIDE.mpp, seed: SLIDE.seed, slideId: SLIDE.name });
      await registerSlide(server.db, server.dataDir, out, { name: SLIDE.name, hospital_id: hospital.id, case_id: kase.id, uploaded_by: null });
      site = await startSite(server.url);
    },
  });
  afterAll(async () => site?.close());

  /** Share of the viewer's pixels that are stain (pink to purple), from a screenshot of it. */
  async function stainedShare(page: Page): Promise<number> {
    const shot = await page.locator('#viewport').screenshot();
    const { data, info } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let stained = 0;
    for (let i = 0; i < data.length; i += info.channels) {
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      if (r - g > 30 && b - g > 10) stained++;
    }
    return stained / (info.width * info.height);
  }

  it('finds the slide by QIDO-RS, reads its metadata and draws its frames', async () => {
    // The slide is ingested by the server's job runner: its series appears once the slide is ready.
    await expect.poll(async () => (await app.db.selectFrom('slides').select('status').where('name', '=', SLIDE.name).executeTakeFirst())?.status, { timeout: 60_000 }).toBe('ready');
    const token = await signIn(app.url, 'technician');
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const answers: { url: string; status: number; type?: string }[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/dicomweb/')) answers.push({ url: r.url(), status: r.status(), type: r.headers()['content-type'] });
    });
    const failures: string[] = [];
    page.on('pageerror', (e) => failures.push(e.message));
    await page.addInitScript((dsms) => { (window as unknown as { dsms: unknown }).dsms = dsms; }, { token, accession: ACCESSION, slide: SLIDE.name });
    await page.goto(`${site!.origin}/viewer/`);

    await expect.poll(() => page.evaluate(() => {
      const w = window as unknown as { viewerOpened?: unknown; viewerFailed?: string };
      return w.viewerFailed ?? (w.viewerOpened ? 'opened' : 'waiting');
    }), { timeout: 60_000 }).toBe('opened');
    const opened = await page.evaluate(() => (window as unknown as { viewerOpened: { volumes: number } }).viewerOpened);
    expect(opened.volumes).toBeGreaterThan(2);

    const frame = /\/api\/dicomweb\/studies\/[\d.]+\/series\/[\d.]+\/instances\/[\d.]+\/frames\/\d+$/;
    await expect.poll(() => answers.filter((a) => frame.test(a.url) && a.status === 200).length, {
      timeout: 60_000, message: `frame answers among ${answers.slice(-12).map((a) => `${a.status} ${a.url.slice(a.url.indexOf('/api/'))}`).join(', ')}; page errors: ${failures.join(' | ')}`,
    }).toBeGreaterThan(2);
    await expect.poll(() => stainedShare(page), { timeout: 60_000 }).toBeGreaterThan(0.05);
    await evidence(page, 'dicomweb-viewer.png');

    // What it read: a search, the metadata, frames as multipart JPEG; nothing was refused.
    expect(answers.some((a) => /\/studies\?/.test(a.url) && a.type?.startsWith('application/dicom+json'))).toBe(true);
    expect(answers.some((a) => /\/metadata$/.test(a.url) && a.status === 200)).toBe(true);
    expect(answers.filter((a) => frame.test(a.url)).every((a) => a.type?.startsWith('multipart/related'))).toBe(true);
    expect(answers.filter((a) => a.status >= 400)).toEqual([]);
    await page.close();
  });
});
