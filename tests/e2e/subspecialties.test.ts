import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eApp, evidence } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const WORDS = {
  'zh-CN': { breast: '乳腺病理', gi: '消化病理', title: '亚专科目录' },
  'en-US': { breast: 'Breast', gi: 'Gastrointestinal', title: 'Subspecialty directories' },
} as const;
// The demo cases of the general hospital: 李娜's is filed under Breast, 张伟's under Gastrointestinal.
const BREAST_PATIENT = '李娜';
const GI_PATIENT = '张伟';

/**
 * Subspecialty directories (issue 17) in Chromium, in both languages: the administrator sees the dictionary page,
 * grants the first-diagnosis doctor `primary` Breast in SystemUser's form; the doctor's CaseList then shows the
 * Breast case and not the GI one (the server narrows, the page only shows what it is given).
 */
describe('subspecialty directories in Chromium', () => {
  const app = e2eApp();

  const shot = (page: Page, name: string) => evidence(page, `${name}.png`);
  const rowsText = (page: Page) => page.getByTestId('data-table').locator('tbody').textContent();
  /** Fluent's multiselect Dropdown: options are menu item checkboxes. */
  const pick = async (page: Page, dropdown: Locator, option: string) => {
    await dropdown.click();
    await page.getByRole('menuitemcheckbox', { name: option, exact: true }).click();
    await page.keyboard.press('Escape');
  };

  it.each(['zh-CN', 'en-US'] as const)('the administrator grants Breast; the doctor sees the Breast case, not the GI case (%s)', async (lang: Lang) => {
    const w = WORDS[lang];
    const errors: string[] = [];
    const admin = await app.page(lang, 'admin', { errors });
    await app.db.deleteFrom('user_subspecialties').execute();

    // The dictionary, rendered from its schema.
    await admin.goto(`${app.url}/manage/setting/subspecialty`);
    const dict = admin.locator('[data-testid="list-page"][data-alias="SettingSubspecialty"]');
    await dict.waitFor();
    await expect.poll(() => rowsText(admin)).toContain(w.breast);
    await expect.poll(() => admin.title()).toContain(w.title);
    await shot(admin, `subspecialty-dictionary-${lang}`);

    // SystemUser: edit primary, choose Breast among the directories.
    const primary = await app.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow();
    await admin.goto(`${app.url}/manage/system/user`);
    const row = admin.getByTestId('data-table').locator(`tbody tr[data-row-key="${primary.id}"]`);
    await row.waitFor();
    await row.locator('button[data-action="edit"]').click();
    const drawer = admin.getByTestId('form-drawer');
    const directories = drawer.locator('#root_subspecialty_ids');
    await directories.waitFor();
    await pick(admin, directories, w.breast);
    await shot(admin, `subspecialty-user-form-${lang}`);
    const saved = admin.waitForResponse((r) => r.url().includes(`/update/${primary.id}`));
    await drawer.getByTestId('form-save').click();
    expect((await saved).status()).toBe(200);
    await drawer.waitFor({ state: 'detached' });
    const held = await app.db.selectFrom('user_subspecialties').innerJoin('subspecialties', 'subspecialties.id', 'user_subspecialties.subspecialty_id')
      .select('subspecialties.en_name').where('user_subspecialties.user_id', '=', primary.id).execute();
    expect(held).toEqual([{ en_name: 'Breast' }]);

    // The doctor's case list: the Breast case, not the GI one; the subspecialty column names the directory.
    const doctor = await app.page(lang, 'primary', { errors });
    await doctor.goto(`${app.url}/manage/case/list?tab=all`);
    await doctor.getByTestId('list-page').waitFor();
    await expect.poll(() => rowsText(doctor)).toContain(BREAST_PATIENT);
    // The directory's name comes with the select's options, loaded after the rows.
    await expect.poll(() => rowsText(doctor)).toContain(w.breast);
    const text = await rowsText(doctor);
    expect(text).not.toContain(GI_PATIENT);
    expect(text).not.toContain(w.gi);
    await shot(doctor, `subspecialty-caselist-${lang}`);
    expect(errors).toEqual([]);
    await doctor.close();
    await admin.close();
  });
});
