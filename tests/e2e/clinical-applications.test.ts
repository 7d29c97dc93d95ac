import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import clinicalApplications from '../../schemas/pages/ClinicalApplications.json';
import slideApply from '../../schemas/pages/SlideApply.json';
import registration from '../../schemas/pages/CaseRegistration.json';
import labEnums from '../../schemas/enums/lab.json';
import zhCase from '../../src/i18n/locales/zh-CN/pages/case-detail.json';
import enCase from '../../src/i18n/locales/en-US/pages/case-detail.json';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import enUS from '../../src/i18n/locales/en-US.json';
import { animationsDone, e2eApp, evidence, type Lang } from './harness.js';

const LANGS: Lang[] = ['zh-CN', 'en-US'];
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const stateWord = (v: number, lang: Lang) => labEnums.application_status.find((o) => o.value === v)!.label[lang];
const caseWords = { 'zh-CN': zhCase.lab, 'en-US': enCase.lab };
const core = { 'zh-CN': zhCN, 'en-US': enUS };
const fieldWord = (field: keyof typeof registration.form.contract.fields, lang: Lang) => registration.form.contract.fields[field].label[lang];
const applyAction = clinicalApplications.list.toolbar[0];

/**
 * Issue 31 items 7 and 9 in Chromium, in both languages at 1440 px: the clinician files a pathology request from
 * their menu (Clinical › My pathology requests), sees it "applied", dispatches it; the registrar receives it and
 * registers the case from it in SlideApply; the clinician sees it registered with the case's number. The registrar
 * opens the case from the application: the case's home, inside the shell (side menu, header), shows what the
 * clinic and the desk typed (outpatient number, clinical diagnosis, ID number, phone, the inspecting hospital, the
 * case's hospital), the specimens the application named, and the timeline in words.
 */
describe('clinical requests and the case home, in Chromium', () => {
  const app = e2eApp();
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { fullPage: true });
  const rowOf = (page: Page, text: string) => page.getByTestId('data-table').locator('tbody tr[data-row-key]', { hasText: text });

  /** An API call with the page's session, for the set-up a test does not watch. */
  const send = async (page: Page, method: string, url: string, payload?: object) => {
    const res = await page.evaluate(async ({ method, url, payload }) => {
      const r = await fetch(url, { method, headers: { authorization: `Bearer ${sessionStorage.getItem('access_token')}`, 'content-type': 'application/json' }, body: payload ? JSON.stringify(payload) : undefined });
      return { status: r.status, body: await r.text() };
    }, { method, url, payload });
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${res.body}`);
    return JSON.parse(res.body).data;
  };

  async function openFromMenu(page: Page, alias: string, group: string) {
    const link = page.locator(`[data-testid="side-menu"] a[data-alias="${alias}"]`);
    if (!(await link.isVisible())) {
      await page.locator('[data-testid="side-menu"] button[aria-expanded="false"]', { hasText: group }).click();
      await animationsDone(page);
    }
    await link.click();
  }

  async function menuShown(page: Page) {
    const toggle = page.getByTestId('menu-toggle');
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
    await page.getByTestId('side-menu').waitFor();
    await animationsDone(page);
  }

  async function confirmRow(page: Page, row: ReturnType<typeof rowOf>, action: string, lang: Lang) {
    const answered = page.waitForResponse((r) => r.url().endsWith(`/${action}`) && r.request().method() === 'POST');
    await row.locator(`[data-action="${action}"]`).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: core[lang].common.confirm }).click();
    expect((await answered).status()).toBe(200);
  }

  for (const lang of LANGS) {
    it(`the clinician files a request and follows it; the registrar registers the case from it and opens its home [${lang}]`, async () => {
      const patient = `E2E 临床申请 ${lang}`;
      const outpatient = `MZ-CA-${lang}`;
      const history = `胃镜示胃窦溃疡 ${lang}`;

      // The clinician, from their menu.
      const clinician = await app.page(lang, 'clinician');
      await openFromMenu(clinician, 'ClinicalApplications', lang === 'en-US' ? 'Clinical' : '临床');
      await poll(() => new URL(clinician.url()).pathname).toBe('/manage/clinical/applications');
      const list = clinician.locator('[data-testid="list-page"][data-alias="ClinicalApplications"]');
      await list.getByTestId('data-table').waitFor();
      await list.locator(`[data-action="${applyAction.key}"]`).click();
      const form = clinician.getByTestId('form-dialog');
      await form.waitFor();
      // Nothing is sent without the patient and the specimen.
      let posted = 0;
      clinician.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/pathology/applications/apply')) posted++; });
      await form.getByTestId('form-confirm').click();
      await poll(() => form.getByText(core[lang].dialog.required).count()).toBe(2);
      expect(posted).toBe(0);
      await form.getByTestId('form-field-patient_name').fill(patient);
      await form.getByTestId('form-field-gender').click();
      await clinician.getByRole('option', { name: lang === 'en-US' ? 'Female' : '女', exact: true }).click();
      await form.getByTestId('form-field-age').fill('47');
      await form.getByTestId('form-field-outpatient_number').fill(outpatient);
      await form.getByTestId('form-field-inspection_department').fill('消化内科');
      await form.getByTestId('form-field-specimen_name').fill('胃窦、胃体');
      await form.getByTestId('form-field-clinical_diagnosis').fill(history);
      await shot(clinician, `clinical-apply-form-${lang}`);
      const filed = clinician.waitForResponse((r) => r.url().endsWith('/api/pathology/applications/apply') && r.request().method() === 'POST');
      await form.getByTestId('form-confirm').click();
      expect((await filed).status()).toBe(200);
      await form.waitFor({ state: 'detached' });
      const mine = rowOf(clinician, patient);
      await poll(() => mine.locator('td[data-column="status"]').textContent()).toBe(stateWord(0, lang));
      expect(await mine.locator('td[data-column="clinical_diagnosis"]').textContent()).toBe(history);
      await shot(clinician, `clinical-applications-applied-${lang}`);
      await confirmRow(clinician, mine, 'dispatch', lang);
      await poll(() => mine.locator('td[data-column="status"]').textContent()).toBe(stateWord(1, lang));
      const stored = await app.db.selectFrom('case_applications').selectAll().where('patient_name', '=', patient).executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ status: 1, gender: 'female', age: 47, outpatient_number: outpatient, specimen_name: '胃窦、胃体', clinical_diagnosis: history });

      // The registrar receives it and registers the case from it.
      const registrar = await app.page(lang, 'registrar');
      await registrar.goto(`${app.url}/manage/case/slide-apply`);
      const theirs = rowOf(registrar, patient);
      await theirs.waitFor();
      await confirmRow(registrar, theirs, 'receive', lang);
      await poll(() => theirs.locator('td[data-column="status"]').textContent()).toBe(stateWord(2, lang));
      const register = slideApply.list.rowActions.find((a) => a.key === 'register')!;
      expect(await theirs.locator('[data-action="register"]').textContent()).toBe(register.label[lang]);
      await confirmRow(registrar, theirs, 'register', lang);
      await poll(() => theirs.locator('td[data-column="status"]').textContent()).toBe(stateWord(3, lang));
      const kase = await app.db.selectFrom('cases').selectAll().where('apply_id', '=', stored.id).executeTakeFirstOrThrow();
      await poll(() => theirs.locator('td[data-column="pathology_number"]').textContent()).toBe(kase.pathology_number);
      await shot(registrar, `slide-apply-registered-${lang}`);

      // The clinician sees it registered, with the case's number.
      await clinician.reload();
      await poll(() => rowOf(clinician, patient).locator('td[data-column="status"]').textContent()).toBe(stateWord(3, lang));
      expect(await rowOf(clinician, patient).locator('td[data-column="pathology_number"]').textContent()).toBe(kase.pathology_number);
      await shot(clinician, `clinical-applications-registered-${lang}`);

      // The desk adds what only it types (ID number, phone, the inspecting hospital), then opens the case from the application.
      await send(registrar, 'POST', '/api/pathology/register', {
        patient_name: `${patient} 复诊`, id_number: '11010119790101002X', phone: '13800000000', outpatient_number: `${outpatient}-2`, inspection_hospital: '市第一医院',
        clinical_diagnosis: '甲状腺结节', specimens: [{ name: '甲状腺' }],
      });
      await theirs.locator('td[data-column="pathology_number"] a').click();
      await poll(() => new URL(registrar.url()).pathname).toBe(`/case/${kase.id}`);
      const detail = registrar.getByTestId('case-detail');
      await detail.waitFor();
      // Inside the shell: the header names the page, and its menu button opens the side menu (at 1440 px a click
      // outside the menu folds it, as on every page of the shell).
      await poll(() => registrar.getByTestId('header').textContent()).toContain(core[lang].header.caseHome);
      await menuShown(registrar);
      const field = (name: string) => detail.getByTestId(`case-field-${name}`);
      await poll(() => field('outpatient_number').textContent()).toBe(`${fieldWord('outpatient_number', lang)}: ${outpatient}`);
      expect(await field('clinical_diagnosis').textContent()).toBe(`${fieldWord('clinical_diagnosis', lang)}: ${history}`);
      expect(await field('gender').textContent()).toBe(`${fieldWord('gender', lang)}: ${lang === 'en-US' ? 'Female' : '女'}`);
      expect(await field('inspection_department').textContent()).toContain('消化内科');
      const hospital = await app.db.selectFrom('hospitals').select(['name', 'en_name']).where('id', '=', kase.hospital_id).executeTakeFirstOrThrow();
      expect(await detail.getByTestId('case-hospital').textContent()).toContain(lang === 'en-US' ? hospital.en_name || hospital.name : hospital.name);
      await poll(() => detail.getByTestId('specimens').textContent()).toContain('胃体');
      const timeline = detail.getByTestId('timeline');
      const words = caseWords[lang].timelineAction;
      for (const step of ['apply', 'dispatch_application', 'receive_application', 'register'] as const) expect(await timeline.textContent()).toContain(words[step]);
      expect(await timeline.textContent()).not.toContain('dispatch_application');
      expect(await detail.getByTestId('reports').textContent()).toBe(caseWords[lang].detail.none);
      await shot(registrar, `case-home-from-application-${lang}`);
      await timeline.scrollIntoViewIfNeeded();
      await shot(registrar, `case-home-timeline-${lang}`);

      // The desk's own case: ID number, phone and the inspecting hospital are shown as typed.
      const typed = await app.db.selectFrom('cases').select(['id', 'hospital_id']).where('patient_name', '=', `${patient} 复诊`).executeTakeFirstOrThrow();
      // A digital slide of the case (its file is not read here): listed with its state, opening the viewer.
      const now = new Date().toISOString();
      const { id: slideId } = await app.db.insertInto('slides').values({
        hospital_id: typed.hospital_id, case_id: typed.id, name: `home-${lang}.svs`, file_path: `e2e/home-${lang}.svs`, file_size: 1, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow();
      await registrar.goto(`${app.url}/case/${typed.id}`);
      const digital = detail.getByTestId('digital-slides');
      await poll(() => digital.textContent()).toContain(`home-${lang}.svs`);
      expect(await digital.textContent()).toContain(caseWords[lang].detail.notBound);
      expect(await detail.getByTestId(`open-slide-${slideId}`).getAttribute('href')).toBe(`/kfb/${typed.id}/${slideId}`);
      await digital.scrollIntoViewIfNeeded();
      await shot(registrar, `case-home-digital-slides-${lang}`);
      await detail.getByTestId('case-registered').scrollIntoViewIfNeeded();
      await poll(() => field('id_number').textContent()).toBe(`${fieldWord('id_number', lang)}: 11010119790101002X`);
      expect(await field('phone').textContent()).toBe(`${fieldWord('phone', lang)}: 13800000000`);
      expect(await field('inspection_hospital').textContent()).toBe(`${fieldWord('inspection_hospital', lang)}: 市第一医院`);
      expect(await field('bed_number').getAttribute('data-empty')).toBe('true');
      await menuShown(registrar);
      await shot(registrar, `case-home-registered-fields-${lang}`);
      await clinician.close();
      await registrar.close();
      expect(app.pageErrors).toEqual([]);
    }, 180_000);
  }
});
