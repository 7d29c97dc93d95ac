import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsDone, e2eApp, evidence } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const WORDS = {
  'zh-CN': { group: '配置中心', title: '院区配置', code: 'EAST', name: '东院区', queue: 'area-east' },
  'en-US': { group: 'Configuration', title: 'Hospital areas', code: 'WEST', name: 'West campus', queue: 'area-west' },
} as const;

/**
 * The hospital areas page (HospitalAreaList, issue 29) in Chromium, in both languages: the administrator opens it
 * from the configuration group of the side menu, creates an area with its storage directory and queue, then puts the
 * branch hospital in it on the hospitals page (HospitalConfig's area select lists the new area).
 */
describe('hospital areas page in Chromium', () => {
  const app = e2eApp();

  const open = async (page: Page, lang: Lang, alias: string) => {
    if ((await page.getByTestId('menu-toggle').getAttribute('aria-expanded')) === 'false') await page.getByTestId('menu-toggle').click();
    const link = page.locator(`[data-testid="side-menu"] a[data-alias="${alias}"]`);
    if (!(await link.isVisible())) {
      await page.locator('[data-testid="side-menu"] button[aria-expanded="false"]', { hasText: WORDS[lang].group }).click();
      // The group opens with a motion: a click on its link while it moves may land on nothing.
      await animationsDone(page);
    }
    await link.waitFor({ state: 'visible' });
    await link.click();
    const list = page.locator(`[data-testid="list-page"][data-alias="${alias}"]`);
    await list.waitFor();
    return list;
  };

  it.each(['zh-CN', 'en-US'] as const)('creates an area and assigns the branch hospital to it (%s)', async (lang) => {
    const errors: string[] = [];
    const page = await app.page(lang, 'admin', { errors });
    const w = WORDS[lang];
    const list = await open(page, lang, 'HospitalAreaList');
    expect(new URL(page.url()).pathname).toBe('/manage/setting/area');
    await expect.poll(() => page.title()).toContain(w.title);

    await list.locator('button[data-action="create"]').click();
    const drawer = page.getByTestId('form-drawer');
    await drawer.locator('#root_code').fill(w.code);
    await drawer.locator('#root_name').fill(w.name);
    await drawer.locator('#root_storage_url').fill(`/srv/dsms/${w.code.toLowerCase()}/`);
    await drawer.locator('#root_queue_names').fill(w.queue);
    await evidence(page, `hospital-areas-form-${lang}.png`);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/config/areas/store'));
    await drawer.getByTestId('form-save').click();
    expect((await created).status()).toBe(200);
    await drawer.waitFor({ state: 'detached' });
    const row = list.locator('tbody tr[data-row-key]', { hasText: w.name });
    await row.waitFor();
    // Stored in one spelling: the trailing slash goes.
    expect(await row.textContent()).toContain(`/srv/dsms/${w.code.toLowerCase()}`);
    await evidence(page, `hospital-areas-${lang}.png`);

    const hospitals = await open(page, lang, 'HospitalConfig');
    const branch = await app.db.selectFrom('hospitals').select(['id', 'name']).where('code', '=', 'H002').executeTakeFirstOrThrow();
    await hospitals.locator(`tbody tr[data-row-key="${branch.id}"] [data-action="edit"]`).click();
    const form = page.getByTestId('form-drawer');
    await form.locator('#root_area_id').click();
    await page.getByRole('option', { name: w.name, exact: true }).click();
    const saved = page.waitForResponse((r) => r.url().endsWith(`/api/config/hospitals/update/${branch.id}`));
    await form.getByTestId('form-save').click();
    expect((await saved).status()).toBe(200);
    await form.waitFor({ state: 'detached' });
    const area = await app.db.selectFrom('hospital_areas').select(['id', 'storage_url', 'queue_names']).where('code', '=', w.code).executeTakeFirstOrThrow();
    expect(area).toMatchObject({ storage_url: `/srv/dsms/${w.code.toLowerCase()}`, queue_names: w.queue });
    expect((await app.db.selectFrom('hospitals').select('area_id').where('id', '=', branch.id).executeTakeFirstOrThrow()).area_id).toBe(area.id);
    await hospitals.locator(`tbody tr[data-row-key="${branch.id}"]`, { hasText: w.name }).waitFor();
    await evidence(page, `hospital-areas-hospital-${lang}.png`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
