import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import enUS from '../../src/i18n/locales/en-US.json';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import { e2eApp, evidence, type Lang } from './harness.js';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const NUMBER = 'P2026-00001';
/** Each language binds its own unbound slide to a glass slide of its own block: zh-CN picks it from the list, en-US scans its label. */
const CASES = {
  'zh-CN': { slide: 'GLASS-ZH', block: 'E1', section: 2, stain: 'Ki-67', how: 'pick' },
  'en-US': { slide: 'GLASS-EN', block: 'E2', section: 1, stain: 'PAS', how: 'scan' },
} as const;

/**
 * Issue 31 item 2 in Chromium: the uploaded list's bind dialog (labelled) offers the case's glass slides by number; a
 * technician binds an unbound slide to one, by choosing it (zh-CN) or by scanning the slide label's barcode into the
 * field, as a keyboard-wedge scanner types it (en-US). The list shows the glass slide, and the viewer's slide info its
 * block, slide number and stain.
 */
describe('binding a slide to its glass slide in Chromium', () => {
  const ids: Record<Lang, number> = { 'zh-CN': 0, 'en-US': 0 };
  let caseId = 0;
  const app = e2eApp({
    ownDataDir: true,
    async setup(server) {
      const dir = path.join(server.dataDir!, 'slides', 'e2e');
      fs.mkdirSync(dir, { recursive: true });
      const hospital = await server.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
      caseId = (await server.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital.id).where('pathology_number', '=', NUMBER).executeTakeFirstOrThrow()).id;
      const now = new Date().toISOString();
      for (const lang of ['zh-CN', 'en-US'] as const) {
        const c = CASES[lang];
        const out = path.join(dir, `${c.slide}.tiff`);
        await generateDemoSlide({ out, width: 2048, height: 1536, seed: lang === 'zh-CN' ? 31 : 32, slideId: c.slide, label: true });
        ids[lang] = await registerSlide(server.db, server.dataDir!, out, { name: c.slide, hospital_id: hospital.id, case_id: null, uploaded_by: null });
        await ingestNow(server.db, server.dataDir!, ids[lang]);
        // The glass slides slide making left for this block: the one to bind and a neighbour.
        for (const [n, stain] of [[c.section, c.stain], [c.section + 1, 'HE']] as const) {
          await server.db.insertInto('slide_sections').values({ hospital_id: hospital.id, case_id: caseId, block_number: c.block, section_number: n, stain, label: null, slide_id: null, created_by: null, created_at: now }).execute();
        }
      }
    },
  });

  for (const lang of ['zh-CN', 'en-US'] as const) {
    it(`the bind dialog offers the case's glass slides; bound to one, the viewer shows its block, slide number and stain [${lang}]`, async () => {
      const words = lang === 'zh-CN' ? zhCN : enUS;
      const c = CASES[lang];
      const code = `${NUMBER}-${c.block}-${c.section}`;
      const page = await app.page(lang, 'technician');
      await page.goto(`${app.url}/manage/slide/uploaded`);
      const row = page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: c.slide });
      await row.waitFor();
      await row.locator('[data-action="bind"]').click();
      const prompt = page.getByTestId('prompt-dialog');
      await prompt.waitFor();
      // The field says what it takes.
      await prompt.getByText(lang === 'zh-CN' ? '玻片或病理号（可扫描玻片标签条码）' : "Glass slide or pathology number (scan the slide label's barcode)").waitFor();
      const input = prompt.getByTestId('prompt-input');
      await input.click();
      await page.keyboard.type(`${NUMBER}-${c.block}`);
      // Typing the case's number and block narrows the list to that block's glass slides, each with its stain.
      const option = (n: number, stain: string) => page.getByRole('option', { name: words.upload.bindGlassOption.replace('{{code}}', `${NUMBER}-${c.block}-${n}`).replace('{{stain}}', stain), exact: true });
      await option(c.section, c.stain).waitFor();
      await option(c.section + 1, 'HE').waitFor();
      await evidence(page, `glass-bind-offered-${lang}.png`);
      if (c.how === 'pick') await option(c.section, c.stain).click();
      else {
        // A scanner types the label's code and Enter into the field.
        await input.fill('');
        await page.keyboard.type(code);
        await page.keyboard.press('Enter');
      }
      const moved = page.waitForResponse((r) => r.url().endsWith('/api/data/kfb/move'));
      await prompt.getByTestId('prompt-confirm').click();
      const res = await moved;
      expect(res.status(), await res.text()).toBe(200);
      expect(JSON.parse(res.request().postData()!)).toMatchObject({ ids: [ids[lang]], code });
      await prompt.waitFor({ state: 'detached' });
      const link = await app.db.selectFrom('slide_sections').select(['block_number', 'section_number']).where('slide_id', '=', ids[lang]).execute();
      expect(link).toEqual([{ block_number: c.block, section_number: c.section }]);

      await page.getByTestId('list-tabs').locator('[data-tab="bound"]').click();
      const bound = page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: c.slide });
      await poll(() => bound.locator('td[data-column="glass_slide"]').textContent()).toBe(`${c.block}-${c.section} ${c.stain}`);
      await evidence(page, `glass-bind-bound-${lang}.png`);

      await page.goto(`${app.url}/kfb/${caseId}/${ids[lang]}`);
      await page.getByTestId('tab-info').click();
      await poll(() => page.getByTestId('info-block').textContent()).toBe(c.block);
      expect(await page.getByTestId('info-slideNo').textContent()).toBe(String(c.section));
      expect(await page.getByTestId('info-stain').textContent()).toBe(c.stain);
      expect(await page.getByTestId('info-pathologyNumber').textContent()).toBe(NUMBER);
      expect(await page.getByTestId('slide-info').textContent()).toContain(words.viewer.info.slideNo);
      await evidence(page, `glass-bind-viewer-${lang}.png`);
      expect(app.pageErrors).toEqual([]);
      await page.close();
    });
  }
});
