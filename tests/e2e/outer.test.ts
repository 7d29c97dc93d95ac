import path from 'node:path';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { saveTeachingSetting } from '../../server/modules/outer/queries.js';
import { startTeachingLibraryDouble } from '../api/teaching-library-double.js';
import { enUSBundle as enUS, zhCNBundle as zhCN } from '../../src/i18n/bundles';
import { e2eApp, evidence, signIn } from './harness.js';

const LANGS = [['zh-CN', zhCN], ['en-US', enUS]] as const;
const NUMBER = 'P2026-00001';

/**
 * Issue 17, outer/* in the page. outer/ocr: DssUploaded's "Read label and bind" reads a slide's label with Tesseract and offers
 * the case number it shows; choosing it binds the slide to that case. SlideLibrary's "Link to teaching library" links the selected slides to a library of the
 * external teaching system (a loopback stand-in, tests only). Both languages, with screenshots.
 */
describe('label OCR in Chromium', () => {
  let template: string;

  const app = e2eApp({
    ownDataDir: true,
    async setup(server) {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="600" height="400" fill="#f7f7f4"/>
        <text x="30" y="140" font-family="Noto Sans CJK SC, sans-serif" font-size="56" fill="#161616">病理号</text>
        <text x="30" y="260" font-family="DejaVu Sans Mono, monospace" font-size="56" fill="#161616">${NUMBER}</text></svg>`;
      const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      template = path.join(server.dir, 'labelled.tiff');
      await generateDemoSlide({ out: template, width: 512, height: 512, tileSize: 256, mpp: 0.5, seed: 7, labelRgb: { data, width: info.width, height: info.height } });
    },
  });

  const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { animations: 'disabled' });

  for (const [lang, text] of LANGS) {
    it(`"Read label and bind" suggests the case whose number the label shows and binds the slide to it [${lang}]`, async () => {
      const name = `ocr-e2e-${lang}`;
      const file = path.join(app.server.dataDir!, 'slides', `${name}.tiff`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.copyFileSync(template, file);
      const hospital = (await app.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
      const technician = (await app.db.selectFrom('users').select('id').where('name', '=', 'technician').executeTakeFirstOrThrow()).id;
      const slideId = await registerSlide(app.db, app.server.dataDir!, file, { name, hospital_id: hospital, case_id: null, uploaded_by: technician });
      await ingestNow(app.db, app.server.dataDir!, slideId);

      const context = await app.browser.newContext({ viewport: { width: 1366, height: 800 }, locale: lang });
      await context.addInitScript((l) => { if (!localStorage.getItem('lang')) localStorage.setItem('lang', l); }, lang);
      const page = await context.newPage();
      await signIn(page, app.url, 'technician', 'dsms-demo');
      await page.waitForURL((u) => u.pathname.startsWith('/manage'));
      await page.goto(`${app.url}/manage/slide/uploaded`);
      const row = page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: name });
      await row.waitFor();
      const read = page.waitForResponse((r) => r.url().endsWith('/api/outer/ocr'));
      await row.locator('[data-action="ocrBind"]').click();
      const answer = await read;
      expect(answer.status()).toBe(200);
      expect((await answer.json()).data.matches).toEqual([expect.objectContaining({ pathology_number: NUMBER })]);
      await page.locator('.fui-ToastTitle', { hasText: text.actions.ocrRead.replace('{{text}}', NUMBER) }).waitFor();
      const prompt = page.getByTestId('prompt-dialog');
      await prompt.waitFor();
      await prompt.getByTestId('prompt-input').click();
      await page.getByRole('option', { name: NUMBER, exact: true }).waitFor();
      await shot(page, `ocr-bind-${lang}`);
      await page.getByRole('option', { name: NUMBER, exact: true }).click();
      const moved = page.waitForResponse((r) => r.url().endsWith('/api/data/kfb/move'));
      await prompt.getByTestId('prompt-confirm').click();
      expect((await moved).status()).toBe(200);
      await prompt.waitFor({ state: 'detached' });
      const bound = await app.db.selectFrom('slides').innerJoin('cases', 'cases.id', 'slides.case_id').select('cases.pathology_number').where('slides.id', '=', slideId).executeTakeFirst();
      expect(bound?.pathology_number).toBe(NUMBER);
      await context.close();
    });
  }

  for (const [lang, text] of LANGS) {
    it(`"Link to teaching library" links the selected slide to the library chosen from the teaching system's list [${lang}]`, async () => {
      const library = await startTeachingLibraryDouble('e2e-token');
      try {
        await saveTeachingSetting(app.db, { adapter: 'http', base_url: library.url, api_token: 'e2e-token' }, app.server.secrets);
        const context = await app.browser.newContext({ viewport: { width: 1366, height: 800 }, locale: lang });
        await context.addInitScript((l) => { if (!localStorage.getItem('lang')) localStorage.setItem('lang', l); }, lang);
        const page = await context.newPage();
        await signIn(page, app.url, 'primary', 'dsms-demo');
        await page.waitForURL((u) => u.pathname.startsWith('/manage'));
        await page.goto(`${app.url}/manage/slide/library`);
        const name = `ocr-e2e-${lang}`;
        const row = page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: name });
        await row.waitFor();
        await row.getByRole('checkbox').click();
        await page.locator('button[data-action="teachingBind"]').click();
        const prompt = page.getByTestId('prompt-dialog');
        await prompt.waitFor();
        await prompt.getByTestId('prompt-input').click();
        const option = page.getByRole('option', { name: 'Gastrointestinal pathology › Stomach', exact: true });
        await option.waitFor();
        await shot(page, `teaching-bind-${lang}`);
        await option.click();
        const bound = page.waitForResponse((r) => r.url().endsWith('/api/outer/jiaopei/bind'));
        await prompt.getByTestId('prompt-confirm').click();
        expect((await bound).status()).toBe(200);
        await page.locator('.fui-ToastTitle', { hasText: text.actions.done.replace('{{action}}', lang === 'zh-CN' ? '关联到教学库' : 'Link to teaching library') }).waitFor();
        const slideId = (await app.db.selectFrom('slides').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
        const link = await app.db.selectFrom('teaching_links').select(['library_id', 'external_id']).where('slide_id', '=', slideId).executeTakeFirst();
        expect(link).toEqual({ library_id: 'gastro-stomach', external_id: `T-gastro-stomach-${slideId}` });
        await context.close();
      } finally {
        await library.close();
      }
    });
  }
});
