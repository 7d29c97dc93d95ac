import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

const LOG = '/api/logs/operate';
const CATEGORIES = '/api/collection/categories';

/**
 * Issue 27: the operation log shows the bodies of writes (a file's name, a patient's name), so it is read only within
 * the reader's hospitals. A write is logged with the hospital it was made in; a holder of `log_view` in another
 * hospital does not see it (list, item, count); an administrator does. A write refused to someone signed out names no
 * hospital: administrators see it, a log reader of any hospital does not.
 */
describe.each(databases)('the operation log by hospital [%s]', (kind) => {
  let h: Harness;
  let general: number;
  let branch: number;
  let admin: string;
  /** `log_view` and nothing else, in the branch hospital only / in the general hospital only. */
  let branchReader: string;
  let generalReader: string;
  let written: number;
  let signedOut: number;

  const lastLog = async () => h.db.selectFrom('operation_logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  const byId = (id: number) => encodeURIComponent(JSON.stringify([{ column: 'id', operator: '=', value: id }]));

  /** What a reader is told of log row `id`: its item, whether the list holds it, and how many the count says. */
  const seen = async (token: string, id: number) => {
    const item = await call(h.app, 'GET', `${LOG}/item/${id}`, { token, lang: 'en-US' });
    const list = await call(h.app, 'GET', `${LOG}/lists?filter=${byId(id)}`, { token });
    const count = await call(h.app, 'GET', `${LOG}/count?filter=${byId(id)}`, { token });
    expect(list.statusCode, list.body).toBe(200);
    expect(count.statusCode, count.body).toBe(200);
    return {
      item: item.statusCode,
      listed: (list.json().data.data as { id: number }[]).map((r) => r.id),
      total: list.json().data.total as number,
      counted: count.json().data.total as number,
    };
  };
  const shown = (id: number) => ({ item: 200, listed: [id], total: 1, counted: 1 });
  const hidden = { item: 404, listed: [], total: 0, counted: 0 };

  beforeAll(async () => {
    h = await startApp(kind);
    [general, branch] = (await h.db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id);
    const now = new Date().toISOString();
    const { id: role } = await h.db.insertInto('roles').values({
      name: '日志查看', en_name: 'Log reader', identification: 'oplog_reader', description: null, extra: JSON.stringify(['log_view']), created_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const model = await h.db.selectFrom('users').selectAll().where('name', '=', 'technician').executeTakeFirstOrThrow();
    for (const [name, hospital] of [['oplogbranch', branch], ['oploggeneral', general]] as const) {
      const { id: _drop, ...copy } = model;
      const { id } = await h.db.insertInto('users').values({ ...copy, name, realname: name, email: `${name}@demo.dsms` }).returning('id').executeTakeFirstOrThrow();
      await h.db.insertInto('user_roles').values({ user_id: id, role_id: role }).execute();
      await h.db.insertInto('user_hospitals').values({ user_id: id, hospital_id: hospital }).execute();
    }
    [admin, branchReader, generalReader] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'oplogbranch'), tokenFor(h.app, 'oploggeneral')]);

    // A write in the general hospital: the primary doctor works in both and signs in to the general one.
    const made = await call(h.app, 'POST', `${CATEGORIES}/store`, { token: await tokenFor(h.app, 'primary'), payload: { name: 'Oplog patient category' } });
    expect(made.statusCode, made.body).toBe(200);
    written = (await lastLog()).id;
    const refused = await call(h.app, 'POST', `${CATEGORIES}/store`, { payload: { name: 'Oplog signed out' } });
    expect(refused.statusCode).toBe(401);
    signedOut = (await lastLog()).id;
  });
  afterAll(async () => h?.close());

  it('logs a write with the hospital it was made in, and a signed-out refused write with none', async () => {
    const row = await h.db.selectFrom('operation_logs').selectAll().where('id', '=', written).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ route: `${CATEGORIES}/store`, status_code: 200, username: 'primary', hospital_id: general });
    expect(row.payload).toContain('Oplog patient category');
    const refused = await h.db.selectFrom('operation_logs').selectAll().where('id', '=', signedOut).executeTakeFirstOrThrow();
    expect(refused).toMatchObject({ route: `${CATEGORIES}/store`, status_code: 401, user_id: null, hospital_id: null });
  });

  it('shows a hospital’s log rows to its own log readers and administrators, not to another hospital’s', async () => {
    expect(await seen(branchReader, written)).toEqual(hidden);
    expect(await seen(generalReader, written)).toEqual(shown(written));
    expect(await seen(admin, written)).toEqual(shown(written));
    // An unfiltered list of the branch reader holds nothing of the general hospital's writes.
    const listed = await call(h.app, 'GET', `${LOG}/lists?page_size=100`, { token: branchReader });
    expect(listed.body).not.toContain('Oplog patient category');
    const ids = (listed.json().data.data as { id: number }[]).map((r) => r.id);
    const theirs = await h.db.selectFrom('operation_logs').select('id').where('hospital_id', '=', branch).orderBy('id', 'desc').limit(100).execute();
    expect(ids).toEqual(theirs.map((r) => r.id));
  });

  it('shows a signed-out refused write, of no hospital, to administrators only', async () => {
    expect(await seen(admin, signedOut)).toEqual(shown(signedOut));
    expect(await seen(generalReader, signedOut)).toEqual(hidden);
    expect(await seen(branchReader, signedOut)).toEqual(hidden);
  });

  it('answers a hidden row as a missing one, in the reader’s language', async () => {
    const hiddenRow = await call(h.app, 'GET', `${LOG}/item/${written}`, { token: branchReader, lang: 'zh-CN' });
    const missing = await call(h.app, 'GET', `${LOG}/item/987654321`, { token: branchReader, lang: 'zh-CN' });
    expect(hiddenRow.statusCode).toBe(404);
    expect(hiddenRow.json()).toEqual(missing.json());
  });
});
