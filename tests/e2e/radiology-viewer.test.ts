import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import caseEn from '../../src/i18n/locales/en-US/pages/case-detail.json';
import caseZh from '../../src/i18n/locales/zh-CN/pages/case-detail.json';
import dicomEn from '../../src/i18n/locales/en-US/pages/dicom-viewer.json';
import dicomZh from '../../src/i18n/locales/zh-CN/pages/dicom-viewer.json';
import { crImage, ctSeries, type RadiologyFile } from '../support/radiology-dicom.js';
import { e2eApp, evidence, type Lang } from './harness.js';

const LANGS: Lang[] = ['zh-CN', 'en-US'];
const WORDS = { 'zh-CN': { ...caseZh, ...dicomZh }, 'en-US': { ...caseEn, ...dicomEn } };
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const fill = (text: string, params: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(params[k]));

const SIZE = 64;
const SPACING = 0.5;

/** Uploads each file as the signed-in user's attachment and ties it to the case, through the API from the page. */
async function attachToCase(page: Page, caseId: number, files: RadiologyFile[]): Promise<number[]> {
  return page.evaluate(async ({ caseId, files }) => {
    const headers = { authorization: `Bearer ${sessionStorage.getItem('access_token')}` };
    const ids: number[] = [];
    for (const f of files) {
      const form = new FormData();
      form.append('file', new Blob([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))]), f.name);
      const up = await (await fetch('/api/upload/image', { method: 'POST', headers, body: form })).json();
      if (up.code !== 0) throw new Error(JSON.stringify(up));
      const tie = await (await fetch(`/api/cases/${caseId}/images`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ path: up.data.path, title: f.name }) })).json();
      if (tie.code !== 0) throw new Error(JSON.stringify(tie));
      ids.push(tie.data.id);
    }
    return ids;
  }, { caseId, files: files.map((f) => ({ name: f.name, base64: f.bytes.toString('base64') })) });
}

/**
 * What dwv's image canvas shows (the first canvas of the layer group: the image layer, under the Konva draw layer):
 * a hash of its pixels, and where the image's bright frame lies on it (first and last bright pixel of the middle
 * row and column), in page coordinates.
 */
function readCanvas(page: Page) {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid=dicom-layer] canvas')!;
    const { data, width, height } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let hash = 2166136261;
    for (let i = 0; i < data.length; i += 4) hash = Math.imul(hash ^ (data[i]! + 3 * data[i + 1]! + 7 * data[i + 2]! + 11 * data[i + 3]!), 16777619) >>> 0;
    const bright = (x: number, y: number) => data[(y * width + x) * 4]! > 200 && data[(y * width + x) * 4 + 3]! > 200;
    const row = Math.floor(height / 2);
    const col = Math.floor(width / 2);
    const xs = Array.from({ length: width }, (_, x) => x).filter((x) => bright(x, row));
    const ys = Array.from({ length: height }, (_, y) => y).filter((y) => bright(col, y));
    const rect = canvas.getBoundingClientRect();
    const css = rect.width / width;
    return {
      hash,
      left: rect.left + xs[0]! * css, right: rect.left + (xs.at(-1)! + 1) * css,
      top: rect.top + ys[0]! * css, bottom: rect.top + (ys.at(-1)! + 1) * css,
    };
  });
}

/**
 * The DICOM viewer (issue 30, spec §2 /dicom/:pid/:id): a CT series (through the API) and a CR image (on the case
 * page) attached to a case are opened from the case page; the viewer lists the series, scrolls the CT's slices (keys, wheel),
 * changes window/level (preset, drag), measures a length in mm from Pixel Spacing, zooms, and switches series.
 */
describe('DICOM viewer for radiology attachments, in Chromium', () => {
  const cases: Record<Lang, number> = { 'zh-CN': 0, 'en-US': 0 };
  const app = e2eApp({
    async setup(server) {
      const { hospital_id } = await server.db.selectFrom('cases').select('hospital_id').where('patient_name', '=', '张伟').executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      for (const lang of LANGS) {
        cases[lang] = (await server.db.insertInto('cases').values({
          hospital_id, pathology_number: `E2E-DICOM-${lang}`, patient_name: `E2E 影像 ${lang}`, case_type: 'routine', main_phase: 'sample', sub_phase: 'to_sample',
          expedite_status: 0, extra: '{}', registration_at: now, created_at: now, updated_at: now,
        }).returning('id').executeTakeFirstOrThrow()).id;
      }
    },
  });

  for (const lang of LANGS) {
    it(`${lang}: opens a case's CT series from its attachments, scrolls, windows, measures in mm and switches to its CR`, async () => {
      const w = WORDS[lang];
      const page = await app.page(lang, 'primary');
      const ct = ctSeries({ slices: 5, size: SIZE, spacing: SPACING, description: 'Chest CT' });
      const cr = crImage({ description: 'Chest PA' });
      await attachToCase(page, cases[lang], ct);

      // The case's attachments: the CT sent through the API, the CR attached on the page; each series links to the viewer.
      await page.goto(`${app.url}/case/${cases[lang]}`);
      const rows = page.getByTestId('case-radiology').locator('li');
      await poll(() => rows.count()).toBe(1);
      expect(await page.getByTestId('radiology-upload').textContent()).toBe(w.lab.detail.attachRadiology);
      await page.getByTestId('radiology-input').setInputFiles({ name: cr.name, mimeType: 'application/dicom', buffer: cr.bytes });
      await poll(() => rows.count()).toBe(2);
      const ctRow = page.locator(`[data-testid=case-radiology] li[data-series="${ct[0]!.seriesUid}"]`);
      expect(await ctRow.textContent()).toContain(fill(w.lab.detail.radiologySeries, { modality: 'CT', description: 'Chest CT', count: 5 }));
      expect(await ctRow.getByTestId('open-dicom').textContent()).toBe(w.lab.detail.openDicom);
      await evidence(page, `radiology-case-${lang}.png`, { fullPage: true });
      await ctRow.getByTestId('open-dicom').click();
      await page.waitForURL(/\/dicom\/\d+\/\d+$/);

      // The series list: the CT (current) and the CR, with modality, description and size, in the page's language.
      const list = page.getByTestId('dicom-series').locator('button');
      await poll(() => list.count()).toBe(2);
      const ctButton = page.locator(`[data-testid=dicom-series] button[data-series="${ct[0]!.seriesUid}"]`);
      expect(await ctButton.getAttribute('aria-current')).toBe('true');
      expect(await ctButton.textContent()).toBe(`CTChest CT${fill(w.dicom.seriesImages, { count: 5 })}`);
      expect(await page.locator(`[data-testid=dicom-series] button[data-series="${cr.seriesUid}"]`).textContent()).toContain('Chest PA');
      const slice = page.getByTestId('dicom-slice');
      await poll(() => slice.getAttribute('data-count')).toBe('5');
      expect(await page.getByTestId('dicom-tool-Ruler').textContent()).toBe(w.dicom.tool.Ruler);
      const first = await readCanvas(page);
      // The CT's frame is square on screen: Pixel Spacing is the same both ways.
      expect(Math.abs((first.right - first.left) - (first.bottom - first.top))).toBeLessThan(2);
      await evidence(page, `radiology-viewer-${lang}.png`);

      // Slices: a key, then the mouse wheel, each moves to another slice and the picture changes with it.
      const index = async () => Number(await slice.getAttribute('data-index'));
      const at = await index();
      await page.getByTestId('dicom-stage').focus();
      await page.keyboard.press(at < 4 ? 'ArrowDown' : 'ArrowUp');
      const next = at < 4 ? at + 1 : at - 1;
      await poll(index).toBe(next);
      expect(await slice.textContent()).toBe(fill(w.dicom.sliceOf, { index: next + 1, count: 5 }));
      const scrolled = await readCanvas(page);
      expect(scrolled.hash).not.toBe(first.hash);
      const centre = { x: (first.left + first.right) / 2, y: (first.top + first.bottom) / 2 };
      await page.mouse.move(centre.x, centre.y);
      // Which way the wheel goes is dwv's; at an end of the series one way does nothing, so the other is tried next.
      let way = 1;
      await poll(async () => {
        await page.mouse.wheel(0, 120 * way);
        way = -way;
        return (await index()) !== next;
      }).toBe(true);
      expect((await readCanvas(page)).hash).not.toBe(scrolled.hash);

      // Window/level: a preset, then a drag with the window tool; each changes the window shown and the picture.
      const wl = page.getByTestId('dicom-wl');
      expect(await wl.textContent()).toBe(fill(w.dicom.windowLevel, { width: 400, center: 40 }));
      const beforePreset = await readCanvas(page);
      await page.getByTestId('dicom-preset').click();
      await page.getByRole('option', { name: w.dicom.presetName.lung }).click();
      await poll(() => wl.textContent()).toBe(fill(w.dicom.windowLevel, { width: 1500, center: -500 }));
      const lung = await readCanvas(page);
      expect(lung.hash).not.toBe(beforePreset.hash);
      await page.getByTestId('dicom-tool-WindowLevel').click();
      await page.mouse.move(centre.x, centre.y);
      await page.mouse.down();
      await page.mouse.move(centre.x + 40, centre.y + 25, { steps: 8 });
      await page.mouse.up();
      await poll(() => wl.getAttribute('data-width')).not.toBe('1500');
      expect(await page.getByTestId('dicom-preset').textContent()).toBe(w.dicom.presetName.manual);
      expect((await readCanvas(page)).hash).not.toBe(lung.hash);

      // A length: the ruler from image pixel (10, 10) to (50, 40) is 50 pixels of 0.5 mm, 25 mm.
      const perPixel = (first.right - first.left) / SIZE;
      const toPage = (x: number, y: number) => ({ x: first.left + (x + 0.5) * perPixel, y: first.top + (y + 0.5) * perPixel });
      const [a, b] = [toPage(10, 10), toPage(50, 40)];
      await page.getByTestId('dicom-tool-Ruler').click();
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      await page.mouse.move(b.x, b.y, { steps: 10 });
      await page.mouse.up();
      const measured = page.getByTestId('dicom-measurements').locator('li');
      await poll(() => measured.count()).toBe(1);
      const mm = Number(await measured.getAttribute('data-value'));
      expect(await measured.getAttribute('data-unit')).toBe('unit.mm');
      expect(Math.abs(mm - Math.hypot(40, 30) * SPACING)).toBeLessThan(0.5);
      expect(await measured.textContent()).toBe(`${fill(w.dicom.measurement, { n: 1 })}: ${mm.toFixed(2)} ${w.dicom.unit.mm}`);
      await evidence(page, `radiology-measured-${lang}.png`);
      // Deleting the drawings empties the list again.
      await page.getByTestId('dicom-clear').click();
      await poll(() => page.getByTestId('dicom-measurements').count()).toBe(0);

      // Zoom: the wheel with the zoom tool enlarges the picture; reset brings the window back to the file's.
      await page.getByTestId('dicom-tool-ZoomAndPan').click();
      const unzoomed = await readCanvas(page);
      await page.mouse.move(centre.x, centre.y);
      await page.mouse.wheel(0, -300);
      await poll(async () => (await readCanvas(page)).hash).not.toBe(unzoomed.hash);
      await page.getByTestId('dicom-reset').click();
      await poll(() => wl.textContent()).toBe(fill(w.dicom.windowLevel, { width: 400, center: 40 }));

      // The CR: one image, nothing to scroll; the address names it.
      await page.locator(`[data-testid=dicom-series] button[data-series="${cr.seriesUid}"]`).click();
      await poll(() => slice.getAttribute('data-count')).toBe('1');
      expect(await page.getByTestId('dicom-tool-Scroll').isDisabled()).toBe(true);
      expect(await page.getByTestId('dicom-measurements').count()).toBe(0);
      expect(page.url()).toMatch(new RegExp(`/dicom/${cases[lang]}/\\d+$`));
      await evidence(page, `radiology-cr-${lang}.png`);
      expect(app.pageErrors).toEqual([]);
      await page.close();
    });
  }
});
