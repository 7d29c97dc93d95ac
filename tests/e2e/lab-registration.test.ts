import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import registration from '../../schemas/pages/CaseRegistration.json';
import { animationsDone, e2eApp, evidence, pickDateTime } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const LANGS: Lang[] = ['zh-CN', 'en-US'];
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const contract = registration.form.contract;
const word = (field: keyof typeof contract.fields, lang: Lang) => contract.fields[field].label[lang];
const optionWord = (field: 'treat_type', value: string, lang: Lang) => contract.fields[field].options.find((o) => o.value === value)!.label[lang];
const checkText = (i: number, lang: Lang) => contract.rules.checks[i].message[lang];

/**
 * Registration's full form (issue 10, spec §3) in Chromium, in both languages: the registrar fills the patient,
 * inspection and specimen fields; the form's rules (src/core/formRules.ts, the same the server applies) stop an
 * inpatient without an admission number and a specimen fixed before it left the body before anything is sent;
 * saved, it opens the new case with its specimens awaiting receipt.
 */
describe('the full registration form, in Chromium', () => {

  const app = e2eApp();

  const open = (lang: Lang): Promise<Page> => app.page(lang, 'registrar', { options: { viewport: { width: 1440, height: 1000 } } });
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { fullPage: true });

  for (const lang of LANGS) {
    it(`${lang}: fills every part, is stopped by the shared rules, then registers and opens the case`, async () => {
      const page = await open(lang);
      // Reached through the side menu, under the case group.
      if ((await page.getByTestId('menu-toggle').getAttribute('aria-expanded')) === 'false') await page.getByTestId('menu-toggle').click();
      const link = page.locator('[data-testid="side-menu"] a[data-alias="CaseRegistration"]');
      if (!(await link.isVisible())) {
        await page.locator('[data-testid="side-menu"] button[aria-expanded="false"]', { hasText: lang === 'en-US' ? 'Cases' : '病例管理' }).click();
        // The group opens with a motion: a click on its link while it moves may land on nothing.
        await animationsDone(page);
      }
      await link.click();
      await poll(() => new URL(page.url()).pathname).toBe('/manage/case/register');
      const form = page.getByTestId('form-page');
      await form.locator('#root_patient_name').waitFor();
      let posted = 0;
      page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/pathology/register')) posted++; });

      const patient = `E2E 完整登记 ${lang}`;
      await form.locator('#root_patient_name').fill(patient);
      await form.locator('#root_age').fill('47');
      await form.locator('#root_id_number').fill('11010119790101002X');
      await form.locator('#root_treat_type').click();
      await page.getByRole('option', { name: optionWord('treat_type', 'hospital', lang), exact: true }).click();
      // An inpatient: the bed number appears; the admission number is required.
      await form.locator('#root_bed_number').fill('3-15');
      await form.locator('#root_inspection_department').fill('普外科');
      await form.locator('#root_inspection_date').fill('2026-11-20').catch(() => undefined);
      await form.getByTestId('specimen-0-name').fill('甲状腺左叶');
      await form.getByTestId('specimen-0-fixative').fill('10% NBF');
      await pickDateTime(form.getByTestId('specimen-0-leave_body_at'), '2026-11-20', '10:00:00');
      await pickDateTime(form.getByTestId('specimen-0-fixed_at'), '2026-11-20', '09:00:00');
      await form.getByTestId('specimen-add').click();
      await form.getByTestId('specimen-1-name').fill('颈部淋巴结');
      await form.getByTestId('form-save').click();
      await poll(() => form.textContent()).toContain(checkText(1, lang));
      await poll(() => form.locator('#root_admission_number').evaluate((n) => n.closest('[class*="fui-Field"]')?.textContent ?? '')).toContain(lang === 'en-US' ? 'Required' : '必填项');
      expect(posted).toBe(0);
      await shot(page, `lab-registration-refused-${lang}`);

      await form.locator('#root_admission_number').fill(`ZY-E2E-${lang}`);
      await pickDateTime(form.getByTestId('specimen-0-fixed_at'), '2026-11-20', '10:20:00');
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/pathology/register') && r.request().method() === 'POST');
      await form.getByTestId('form-save').click();
      const res = await answer;
      expect(res.status()).toBe(200);
      const id = (await res.json()).data.id as number;
      await poll(() => new URL(page.url()).pathname).toBe(`/case/${id}`);
      const detail = page.getByTestId('case-detail');
      await detail.waitFor();
      await poll(() => detail.getByTestId('specimens').textContent()).toContain('颈部淋巴结');
      expect(await detail.textContent()).toContain(patient);
      const stored = await app.db.selectFrom('cases').select(['admission_number', 'bed_number', 'treat_type', 'id_number']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(stored).toEqual({ admission_number: `ZY-E2E-${lang}`, bed_number: '3-15', treat_type: 'hospital', id_number: '11010119790101002X' });
      const specimens = await app.db.selectFrom('case_specimens').select(['name', 'fixative', 'leave_body_at', 'fixed_at']).where('case_id', '=', id).orderBy('seq').execute();
      expect(specimens).toEqual([
        { name: '甲状腺左叶', fixative: '10% NBF', leave_body_at: '2026-11-20T10:00:00', fixed_at: '2026-11-20T10:20:00' },
        { name: '颈部淋巴结', fixative: null, leave_body_at: null, fixed_at: null },
      ]);
      await shot(page, `lab-registration-opened-${lang}`);
      expect(word('admission_number', lang)).toBeTruthy();
      await page.close();
      expect(app.pageErrors).toEqual([]);
    }, 120_000);
  }
});
