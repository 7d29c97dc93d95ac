import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import slideApply from '../../schemas/pages/SlideApply.json';
import labEnums from '../../schemas/enums/lab.json';
import { e2eApp, evidence } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const stateWord = (v: number, lang: Lang) => labEnums.application_status.find((o) => o.value === v)!.label[lang];
const actionLabel = (key: string, lang: Lang) => slideApply.list.rowActions.find((a) => a.key === key)!.label[lang];

/**
 * SlideApply (issue 10, spec §4 application states): the registrar dispatches an applied application and receives a
 * dispatched one from the row actions; the state tabs' counts follow, in both languages.
 */
describe('SlideApply dispatch and receive, in Chromium', () => {

  const app = e2eApp({
    async setup(server) {
      const { hospital_id } = await server.db.selectFrom('cases').select('hospital_id').where('patient_name', '=', '张伟').executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      for (const [n, name] of [['SQ-E2E-1', 'E2E 申请 甲'], ['SQ-E2E-2', 'E2E 申请 乙']]) {
        await server.db.insertInto('case_applications').values({ hospital_id, apply_number: n, status: 0, case_type: 'routine', patient_name: name, specimen_name: '胃窦', created_at: now, updated_at: now }).execute();
      }
    },
  });

  const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { fullPage: true });
  const rowOf = (page: Page, patient: string) => page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: patient });
  const count = async (page: Page, tab: string) => Number(await page.getByTestId('list-tabs').locator(`[data-tab="${tab}"] [data-count]`).first().getAttribute('data-count'));
  const state = async (n: string) => (await app.db.selectFrom('case_applications').select('status').where('apply_number', '=', n).executeTakeFirstOrThrow()).status;

  async function step(page: Page, lang: Lang, patient: string, action: 'dispatch' | 'receive', to: number) {
    const row = rowOf(page, patient);
    const button = row.locator(`[data-action="${action}"]`);
    expect(await button.textContent()).toBe(actionLabel(action, lang));
    const answered = page.waitForResponse((r) => r.url().endsWith(`/${action}`) && r.request().method() === 'POST');
    await button.click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: lang === 'zh-CN' ? '确定' : 'Confirm' }).click();
    expect((await answered).status()).toBe(200);
    await poll(() => row.locator('td[data-column="status"]').textContent()).toBe(stateWord(to, lang));
  }

  it('zh-CN: dispatches one application and receives it; the tab counts follow', async () => {
    const page = await app.page('zh-CN', 'registrar');
    await page.goto(`${app.url}/manage/case/slide-apply`);
    await rowOf(page, 'E2E 申请 甲').waitFor();
    await poll(() => count(page, 's0')).toBe(2);
    await shot(page, 'lab-slide-apply-zh-CN');
    await step(page, 'zh-CN', 'E2E 申请 甲', 'dispatch', 1);
    await poll(() => count(page, 's1')).toBe(1);
    expect(await count(page, 's0')).toBe(1);
    // Once dispatched the row offers receipt, not dispatch.
    await expect(rowOf(page, 'E2E 申请 甲').locator('[data-action="dispatch"]').count()).resolves.toBe(0);
    await step(page, 'zh-CN', 'E2E 申请 甲', 'receive', 2);
    await poll(() => count(page, 's2')).toBe(1);
    await shot(page, 'lab-slide-apply-received-zh-CN');
    expect(await state('SQ-E2E-1')).toBe(2);
    await page.close();
  });

  it('en-US: dispatches and receives the other; the Received tab lists both', async () => {
    const page = await app.page('en-US', 'registrar');
    await page.goto(`${app.url}/manage/case/slide-apply`);
    await rowOf(page, 'E2E 申请 乙').waitFor();
    await step(page, 'en-US', 'E2E 申请 乙', 'dispatch', 1);
    await step(page, 'en-US', 'E2E 申请 乙', 'receive', 2);
    await page.getByTestId('list-tabs').locator('[data-tab="s2"]').click();
    await poll(() => page.url()).toContain('tab=s2');
    await poll(() => page.getByTestId('data-table').locator('tbody tr[data-row-key]').count()).toBe(2);
    await poll(() => count(page, 's2')).toBe(2);
    expect(await count(page, 's0')).toBe(0);
    await shot(page, 'lab-slide-apply-received-en-US');
    expect(await state('SQ-E2E-2')).toBe(2);
    expect(app.pageErrors).toEqual([]);
    await page.close();
  });
});
