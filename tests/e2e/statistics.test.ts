import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newScannerKey } from '../../server/modules/scanners/keys.js';
import { shiftDayBounds } from '../../src/core/statPeriods.js';
import { e2eApp, evidence, pickDateTime, SHOTS, signIn } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });
/** The browser stands in Beijing: shift days are local, so the page sends +480 and 06:00 local is 22:00 UTC. */
const TZ = 'Asia/Shanghai';
const OFFSET = 480;

/** Issue 16's menu pages, each of which must render as a real page (not the pending panel). */
const ISSUE_16 = [
  ['ScannerList', '/manage/scanner/list'], ['ScannerDetail', '/manage/scanner/detail?id=1'], ['ScannerHistory', '/manage/scanner/history'],
  ['ScannerHistoryDetail', '/manage/scanner/history/detail?id=1'], ['ScannerStatistics', '/manage/statistics/scanner'],
  ['SlideQC', '/manage/slide/qc'], ['SlideQCNew', '/manage/slide/qc-new'], ['SlideJudge', '/manage/slide/judge'], ['ScanAccessStatistics', '/manage/statistics/scan-access'],
  ['SlideStatistics', '/manage/statistics/slide'], ['LabelStatistics', '/manage/label/statistics'], ['SlideViewStatistics', '/manage/statistics/slide-view'],
  // Added with the price model, the qc13 form and the income page.
  ['IncomeStatistics', '/manage/statistics/income'], ['SettingPrice', '/manage/setting/price'], ['SettingPassRate', '/manage/setting/pass-rate'],
  // The QC dictionary page (SettingQcDict).
  ['SettingQcDict', '/manage/setting/qc-dict'],
] as const;

/**
 * Statistics, dashboard and the issue-16 pages in Chromium: the workload page's numbers equal a SQL count over the
 * same shift days, the exported .xlsx read back has the same numbers, both languages; screenshots of the dashboard,
 * the scanner list, QC and statistics pages under test-results/e2e.
 */
describe('statistics and dashboard in Chromium', () => {
  let hospital = 0;
  let labelledSlide = 0;
  let breast = 0;
  const scannerKey = newScannerKey();

  const app = e2eApp({
    timeout: 120_000,
    async setup(server) {
      const admin = await server.db.selectFrom('users').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow();
      hospital = (await server.db.selectFrom('user_hospitals').select('hospital_id').where('user_id', '=', admin.id).orderBy('hospital_id').executeTakeFirstOrThrow()).hospital_id;
      const now = new Date().toISOString();
      // March 2025 in Beijing: two cases either side of 06:00 on the 10th, one a day for a week, some signed.
      const registered = ['2025-03-09T21:59:59Z', '2025-03-09T22:00:00Z', ...[1, 2, 3, 4, 5, 6, 7].map((d) => `2025-03-${String(10 + d).padStart(2, '0')}T03:00:00Z`), '2025-04-01T03:00:00Z'];
      for (const [i, at] of registered.entries()) {
        await server.db.insertInto('cases').values({
          hospital_id: hospital, pathology_number: `E2E-ST-${i}`, case_type: i % 3 === 0 ? 'frozen' : 'routine', main_phase: 'diagnosis', expedite_status: 0, extra: '{}',
          registration_at: new Date(at).toISOString(), sign_at: i % 2 ? new Date(Date.parse(at) + 5 * 3_600_000).toISOString() : null, created_at: now, updated_at: now,
        }).execute();
      }
      // Something for the scanner tiles and lists.
      await server.db.insertInto('scanners').values([
        { hospital_id: hospital, name: 'KF-PRO-400 A', model: 'KF-PRO-400', status: 'idle', key_hash: scannerKey.hash, key_prefix: scannerKey.prefix, created_at: now, updated_at: now },
        { hospital_id: hospital, name: 'KF-PRO-400 B', model: 'KF-PRO-400', status: 'error', created_at: now, updated_at: now },
      ] as never).execute();
      // A label the automatic labelling finds in a case's specimen, and a slide of that case.
      breast = (await server.db.insertInto('labels').values({ name: '乳腺', en_name: 'Breast', parent_id: null, color: null, description: null, rank: 0, created_at: now, updated_at: now })
        .returning('id').executeTakeFirstOrThrow()).id;
      await server.db.insertInto('labels').values({ name: '淋巴结', en_name: 'Lymph node', parent_id: null, color: null, description: null, rank: 1, created_at: now, updated_at: now }).execute();
      const labelCase = (await server.db.insertInto('cases').values({
        hospital_id: hospital, pathology_number: 'E2E-LB-1', case_type: 'routine', main_phase: 'diagnosis', expedite_status: 0, extra: '{}', specimen_name: '乳腺穿刺组织', created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow()).id;
      labelledSlide = (await server.db.insertInto('slides').values({
        hospital_id: hospital, case_id: labelCase, name: 'E2E-LB-1.svs', file_path: 'E2E-LB-1.svs', file_size: 1, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
      } as never).returning('id').executeTakeFirstOrThrow()).id;
      // Income in March 2025 (Beijing): charges either side of 06:00 local on the 10th, a cytology case, an order.
      const incomeCase = async (n: string, type: string) => (await server.db.insertInto('cases').values({
        hospital_id: hospital, pathology_number: n, case_type: type, main_phase: 'diagnosis', expedite_status: 0, extra: '{}', created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow()).id;
      const routine = await incomeCase('E2E-IN-1', 'routine');
      const cell = await incomeCase('E2E-IN-2', 'cell');
      const charges: [number, 'case' | 'special' | 'additional', number, string][] = [
        [routine, 'case', 12050, '2025-03-09T21:59:59Z'], [routine, 'special', 25500, '2025-03-09T22:00:00Z'],
        [cell, 'case', 6000, '2025-03-12T03:00:00Z'], [cell, 'additional', 1999, '2025-03-31T21:00:00Z'], [cell, 'additional', 2000, '2025-04-01T03:00:00Z'],
      ];
      for (const [i, [caseId, k, cents, at]] of charges.entries()) {
        await server.db.insertInto('case_charges').values({
          hospital_id: hospital, case_id: caseId, order_id: null, charge_key: `e2e:${i}`, item: `${k}:e2e`, kind: k, quantity: 1,
          unit_price_cents: cents, amount_cents: cents, charged_by: admin.id, charged_at: new Date(at).toISOString(),
        }).execute();
      }
      fs.mkdirSync(SHOTS, { recursive: true });
    },
  });

  async function open(lang: Lang, user = 'admin', password = 'dsms-admin'): Promise<Page> {
    const page = await app.browser.newPage({ viewport: { width: 1440, height: 900 }, locale: lang, timezoneId: TZ, acceptDownloads: true });
    await page.goto(`${app.url}/login`);
    await page.evaluate((l) => localStorage.setItem('lang', l), lang);
    await signIn(page, app.url, user, password);
    await page.getByTestId('dashboard').waitFor();
    return page;
  }
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { fullPage: true });

  const sqlCount = async (column: 'registration_at' | 'sign_at', from: string, to: string) => {
    const { start, end } = shiftDayBounds(from, to, OFFSET);
    const row = await app.db.selectFrom('cases').select(sql<number>`count(*)`.as('n'))
      .where('hospital_id', '=', hospital).where(column, '>=', start).where(column, '<', end).executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it.each(['zh-CN', 'en-US'] as const)('workload on the page and in its .xlsx equals a SQL count over the same shift days [%s]', async (lang) => {
    const page = await open(lang);
    await page.goto(`${app.url}/manage/statistics/slide`);
    await page.getByTestId('statistics-page').waitFor();
    await page.getByTestId('stat-kind-workload').click();
    await page.getByTestId('stat-period').selectOption('custom');
    await pickDateTime(page.getByTestId('stat-from'), '2025-03-01');
    await pickDateTime(page.getByTestId('stat-to'), '2025-03-31');
    await page.getByTestId('stat-query').click();
    const total = page.getByTestId('stat-total');
    const cell = (row: ReturnType<Page['locator']>, series: string) => row.locator(`[data-series="${series}"]`).textContent();
    await poll(() => page.locator('[data-bucket="2025-03-31"]').count()).toBe(1);
    const registered = await sqlCount('registration_at', '2025-03-01', '2025-03-31');
    const signed = await sqlCount('sign_at', '2025-03-01', '2025-03-31');
    expect(registered).toBe(9);
    await poll(() => cell(total, 'registered')).toBe(String(registered));
    expect(await cell(total, 'signed')).toBe(String(signed));
    // 05:59:59 local on the 10th belongs to the 9th; 06:00 to the 10th.
    expect(await cell(page.locator('[data-bucket="2025-03-09"]'), 'registered')).toBe('1');
    expect(await cell(page.locator('[data-bucket="2025-03-10"]'), 'registered')).toBe('1');
    await page.getByTestId('stat-chart').locator('canvas').first().waitFor();
    await shot(page, `statistics-workload-${lang}`);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('stat-export').click()]);
    const file = await download.path();
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file!);
    const sheet = book.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(lang === 'zh-CN' ? ['日期', '登记', '取材', '签发'] : ['Date', 'Registered', 'Sampled', 'Signed out']);
    const last = (sheet.getRow(sheet.rowCount).values as unknown[]).slice(1);
    expect(last).toEqual([lang === 'zh-CN' ? '合计' : 'Total', registered, 0, signed]);
    const tenth = (sheet.getRow(11).values as unknown[]).slice(1);
    // The 06:00 case was signed five hours later, the same shift day.
    expect(tenth).toEqual(['2025-03-10', 1, 0, 1]);
    await page.close();
  });

  const sqlIncome = async (from: string, to: string) => {
    const { start, end } = shiftDayBounds(from, to, OFFSET);
    const row = await app.db.selectFrom('case_charges').select(sql<number>`coalesce(sum(amount_cents), 0)`.as('cents'))
      .where('hospital_id', '=', hospital).where('charged_at', '>=', start).where('charged_at', '<', end).executeTakeFirstOrThrow();
    return Number(row.cents) / 100;
  };

  it.each(['zh-CN', 'en-US'] as const)('income on the page and in its .xlsx equals a SQL sum over the same shift days; the price list page [%s]', async (lang) => {
    const page = await open(lang);
    await page.goto(`${app.url}/manage/statistics/income`);
    await page.getByTestId('statistics-page').waitFor();
    await page.getByTestId('stat-period').selectOption('custom');
    await pickDateTime(page.getByTestId('stat-from'), '2025-03-01');
    await pickDateTime(page.getByTestId('stat-to'), '2025-03-31');
    await page.getByTestId('stat-query').click();
    await poll(() => page.locator('[data-bucket="2025-03-31"]').count()).toBe(1);
    const total = page.getByTestId('stat-total');
    const cell = (row: ReturnType<Page['locator']>, series: string) => row.locator(`[data-series="${series}"]`).textContent();
    const sum = await sqlIncome('2025-03-01', '2025-03-31');
    expect(sum).toBe(455.49);
    await poll(() => cell(total, 'income_total')).toBe(sum.toFixed(2));
    // 05:59:59 local on the 10th is the 9th's income; 06:00 the 10th's.
    expect(await cell(page.locator('[data-bucket="2025-03-09"]'), 'income_case')).toBe('120.50');
    expect(await cell(page.locator('[data-bucket="2025-03-10"]'), 'income_special')).toBe('255.00');
    await page.getByTestId('stat-chart').locator('canvas').first().waitFor();
    await shot(page, `statistics-income-${lang}`);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('stat-export').click()]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path())!);
    const sheet = book.worksheets[0];
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(lang === 'zh-CN'
      ? ['日期', '病例收入（元）', '特检收入（元）', '技术医嘱收入（元）', '总收入（元）']
      : ['Date', 'Case fees (yuan)', 'Special examinations (yuan)', 'Additional requests (yuan)', 'Total income (yuan)']);
    expect((sheet.getRow(sheet.rowCount).values as unknown[]).slice(1)).toEqual([lang === 'zh-CN' ? '合计' : 'Total', 180.5, 255, 19.99, sum]);

    // The price list the charges come from: a price made in the page's form.
    await page.goto(`${app.url}/manage/setting/price`);
    await page.getByTestId('list-page').waitFor();
    if (lang === 'en-US') {
      await page.locator('[data-action="create"]').click();
      const drawer = page.getByTestId('form-drawer');
      await drawer.locator('#root_item').click();
      await page.getByRole('option', { name: 'Thin cut' }).click();
      await drawer.locator('#root_price').fill('18.5');
      await drawer.getByTestId('form-save').click();
      await drawer.waitFor({ state: 'detached' });
      await poll(async () => (await app.db.selectFrom('price_items').select(['price']).where('hospital_id', '=', hospital).where('item', '=', 'additional:thin_cut').execute())).toEqual([{ price: 18.5 }]);
    }
    await page.getByRole('row').filter({ hasText: lang === 'zh-CN' ? '常规病理' : 'Routine case' }).first().waitFor();
    await shot(page, `settings-price-${lang}`);
    await page.close();
  });

  it.each(['zh-CN', 'en-US'] as const)('the dashboard shows its tiles and leads to their lists [%s]', async (lang) => {
    const page = await open(lang);
    await page.getByTestId('dashboard-scanners').waitFor();
    // Scanners without heartbeats go offline within a minute, so the tile is read as a whole: both are counted.
    const fleet = async () => (await page.locator('[data-testid^="tile-scanner-"] > span:first-child').allTextContents()).reduce((a, b) => a + Number(b), 0);
    await poll(fleet).toBe(2);
    await page.getByTestId('dashboard-timeouts').waitFor();
    await shot(page, `dashboard-${lang}`);
    await page.getByTestId('dashboard-scanners').click();
    await page.waitForURL(/\/manage\/scanner\/list/);
    await page.getByRole('row').filter({ hasText: 'KF-PRO-400 B' }).first().waitFor();
    await shot(page, `statistics-scanner-list-${lang}`);
    await page.close();
  });

  it.each(['zh-CN', 'en-US'] as const)('scan quality and QC pages in both languages [%s]', async (lang) => {
    const page = await open(lang);
    await page.goto(`${app.url}/manage/statistics/scan-access`);
    await page.getByTestId('stat-table').waitFor();
    await page.getByTestId('stat-chart').locator('canvas').first().waitFor();
    expect(await page.getByTestId('statistics-page').textContent()).toContain(lang === 'zh-CN' ? '目标 95%' : 'Target 95%');
    await shot(page, `statistics-scan-access-${lang}`);
    await page.goto(`${app.url}/manage/slide/qc`);
    await page.locator('[data-testid="list-page"]').waitFor();
    await shot(page, `statistics-slide-qc-${lang}`);
    await page.close();
  });

  it('walks the issue-16 menu pages: each is a real page', async () => {
    const page = await open('en-US');
    for (const [alias, uri] of ISSUE_16) {
      await page.goto(`${app.url}${uri}`);
      await poll(() => page.locator('[data-testid="list-page"], [data-testid="detail-page"], [data-testid="statistics-page"], [data-testid="form-page"]').count()).toBeGreaterThan(0);
      expect(await page.getByTestId('page-pending').count(), alias).toBe(0);
    }
    // The automatic labelling (spec §7 auto_label) as the slide list's action calls it, then its use by percentage.
    const labelled = await page.evaluate(async (id) => (await fetch(`/api/config/labels/auto_label/${id}`, {
      headers: { Authorization: `Bearer ${sessionStorage.getItem('access_token')}` },
    })).json(), labelledSlide);
    expect(labelled.data.added).toEqual([breast]);
    await page.goto(`${app.url}/manage/label/statistics`);
    const row = page.locator(`[data-label="${breast}"]`);
    await poll(() => row.textContent()).toBe('Breast1100%');
    await poll(() => page.getByTestId('label-records').textContent()).toContain('E2E-LB-1.svs');
    await shot(page, 'statistics-labels-en-US');
    // ScannerDetail is live: a heartbeat's new state shows without a reload.
    await page.goto(`${app.url}/manage/scanner/detail?id=1`);
    await poll(() => page.getByTestId('detail-page').textContent()).toContain('KF-PRO-400 A');
    const url = page.url();
    const beat = await fetch(`${app.url}/api/scanner-agent/heartbeat`, {
      method: 'POST', headers: { 'x-scanner-key': scannerKey.key, 'content-type': 'application/json' }, body: JSON.stringify({ status: 'working' }),
    });
    expect(beat.status).toBe(200);
    await poll(() => page.locator('[data-field="status"]').textContent()).toContain('Working');
    expect(page.url()).toBe(url);
    await shot(page, 'statistics-scanner-detail-en-US');
    await page.close();
  });

  it('puts a label on a slide by hand in SlideLibrary and LabelStatistics counts it; takes it off again', async () => {
    const page = await open('zh-CN');
    await page.goto(`${app.url}/manage/slide/library`);
    const row = page.getByRole('row').filter({ hasText: 'E2E-LB-1.svs' }).first();
    await row.waitFor();
    const run = async (action: string, label: string) => {
      const direct = row.locator(`[data-action="${action}"]`);
      if (!(await direct.count())) await row.getByRole('button', { name: /更多|More/ }).click();
      await page.locator(`[data-action="${action}"]`).first().click();
      const prompt = page.getByTestId('prompt-dialog');
      await prompt.getByTestId('prompt-input').click();
      await page.getByRole('option', { name: label }).click();
      await prompt.getByTestId('prompt-confirm').click();
      await prompt.waitFor({ state: 'detached' });
    };
    await run('putLabel', '淋巴结');
    await poll(() => row.textContent()).toContain('淋巴结');
    await shot(page, 'slide-library-labels-zh-CN');
    const node = (await app.db.selectFrom('labels').select('id').where('name', '=', '淋巴结').executeTakeFirstOrThrow()).id;
    expect(await app.db.selectFrom('slide_labels').select(['label_id', 'source']).where('slide_id', '=', labelledSlide).orderBy('label_id').execute())
      .toEqual([{ label_id: breast, source: 'auto' }, { label_id: node, source: 'manual' }]);
    await page.goto(`${app.url}/manage/label/statistics`);
    await poll(() => page.locator(`[data-label="${node}"]`).textContent()).toBe('淋巴结150%');
    await shot(page, 'statistics-labels-zh-CN');
    await page.goto(`${app.url}/manage/slide/library`);
    await row.waitFor();
    await run('removeLabel', '淋巴结');
    await poll(() => row.textContent()).not.toContain('淋巴结');
    await page.goto(`${app.url}/manage/label/statistics`);
    await poll(() => page.locator(`[data-label="${node}"]`).textContent()).toBe('淋巴结00%');
    await page.close();
  });

  it('sets the qc13 target on SettingPassRate; ScanAccessStatistics draws the new one', async () => {
    const page = await open('en-US');
    await page.goto(`${app.url}/manage/statistics/scan-access`);
    await page.getByTestId('stat-set-target').click();
    await page.waitForURL(/\/manage\/setting\/pass-rate/);
    const form = page.getByTestId('form-page');
    await form.locator('#root_qc13').waitFor();
    await poll(() => form.locator('#root_qc13').inputValue()).toBe('95');
    await form.locator('#root_qc13').fill('90');
    await shot(page, 'settings-pass-rate-en-US');
    await form.getByTestId('form-save').click();
    await poll(async () => (await app.db.selectFrom('settings').select('value').where('key', '=', 'statistic_pass_rate').executeTakeFirstOrThrow()).value).toBe('{"qc13":90}');
    await page.goto(`${app.url}/manage/statistics/scan-access`);
    await poll(() => page.getByTestId('statistics-page').textContent()).toContain('Target 90%');
    await page.close();
  });
});
