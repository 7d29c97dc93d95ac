import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { e2eApp, evidence } from './harness.js';

/**
 * Issue 30: a real IIIF viewer opens a case. Mirador (its UMD build from npm, served here by a page server of this
 * test, so it is another origin than the app: every read crosses CORS) is given the case's manifest URL; it reads
 * the manifest and the slide's info.json with fetch and the tiles with OpenSeadragon, all with the signed-in
 * user's image cookie (credentials, so IIIF_CORS_ORIGINS names the viewer's origin). Tiles must come back 200 and
 * the viewer's canvas must show the stained tissue, with the manifest's label in the viewer's language.
 */
const require = createRequire(import.meta.url);
const MIRADOR = require.resolve('mirador');
const SLIDE = { name: 'MIRADOR-1', width: 4096, height: 3072, mpp: 0.25, seed: 41 };

/** The viewer page: Mirador on the whole page, one window on `manifest`, in `lang`, sending cookies with every read. */
function viewerPage(manifest: string, lang: string): string {
  const config = JSON.stringify({
    id: 'viewer', language: lang,
    windows: [{ manifestId: manifest, thumbnailNavigationPosition: 'far-bottom' }],
    window: { allowClose: false, sideBarOpenByDefault: false },
    workspaceControlPanel: { enabled: false },
    // Tiles as credentialed CORS images: drawn only if the app names this origin back and allows credentials.
    osdConfig: { crossOriginPolicy: 'use-credentials', drawer: 'canvas' },
  });
  return `<!doctype html><html><head><meta charset="utf-8"><title>Mirador</title></head><body style="margin:0">
<div id="viewer" style="position:absolute;inset:0"></div>
<script src="/mirador.min.js"></script>
<script>
  const config = ${config};
  // manifest and info.json: fetch with the image cookie.
  config.requests = { preprocessors: [(url, options) => ({ ...options, credentials: 'include' })] };
  window.miradorInstance = Mirador.viewer(config);
</script></body></html>`;
}

function startPageServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://page');
    if (url.pathname === '/mirador.min.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      fs.createReadStream(MIRADOR).pipe(res);
      return;
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(viewerPage(url.searchParams.get('manifest') ?? '', url.searchParams.get('lang') ?? 'en'));
      return;
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r())),
  })));
}

describe('a case opened in Mirador through its IIIF manifest', () => {
  let pages: Awaited<ReturnType<typeof startPageServer>> | undefined;
  let caseId = 0;
  const app = e2eApp(async () => {
    pages = await startPageServer();
    return {
      ownDataDir: true,
      // The manifest's and info.json's ids are absolute: the address the browser reaches the app at.
      knownUrl: true,
      iiifCorsOrigins: [pages.origin],
      async setup(server) {
        const dir = path.join(server.dataDir, 'slides', 'e2e');
        fs.mkdirSync(dir, { recursive: true });
        const hospital = await server.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
        const kase = await server.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital.id).where('pathology_number', '=', 'P2026-00001').executeTakeFirstOrThrow();
        caseId = kase.id;
        const out = path.join(dir, `${SLIDE.name}.tiff`);
        await generateDemoSlide({ out, width: SLIDE.width, height: SLIDE.height, mpp: SLIDE.mpp, seed: SLIDE.seed, slideId: SLIDE.name });
        await registerSlide(server.db, server.dataDir, out, { name: SLIDE.name, hospital_id: hospital.id, case_id: kase.id, uploaded_by: null });
      },
    };
  });
  afterAll(async () => pages?.close());

  /** Opens the viewer page in `page` (signed in to the app, so it holds the image cookie) and counts the IIIF answers. */
  async function openViewer(page: Page, lang: string) {
    const answers: { url: string; status: number; acao?: string }[] = [];
    page.on('response', (r) => {
      if (r.url().startsWith(`${app.url}/api/iiif/`)) answers.push({ url: r.url(), status: r.status(), acao: r.headers()['access-control-allow-origin'] });
    });
    const manifest = `${app.url}/api/iiif/cases/${caseId}/manifest`;
    await page.goto(`${pages!.origin}/?manifest=${encodeURIComponent(manifest)}&lang=${lang}`);
    return { answers, manifest };
  }

  /** Share of the viewer canvas's pixels that are stain (pink to purple), from a screenshot of it. */
  async function stainedShare(page: Page): Promise<number> {
    const shot = await page.locator('.openseadragon-canvas').first().screenshot();
    const { data, info } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let stained = 0;
    for (let i = 0; i < data.length; i += info.channels) {
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      if (r - g > 30 && b - g > 10) stained++;
    }
    return stained / (info.width * info.height);
  }

  it('reads the manifest and info.json across origins and draws the slide\'s tiles', async () => {
    const page = await app.page('en-US', 'primary');
    const { answers, manifest } = await openViewer(page, 'en');
    // Tiles: regions on the grid of info.json's `tiles`, at the size of their scale factor.
    const tile = /\/api\/iiif\/\d+\/\d+,\d+,\d+,\d+\/\d+,\d*\/0\/default\.jpg$/;
    await expect.poll(() => answers.filter((a) => tile.test(a.url) && a.status === 200).length, {
      timeout: 60_000, message: `tile answers among ${answers.map((a) => `${a.status} ${a.url.slice(app.url.length)}`).slice(-12).join(', ')}`,
    }).toBeGreaterThan(2);
    await expect.poll(() => stainedShare(page), { timeout: 60_000 }).toBeGreaterThan(0.05);
    await evidence(page, 'iiif-mirador-en.png');

    // What it read came through CORS, named back to the viewer's origin, and nothing was refused.
    const read = (pattern: RegExp) => answers.filter((a) => pattern.test(a.url));
    expect(read(/\/manifest$/).map((a) => [a.url, a.status, a.acao])).toContainEqual([manifest, 200, pages!.origin]);
    expect(read(/\/info\.json$/).every((a) => a.status === 200 && a.acao === pages!.origin)).toBe(true);
    expect(read(/\/info\.json$/).length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status >= 400)).toEqual([]);
    // The window is titled with the manifest's label in the viewer's language.
    await expect.poll(() => page.getByText('Case P2026-00001').count()).toBeGreaterThan(0);
  });

  it('labels the case in Chinese for a viewer in Chinese', async () => {
    const page = await app.page('zh-CN', 'primary');
    const { answers } = await openViewer(page, 'zh-CN');
    await expect.poll(() => page.getByText('病例 P2026-00001').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await expect.poll(() => stainedShare(page), { timeout: 60_000 }).toBeGreaterThan(0.05);
    expect(answers.filter((a) => a.status >= 400)).toEqual([]);
    await evidence(page, 'iiif-mirador-zh-CN.png');
  });
});
