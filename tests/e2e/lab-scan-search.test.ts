import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { labelsOf } from '../../server/modules/cases/labels.js';
import { e2eApp, evidence } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

/**
 * Issue 10: "a barcode scanner (keyboard wedge) in any search box finds the case or block". A wedge types the
 * label's code and Enter into CaseList's keyword box: the list shows just the case the label belongs to (not the
 * case whose number merely starts the same), for a cassette label and for a slide label; a typed fragment still
 * finds by "contains".
 */
describe('A scanned label code in the list search box, in Chromium', () => {
  const codes = { cassette: '', slide: '' };

  const app = e2eApp({
    async setup(server) {
      const { hospital_id } = await server.db.selectFrom('cases').select('hospital_id').where('patient_name', '=', '张伟').executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      const addCase = async (pathology_number: string, patient_name: string) => (await server.db.insertInto('cases').values({
        hospital_id, pathology_number, patient_name, case_type: 'routine', main_phase: 'slide_making', sub_phase: 'cut', expedite_status: 0, extra: '{}', registration_at: now, created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow()).id;
      const caseId = await addCase('E2E-SCAN-1', 'E2E 扫码 甲');
      // Its number starts the other's: a "contains" search for the number finds both, a scan only the first.
      await addCase('E2E-SCAN-10', 'E2E 扫码 乙');
      const specimen = (await server.db.insertInto('case_specimens').values({ hospital_id, case_id: caseId, seq: 1, name: '胃窦', status: 'sampled', created_at: now, updated_at: now } as never)
        .returning('id').executeTakeFirstOrThrow()).id;
      const block = (await server.db.insertInto('case_blocks').values({ hospital_id, case_id: caseId, specimen_id: specimen, block_number: 'A', outside: 0, created_at: now } as never)
        .returning('id').executeTakeFirstOrThrow()).id;
      await server.db.insertInto('slide_sections').values({ hospital_id, case_id: caseId, block_id: block, block_number: 'A', section_number: 2, stain: 'HE', label: null, slide_id: null, outside: 0, created_at: now } as never).execute();
      // The codes the printed labels carry.
      const row = await server.db.selectFrom('cases').selectAll().where('id', '=', caseId).executeTakeFirstOrThrow();
      codes.cassette = (await labelsOf(server.db, row as never, 'cassette', 'code128'))[0].code;
      codes.slide = (await labelsOf(server.db, row as never, 'slide', 'code128'))[0].code;
    },
  });

  const open = (lang: Lang): Promise<Page> => app.page(lang, 'admin');
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { fullPage: true });
  const numbers = (page: Page) => page.getByTestId('data-table').locator('tbody tr[data-row-key] td[data-column="pathology_number"]').allTextContents();

  /** Types `text` key by key and Enter, as a keyboard wedge does. */
  async function scan(page: Page, text: string) {
    const box = page.getByTestId('keyword-box');
    await box.fill('');
    await box.pressSequentially(text);
    await box.press('Enter');
    await poll(() => new URL(page.url()).searchParams.get('search')).toBe(text);
  }

  for (const [lang, kind] of [['zh-CN', 'cassette'], ['en-US', 'slide']] as const) {
    it(`${lang}: a ${kind} label's code finds just its case; a fragment still finds both`, async () => {
      expect(codes.cassette).toBe('E2E-SCAN-1-A');
      expect(codes.slide).toBe('E2E-SCAN-1-A-2');
      const page = await open(lang);
      await page.goto(`${app.url}/manage/case/list?tab=all`);
      await page.getByTestId('data-table').locator('tbody tr[data-row-key]').first().waitFor();
      await scan(page, 'E2E-SCAN-1');
      await poll(() => numbers(page)).toEqual(['E2E-SCAN-10', 'E2E-SCAN-1']);
      await scan(page, codes[kind]);
      await poll(() => numbers(page)).toEqual(['E2E-SCAN-1']);
      await shot(page, `lab-scan-search-${kind}-${lang}`);
      // The other label kind too, then a code no case has: nothing.
      await scan(page, codes[kind === 'slide' ? 'cassette' : 'slide']);
      await poll(() => numbers(page)).toEqual(['E2E-SCAN-1']);
      await scan(page, 'E2E-SCAN-9-A');
      await poll(() => page.getByTestId('data-table').locator('tbody tr[data-row-key]').count()).toBe(0);
      await page.close();
      expect(app.pageErrors).toEqual([]);
    }, 120_000);
  }
});
