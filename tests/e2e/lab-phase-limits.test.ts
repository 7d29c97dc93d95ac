import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eApp, evidence } from './harness.js';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

/**
 * MissCaseSearch's Overdue tab and the per-phase limits page (issue 10): a case 30 h in registration is overdue by
 * the 24 h default; the administrator raises the registration limit to 48 h on SettingCaseTimeout and the tab empties.
 */
describe('per-phase time limits in Chromium', () => {

  const app = e2eApp({
    async setup(server) {
      const { hospital_id } = await server.db.selectFrom('cases').select('hospital_id').where('patient_name', '=', '张伟').executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      await server.db.insertInto('cases').values({
        hospital_id, pathology_number: 'E2E-LIM-1', patient_name: 'E2E 超时', case_type: 'routine', main_phase: 'registration', sub_phase: 'to_receive',
        phase_at: new Date(Date.now() - 30 * 3_600_000).toISOString(), expedite_status: 0, extra: '{}', registration_at: now, created_at: now, updated_at: now,
      }).execute();
    },
  });

  const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { fullPage: true });
  const rowOf = (page: Page) => page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: 'E2E 超时' });

  it('zh-CN: the Overdue tab lists the case 30 h in registration', async () => {
    const page = await app.page('zh-CN', 'admin');
    await page.goto(`${app.url}/manage/case/miss?tab=overdue`);
    await rowOf(page).waitFor();
    expect(await page.getByTestId('list-tabs').locator('[data-tab="overdue"]').textContent()).toContain('超时');
    expect(await rowOf(page).locator('td[data-column="overdue"]').textContent()).toBe('是');
    await shot(page, 'lab-miss-overdue-zh-CN');
    await page.close();
  });

  it('en-US: raising the registration limit to 48 h takes the case off the Overdue tab', async () => {
    const page = await app.page('en-US', 'admin');
    await page.goto(`${app.url}/manage/setting/case-timeout`);
    const form = page.getByTestId('form-page');
    await poll(() => form.locator('#root_registration').inputValue()).toBe('24');
    expect(await form.locator('#root_diagnosis').inputValue()).toBe('120');
    await form.locator('#root_registration').fill('48');
    await shot(page, 'lab-case-timeout-en-US');
    await form.getByTestId('form-save').click();
    await poll(async () => JSON.parse((await app.db.selectFrom('settings').select('value').where('key', '=', 'case_phase_hours').executeTakeFirstOrThrow()).value).registration).toBe(48);
    await page.goto(`${app.url}/manage/case/miss?tab=overdue`);
    await page.getByTestId('list-tabs').waitFor();
    await poll(() => page.getByTestId('list-tabs').locator('[data-tab="overdue"] [data-count]').first().getAttribute('data-count')).toBe('0');
    expect(await rowOf(page).count()).toBe(0);
    await shot(page, 'lab-miss-overdue-en-US');
    expect(app.pageErrors).toEqual([]);
    await page.close();
  });
});
