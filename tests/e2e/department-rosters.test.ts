import type { Kysely } from 'kysely';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import menus from '../../schemas/menus.json';
import rosters from '../../schemas/resources/duty_rosters.json';
import entries from '../../schemas/resources/duty_entries.json';
import { e2eApp, evidence, openMenuPage, type Lang } from './harness.js';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const group = menus.find((m) => m.route_name === 'DepartmentGroup')!;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const cycleWords = rosters.write.rules!.checks[0].message;
const pastWords = entries.writeGuards[0].message;

/**
 * Attendance and duty rosters (issue 32), a module of schemas and one rule file, in Chromium in both languages: the
 * administrator opens the roster periods from the Department group, a 32-day cycle is refused in the form in the
 * language's words and a 31-day one saved; the duty roster opens on its grid (people × days, the shift in each cell);
 * a past day's duty opened from the grid cannot be changed, the server's words shown on its date.
 */
describe('duty rosters in Chromium', () => {
  const ids: Record<string, number> = {};
  const app = e2eApp({
    async setup(server) {
      const db = server.db as unknown as Kysely<any>; // the module's tables are data (schemas/resources), not schema.ts's
      const hospital = (await db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id as number;
      const stamp = { hospital_id: hospital, created_at: new Date().toISOString(), updated_at: new Date().toISOString() };
      const add = async (table: string, row: object) => Number((await db.insertInto(table).values({ ...stamp, ...row }).returning('id').executeTakeFirstOrThrow()).id);
      ids.group = await add('attendance_groups', { name: '诊断组 Diagnosis' });
      ids.zhang = await add('attendance_members', { group_id: ids.group, name: '张医生 Dr Zhang' });
      ids.li = await add('attendance_members', { group_id: ids.group, name: '李技师 Li' });
      ids.dayShift = await add('attendance_shifts', { name: '白班 Day', commutes: 1, on_1: '08:00', off_1: '17:00' });
      ids.night = await add('attendance_shifts', { name: '夜班 Night', commutes: 1, on_1: '17:00', off_1: '23:00' });
      ids.roster = await add('duty_rosters', { group_id: ids.group, name: '本周 This week', start_date: day(-1), cycle_days: 7 });
      const duty = (member: number, offset: number, shift: number) => add('duty_entries', { roster_id: ids.roster, member_id: member, duty_date: day(offset), shift_id: shift });
      ids.past = await duty(ids.zhang, -1, ids.dayShift);
      await duty(ids.zhang, 1, ids.dayShift);
      await duty(ids.li, 1, ids.night);
      await duty(ids.li, 3, ids.dayShift);
    },
  });

  const openFromMenu = (p: Page, lang: Lang, alias: string) => openMenuPage(p, lang, group, alias);

  it.each(['zh-CN', 'en-US'] as const)('a 31-day cycle saved, 32 refused; the grid shows the shifts; a past duty stays (%s)', async (lang) => {
    const errors: string[] = [];
    const admin = await app.page(lang, 'admin', { errors });
    const periods = await openFromMenu(admin, lang, 'DutyRosters');
    expect(new URL(admin.url()).pathname).toBe('/manage/department/rosters');

    await periods.locator('button[data-action="create"]').click();
    const drawer = admin.getByTestId('form-drawer');
    await drawer.locator('#root_group_id').click();
    await admin.getByRole('option', { name: '诊断组 Diagnosis', exact: true }).click();
    const name = `E2E ${lang}`;
    await drawer.locator('#root_name').fill(name);
    await drawer.locator('#root_start_date').fill(day(0));
    await drawer.locator('#root_start_date').press('Tab');
    await drawer.locator('#root_cycle_days').fill('32');
    await drawer.getByTestId('form-save').click();
    await poll(() => drawer.textContent()).toContain(cycleWords[lang]);
    await evidence(admin, `rosters-cycle-refused-${lang}.png`);
    await drawer.locator('#root_cycle_days').fill('31');
    const created = admin.waitForResponse((r) => r.url().endsWith('/api/department/duty-rosters/store'));
    await drawer.getByTestId('form-save').click();
    expect((await created).status()).toBe(200);
    await drawer.waitFor({ state: 'detached' });
    await poll(() => periods.locator('tbody tr[data-row-key]', { hasText: name }).textContent()).toContain('31');

    const duty = await openFromMenu(admin, lang, 'DutyEntries');
    const grid = duty.getByTestId('grid-view');
    const cell = (member: number, offset: number) => grid.locator(`[data-grid-cell="${member}|${day(offset)}"]`);
    await poll(() => cell(ids.zhang, 1).textContent()).toBe('白班 Day');
    expect(await cell(ids.li, 1).textContent()).toBe('夜班 Night');
    expect(await cell(ids.li, 3).textContent()).toBe('白班 Day');
    // Every day from the first duty to the last is a column, free days empty.
    expect(await grid.locator('thead [data-grid-column]').evaluateAll((els) => els.map((e) => e.getAttribute('data-grid-column'))))
      .toEqual([day(-1), day(0), day(1), day(2), day(3)]);
    expect(await cell(ids.zhang, 2).textContent()).toBe('');
    expect(await grid.locator(`tr[data-grid-row="${ids.li}"] th`).textContent()).toBe('李技师 Li');
    await evidence(admin, `rosters-grid-${lang}.png`);

    // Yesterday's duty opens from its cell; changing it is refused by the server, in the language, on its date.
    await cell(ids.zhang, -1).getByRole('button').click();
    const edit = admin.getByTestId('form-drawer');
    await edit.locator('#root_remark').fill(lang === 'zh-CN' ? '调班' : 'Swap');
    const refused = admin.waitForResponse((r) => r.url().includes(`/api/department/duty-entries/update/${ids.past}`));
    await edit.getByTestId('form-save').click();
    expect((await refused).status()).toBe(422);
    await poll(() => edit.textContent()).toContain(pastWords[lang]);
    await evidence(admin, `rosters-past-refused-${lang}.png`);
    const stored = await (app.db as unknown as Kysely<any>).selectFrom('duty_entries').select('remark').where('id', '=', ids.past).executeTakeFirstOrThrow();
    expect(stored.remark).toBeNull();
    expect(errors).toEqual([]);
    await admin.close();
  });
});
