import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import en from '../../src/i18n/locales/en-US/pages/diagnosis.json';
import zh from '../../src/i18n/locales/zh-CN/pages/diagnosis.json';
import { caseAtFirstDiagnosis, type Send } from '../api/diagnosis-setup.js';
import { e2eApp, evidence, viewsSettled, type Lang } from './harness.js';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });

/**
 * Issue 31 item 3 in Chromium: a slide opened from the diagnosis editor opens in a new tab signed in (the session handed
 * over by the editor's tab, src/store/sessionHandoff.ts), its tiles drawn, the one-time ticket gone from the address;
 * the editor's side-by-side viewer shows the case's slides, the strip moves between them, and the report can be typed
 * in meanwhile and is saved.
 */
describe('the viewer beside the diagnosis report in Chromium', () => {
  const app = e2eApp({ ownDataDir: true });
  const pages: Record<string, Page> = {};
  let caseId = 0;
  const slides: number[] = [];

  const as = async (user: string, lang: Lang = 'zh-CN') => (pages[user] ??= await app.page(lang, user, { options: { viewport: { width: 1440, height: 960 } } }));
  const send: Send = async (who, method, url, payload) => {
    const page = await as(who);
    const res = await page.evaluate(async ({ method, url, payload }) => {
      const r = await fetch(url, { method, headers: { authorization: `Bearer ${sessionStorage.getItem('access_token')}`, 'content-type': 'application/json' }, body: payload ? JSON.stringify(payload) : undefined });
      return { status: r.status, body: await r.text() };
    }, { method, url, payload });
    if (res.status !== 200) throw new Error(`${method} ${url} as ${who}: ${res.status} ${res.body}`);
    return JSON.parse(res.body).data;
  };

  beforeAll(async () => {
    const primary = await app.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow();
    caseId = await caseAtFirstDiagnosis(send, primary.id, { patient_name: '周静', gender: 'female', age: 45, age_unit: 'year' });
    const hospital = (await app.db.selectFrom('cases').select('hospital_id').where('id', '=', caseId).executeTakeFirstOrThrow()).hospital_id;
    const dir = path.join(app.server.dataDir!, 'slides', 'e2e');
    fs.mkdirSync(dir, { recursive: true });
    for (const [i, name] of ['SIDE-1', 'SIDE-2'].entries()) {
      const out = path.join(dir, `${name}.tiff`);
      await generateDemoSlide({ out, width: 3072, height: 2048, seed: 41 + i, slideId: name });
      const id = await registerSlide(app.db, app.server.dataDir!, out, { name, hospital_id: hospital, case_id: caseId, uploaded_by: null });
      await ingestNow(app.db, app.server.dataDir!, id);
      slides.push(id);
    }
    for (const user of Object.keys(pages)) await pages[user]!.close();
    for (const user of Object.keys(pages)) delete pages[user];
  }, 240_000);

  for (const lang of ['zh-CN', 'en-US'] as const) {
    it(`a slide opens signed in in a new tab; the viewer beside the report switches slides while the report is typed [${lang}]`, async () => {
      const words = (lang === 'zh-CN' ? zh : en).diagnosis;
      const page = await app.page(lang, 'primary', { options: { viewport: { width: 1440, height: 960 } } });
      await page.goto(`${app.url}/diagnosis/${caseId}`);
      await page.getByTestId('diagnosis-editor').waitFor();

      // A new tab of the viewer: no login page, the slide's tiles drawn, the ticket out of its address.
      const [tab] = await Promise.all([page.context().waitForEvent('page'), page.locator(`button[data-slide="${slides[1]}"]`).click()]);
      await viewsSettled(tab, 'viewer-pane-0');
      const url = new URL(tab.url());
      expect(url.pathname).toBe(`/kfb/${caseId}/${slides[1]}`);
      expect(url.hash).toBe('');
      expect(await tab.locator('input[name=password]').count()).toBe(0);
      expect(await tab.getByTestId('viewer-pane-0').getAttribute('data-slide')).toBe(String(slides[1]));
      await evidence(tab, `side-viewer-new-tab-${lang}.png`);
      await tab.close();

      // The viewer beside the report, on the case's first slide.
      await page.locator('[data-action="side-viewer"]').click();
      const side = page.getByTestId('side-viewer');
      await side.waitFor();
      await poll(() => page.getByTestId('diagnosis-editor').getAttribute('data-side-viewer')).toBe('on');
      expect(await page.getByText(words.sideViewer.toggle).count()).toBeGreaterThan(0);
      await viewsSettled(page, 'viewer-pane-0');
      expect(await side.getByTestId('viewer-pane-0').getAttribute('data-slide')).toBe(String(slides[0]));

      // Another slide from the strip; the report is typed in while it loads.
      await side.getByTestId('side-viewer-strip').locator(`[data-slide="${slides[1]}"]`).click();
      const text = lang === 'zh-CN' ? '（胃窦）慢性萎缩性胃炎。' : 'Chronic atrophic gastritis (antrum).';
      const diagnosis = page.locator('[data-field="diagnosis"]');
      await diagnosis.click();
      await diagnosis.fill('');
      await page.keyboard.type(text);
      await poll(() => side.getByTestId('viewer-pane-0').getAttribute('data-slide')).toBe(String(slides[1]));
      await viewsSettled(page, 'viewer-pane-0');
      expect(await side.getByTestId('side-viewer-name').textContent()).toBe('SIDE-2');
      expect(await diagnosis.inputValue()).toBe(text);
      await poll(() => page.getByTestId('save-state').getAttribute('data-state')).toBe('saved');
      await evidence(page, `side-viewer-editor-${lang}.png`);

      // The choice stays for the next case this browser opens, and the saved text comes back.
      await page.reload();
      await page.getByTestId('side-viewer').waitFor();
      await poll(() => page.locator('[data-field="diagnosis"]').inputValue()).toBe(text);
      expect(app.pageErrors).toEqual([]);
      await page.close();
    });
  }
});
