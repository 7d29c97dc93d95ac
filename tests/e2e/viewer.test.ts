import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { animationsDone, doubleClick, e2eApp, evidence, SHOTS, viewsSettled } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
/** Slide A is a 40× scan (0.25 µm/px), slide B a 20× one (0.5 µm/px): linked views must agree on magnification. */
const A = { name: 'VIEW-A', width: 6144, height: 4096, mpp: 0.25, seed: 21 };
const B = { name: 'VIEW-B', width: 6144, height: 4096, mpp: 0.5, seed: 22 };

/**
 * The slide viewer in Chromium (issue 11): opened from the slide library, tiles load, 40×, a rectangle, polygon
 * and ruler drawn and found again after a reload, the ruler within 1 % of the true length, GeoJSON out of one
 * slide and into another, linked split screen, colour adjustment changing the canvas pixels.
 */
describe('slide viewer in Chromium', () => {
  const ids: Record<'a' | 'b', number> = { a: 0, b: 0 };

  const app = e2eApp({
    ownDataDir: true,
    async setup(server) {
      const dir = path.join(server.dataDir!, 'slides', 'e2e');
      fs.mkdirSync(dir, { recursive: true });
      const hospital = await server.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
      const kase = await server.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital.id).where('pathology_number', '=', 'P2026-00001').executeTakeFirstOrThrow();
      for (const [key, s] of [['a', A], ['b', B]] as const) {
        const out = path.join(dir, `${s.name}.tiff`);
        await generateDemoSlide({ out, width: s.width, height: s.height, mpp: s.mpp, seed: s.seed, slideId: s.name, label: true });
        ids[key] = await registerSlide(server.db, server.dataDir!, out, { name: s.name, hospital_id: hospital.id, case_id: kase.id, uploaded_by: null });
        await ingestNow(server.db, server.dataDir!, ids[key]);
      }
    },
  });

  async function open(lang: Lang): Promise<Page> {
    return app.page(lang, 'primary', { options: { acceptDownloads: true } });
  }
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`);
  const magnification = (page: Page, pane = 0) => page.getByTestId(`viewer-pane-${pane}`).getAttribute('data-magnification').then(Number);
  const items = (page: Page) => page.getByTestId('annotation-item');
  /** Image pixel → page pixel through the overlay's own transform (what the user sees is where they click). */
  async function toPage(page: Page, p: [number, number], pane = 0): Promise<[number, number]> {
    const box = (await page.getByTestId(`viewer-pane-${pane}`).boundingBox())!;
    const m = await page.getByTestId(`viewer-pane-${pane}`).locator('[data-testid="annotation-overlay"] > g').first().getAttribute('transform');
    const [a, b, c, d, e, f] = m!.replace(/matrix\(|\)/g, '').split(/[ ,]+/).map(Number) as [number, number, number, number, number, number];
    return [box.x + a * p[0] + c * p[1] + e, box.y + b * p[0] + d * p[1] + f];
  }
  async function centreInImage(page: Page, pane = 0): Promise<[number, number]> {
    const box = (await page.getByTestId(`viewer-pane-${pane}`).boundingBox())!;
    const m = await page.getByTestId(`viewer-pane-${pane}`).locator('[data-testid="annotation-overlay"] > g').first().getAttribute('transform');
    const [a, b, c, d, e, f] = m!.replace(/matrix\(|\)/g, '').split(/[ ,]+/).map(Number) as [number, number, number, number, number, number];
    const [x, y] = [box.width / 2 - e, box.height / 2 - f];
    const det = a * d - b * c;
    return [(d * x - c * y) / det, (-b * x + a * y) / det];
  }
  async function drag(page: Page, from: [number, number], to: [number, number]) {
    await page.mouse.move(...from);
    await page.mouse.down();
    await page.mouse.move(...to, { steps: 12 });
    await page.mouse.up();
  }
  const canvasMean = (page: Page) => page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="viewer-pane-0"] [data-testid="osd"] canvas')!;
    const ctx = canvas.getContext('2d')!;
    const { data } = ctx.getImageData(canvas.width / 2 - 50, canvas.height / 2 - 50, 100, 100);
    let sum = 0;
    for (let i = 0; i < data.length; i += 4) sum += data[i]! + data[i + 1]! + data[i + 2]!;
    return sum / (data.length / 4) / 3;
  });

  it('opens a slide from the library, loads tiles, zooms to 40×, keeps drawn shapes, measures true µm, moves GeoJSON, splits, adjusts colour', async () => {
    const page = await open('en-US');
    let tiles = 0;
    page.on('response', (r) => { if (/\/api\/tiles\/\d+_files\/\d+\/\d+_\d+\.jpeg$/.test(r.url()) && r.status() === 200) tiles++; });

    await page.goto(`${app.url}/manage/slide/library`);
    const row = page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: A.name });
    await row.getByRole('link', { name: A.name }).click();
    await page.waitForURL(`**/slide/view?id=${ids.a}`);
    await page.getByTestId('current-magnification').waitFor();
    await poll(() => tiles).toBeGreaterThan(0);
    const atOpen = tiles;

    await page.getByTestId('mag-40').click();
    await poll(() => magnification(page)).toBeCloseTo(40, 0);
    await poll(() => tiles).toBeGreaterThan(atOpen);
    await expect(page.getByTestId('current-magnification')).toBeDefined();
    expect(await page.getByTestId('current-magnification').textContent()).toContain('40×');
    await viewsSettled(page, 'viewer-pane-0');

    // A rectangle and a polygon around the centre, and a ruler over a known 800 image pixels (200 µm at 0.25 µm/px).
    const [cx, cy] = await centreInImage(page);
    await page.getByTestId('tool-rectangle').click();
    await drag(page, await toPage(page, [cx - 300, cy - 250]), await toPage(page, [cx - 100, cy - 100]));
    await poll(() => items(page).count()).toBe(1);
    await page.getByTestId('tool-polygon').click();
    for (const p of [[cx + 100, cy - 250], [cx + 300, cy - 250]] as [number, number][]) await page.mouse.click(...(await toPage(page, p)));
    await doubleClick(page, ...(await toPage(page, [cx + 200, cy - 80])));
    await poll(() => items(page).count()).toBe(2);
    await page.getByTestId('tool-ruler').click();
    await drag(page, await toPage(page, [cx - 400, cy + 150]), await toPage(page, [cx + 400, cy + 150]));
    await poll(() => items(page).count()).toBe(3);
    const ruler = await app.db.selectFrom('slide_annotations').select(['length_um', 'points']).where('slide_id', '=', ids.a).where('type', '=', 'ruler').executeTakeFirstOrThrow();
    expect(Math.abs(ruler.length_um! - 200) / 200).toBeLessThan(0.01);
    const polygon = await app.db.selectFrom('slide_annotations').select('points').where('type', '=', 'polygon').executeTakeFirstOrThrow();
    expect(JSON.parse(polygon.points)).toHaveLength(3);
    await shot(page, 'viewer-en-US');

    await page.reload();
    await poll(() => items(page).count()).toBe(3);
    expect(await items(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-type')))).toEqual(['rectangle', 'polygon', 'ruler']);
    await items(page).nth(2).click();
    await page.getByTestId('annotation-form').waitFor();
    await shot(page, 'viewer-annotations-en-US');

    // GeoJSON out of A, into B.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('geojson-export').click()]);
    const file = path.join(SHOTS, 'viewer-export.geojson');
    await download.saveAs(file);
    const geo = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(geo.type).toBe('FeatureCollection');
    expect(geo.features.map((f: { properties: { objectType: string } }) => f.properties.objectType)).toEqual(['annotation', 'annotation', 'annotation']);
    await page.goto(`${app.url}/slide/view?id=${ids.b}`);
    await page.getByTestId('current-magnification').waitFor();
    await page.getByTestId('geojson-file').setInputFiles(file);
    await poll(() => items(page).count()).toBe(3);
    const moved = await app.db.selectFrom('slide_annotations').select('type').where('slide_id', '=', ids.b).orderBy('id').execute();
    expect(moved.map((r) => r.type)).toEqual(['rectangle', 'polygon', 'ruler']);

    // Split screen: A beside B, linked: 10× on the left is 10× on the right, though B is a 20× scan.
    await page.goto(`${app.url}/slide/view?id=${ids.a}`);
    await page.getByTestId('current-magnification').waitFor();
    await page.getByTestId('split-2').click();
    await page.getByTestId('viewer-pane-1').locator('[data-testid="current-magnification"]').waitFor();
    expect(await page.getByTestId('viewer-pane-1').getAttribute('data-slide')).toBe(String(ids.b));
    await page.getByTestId('mag-10').click();
    await poll(() => magnification(page, 0)).toBeCloseTo(10, 0);
    await poll(() => magnification(page, 1)).toBeCloseTo(10, 0);
    await viewsSettled(page, 'viewer-pane-0', 'viewer-pane-1');
    await shot(page, 'viewer-split-en-US');
    await page.getByTestId('split-1').click();

    // Colour: brightness changes what the canvas holds, reset brings it back.
    await page.getByTestId('viewer-pane-1').waitFor({ state: 'detached' });
    await viewsSettled(page, 'viewer-pane-0');
    const before = await canvasMean(page);
    await page.getByTestId('colour-open').click();
    await page.getByTestId('colour-brightness').fill('200');
    await poll(() => canvasMean(page)).toBeGreaterThan(before + 10);
    await page.getByTestId('colour-reset').click();
    await poll(() => canvasMean(page)).toBeCloseTo(before, 0);
    await page.keyboard.press('Escape');

    // Screenshot into the image editor: draw, write, crop, save as an image of the slide's case.
    await page.getByTestId('screenshot').click();
    await page.waitForURL('**/image/edit**');
    const canvas = page.getByTestId('edit-canvas');
    await canvas.waitFor();
    const box = (await canvas.boundingBox())!;
    await drag(page, [box.x + 100, box.y + 100], [box.x + 300, box.y + 200]);
    await page.getByTestId('edit-text').click();
    await page.getByTestId('edit-text-value').fill('HE 40×');
    await page.mouse.click(box.x + 120, box.y + 260);
    await shot(page, 'image-edit-en-US');
    await page.getByTestId('edit-crop').click();
    await drag(page, [box.x + 50, box.y + 50], [box.x + 600, box.y + 400]);
    await page.getByTestId('edit-crop-apply').click();
    await page.getByTestId('edit-title').fill('Tumour margin');
    await page.getByTestId('edit-save').click();
    await poll(() => canvas.getAttribute('data-saved-id')).toBeTruthy();
    const saved = await app.db.selectFrom('case_images').selectAll().executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ title: 'Tumour margin', slide_id: ids.a });
    const size = await page.evaluate(() => { const c = document.querySelector<HTMLCanvasElement>('[data-testid="edit-canvas"]')!; return [c.width, c.height]; });
    // Cropped: the saved image is a part of the view, not all of it.
    expect(size[0]).toBeLessThan(1000);
    await page.close();
    expect(app.pageErrors).toEqual([]);
  });

  it('shows the viewer, split screen and annotation list in Chinese', async () => {
    const page = await open('zh-CN');
    await page.goto(`${app.url}/slide/view?id=${ids.a}`);
    await page.getByTestId('current-magnification').waitFor();
    await poll(() => items(page).count()).toBe(3);
    expect(await page.getByTestId('current-magnification').textContent()).toContain('当前倍率');
    await page.getByTestId('mag-20').click();
    await poll(() => magnification(page)).toBeCloseTo(20, 0);
    await viewsSettled(page, 'viewer-pane-0');
    await shot(page, 'viewer-zh-CN');
    await items(page).first().click();
    await page.getByTestId('annotation-form').waitFor();
    await shot(page, 'viewer-annotations-zh-CN');
    await page.getByTestId('tab-info').click();
    await expect(page.getByTestId('info-pathologyNumber').textContent()).resolves.toBe('P2026-00001');
    await page.getByTestId('help').click();
    await page.getByTestId('shortcut-help').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('split-4').click();
    await page.getByTestId('viewer-pane-3').locator('[data-testid="current-magnification"]').waitFor();
    await viewsSettled(page, 'viewer-pane-0', 'viewer-pane-1', 'viewer-pane-2', 'viewer-pane-3');
    await shot(page, 'viewer-split-zh-CN');
    await page.getByTestId('split-1').click();
    await page.getByTestId('screenshot').click();
    await page.getByTestId('edit-canvas').waitFor();
    // The capture is drawn: the canvas takes the image's size (a canvas not drawn yet is 300 × 150) as it draws it.
    await page.waitForFunction(() => document.querySelector<HTMLCanvasElement>('[data-testid="edit-canvas"]')!.width !== 300);
    await animationsDone(page);
    await shot(page, 'image-edit-zh-CN');
    await page.close();
    expect(app.pageErrors).toEqual([]);
  });
});
