import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * MissCaseSearch's per-phase time limits (issue 10, spec §2 timeouts, §4 timeout words): the setting
 * case_phase_hours (hours per phase, defaults in server/modules/cases/phase-limits.ts) decides which cases are
 * overdue, for /api/pathology/stuck without `hours` and for the cases list's derived `overdue` filter and tab count.
 * A bad value is refused with a translated message and changes nothing. Both databases.
 */
describe.each(databases)('per-phase time limits [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const q = (o: Record<string, unknown>) => Object.entries(o).map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`).join('&');
  const hoursAgo = (n: number) => new Date(Date.now() - n * 3_600_000).toISOString();
  const stuck = async () => ((await call(h.app, 'GET', '/api/pathology/stuck', { token: t.registrar })).json().data.data as { id: number; limit_hours: number }[]);
  const overdueIds = async () => {
    const res = await call(h.app, 'GET', `/api/pathology/lists?${q({ filter: [{ column: 'overdue', operator: '=', value: 1 }, { column: 'id', operator: 'in', value: Object.values(ids) }] })}`, { token: t.registrar });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.data as { id: number; overdue: number }[]).map((r) => { expect(r.overdue).toBe(1); return r.id; }).sort((a, b) => a - b);
  };
  const setLimits = (value: unknown, who = 'admin', lang = 'en-US') => call(h.app, 'POST', '/api/common/setting', { token: t[who], lang, payload: { settings_key: 'case_phase_hours', settings_value: value } });
  const ours = (rows: { id: number }[]) => rows.map((r) => r.id).filter((id) => Object.values(ids).includes(id)).sort((a, b) => a - b);

  beforeAll(async () => {
    h = await startApp(kind);
    for (const u of ['admin', 'registrar']) t[u] = await tokenFor(h.app, u);
    const { hospital_id } = await h.db.selectFrom('cases').select('hospital_id').orderBy('id').executeTakeFirstOrThrow();
    // Other cases of the demo seed hold old phases too: the assertions look at these five only.
    await h.db.updateTable('cases').set({ archive_status: 'filed' }).execute();
    const now = new Date().toISOString();
    for (const [key, main_phase, hours] of [['reg30', 'registration', 30], ['sample30', 'sample', 30], ['making80', 'slide_making', 80], ['diag100', 'diagnosis', 100], ['archive900', 'archive', 900]] as const) {
      ids[key] = (await h.db.insertInto('cases').values({
        hospital_id, pathology_number: `LIM-${key}`, case_type: 'routine', main_phase, sub_phase: null, phase_at: hoursAgo(hours), expedite_status: 0, extra: '{}', registration_at: now, created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow()).id;
    }
  });
  afterAll(async () => h?.close());

  it('by default: registration 24 h, sampling 48 h, slide making 72 h, diagnosis 120 h; archived never', async () => {
    const read = await call(h.app, 'GET', '/api/common/setting/get?settings_key=case_phase_hours', { token: t.registrar });
    expect(read.statusCode, read.body).toBe(200);
    expect(JSON.parse(read.json().data)).toEqual({ registration: 24, sample: 48, slide_making: 72, diagnosis: 120 });
    const rows = await stuck();
    expect(ours(rows)).toEqual([ids.reg30, ids.making80].sort((a, b) => a - b));
    expect(rows.find((r) => r.id === ids.reg30)!.limit_hours).toBe(24);
    expect(await overdueIds()).toEqual([ids.reg30, ids.making80].sort((a, b) => a - b));
    // The tab count and the complement.
    const counts = await call(h.app, 'GET', `/api/pathology/count?${q({ filter: [{ column: 'id', operator: 'in', value: Object.values(ids) }], tabs: [{ key: 'overdue', filter: [{ column: 'overdue', operator: '=', value: 1 }] }, { key: 'on_time', filter: [{ column: 'overdue', operator: '!=', value: 1 }] }] })}`, { token: t.registrar });
    expect(counts.json().data).toMatchObject({ overdue: 2, on_time: 3 });
    // `hours` still asks one limit for every phase.
    expect(ours((await call(h.app, 'GET', '/api/pathology/stuck?hours=90', { token: t.registrar })).json().data.data)).toEqual([ids.diag100]);
  });

  it('the administrator changes the limits; the list and /stuck follow at once', async () => {
    const res = await setLimits({ registration: 48, sample: 12, slide_making: 72, diagnosis: 96 });
    expect(res.statusCode, res.body).toBe(200);
    expect(ours(await stuck())).toEqual([ids.sample30, ids.making80, ids.diag100].sort((a, b) => a - b));
    expect(await overdueIds()).toEqual([ids.sample30, ids.making80, ids.diag100].sort((a, b) => a - b));
  });

  it('refuses a limit out of range, not a number or an unknown phase, in the user\'s language; nothing changes; only with system_setting', async () => {
    const before = await h.db.selectFrom('settings').select('value').where('key', '=', 'case_phase_hours').executeTakeFirstOrThrow();
    for (const bad of [
      { registration: 0, sample: 12, slide_making: 72, diagnosis: 96 },
      { registration: 48, sample: 'soon', slide_making: 72, diagnosis: 96 },
      { registration: 48, sample: 12, slide_making: 9000, diagnosis: 96 },
      { registration: 48, sample: 12, slide_making: 72, diagnosis: 96, archive: 5 },
    ]) {
      const res = await setLimits(bad, 'admin', 'zh-CN');
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toMatch(/[\u4e00-\u9fff]/);
    }
    expect((await setLimits({ registration: 1, sample: 1, slide_making: 1, diagnosis: 1 }, 'registrar')).statusCode).toBe(403);
    expect(await h.db.selectFrom('settings').select('value').where('key', '=', 'case_phase_hours').executeTakeFirstOrThrow()).toEqual(before);
    // A value stored behind the API's back that is out of range falls back to that phase's default.
    await h.db.updateTable('settings').set({ value: JSON.stringify({ registration: -3, sample: 12 }) }).where('key', '=', 'case_phase_hours').execute();
    expect(ours(await stuck())).toEqual([ids.reg30, ids.sample30, ids.making80].sort((a, b) => a - b));
    await h.db.updateTable('settings').set(before).where('key', '=', 'case_phase_hours').execute();
  });
});
