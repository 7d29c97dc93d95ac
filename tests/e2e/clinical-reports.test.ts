import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { caseAtFirstDiagnosis, type Send } from '../api/diagnosis-setup.js';
import { animationsDone, e2eApp, evidence, type Lang } from './harness.js';

const LANGS: Lang[] = ['zh-CN', 'en-US'];

/**
 * Issue 31 item 1 in Chromium: the clinician applies for a case, the lab takes it to a signed and sent report (API
 * calls as each role), and the clinician, signed in as themselves, finds it in the side menu's clinical report list,
 * reads the report, opens its PDF and the case's slide in the read-only viewer. Both languages, with screenshots.
 */
describe('the clinician’s reports in Chromium', () => {
  const app = e2eApp({ ownDataDir: true });
  const pages: Record<string, Page> = {};
  let number = '';
  let reportId = 0;
  let slideId = 0;

  const as = async (who: string, lang: Lang = 'zh-CN') => (pages[who] ??= await app.page(lang, who));
  /** An API call as a signed-in user (their page's session), for the set-up. */
  const send: Send = async (who, method, url, payload) => {
    const res = await (await as(who)).evaluate(async ({ method, url, payload }) => {
      const r = await fetch(url, { method, headers: { authorization: `Bearer ${sessionStorage.getItem('access_token')}`, 'content-type': 'application/json' }, body: payload ? JSON.stringify(payload) : undefined });
      return { status: r.status, body: await r.text() };
    }, { method, url, payload });
    if (res.status !== 200) throw new Error(`${method} ${url} as ${who}: ${res.status} ${res.body}`);
    return JSON.parse(res.body).data;
  };
  type Report = { id: number; version: number };
  const act = (who: string, r: Report, action: string, extra: object = {}) =>
    send(who, 'POST', `/api/diagnosis/reports/${r.id}/actions/${action}`, { version: r.version, ...extra }) as Promise<Report>;

  beforeAll(async () => {
    const applied = await send('clinician', 'POST', '/api/pathology/applications/apply', {
      apply_number: 'CR-E2E-1', patient_name: '钱蓉', gender: 'female', age: 45, age_unit: 'year', specimen_name: '乳腺肿物', inspection_department: '乳腺外科', clinical_diagnosis: '乳腺肿物待查',
    });
    const primary = await app.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow();
    const caseId = await caseAtFirstDiagnosis(send, primary.id, { application_id: applied.id });
    const kase = await app.db.selectFrom('cases').select(['pathology_number', 'hospital_id']).where('id', '=', caseId).executeTakeFirstOrThrow();
    number = kase.pathology_number;
    // The case's scanned slide, ready to view.
    const file = path.join(app.server.dataDir!, 'slides', 'clinical-e2e.tiff');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await generateDemoSlide({ out: file, width: 2048, height: 1536, mpp: 0.5, seed: 31, slideId: 'clinical-e2e', label: true });
    slideId = await registerSlide(app.db, app.server.dataDir!, file, { name: 'clinical-e2e', hospital_id: kase.hospital_id, case_id: caseId, uploaded_by: null });
    await ingestNow(app.db, app.server.dataDir!, slideId);

    let r = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, {
      report_type: 1, gross_description: '灰白结节一枚，直径 1.5 cm。', microscopic: '乳腺导管及间质增生，边界清楚。', diagnosis: '（左乳）纤维腺瘤。',
    }) as Report;
    r = await act('primary', r, 'submit');
    r = await act('auditor', r, 'approve');
    r = await act('signer', r, 'sign', { issue: 'now' });
    r = await act('signer', r, 'send');
    reportId = r.id;
  }, 240_000);

  for (const lang of LANGS) {
    it(`finds the sent report of the case they requested, reads it, opens its PDF and its slide read-only [${lang}]`, async () => {
      const page = await app.page(lang, 'clinician', { options: { viewport: { width: 1440, height: 900 } } });
      // The Clinical group holds the clinician's requests too: opened first when it is closed.
      const link = page.locator('[data-testid="side-menu"] a[data-alias="ClinicalReports"]');
      const group = page.locator('[data-testid="side-menu"] button[aria-expanded="false"]', { hasText: lang === 'en-US' ? 'Clinical' : '临床' });
      await link.or(group).first().waitFor();
      if (!(await link.isVisible())) {
        await group.click();
        await animationsDone(page);
      }
      await link.click();
      const list = page.locator('[data-testid="list-page"][data-alias="ClinicalReports"]');
      const row = list.locator('tbody tr[data-row-key]', { hasText: number });
      await row.waitFor();
      expect(await list.locator('tbody tr[data-row-key]').count()).toBe(1);
      await expect.poll(() => row.textContent()).toContain('（左乳）纤维腺瘤。');
      await evidence(page, `clinical-reports-list-${lang}.png`);

      // The report, read-only.
      await row.locator('[data-action="detail"]').click();
      const detail = page.getByTestId('detail-page');
      await expect.poll(() => detail.textContent(), { timeout: 20_000 }).toContain('乳腺导管及间质增生，边界清楚。');
      expect(await detail.textContent()).toContain(number);
      expect(await detail.locator('input, textarea').count()).toBe(0);
      await evidence(page, `clinical-report-detail-${lang}.png`);

      // Its PDF, in the app's PDF page.
      await detail.getByRole('link', { name: 'PDF' }).click();
      await page.locator('[data-rendered]').first().waitFor();
      expect(new URL(page.url()).searchParams.get('file')).toBe(`/api/diagnosis/reports/${reportId}/pdf`);
      await expect.poll(() => page.getByTestId('pdf-count').textContent()).toMatch(/1/);
      await evidence(page, `clinical-report-pdf-${lang}.png`);

      // The case's slide in the clinical (read-only) viewer: no drawing tools.
      await page.goBack();
      await detail.waitFor();
      await detail.getByRole('link', { name: '1', exact: true }).click();
      const viewer = page.getByTestId('viewer');
      await viewer.waitFor();
      expect(await viewer.getAttribute('data-mode')).toBe('outer');
      await page.getByTestId('viewer-pane-0').locator('[data-testid="current-magnification"]').waitFor();
      expect(Number(await page.getByTestId('viewer-pane-0').getAttribute('data-slide'))).toBe(slideId);
      expect(await page.getByTestId('tool-rectangle').count()).toBe(0);
      await evidence(page, `clinical-report-viewer-${lang}.png`);
      await page.close();
    });
  }
});
