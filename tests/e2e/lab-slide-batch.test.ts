import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import caseList from '../../schemas/pages/CaseList.json';
import labEnums from '../../schemas/enums/lab.json';
import { e2eApp, evidence } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const stepWord = (v: string, lang: Lang) => labEnums.slide_step.find((o) => o.value === v)!.label[lang];
const statusWord = (v: string, lang: Lang) => labEnums.case_status.find((o) => o.value === v)!.label[lang];
const actionLabel = (key: string, lang: Lang) => [...caseList.list.toolbar, ...caseList.list.batchActions].find((a) => a.key === key)!.label[lang];

/** Three cases waiting for dehydration, each with one cassette (block 1). */
const CASES = [
  { patient_name: 'E2E 批量 甲', pathology_number: 'E2E-BAT-1' },
  { patient_name: 'E2E 批量 乙', pathology_number: 'E2E-BAT-2' },
  { patient_name: 'E2E 批量 丙', pathology_number: 'E2E-BAT-3' },
];

/**
 * Slide making in batch on CaseList (issue 10): the technician selects rows and runs "Make slides (batch)" (the step
 * starts as the one the chosen cases share), and scans cassette and case barcodes into the scan dialog, which shows each
 * code's status and confirms only when all are ready. Both languages.
 */
describe('slide making in batch on CaseList, in Chromium', () => {

  const app = e2eApp({
    async setup(server) {
      const { hospital_id } = await server.db.selectFrom('cases').select('hospital_id').where('patient_name', '=', '张伟').executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      for (const c of CASES) {
        const { id } = await server.db.insertInto('cases').values({ ...c, hospital_id, case_type: 'routine', main_phase: 'slide_making', sub_phase: 'dehydration', expedite_status: 0, extra: '{}', registration_at: now, created_at: now, updated_at: now })
          .returning('id').executeTakeFirstOrThrow();
        await server.db.insertInto('case_blocks').values({ hospital_id, case_id: id, block_number: '1', outside: 0, created_at: now }).execute();
      }
    },
  });

  const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { fullPage: true });
  const rowOf = (page: Page, patient: string) => page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: patient });
  const phase = async (n: string) => (await app.db.selectFrom('cases').select('sub_phase').where('pathology_number', '=', n).executeTakeFirstOrThrow()).sub_phase;

  it('zh-CN: two selected cases are dehydrated in one batch; the step starts as the one they share', async () => {
    const page = await app.page('zh-CN', 'technician');
    await page.goto(`${app.url}/manage/case/list?tab=slide_making`);
    for (const [i, c] of CASES.slice(0, 2).entries()) {
      await rowOf(page, c.patient_name).locator('input[type="checkbox"]').click();
      await page.getByText(`已选择 ${i + 1} 条`).waitFor();
    }
    const button = page.locator('[data-action="make_slides_batch"]');
    expect(await button.textContent()).toBe(actionLabel('make_slides_batch', 'zh-CN'));
    await button.click();
    const prompt = page.getByTestId('prompt-dialog');
    await prompt.waitFor();
    await poll(() => prompt.getByTestId('prompt-input').inputValue()).toBe(stepWord('dehydration', 'zh-CN'));
    await shot(page, 'lab-batch-selection-zh-CN');
    const done = page.waitForResponse((r) => r.url().endsWith('/make-slides/batch'));
    await prompt.getByTestId('prompt-confirm').click();
    const answer = await done;
    expect(answer.status()).toBe(200);
    const sent = answer.request().postDataJSON() as { step: string; codes: string[] };
    expect({ ...sent, codes: [...sent.codes].sort() }).toEqual({ step: 'dehydration', codes: ['E2E-BAT-1', 'E2E-BAT-2'] });
    for (const c of CASES.slice(0, 2)) await poll(() => rowOf(page, c.patient_name).locator('td[data-column="case_status"]').textContent()).toBe(statusWord('embeded', 'zh-CN'));
    expect(await phase('E2E-BAT-3')).toBe('dehydration');
    await page.close();
  });

  it('en-US: scans a cassette and a case number, a stray code is flagged and removed, then both move on', async () => {
    const page = await app.page('en-US', 'technician');
    await page.goto(`${app.url}/manage/case/list?tab=slide_making`);
    await rowOf(page, CASES[0].patient_name).waitFor();
    await page.locator('[data-action="scan_slides"]').click();
    const dialog = page.getByTestId('scan-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('scan-choice').click();
    await page.getByRole('option', { name: stepWord('embeded', 'en-US') }).click();
    const box = dialog.getByTestId('scan-input');
    // A keyboard-wedge scanner: the code, then Enter; the box stays ready for the next.
    for (const code of ['E2E-BAT-1-1', 'E2E-BAT-2', 'NOPE-1', 'E2E-BAT-3', 'E2E-BAT-2']) {
      await box.fill(code);
      await box.press('Enter');
    }
    const item = (code: string) => dialog.getByTestId('scan-list').locator(`li[data-code="${code}"]`);
    await poll(() => dialog.getByTestId('scan-list').locator('li[data-code]').count()).toBe(4);
    await poll(() => item('E2E-BAT-1-1').getAttribute('data-state')).toBe('ok');
    await poll(() => item('NOPE-1').getAttribute('data-state')).toBe('bad');
    expect(await item('NOPE-1').textContent()).toContain('No case, block or slide of this hospital');
    await poll(() => item('E2E-BAT-3').textContent()).toContain('E2E-BAT-3 is at the "Dehydration" stage');
    expect(await dialog.getByText('"E2E-BAT-2" is already in the list').count()).toBe(1);
    expect(await dialog.getByTestId('scan-confirm').isDisabled()).toBe(true);
    await shot(page, 'lab-batch-scan-en-US');
    await item('NOPE-1').getByRole('button').click();
    await item('E2E-BAT-3').getByRole('button').click();
    await poll(() => item('E2E-BAT-2').getAttribute('data-state')).toBe('ok');
    await poll(() => dialog.getByTestId('scan-confirm').isDisabled()).toBe(false);
    expect(await dialog.getByTestId('scan-confirm').textContent()).toBe('Confirm 2 codes');
    const done = page.waitForResponse((r) => r.url().endsWith('/make-slides/batch'));
    await dialog.getByTestId('scan-confirm').click();
    const answer = await done;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toEqual({ step: 'embeded', codes: ['E2E-BAT-1-1', 'E2E-BAT-2'] });
    await dialog.waitFor({ state: 'detached' });
    expect([await phase('E2E-BAT-1'), await phase('E2E-BAT-2'), await phase('E2E-BAT-3')]).toEqual(['cut', 'cut', 'dehydration']);
    await poll(() => rowOf(page, CASES[0].patient_name).locator('td[data-column="case_status"]').textContent()).toBe(statusWord('cut', 'en-US'));
    await shot(page, 'lab-batch-scanned-en-US');
    expect(app.pageErrors).toEqual([]);
    await page.close();
  });

  it('zh-CN: the scan dialog speaks Chinese', async () => {
    const page = await app.page('zh-CN', 'technician');
    await page.goto(`${app.url}/manage/case/list?tab=slide_making`);
    await rowOf(page, CASES[2].patient_name).waitFor();
    await page.locator('[data-action="scan_slides"]').click();
    const dialog = page.getByTestId('scan-dialog');
    await dialog.getByTestId('scan-choice').click();
    await page.getByRole('option', { name: stepWord('cut', 'zh-CN') }).click();
    await dialog.getByTestId('scan-input').fill('E2E-BAT-3');
    await dialog.getByTestId('scan-input').press('Enter');
    await poll(() => dialog.getByTestId('scan-list').locator('li[data-code="E2E-BAT-3"]').textContent()).toContain('E2E-BAT-3 处于“脱水”阶段');
    expect(await dialog.getByText('每次扫描以回车结束并加入列表').count()).toBe(1);
    await shot(page, 'lab-batch-scan-zh-CN');
    await page.close();
  });
});
