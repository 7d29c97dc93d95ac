import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { animationsDone, doubleClick, e2eApp, evidence, viewsSettled } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
type Pt = [number, number];
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
/** A 40× scan (0.25 µm/px): 800 image pixels are 200 µm. */
const A = { name: 'TOOLS-A', width: 6144, height: 4096, mpp: 0.25, seed: 31 };
const B = { name: 'TOOLS-B', width: 4096, height: 3072, mpp: 0.25, seed: 32 };

/**
 * The viewer's tools and routes beyond viewer.test.ts (issue 11): every drawing tool, the minimum size refused
 * with its message, area and perimeter, move and vertex edit, undo/redo, next/previous, grid, any-angle rotation,
 * flip, the label image, the shortcut help, full screen, the view logged; and every route into the viewer.
 */
describe('slide viewer tools and routes in Chromium', () => {
  const ids = { a: 0, b: 0 };
  let caseId = 0;
  let filePath = '';

  const app = e2eApp({
    ownDataDir: true,
    async setup(server) {
      const dir = path.join(server.dataDir!, 'slides', 'e2e-tools');
      fs.mkdirSync(dir, { recursive: true });
      const hospital = await server.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
      const kase = await server.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital.id).where('pathology_number', '=', 'P2026-00002').executeTakeFirstOrThrow();
      caseId = kase.id;
      for (const [key, s] of [['a', A], ['b', B]] as const) {
        const out = path.join(dir, `${s.name}.tiff`);
        await generateDemoSlide({ out, width: s.width, height: s.height, mpp: s.mpp, seed: s.seed, slideId: s.name, label: true });
        ids[key] = await registerSlide(server.db, server.dataDir!, out, { name: s.name, hospital_id: hospital.id, case_id: caseId, uploaded_by: null });
        await ingestNow(server.db, server.dataDir!, ids[key]);
      }
      filePath = (await server.db.selectFrom('slides').select('file_path').where('id', '=', ids.a).executeTakeFirstOrThrow()).file_path;
      const now = new Date().toISOString();
      await server.db.insertInto('slide_sections').values({ hospital_id: hospital.id, case_id: caseId, block_number: 'B2', section_number: 3, stain: 'HE', label: null, slide_id: ids.b, created_by: null, created_at: now }).execute();
      // The case is allotted to the primary doctor for diagnosis (SlideRead), and slide B is one of their favourites.
      const primary = await server.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow();
      await server.db.updateTable('cases').set({ first_doctor: primary.id, main_phase: 'diagnosis' }).where('id', '=', caseId).execute();
      await server.db.insertInto('collections').values({ user_id: primary.id, category_id: null, slide_id: ids.b, remark: null, created_at: now }).execute();
    },
  });

  async function open(lang: Lang, hasTouch = false): Promise<Page> {
    return app.page(lang, 'primary', { options: { hasTouch } });
  }
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`);
  const items = (page: Page) => page.getByTestId('annotation-item');
  const overlayMatrix = async (page: Page) => {
    const m = await page.getByTestId('viewer-pane-0').locator('[data-testid="annotation-overlay"] > g').first().getAttribute('transform');
    return m!.replace(/matrix\(|\)/g, '').split(/[ ,]+/).map(Number) as [number, number, number, number, number, number];
  };
  /** Image pixel → page pixel through the overlay's own transform (what the user sees is where they click). */
  async function toPage(page: Page, p: Pt): Promise<Pt> {
    const box = (await page.getByTestId('viewer-pane-0').boundingBox())!;
    const [a, b, c, d, e, f] = await overlayMatrix(page);
    return [box.x + a * p[0] + c * p[1] + e, box.y + b * p[0] + d * p[1] + f];
  }
  async function centreInImage(page: Page): Promise<Pt> {
    const box = (await page.getByTestId('viewer-pane-0').boundingBox())!;
    const [a, b, c, d, e, f] = await overlayMatrix(page);
    const [x, y] = [box.width / 2 - e, box.height / 2 - f];
    const det = a * d - b * c;
    return [(d * x - c * y) / det, (-b * x + a * y) / det];
  }
  async function drag(page: Page, from: Pt, to: Pt, steps = 12) {
    await page.mouse.move(...from);
    await page.mouse.down();
    await page.mouse.move(...to, { steps });
    await page.mouse.up();
  }
  /** A tool is ready once its button shows it chosen (the pointer goes to it from then on). */
  async function pick(page: Page, tool: string) {
    await page.getByTestId(`tool-${tool}`).click();
    await poll(() => page.getByTestId(`tool-${tool}`).getAttribute('aria-pressed')).toBe('true');
  }
  const rows = () => app.db.selectFrom('slide_annotations').selectAll().where('slide_id', '=', ids.a).orderBy('id').execute();
  const viewerOn = async (page: Page, url: string) => {
    await page.goto(`${app.url}${url}`);
    await page.getByTestId('viewer-pane-0').locator('[data-testid="current-magnification"]').waitFor();
    return page.getByTestId('viewer-pane-0').getAttribute('data-slide').then(Number);
  };

  it('draws with every tool, refuses a too-small shape, measures area and perimeter, moves and edits, undoes and redoes', async () => {
    const page = await open('en-US');
    expect(await viewerOn(page, `/slide/view?id=${ids.a}`)).toBe(ids.a);
    await page.getByTestId('mag-10').click();
    await poll(() => page.getByTestId('viewer-pane-0').getAttribute('data-magnification').then(Number)).toBeCloseTo(10, 0);
    await viewsSettled(page, 'viewer-pane-0');
    const [cx, cy] = await centreInImage(page);
    const at = (dx: number, dy: number) => toPage(page, [cx + dx, cy + dy]);

    await pick(page, 'ellipse');
    await drag(page, await at(-1600, -1200), await at(-900, -700));
    await poll(() => items(page).count()).toBe(1);
    await pick(page, 'freehand');
    const [fx, fy] = await at(-700, -1200);
    await page.mouse.move(fx, fy);
    await page.mouse.down();
    for (const [dx, dy] of [[60, 10], [120, 60], [140, 140], [80, 180], [10, 120]]) await page.mouse.move(fx + dx!, fy + dy!, { steps: 4 });
    await page.mouse.up();
    await poll(() => items(page).count()).toBe(2);
    await pick(page, 'polyline');
    for (const p of [[0, -1200], [300, -1000]] as Pt[]) await page.mouse.click(...(await at(...p)));
    await doubleClick(page, ...(await at(600, -1200)));
    await poll(() => items(page).count()).toBe(3);
    await pick(page, 'arrow');
    await drag(page, await at(900, -1200), await at(1500, -800));
    await poll(() => items(page).count()).toBe(4);
    await pick(page, 'point');
    await page.mouse.click(...(await at(-1400, 900)));
    await poll(() => items(page).count()).toBe(5);
    await pick(page, 'text');
    await page.mouse.click(...(await at(-900, 900)));
    await poll(() => items(page).count()).toBe(6);
    expect((await rows()).map((r) => r.type)).toEqual(['ellipse', 'freehand', 'polyline', 'arrow', 'point', 'text']);
    expect(JSON.parse((await rows())[2]!.points)).toHaveLength(3);
    expect(JSON.parse((await rows())[1]!.points).length).toBeGreaterThan(10);

    // Under the minimum size: refused with its message, nothing stored.
    await pick(page, 'rectangle');
    const [tx, ty] = await at(0, 300);
    await drag(page, [tx, ty], [tx + 1, ty + 1], 2);
    // The toast, and its copy for screen readers.
    await page.getByText('The annotation box must be larger than the minimum size (8 pixels)').last().waitFor();
    expect(await items(page).count()).toBe(6);

    // A 200 µm square: 40 000 µm² and 800 µm, stored and shown.
    await drag(page, await at(-400, 0), await at(400, 800));
    await poll(() => items(page).count()).toBe(7);
    const square = (await rows())[6]!;
    expect(square.type).toBe('rectangle');
    expect(Math.abs(square.area_um2! - 40_000) / 40_000).toBeLessThan(0.02);
    expect(Math.abs(square.perimeter_um! - 800) / 800).toBeLessThan(0.02);
    await shot(page, 'viewer-tools-en-US');

    // Undo takes the square away (on the server too); redo brings it back.
    await page.getByTestId('undo').click();
    await poll(() => items(page).count()).toBe(6);
    expect((await rows()).map((r) => r.type)).not.toContain('rectangle');
    await page.getByTestId('redo').click();
    await poll(() => items(page).count()).toBe(7);
    const back = (await rows()).find((r) => r.type === 'rectangle')!;

    // Select and move it by its edge, then drag one vertex.
    await pick(page, 'select');
    const before = JSON.parse(back.points) as Pt[];
    const edge = await at(0, 0);
    await drag(page, edge, [edge[0] + 50, edge[1] + 25]);
    await poll(async () => JSON.parse((await app.db.selectFrom('slide_annotations').select('points').where('id', '=', back.id).executeTakeFirstOrThrow()).points)[0][0]).toBeGreaterThan(before[0]![0] + 150);
    const moved = JSON.parse((await app.db.selectFrom('slide_annotations').select('points').where('id', '=', back.id).executeTakeFirstOrThrow()).points) as Pt[];
    expect(moved[1]![1] - before[1]![1]).toBeCloseTo(moved[0]![1] - before[0]![1], 0);
    const handle = page.getByTestId('vertex-handle').last();
    const hb = (await handle.boundingBox())!;
    await drag(page, [hb.x + hb.width / 2, hb.y + hb.height / 2], [hb.x + hb.width / 2 + 40, hb.y + hb.height / 2 + 40]);
    await poll(async () => JSON.parse((await app.db.selectFrom('slide_annotations').select('points').where('id', '=', back.id).executeTakeFirstOrThrow()).points)[1][0]).toBeGreaterThan(moved[1]![0] + 100);
    const edited = JSON.parse((await app.db.selectFrom('slide_annotations').select('points').where('id', '=', back.id).executeTakeFirstOrThrow()).points) as Pt[];
    expect(edited[0]).toEqual(moved[0]);

    // Next / previous walk the list (buttons and N / Shift+N).
    const selected = () => items(page).evaluateAll((els) => els.findIndex((e) => e.getAttribute('aria-selected') === 'true'));
    await page.keyboard.press('Escape');
    await page.getByTestId('annotation-next').click();
    const first = await selected();
    await page.getByTestId('annotation-next').click();
    await poll(selected).toBe((first + 1) % 7);
    await page.getByTestId('annotation-previous').click();
    await poll(selected).toBe(first);
    await page.keyboard.press('n');
    await poll(selected).toBe((first + 1) % 7);
    await page.keyboard.press('Shift+N');
    await poll(selected).toBe(first);
    await page.close();
    expect(app.pageErrors).toEqual([]);
  });

  it('shows a grid, rotates by any angle, flips, shows the label, the shortcut help and full screen; the view is logged', async () => {
    const logged = async () => (await app.db.selectFrom('section_logs').select('id').where('slide_id', '=', ids.a).where('action', '=', 'view').execute()).length;
    const views = await logged();
    const page = await open('zh-CN');
    await viewerOn(page, `/slide/view?id=${ids.a}`);
    await poll(logged).toBe(views + 1);

    await page.getByTestId('grid-toggle').click();
    await page.getByTestId('grid-size').fill('200');
    await poll(() => page.getByTestId('grid').locator('line, path').count()).toBeGreaterThan(2);

    const angle = async () => { const [a, b] = await overlayMatrix(page); return (Math.atan2(b, a) * 180) / Math.PI; };
    await page.getByTestId('rotation').fill('30');
    await page.getByTestId('rotation').press('Enter');
    await poll(angle).toBeCloseTo(30, 0);
    const det = async () => { const [a, b, c, d] = await overlayMatrix(page); return a * d - b * c; };
    expect(await det()).toBeGreaterThan(0);
    await page.getByTestId('flip').click();
    await poll(det).toBeLessThan(0);
    await viewsSettled(page, 'viewer-pane-0');
    await shot(page, 'viewer-rotated-zh-CN');
    await page.getByTestId('flip').click();
    await page.getByTestId('rotation').fill('0');
    await page.getByTestId('rotation').press('Enter');

    await page.getByTestId('tab-info').click();
    await poll(() => page.getByTestId('label-image').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

    await page.locator('body').press('?');
    await page.getByTestId('shortcut-help').waitFor();
    expect(await page.getByTestId('shortcut-help').textContent()).toContain('Ctrl+Z');
    await shot(page, 'viewer-shortcuts-zh-CN');
    await page.keyboard.press('Escape');
    await page.getByTestId('shortcut-help').waitFor({ state: 'detached' });

    await page.getByTestId('full-screen').click();
    await poll(() => page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid') ?? null)).toBe('viewer');
    await page.keyboard.press('f');
    await poll(() => page.evaluate(() => document.fullscreenElement === null)).toBe(true);
    await page.close();
    expect(app.pageErrors).toEqual([]);
  });

  it('opens by path, by section, by case (with its strip), by the short and rewritten routes; outer and h5 are read-only', async () => {
    const page = await open('en-US');
    expect(await viewerOn(page, `/kfb/path?path=${encodeURIComponent(filePath)}`)).toBe(ids.a);
    expect(await viewerOn(page, `/kfb/section/${caseId}/B2-3`)).toBe(ids.b);
    expect(await viewerOn(page, `/kfb/${caseId}/${ids.b}`)).toBe(ids.b);
    expect(await page.getByTestId('strip-slide').count()).toBe(2);
    await page.getByTestId('strip-slide').and(page.locator(`[data-slide="${ids.a}"]`)).click();
    await poll(() => page.getByTestId('viewer-pane-0').getAttribute('data-slide').then(Number)).toBe(ids.a);
    expect(await viewerOn(page, `/kfb/case/${caseId}`)).toBeGreaterThan(0);
    expect(await viewerOn(page, `/view?id=${ids.b}`)).toBe(ids.b);
    expect(await viewerOn(page, `/inner/view?slide_id=${ids.a}&sync=0`)).toBe(ids.a);
    expect(new URL(page.url()).pathname).toBe('/slide/view');

    await page.goto(`${app.url}/kfb/section/${caseId}/B2-9`);
    await page.getByTestId('viewer-locating').getByRole('alert').waitFor();
    expect(await page.getByTestId('viewer-locating').textContent()).toBe('The slide cannot be found, or you may not view it');

    expect(await viewerOn(page, `/outer/view?id=${ids.a}`)).toBe(ids.a);
    expect(await page.getByTestId('viewer').getAttribute('data-mode')).toBe('outer');
    expect(await page.getByTestId('tool-rectangle').count()).toBe(0);
    await shot(page, 'viewer-outer-en-US');
    expect(await viewerOn(page, `/h5/view?id=${ids.a}`)).toBe(ids.a);
    expect(await page.getByTestId('viewer').getAttribute('data-mode')).toBe('h5');
    expect(await page.getByTestId('tool-rectangle').count()).toBe(0);
    expect(await page.getByTestId('navigator').count()).toBe(0);
    expect(await page.getByTestId('annotation-panel').count()).toBe(0);
    await page.close();
    expect(app.pageErrors).toEqual([]);
  });

  for (const lang of ['en-US', 'zh-CN'] as const) {
    it(`/h5/view: one finger pans, two fingers pinch to zoom, no drawing tools (${lang})`, async () => {
      const page = await open(lang, true);
      await page.setViewportSize({ width: 412, height: 860 });
      expect(await viewerOn(page, `/h5/view?id=${ids.b}`)).toBe(ids.b);
      await viewsSettled(page, 'viewer-pane-0');
      expect(await page.getByTestId('tool-rectangle').count()).toBe(0);
      const box = (await page.getByTestId('viewer-pane-0').boundingBox())!;
      const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
      const cdp = await page.context().newCDPSession(page);
      type Touch = { x: number; y: number; id: number };
      const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Touch[]) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points });
      const gesture = async (from: Touch[], to: Touch[], steps = 12) => {
        await touch('touchStart', from);
        for (let i = 1; i <= steps; i++) {
          await touch('touchMove', from.map((f, k) => ({ id: f.id, x: f.x + ((to[k]!.x - f.x) * i) / steps, y: f.y + ((to[k]!.y - f.y) * i) / steps })));
        }
        await touch('touchEnd', []);
      };

      // One finger: the image follows it (the overlay's translation moves by the drag).
      const [, , , , e0, f0] = await overlayMatrix(page);
      await gesture([{ id: 1, x: cx, y: cy }], [{ id: 1, x: cx - 120, y: cy + 90 }]);
      await poll(async () => { const m = await overlayMatrix(page); return Math.round(m[4] - e0); }).toBeLessThan(-60);
      await poll(async () => { const m = await overlayMatrix(page); return Math.round(m[5] - f0); }).toBeGreaterThan(45);

      // Two fingers apart: the magnification grows.
      const before = Number(await page.getByTestId('viewer-pane-0').getAttribute('data-magnification'));
      await gesture([{ id: 1, x: cx - 30, y: cy }, { id: 2, x: cx + 30, y: cy }], [{ id: 1, x: cx - 150, y: cy }, { id: 2, x: cx + 150, y: cy }]);
      await poll(() => page.getByTestId('viewer-pane-0').getAttribute('data-magnification').then(Number)).toBeGreaterThan(before * 2);
      await viewsSettled(page, 'viewer-pane-0');
      await shot(page, `viewer-h5-${lang}`);
      await page.close();
      expect(app.pageErrors).toEqual([]);
    });
  }

  for (const lang of ['en-US', 'zh-CN'] as const) {
    it(`opens the viewer from the reading list and from a favourite (${lang})`, async () => {
      const page = await open(lang);
      await page.goto(`${app.url}/manage/slide/read`);
      const card = page.getByRole('link', { name: A.name });
      await card.waitFor();
      await poll(() => card.locator('img').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete))).toBe(true);
      await animationsDone(page);
      await shot(page, `slide-read-${lang}`);
      await card.click();
      await page.waitForURL(`**/kfb/${caseId}/${ids.a}`);
      await page.getByTestId('current-magnification').waitFor();
      expect(await page.getByTestId('strip-slide').count()).toBe(2);

      await page.goto(`${app.url}/manage/case/collection`);
      await page.getByRole('link', { name: B.name }).click();
      await page.waitForURL(`**/slide/view?id=${ids.b}`);
      await page.getByTestId('current-magnification').waitFor();
      await page.close();
      expect(app.pageErrors).toEqual([]);
    });
  }
});
