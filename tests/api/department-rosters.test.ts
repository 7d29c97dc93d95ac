import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_MENUS_KEY, seedStructure } from '../../server/db/seed/structure.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * The department's attendance and duty rosters (issue 32, spec §1, §5, §9), built from schemas and one rule file
 * (schemas/rules/attendance.json): names required, a shift's 1–3 commutes with times in chronological order, a cycle of
 * at most 31 days, each refused with a translated 422 that writes nothing; a past day's duty is neither made, changed
 * nor deleted (the resource's write guard, src/core/writeGuards.ts); another hospital's rows are out of reach; only
 * the administrator keeps rosters, every department role reads them.
 */
describe.each(databases)('department attendance and duty rosters [%s]', (kind) => {
  let h: Harness;
  let db: Kysely<any>; // the module's tables are data (schemas/resources), not schema.ts's
  const t: Record<string, string> = {};
  const API = '/api/department';
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const send = (who: string, method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, payload?: object, lang = 'en-US') =>
    call(h.app, method, `${API}/${url}`, { token: t[who], lang, ...(payload ? { payload } : {}) });
  const store = (what: string, payload: object, lang = 'en-US') => send('admin', 'POST', `${what}/store`, payload, lang);
  const made = async (what: string, payload: object) => {
    const res = await store(what, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Record<string, any>;
  };
  const count = async (table: string) => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  /** A 422 that wrote nothing into `table`, with its messages on the fields, in the language asked for. */
  const refused = async (table: string, request: () => Promise<{ statusCode: number; json(): any; body: string }>) => {
    const before = await count(table);
    const res = await request();
    expect(res.statusCode, res.body).toBe(422);
    expect(await count(table)).toBe(before);
    return res.json() as { message: string; errors?: Record<string, string[]> };
  };
  let group: Record<string, any>;
  let member: Record<string, any>;
  let shift: Record<string, any>;
  let roster: Record<string, any>;

  beforeAll(async () => {
    h = await startApp(kind);
    db = h.db as unknown as Kysely<any>;
    for (const u of ['admin', 'technician', 'signer', 'clinician']) t[u] = await tokenFor(h.app, u);
    t.adminBranch = await tokenFor(h.app, 'admin');
    const branch = await db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow();
    expect((await call(h.app, 'POST', '/api/auth/switch_hospital', { token: t.adminBranch, payload: { hospital_id: branch.id } })).statusCode).toBe(200);
    group = await made('attendance-groups', { name: '病理诊断组' });
    member = await made('attendance-members', { group_id: group.id, name: '技术员甲', user_id: await userId(h.db, 'technician') });
    shift = await made('attendance-shifts', { name: '白班', commutes: 1, on_1: '08:00', off_1: '17:00' });
    roster = await made('duty-rosters', { group_id: group.id, name: '十二月', start_date: day(0), cycle_days: 31 });
  }, 60_000);
  afterAll(async () => h?.close());

  it('the menu entries and codes reach their roles; readers read, only the administrator keeps rosters', async () => {
    const menu = async (who: string) => JSON.stringify((await call(h.app, 'GET', '/api/system_management/users/menu', { token: t[who] })).json().data);
    expect(await menu('admin')).toMatch(/DepartmentGroup[\s\S]*DutyEntries[\s\S]*DutyRosters[\s\S]*AttendanceShifts[\s\S]*AttendanceGroups/);
    expect(await menu('technician')).toContain('DutyEntries');
    expect(await menu('technician')).not.toContain('DutyRosters');
    expect((await send('technician', 'GET', 'duty-rosters/lists')).statusCode).toBe(200);
    expect((await send('technician', 'POST', 'duty-rosters/store', { group_id: group.id, name: 'x', start_date: day(1), cycle_days: 2 })).statusCode).toBe(403);
    expect((await send('signer', 'POST', 'duty-entries/store', { roster_id: roster.id, member_id: member.id, duty_date: day(1), shift_id: shift.id })).statusCode).toBe(403);
    expect((await send('technician', 'PATCH', `attendance-shifts/update/${shift.id}`, { name: 'x' })).statusCode).toBe(403);
    expect((await send('clinician', 'GET', 'duty-entries/lists')).statusCode).toBe(403);
  });

  it('an installation from before the module gets its entries and codes at its next start (the menu upgrade)', async () => {
    const aliases = ['DutyEntries', 'DutyRosters', 'AttendanceShifts', 'AttendanceGroups', 'AttendanceMembers'];
    const codes = ['attendance_view', 'attendance_manage'];
    // The release before: none of the module's menu rows, codes or grants, and none of it ever delivered.
    const rows = await db.selectFrom('menus').select('id').where('alias', 'in', aliases).execute();
    await db.deleteFrom('role_menus').where('menu_id', 'in', rows.map((r) => r.id)).execute();
    await db.deleteFrom('menus').where('alias', 'in', aliases).execute();
    await db.deleteFrom('permissions').where('code', 'in', codes).execute();
    for (const role of await db.selectFrom('roles').select(['id', 'extra']).execute()) {
      const held = (JSON.parse(role.extra ?? '[]') as string[]).filter((c) => !codes.includes(c));
      await db.updateTable('roles').set({ extra: JSON.stringify(held) }).where('id', '=', role.id).execute();
    }
    const delivered = JSON.parse((await db.selectFrom('settings').select('value').where('key', '=', SEEDED_MENUS_KEY).executeTakeFirstOrThrow()).value) as string[];
    await db.updateTable('settings').set({ value: JSON.stringify(delivered.filter((k) => !aliases.includes(k))) }).where('key', '=', SEEDED_MENUS_KEY).execute();
    expect((await call(h.app, 'GET', '/api/system_management/users/menu', { token: await tokenFor(h.app, 'technician') })).body).not.toContain('DutyEntries');

    await seedStructure(h.db);
    const department = await db.selectFrom('menus').select('id').where('route_name', '=', 'DepartmentGroup').executeTakeFirstOrThrow();
    const under = (await db.selectFrom('menus').select('alias').where('parent_id', '=', department.id).orderBy('rank').orderBy('id').execute()).map((m) => m.alias);
    // Back under the group, after the archive's entries, in the menu file's order (other modules' entries follow).
    expect(under.slice(0, 2 + aliases.length)).toEqual(['BorrowOrders', 'ArchiveItems', ...aliases]);
    const technician = await tokenFor(h.app, 'technician');
    const menu = JSON.stringify((await call(h.app, 'GET', '/api/system_management/users/menu', { token: technician })).json().data);
    expect(menu).toContain('DutyEntries');
    expect(menu).not.toContain('DutyRosters');
    expect((await call(h.app, 'GET', `${API}/duty-entries/lists`, { token: technician })).statusCode).toBe(200);
    t.technician = technician;
  });

  it('an attendance group\'s and a period\'s name are required, in both languages', async () => {
    for (const name of [undefined, '']) {
      const body = await refused('attendance_groups', () => store('attendance-groups', { name }));
      expect(body.errors?.name?.[0]).toMatch(/Group name/);
    }
    const zh = await refused('duty_rosters', () => store('duty-rosters', { group_id: group.id, name: '', start_date: day(0), cycle_days: 2 }, 'zh-CN'));
    expect(zh.errors?.name?.[0]).toMatch(/周期名称/);
    expect((await refused('attendance_groups', () => send('admin', 'PATCH', `attendance-groups/update/${group.id}`, { name: '' }))).errors).toHaveProperty('name');
    expect((await db.selectFrom('attendance_groups').select('name').where('id', '=', group.id).executeTakeFirstOrThrow()).name).toBe('病理诊断组');
  });

  it('a shift has 1, 2 or 3 commutes a day, each commute\'s times required', async () => {
    for (const commutes of [0, 4, 'two']) {
      expect((await refused('attendance_shifts', () => store('attendance-shifts', { name: 'x', commutes, on_1: '08:00', off_1: '12:00' }))).errors).toHaveProperty('commutes');
    }
    const zh = await refused('attendance_shifts', () => store('attendance-shifts', { name: 'x', commutes: 5, on_1: '08:00', off_1: '12:00' }, 'zh-CN'));
    expect(zh.errors?.commutes).toContain('班次每天只能有 1、2 或 3 次上下班');
    const missing = await refused('attendance_shifts', () => store('attendance-shifts', { name: '两头班', commutes: 2, on_1: '08:00', off_1: '12:00' }));
    expect(Object.keys(missing.errors ?? {}).sort()).toEqual(['off_2', 'on_2']);
    // A one-commute shift takes no second commute's time: a field the form hides is refused by name, not dropped.
    expect((await refused('attendance_shifts', () => store('attendance-shifts', { name: 'x', commutes: 1, on_1: '08:00', off_1: '12:00', on_2: '13:00' }))).errors).toHaveProperty('on_2');
    expect((await refused('attendance_shifts', () => store('attendance-shifts', { name: 'x', commutes: 1, on_1: '8:00', off_1: '25:00' }))).errors).toHaveProperty('off_1');
    const three = await made('attendance-shifts', { name: '三段班', commutes: 3, on_1: '06:00', off_1: '09:00', on_2: '11:00', off_2: '14:00', on_3: '18:00', off_3: '23:30' });
    expect(three).toMatchObject({ commutes: 3, on_3: '18:00', off_3: '23:30' });
  });

  it('a shift\'s times are in chronological order, on create and on update', async () => {
    const order = 'Set the times in chronological order';
    expect((await refused('attendance_shifts', () => store('attendance-shifts', { name: 'x', commutes: 1, on_1: '17:00', off_1: '08:00' }))).errors?.off_1).toEqual([order]);
    expect((await refused('attendance_shifts', () => store('attendance-shifts', { name: 'x', commutes: 1, on_1: '08:00', off_1: '08:00' }))).errors?.off_1).toEqual([order]);
    const overlap = { name: 'x', commutes: 2, on_1: '08:00', off_1: '12:00', on_2: '11:00', off_2: '17:00' };
    expect((await refused('attendance_shifts', () => store('attendance-shifts', overlap, 'zh-CN'))).errors?.off_1).toEqual(['请按时间先后顺序设置上下班时间']);
    const late = { name: 'x', commutes: 3, on_1: '06:00', off_1: '09:00', on_2: '11:00', off_2: '19:00', on_3: '18:00', off_3: '23:00' };
    expect((await refused('attendance_shifts', () => store('attendance-shifts', late))).errors?.off_1).toEqual([order]);
    // The patch is checked as part of the whole row: an earlier off time alone breaks the order.
    expect((await refused('attendance_shifts', () => send('admin', 'PATCH', `attendance-shifts/update/${shift.id}`, { off_1: '07:00' }))).errors?.off_1).toEqual([order]);
    expect((await db.selectFrom('attendance_shifts').select('off_1').where('id', '=', shift.id).executeTakeFirstOrThrow()).off_1).toBe('17:00');
  });

  it('an attendance cycle is at most 31 days', async () => {
    expect(roster.cycle_days).toBe(31);
    const long = { group_id: group.id, name: '三十二天', start_date: day(0), cycle_days: 32 };
    expect((await refused('duty_rosters', () => store('duty-rosters', long))).errors?.cycle_days).toEqual(['An attendance cycle is at most 31 days']);
    expect((await refused('duty_rosters', () => store('duty-rosters', long, 'zh-CN'))).errors?.cycle_days).toEqual(['考勤周期最多 31 天']);
    expect((await refused('duty_rosters', () => store('duty-rosters', { ...long, cycle_days: 0 }))).errors).toHaveProperty('cycle_days');
    expect((await refused('duty_rosters', () => send('admin', 'PATCH', `duty-rosters/update/${roster.id}`, { cycle_days: 40 }))).errors).toHaveProperty('cycle_days');
    expect((await made('duty-rosters', { ...long, cycle_days: 1 })).cycle_days).toBe(1);
  });

  it('duty data of past days cannot be made, changed or deleted; today\'s and later can', async () => {
    const entry = (date: string) => ({ roster_id: roster.id, member_id: member.id, duty_date: date, shift_id: shift.id });
    const past = 'Duty data of past days cannot be changed';
    const create = await refused('duty_entries', () => store('duty-entries', entry(day(-1))));
    expect([create.message, create.errors?.duty_date]).toEqual([past, [past]]);
    expect((await refused('duty_entries', () => store('duty-entries', entry(day(-1)), 'zh-CN'))).message).toBe('过去日期的值班数据不能修改');
    const today = await made('duty-entries', entry(day(0)));
    const later = await made('duty-entries', entry(day(3)));
    expect((await send('admin', 'PATCH', `duty-entries/update/${later.id}`, { duty_date: day(4) })).statusCode).toBe(200);
    // Moving a duty into the past is refused as making one there is.
    expect((await refused('duty_entries', () => send('admin', 'PATCH', `duty-entries/update/${today.id}`, { duty_date: day(-2) }))).message).toBe(past);
    // A duty kept before today (written on its day) is no longer changed nor deleted, alone or with others.
    const { id: old } = await db.insertInto('duty_entries').values({ ...entry(day(-3)), hospital_id: roster.hospital_id, created_at: 'x', updated_at: 'x' })
      .returning('id').executeTakeFirstOrThrow();
    const update = await refused('duty_entries', () => send('admin', 'PATCH', `duty-entries/update/${old}`, { shift_id: shift.id, remark: '调班' }));
    expect(update.message).toBe(past);
    expect((await refused('duty_entries', () => send('admin', 'DELETE', 'duty-entries/destroy', { ids: [old] }, 'zh-CN'))).message).toBe('过去日期的值班数据不能修改');
    expect((await refused('duty_entries', () => send('admin', 'DELETE', 'duty-entries/destroy', { ids: [later.id, old] }))).message).toBe(past);
    expect((await db.selectFrom('duty_entries').select('remark').where('id', '=', old).executeTakeFirstOrThrow()).remark).toBeNull();
    expect((await send('admin', 'DELETE', 'duty-entries/destroy', { ids: [later.id] })).json().data).toEqual({ deleted: 1 });
    // Refusals are operation-logged like every write.
    const logged = await db.selectFrom('operation_logs').select('status_code').where('route', '=', `${API}/duty-entries/destroy`).execute();
    expect(logged.map((l) => Number(l.status_code)).sort()).toEqual([200, 422, 422]);
  });

  it('everyone reads the roster; "my duty" is the signed-in person\'s; another hospital\'s rows are out of reach', async () => {
    const mine = await made('duty-entries', { roster_id: roster.id, member_id: member.id, duty_date: day(5), shift_id: shift.id });
    const other = await made('attendance-members', { group_id: group.id, name: '医生乙' });
    const theirs = await made('duty-entries', { roster_id: roster.id, member_id: other.id, duty_date: day(5), shift_id: shift.id });
    const ids = async (who: string, query = "") => { const res = await send(who, "GET", `duty-entries/lists?page_size=500${query}`); expect(res.statusCode, res.body).toBe(200); return (res.json().data.data as { id: number }[]).map((r) => r.id); };
    expect(await ids('signer')).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    const me = encodeURIComponent(JSON.stringify([{ column: 'member_user_id', operator: '=', value: '$me' }]));
    expect(await ids('technician', `&filter=${me}`)).toContain(mine.id);
    expect(await ids('technician', `&filter=${me}`)).not.toContain(theirs.id);
    // A second duty of the same person on the same day of a roster is refused (the unique index), in words.
    const twice = await store('duty-entries', { roster_id: roster.id, member_id: member.id, duty_date: day(5), shift_id: shift.id });
    expect(twice.statusCode).toBe(409);

    for (const what of ['attendance-groups', 'attendance-members', 'attendance-shifts', 'duty-rosters', 'duty-entries']) {
      const rows = (await send('adminBranch', 'GET', `${what}/lists`)).json().data.data as unknown[];
      expect(rows, what).toEqual([]);
    }
    expect((await send('adminBranch', 'GET', `duty-entries/item/${mine.id}`)).statusCode).toBe(404);
    expect((await send('adminBranch', 'PATCH', `duty-rosters/update/${roster.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await send('adminBranch', 'DELETE', 'duty-entries/destroy', { ids: [mine.id] })).statusCode).toBe(404);
    expect(await db.selectFrom('duty_entries').select('id').where('id', '=', mine.id).executeTakeFirst()).toBeTruthy();
    // Nor does a branch's row point at this hospital's rows by their ids: a 422 on each such field, nothing written.
    const branchGroup = (await send('adminBranch', 'POST', 'attendance-groups/store', { name: '分院组' })).json().data;
    const across = await refused('attendance_members', () => send('adminBranch', 'POST', 'attendance-members/store', { group_id: group.id, name: 'x' }));
    expect(across.errors?.group_id).toEqual(['The chosen Attendance group does not exist in this hospital']);
    const branchMember = (await send('adminBranch', 'POST', 'attendance-members/store', { group_id: branchGroup.id, name: '分院甲' })).json().data;
    const branchRoster = (await send('adminBranch', 'POST', 'duty-rosters/store', { group_id: branchGroup.id, name: '分院', start_date: day(0), cycle_days: 7 })).json().data;
    const mixed = await refused('duty_entries', () => send('adminBranch', 'POST', 'duty-entries/store',
      { roster_id: roster.id, member_id: branchMember.id, duty_date: day(1), shift_id: shift.id }, 'zh-CN'));
    expect(mixed.errors).toEqual({ roster_id: ['所选的排班周期不存在或不属于本院'], shift_id: ['所选的班次不存在或不属于本院'] });
    expect((await send('adminBranch', 'PATCH', `duty-rosters/update/${branchRoster.id}`, { group_id: group.id })).statusCode).toBe(422);
  });
});
