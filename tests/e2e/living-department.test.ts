import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedDemoDepartment } from '../../server/db/seed/demo-department.js';
import { seedDemoSlides } from '../../server/db/seed/demo-slides.js';
import { e2eApp, evidence, pickDateTime, viewsSettled, type Lang } from './harness.js';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const LANGS: Lang[] = ['zh-CN', 'en-US'];

/**
 * Issue 31 items 11 and 10 in Chromium, in both languages, on the demo as `npm start` seeds it (the base demo, its
 * slides and the living department, server/db/seed/demo-department.ts): the dashboard and the statistics show the
 * department's work; a clinician's dashboard has no upload queue; the case list keeps the patient's name in sight at
 * 1440 px; a meeting measures in µm; a text annotation's words are typed in place; date and time inputs read
 * YYYY-MM-DD and HH:mm:ss.
 */
describe('the living demo department and the smaller things of issue 31', () => {
  let meetingId = 0;
  let slideId = 0;
  const app = e2eApp({
    ownDataDir: true,
    timeout: 180_000,
    async setup(server) {
      const dataDir = server.dataDir!;
      await seedDemoSlides(server.db, dataDir);
      await seedDemoDepartment(server.db, { dataDir });
      const meeting = await server.db.selectFrom('meetings').select(['id', 'slide_id']).where('status', '=', 'open').executeTakeFirstOrThrow();
      meetingId = meeting.id;
      slideId = meeting.slide_id!;
      // A ruler on the meeting's slide, 480 µm long at the slide's µm per pixel.
      const mpp = (await server.db.selectFrom('slides').select('mpp').where('id', '=', slideId).executeTakeFirstOrThrow()).mpp!;
      const primary = await server.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow();
      const hospital = await server.db.selectFrom('slides').select('hospital_id').where('id', '=', slideId).executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      await server.db.insertInto('slide_annotations').values({
        slide_id: slideId, hospital_id: hospital.hospital_id, user_id: primary.id, username: 'primary', type: 'ruler', points: JSON.stringify([[400, 600], [400 + 480 / mpp, 600]]),
        name: '', description: '', color: '#d13438', classification: '', length_um: 480, area_um2: null, perimeter_um: null, version: 1, created_at: now, updated_at: now,
      }).execute();
    },
  });
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`);

  for (const lang of LANGS) {
    it(`the dashboard and the statistics show the department's work [${lang}]`, async () => {
      const page = await app.page(lang, 'primary');
      for (const tile of ['today', 'mine', 'timeouts']) await page.getByTestId(`dashboard-${tile}`).waitFor();
      expect(Number(await page.getByTestId('tile-to_diagnose').locator('span').first().textContent())).toBeGreaterThan(0);
      expect(Number(await page.getByTestId('tile-timeout_over').locator('span').first().textContent())).toBeGreaterThan(0);
      await shot(page, `department-dashboard-${lang}`);
      await page.close();

      const admin = await app.page(lang, 'admin');
      await admin.getByTestId('dashboard-scanners').waitFor();
      expect(await admin.getByTestId('dashboard-scanners').locator('[data-testid^="tile-scanner-"]').count()).toBeGreaterThanOrEqual(4);
      await shot(admin, `department-dashboard-admin-${lang}`);
      for (const [url, kind] of [['/manage/statistics/slide', 'workload'], ['/manage/statistics/scanner', 'scanner']] as const) {
        await admin.goto(`${app.url}${url}`);
        await admin.getByTestId('statistics-page').waitFor();
        if (kind === 'workload') await admin.getByTestId('stat-kind-workload').click();
        await admin.getByTestId('stat-period').selectOption('lastThreeMonths');
        await admin.getByTestId('stat-query').click();
        await poll(async () => {
          const values = await admin.getByTestId('stat-total').locator('[data-value]').evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-value'))));
          return values.reduce((a, b) => a + b, 0);
        }).toBeGreaterThan(0);
        await shot(admin, `department-statistics-${kind}-${lang}`);
      }
      await admin.close();
    }, 120_000);

    it(`a clinician's dashboard has no upload queue; a technician's has [${lang}]`, async () => {
      const clinician = await app.page(lang, 'clinician');
      await clinician.getByTestId('dashboard').waitFor();
      await poll(() => clinician.getByTestId('dashboard').locator('[data-testid^="dashboard-"]').count()).toBe(0);
      expect(await clinician.getByTestId('dashboard-uploads').count()).toBe(0);
      await shot(clinician, `department-dashboard-clinician-${lang}`);
      await clinician.close();
      const technician = await app.page(lang, 'technician');
      await technician.getByTestId('dashboard-uploads').waitFor();
      expect(Number(await technician.getByTestId('tile-not_bound').locator('span').first().textContent())).toBeGreaterThan(0);
      await technician.close();
    });

    it(`the case list keeps the patient's name on screen at 1440 px [${lang}]`, async () => {
      const page = await app.page(lang, 'registrar');
      await page.goto(`${app.url}/manage/case/list`);
      const table = page.getByTestId('data-table');
      const name = table.locator('thead th[data-column="patient_name"]');
      await name.waitFor();
      const box = (await name.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(1440);
      // Scrolled sideways to the last column, the name stays in sight (pinned beside the number).
      await table.evaluate((el) => { el.scrollLeft = el.scrollWidth; });
      await poll(() => table.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
      const after = (await name.boundingBox())!;
      expect(after.x).toBeGreaterThanOrEqual(0);
      expect(after.x + after.width).toBeLessThanOrEqual(box.x + box.width);
      await shot(page, `department-case-list-${lang}`);
      await page.close();
    });

    it(`the meeting room measures a ruler in µm, under the viewer's scale bar [${lang}]`, async () => {
      const page = await app.page(lang, 'primary');
      await page.goto(`${app.url}/meeting/view?id=${meetingId}`);
      const pane = page.getByTestId('meeting-pane');
      await pane.waitFor();
      await pane.getByTestId('meeting-scale-bar').waitFor();
      expect(await pane.getByTestId('meeting-scale-bar').textContent()).toMatch(/\d+ (µm|mm)$/);
      const label = pane.locator('[data-testid="annotation-overlay"] text').first();
      await label.waitFor();
      await poll(() => label.textContent()).toMatch(/^480(\.0)? µm$/);
      await shot(page, `department-meeting-ruler-${lang}`);
      await page.close();
    });

    it(`a text annotation's words are typed where it is placed [${lang}]`, async () => {
      const page = await app.page(lang, 'primary');
      await page.goto(`${app.url}/slide/view?id=${slideId}`);
      const pane = page.getByTestId('viewer-pane-0');
      await pane.locator('[data-testid="current-magnification"]').waitFor();
      await viewsSettled(page, 'viewer-pane-0');
      await page.getByTestId('tool-text').click();
      await poll(() => page.getByTestId('tool-text').getAttribute('aria-pressed')).toBe('true');
      const box = (await pane.boundingBox())!;
      await page.mouse.click(box.x + box.width * 0.4, box.y + box.height * 0.5);
      const input = pane.getByTestId('annotation-text-input');
      await input.waitFor();
      await poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
      const words = lang === 'zh-CN' ? '可疑浸润灶' : 'suspicious focus';
      await page.keyboard.type(words);
      await shot(page, `department-text-typing-${lang}`);
      await page.keyboard.press('Enter');
      await input.waitFor({ state: 'detached' });
      await poll(async () => (await app.db.selectFrom('slide_annotations').select('name').where('slide_id', '=', slideId).where('type', '=', 'text').execute()).map((r) => r.name)).toContain(words);
      await poll(() => pane.locator('[data-testid="annotation-overlay"] text').allTextContents()).toContain(words);
      await shot(page, `department-text-placed-${lang}`);
      await page.close();
    });

    it(`date and time inputs read YYYY-MM-DD and HH:mm:ss: specimen rows and list filters [${lang}]`, async () => {
      const page = await app.page(lang, 'registrar');
      await page.goto(`${app.url}/manage/case/register`);
      const leave = page.getByTestId('specimen-0-leave_body_at');
      await leave.waitFor();
      expect(await leave.locator('input').nth(0).getAttribute('placeholder')).toBe('YYYY-MM-DD');
      expect(await leave.locator('input[type="date"], input[type="datetime-local"]').count()).toBe(0);
      await pickDateTime(leave, '2026-11-20', '10:05:09');
      await poll(() => leave.locator('input').nth(0).inputValue()).toBe('2026-11-20');
      await poll(() => leave.locator('input').nth(1).inputValue()).toBe('10:05:09');
      await shot(page, `department-specimen-dates-${lang}`);

      await page.goto(`${app.url}/manage/case/list`);
      await page.getByTestId('search-more').click();
      const drawer = page.getByTestId('search-drawer');
      await drawer.waitFor();
      const start = drawer.getByTestId('date-range-start').first();
      await start.waitFor();
      expect(await drawer.locator('input[type="date"], input[type="datetime-local"]').count()).toBe(0);
      await pickDateTime(start, '2026-09-01');
      await pickDateTime(drawer.getByTestId('date-range-end').first(), '2026-09-30');
      await poll(() => start.locator('input').nth(0).inputValue()).toBe('2026-09-01');
      await shot(page, `department-list-filter-dates-${lang}`);
      await page.close();
      expect(app.pageErrors).toEqual([]);
    });
  }
});
