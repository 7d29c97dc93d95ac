import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { e2eApp, evidence } from './harness.js';
import { enUSBundle as enUS, zhCNBundle as zhCN } from '../../src/i18n/bundles';

type Lang = 'zh-CN' | 'en-US';
const SLIDE = 'E2E 胃黏膜活检';

/**
 * CaseCollection in Chromium as the primary doctor (spec §3 collection categories, §5 favourites): a
 * category made in the page, a demo slide collected into it (through the API, as the slide library's
 * action will), seen there with its thumbnail, case and patient; cancelling the favourite asks first.
 * In English: moving a favourite through the edit drawer, renaming and deleting a category (its
 * slides go to Uncategorised). Screenshots in both languages.
 */
describe('case collection in Chromium', () => {
  let slideId: number;

  const app = e2eApp({
    ownDataDir: true,
    async setup(server) {
      // A demo slide of the first hospital, bound to its case P2026-00001 (patient 张伟).
      const file = path.join(server.dataDir!, 'slides', 'e2e', 'collect-1.tiff');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      await generateDemoSlide({ out: file, width: 2000, height: 1500, seed: 21, slideId: 'E2E-COLLECT' });
      const hospital = await server.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
      const kase = await server.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital.id).where('pathology_number', '=', 'P2026-00001').executeTakeFirstOrThrow();
      slideId = await registerSlide(server.db, server.dataDir!, file, { name: SLIDE, hospital_id: hospital.id, case_id: kase.id, uploaded_by: null });
      await ingestNow(server.db, server.dataDir!, slideId);
    },
  });

  async function open(lang: Lang): Promise<Page> {
    const page = await app.page(lang, 'primary');
    await page.goto(`${app.url}/manage/case/collection`);
    await page.getByTestId('case-collection').waitFor();
    await page.getByTestId('list-page').waitFor();
    return page;
  }
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`);
  const entry = (page: Page, key: string | number) => page.getByTestId('category-panel').locator(`[data-category="${key}"]`);
  const countOf = async (page: Page, key: string | number) => Number(await entry(page, key).getByTestId('category-count').textContent());
  const rows = (page: Page) => page.getByTestId('data-table').locator('tbody tr[data-row-key]');
  const rowOf = (page: Page, text: string) => rows(page).filter({ hasText: text });
  const imageLoaded = (img: Locator) => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth);
  /** What the slide library's collect action does: POST /api/collection/items/store with the chosen category. */
  const collect = (page: Page, body: object) => page.evaluate(async (payload) => {
    const res = await fetch('/api/collection/items/store', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${sessionStorage.getItem('access_token')}` },
      body: JSON.stringify(payload),
    });
    return { status: res.status, body: await res.json() };
  }, body);
  const createCategory = async (page: Page, name: string): Promise<number> => {
    await page.getByTestId('category-create').click();
    const dialog = page.getByTestId('category-dialog');
    await dialog.getByTestId('category-name').fill(name);
    await dialog.getByTestId('category-save').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => new URL(page.url()).searchParams.get('category')).toMatch(/^\d+$/);
    return Number(new URL(page.url()).searchParams.get('category'));
  };

  it('creates a category, shows a slide collected into it, and cancels the favourite only after confirming (zh-CN)', async () => {
    const page = await open('zh-CN');
    await expect.poll(() => entry(page, 'all').textContent()).toContain(zhCN.collection.all);
    expect(await entry(page, 'none').textContent()).toContain(zhCN.collection.uncategorised);

    // An empty name is refused in the dialog (and nothing is created); a good one becomes the chosen category.
    await page.getByTestId('category-create').click();
    await page.getByTestId('category-save').click();
    await expect.poll(() => page.getByTestId('category-dialog').textContent()).toContain(zhCN.collection.nameRequired);
    await page.getByTestId('category-dialog').getByRole('button', { name: zhCN.common.cancel }).click();
    await page.getByTestId('category-dialog').waitFor({ state: 'detached' });
    expect(await app.db.selectFrom('collection_categories').select('id').execute()).toHaveLength(0);
    const category = await createCategory(page, '教学病例');
    await entry(page, category).waitFor();
    expect(await entry(page, category).textContent()).toContain('教学病例');
    expect(await countOf(page, category)).toBe(0);

    const res = await collect(page, { slide_id: slideId, category_id: category, remark: '典型病例，带教用' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await page.reload();
    await page.getByTestId('list-page').waitFor();
    const row = rowOf(page, SLIDE);
    await row.waitFor();
    expect(await row.textContent()).toContain('P2026-00001');
    expect(await row.textContent()).toContain('张伟');
    expect(await row.textContent()).toContain('典型病例，带教用');
    await expect.poll(() => imageLoaded(row.locator('img'))).toBeGreaterThan(0);
    await expect.poll(() => countOf(page, category)).toBe(1);
    expect(await countOf(page, 'all')).toBe(1);
    expect(await countOf(page, 'none')).toBe(0);
    // Uncategorised does not hold it.
    await entry(page, 'none').getByRole('button').first().click();
    await expect.poll(() => new URL(page.url()).searchParams.get('category')).toBe('none');
    await expect.poll(() => rows(page).count()).toBe(0);
    await entry(page, category).getByRole('button').first().click();
    await row.waitFor();
    await shot(page, 'collection-zh-CN');

    // Spec §5: cancelling a favourite asks first; saying no keeps it.
    await row.locator('[data-action="cancel"]').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('确定取消收藏该切片吗？');
    await shot(page, 'collection-cancel-confirm-zh-CN');
    await dialog.getByRole('button', { name: zhCN.common.cancel }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await rowOf(page, SLIDE).count()).toBe(1);
    await row.locator('[data-action="cancel"]').click();
    await dialog.getByRole('button', { name: zhCN.common.confirm }).click();
    await expect.poll(() => rowOf(page, SLIDE).count()).toBe(0);
    await expect.poll(() => countOf(page, category)).toBe(0);
    expect(await countOf(page, 'all')).toBe(0);
    // The favourite is gone; the slide is not.
    expect(await app.db.selectFrom('collections').select('id').execute()).toHaveLength(0);
    expect(await app.db.selectFrom('slides').select('id').where('id', '=', slideId).execute()).toHaveLength(1);
    await page.close();
  });

  it('moves a favourite through the edit drawer, renames a category and deletes one keeping its slides (en-US)', async () => {
    const page = await open('en-US');
    expect(await page.getByTestId('category-panel').textContent()).toContain(enUS.collection.categories);
    const res = await collect(page, { slide_id: slideId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const teaching = await createCategory(page, 'Teaching');

    // The new category is offered at once in the drawer's select (its options were loaded before it existed).
    await entry(page, 'none').getByRole('button').first().click();
    const row = rowOf(page, SLIDE);
    await row.waitFor();
    await row.locator('[data-action="edit"]').click();
    const drawer = page.getByTestId('form-drawer');
    await drawer.locator('#root_category_id').click();
    await page.getByRole('option', { name: 'Teaching', exact: true }).click();
    await drawer.locator('#root_remark').fill('Classic chronic gastritis');
    await drawer.getByTestId('form-save').click();
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => rowOf(page, SLIDE).count()).toBe(0);
    await expect.poll(() => countOf(page, teaching)).toBe(1);
    expect(await countOf(page, 'none')).toBe(0);
    await entry(page, teaching).getByRole('button').first().click();
    await row.waitFor();
    expect(await row.textContent()).toContain('Classic chronic gastritis');
    expect(await row.textContent()).toContain('Teaching');
    await shot(page, 'collection-en-US');

    // Rename, then delete: the confirmation says where the slides go, and they are there afterwards.
    await entry(page, teaching).getByTestId('category-menu').click();
    await page.getByTestId('category-rename').click();
    await page.getByTestId('category-name').fill('Teaching cases');
    await page.getByTestId('category-save').click();
    await expect.poll(() => entry(page, teaching).textContent()).toContain('Teaching cases');
    await expect.poll(() => row.textContent()).toContain('Teaching cases');

    await entry(page, teaching).getByTestId('category-menu').click();
    await page.getByTestId('category-delete').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Its 1 collected slide(s) move to Uncategorised');
    await shot(page, 'collection-delete-category-en-US');
    await dialog.getByRole('button', { name: enUS.common.confirm }).click();
    await expect.poll(() => entry(page, teaching).count()).toBe(0);
    await expect.poll(() => new URL(page.url()).searchParams.get('category')).toBeNull();
    await expect.poll(() => countOf(page, 'none')).toBe(1);
    expect(await countOf(page, 'all')).toBe(1);
    await row.waitFor();
    expect(await row.textContent()).not.toContain('Teaching');
    await page.close();
    expect(app.pageErrors).toEqual([]);
  });
});
