import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { getSetting } from '../../server/modules/settings/queries.js';
import { e2eApp, evidence } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const LANGS: Lang[] = ['zh-CN', 'en-US'];
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const NUMBER = 'E2E-LINK-1';
const SLIDE = 'E2E-LINK-1.svs';

/**
 * Issue 10, spec §2: the case detail page is opened from any pathology number. The slide lists (SlideLibrary,
 * DataSlice, SlideSearch) and the favourites (CaseCollection) draw the number as the `case_number` cell; a click
 * lands on /case/:id. With system_config.case_link_new_tab the same link opens a new tab.
 */
describe('Pathology numbers open the case, in Chromium', () => {
  let caseId = 0;

  const app = e2eApp({
    async setup(server) {
      const { hospital_id } = await server.db.selectFrom('cases').select('hospital_id').where('patient_name', '=', '张伟').executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      caseId = (await server.db.insertInto('cases').values({
        hospital_id, pathology_number: NUMBER, patient_name: 'E2E 链接', case_type: 'routine', main_phase: 'diagnosis', expedite_status: 0, extra: '{}', created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow()).id;
      const slideId = (await server.db.insertInto('slides').values({
        hospital_id, case_id: caseId, name: SLIDE, file_path: SLIDE, file_size: 1, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
      } as never).returning('id').executeTakeFirstOrThrow()).id;
      const admin = await server.db.selectFrom('users').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow();
      await server.db.insertInto('collections').values({ user_id: admin.id, category_id: null, slide_id: slideId, remark: null, created_at: now }).execute();
    },
  });

  const open = (lang: Lang): Promise<Page> => app.page(lang, 'admin');
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { fullPage: true });
  // A table row's number cell, or (SlideSearch's cards) a card's subtitle.
  const numberLink = (page: Page, rowText: string) => page.locator('[data-testid=data-table] tbody tr[data-row-key], [data-testid=card-grid] article[data-row-key]', { hasText: rowText })
    .locator('[data-column="pathology_number"] a');

  /** The list at `address`: its row's number is a link to the case; a click shows the case detail page. */
  async function clickThrough(page: Page, address: string, rowText: string, shotName: string) {
    await page.goto(`${app.url}${address}`);
    const link = numberLink(page, rowText);
    await link.waitFor();
    expect(await link.textContent()).toBe(NUMBER);
    expect(await link.getAttribute('href')).toBe(`/case/${caseId}`);
    expect(await link.getAttribute('target')).toBeNull();
    await shot(page, shotName);
    await link.click();
    await poll(() => new URL(page.url()).pathname).toBe(`/case/${caseId}`);
    await poll(() => page.getByTestId('case-number').textContent()).toContain(NUMBER);
  }

  for (const lang of LANGS) {
    it(`${lang}: SlideLibrary, CaseCollection, DataSlice and SlideSearch numbers land on the case detail page`, async () => {
      const page = await open(lang);
      await clickThrough(page, '/manage/slide/library', SLIDE, `lab-links-library-${lang}`);
      await shot(page, `lab-links-case-detail-${lang}`);
      await clickThrough(page, '/manage/case/collection', SLIDE, `lab-links-collection-${lang}`);
      await clickThrough(page, '/manage/slide/data', SLIDE, `lab-links-dataslice-${lang}`);
      await clickThrough(page, `/manage/slide/search?search=${NUMBER}`, SLIDE, `lab-links-search-${lang}`);
      await page.close();
      expect(app.pageErrors).toEqual([]);
    }, 120_000);
  }

  it('en-US: switched on in System configuration, the number opens the case in a new tab', async () => {
    const page = await open('en-US');
    await page.goto(`${app.url}/manage/setting/other`);
    await page.getByTestId('form-page').waitFor();
    const box = page.locator('#root_case_link_new_tab');
    await box.waitFor();
    expect(await page.getByText('A pathology number opens its case in a new tab').count()).toBeGreaterThan(0);
    expect(await box.isChecked()).toBe(false);
    await box.check();
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/common/setting' && r.request().method() === 'POST');
    await page.getByTestId('form-save').click();
    expect((await saved).status()).toBe(200);
    await shot(page, 'lab-links-setting-en-US');
    expect(JSON.parse((await getSetting(app.db, 'system_config'))!.value)).toMatchObject({ case_link_new_tab: true });
    await page.goto(`${app.url}/manage/slide/library`);
    const link = numberLink(page, SLIDE);
    await poll(() => link.getAttribute('target')).toBe('_blank');
    const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await tab.getByTestId('case-number').waitFor();
    expect(new URL(tab.url()).pathname).toBe(`/case/${caseId}`);
    expect(new URL(page.url()).pathname).toBe('/manage/slide/library');
    await shot(tab, 'lab-links-new-tab-en-US');
    await page.close();
    expect(app.pageErrors).toEqual([]);
  }, 120_000);
});
