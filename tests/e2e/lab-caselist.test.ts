import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import labEnums from '../../schemas/enums/lab.json';
import { e2eApp, evidence } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const LANGS: Lang[] = ['zh-CN', 'en-US'];
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const stageWord = (key: string, lang: Lang) => labEnums.case_stage.find((o) => o.value === key)!.label[lang];

/** Three cases at different points of the lab, so their rule-given colours and stage words differ. */
const CASES = [
  { patient_name: 'E2E 颜色 甲', pathology_number: 'E2E-COL-1', main_phase: 'registration', sub_phase: 'to_receive', expedite_status: 0, colour: 'red' },
  { patient_name: 'E2E 颜色 乙', pathology_number: 'E2E-COL-2', main_phase: 'slide_making', sub_phase: 'dehydration', expedite_status: 0, colour: 'blue' },
  { patient_name: 'E2E 颜色 丙', pathology_number: 'E2E-COL-3', main_phase: 'diagnosis', sub_phase: 'to_first', expedite_status: 1, colour: 'purple' },
];

/**
 * CaseList and the case detail page show what the hospital's case-status rule says beyond the status word (issue
 * 10, spec §4): the pathology number in its number colour, the status box in its status colour (gold); and the
 * progress facet (stage words / list-progress filters) with counts filters the list, in both languages.
 */
describe('CaseList colours and progress facet, in Chromium', () => {
  const ids: number[] = [];

  const app = e2eApp({
    async setup(server) {
      const { hospital_id } = await server.db.selectFrom('cases').select('hospital_id').where('patient_name', '=', '张伟').executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      for (const { colour: _c, ...c } of CASES) {
        const { id } = await server.db.insertInto('cases').values({ ...c, hospital_id, case_type: 'routine', extra: '{}', registration_at: now, created_at: now, updated_at: now })
          .returning('id').executeTakeFirstOrThrow();
        ids.push(id);
      }
    },
  });

  const open = (lang: Lang): Promise<Page> => app.page(lang, 'admin');
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { fullPage: true });
  const rowOf = (page: Page, patient: string) => page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: patient });
  const colourOf = (page: Page, patient: string, column: string) => rowOf(page, patient).locator(`td[data-column="${column}"] [data-colour]`).first();
  const css = (el: ReturnType<typeof colourOf>, prop: 'color' | 'backgroundColor') => el.evaluate((n, p) => getComputedStyle(n)[p], prop);

  for (const lang of LANGS) {
    it(`${lang}: numbers and status boxes in their rule colours; the progress facet counts and filters`, async () => {
      const page = await open(lang);
      await page.goto(`${app.url}/manage/case/list?tab=all`);
      for (const c of CASES) await rowOf(page, c.patient_name).waitFor();
      const numberColours: string[] = [];
      for (const c of CASES) {
        const number = colourOf(page, c.patient_name, 'pathology_number');
        expect(await number.getAttribute('data-colour')).toBe(c.colour);
        numberColours.push(await css(number, 'color'));
        const status = colourOf(page, c.patient_name, 'case_status');
        expect(await status.getAttribute('data-colour')).toBe('gold');
      }
      // Three palette families, three different text colours; the gold boxes share one fill.
      expect(new Set(numberColours).size).toBe(3);
      const fills = await Promise.all(CASES.map((c) => css(colourOf(page, c.patient_name, 'case_status'), 'backgroundColor')));
      expect(new Set(fills).size).toBe(1);
      expect(fills[0]).not.toBe('rgba(0, 0, 0, 0)');
      await shot(page, `lab-caselist-colours-${lang}`);

      // The progress facet: its words in this language, counts from the server, and the list filtered by a choice.
      const facet = page.getByTestId('list-facet');
      const urgent = facet.locator('[data-facet="urgent"]');
      await poll(() => urgent.textContent()).toContain(stageWord('urgent', lang));
      await poll(async () => Number(await urgent.locator('[data-count]').getAttribute('data-count'))).toBe(1);
      await urgent.click();
      await poll(() => decodeURIComponent(page.url())).toContain('"case_stages":"urgent"');
      await rowOf(page, CASES[2].patient_name).waitFor();
      await poll(() => page.getByTestId('data-table').locator('tbody tr[data-row-key]').count()).toBe(1);
      expect(await urgent.getAttribute('aria-pressed')).toBe('true');
      await shot(page, `lab-caselist-facet-urgent-${lang}`);
      // "To first diagnosis" with the status tab "To allot": nothing (the facet joins the tab's filter).
      await facet.locator('[data-facet="to_first"]').click();
      await page.getByTestId('list-tabs').locator('[data-tab="to_allot"]').click();
      await poll(() => page.getByTestId('data-table').locator('tbody tr[data-row-key]').count()).toBe(0);
      await page.getByTestId('list-tabs').locator('[data-tab="diagnosing"]').click();
      await rowOf(page, CASES[2].patient_name).waitFor();
      // "All" lifts the facet: the other two come back under the all tab.
      await page.getByTestId('list-tabs').locator('[data-tab="all"]').click();
      await facet.locator('[data-facet=""]').click();
      await poll(() => decodeURIComponent(page.url())).not.toContain('case_stages');
      for (const c of CASES) await rowOf(page, c.patient_name).waitFor();

      // The case detail header: the number in its colour, the status box gold.
      await page.goto(`${app.url}/case/${ids[2]}`);
      await page.getByTestId('case-detail').waitFor();
      expect(await page.getByTestId('case-number').getAttribute('data-colour')).toBe('purple');
      expect(await page.getByTestId('case-status').getAttribute('data-colour')).toBe('gold');
      expect(await page.getByTestId('case-number').evaluate((n) => getComputedStyle(n).color)).toBe(numberColours[2]);
      await shot(page, `lab-case-detail-colours-${lang}`);
      await page.close();
      expect(app.pageErrors).toEqual([]);
    }, 120_000);
  }
});
