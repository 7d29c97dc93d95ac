import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.js';
import { connect, type Db } from './connect.js';
import { RowScopePlugin, type RowScope } from './row-scope.js';

/**
 * The row scope on a small database of its own: two hospitals, hospital 1's cases filed under directory 1,
 * directory 2 and none, a slide of each case, a slide of no case, and rows hanging off them.
 */
describe('row scope plugin', () => {
  let raw: Db;
  let scope: RowScope | undefined;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test schema of a few columns, not the app's
  let db: Kysely<any>;
  const names = (rows: { name: string }[]) => rows.map((r) => r.name).sort();

  beforeAll(async () => {
    raw = connect({ sqliteFile: ':memory:' });
    for (const ddl of [
      'create table cases (id integer primary key, hospital_id integer not null, subspecialty_id integer, pathology_number text)',
      'create table slides (id integer primary key, hospital_id integer not null, case_id integer, name text)',
      'create table slide_focus (slide_id integer primary key, score real)',
      'create table slide_annotations (id integer primary key, slide_id integer not null, hospital_id integer not null, label text)',
      'create table section_logs (id integer primary key, slide_id integer, case_id integer, slide_name text)',
      'create table operation_logs (id integer primary key, hospital_id integer, payload text)',
      'create table logistics_orders (id integer primary key, hospital_id integer not null, to_hospital_id integer, order_number text)',
    ]) await sql.raw(ddl).execute(raw);
    await sql.raw(`insert into cases values (1, 1, 1, 'D1'), (2, 1, 2, 'D2'), (3, 1, null, 'NONE'), (4, 2, null, 'H2')`).execute(raw);
    await sql.raw(`insert into slides values (11, 1, 1, 's-d1'), (12, 1, 2, 's-d2'), (13, 1, 3, 's-none'), (14, 2, 4, 's-h2'), (15, 1, null, 's-loose')`).execute(raw);
    await sql.raw('insert into slide_focus values (11, 0.1), (12, 0.2), (14, 0.4)').execute(raw);
    await sql.raw(`insert into slide_annotations values (1, 11, 1, 'a-d1'), (2, 12, 1, 'a-d2'), (3, 14, 2, 'a-h2')`).execute(raw);
    await sql.raw(`insert into section_logs values (1, 12, 2, 'log-d2'), (2, null, null, 'log-gone'), (3, 14, 4, 'log-h2')`).execute(raw);
    await sql.raw(`insert into operation_logs values (1, 1, 'op-h1'), (2, 2, 'op-h2'), (3, null, 'op-signed-out')`).execute(raw);
    await sql.raw(`insert into logistics_orders values (1, 1, 2, 'T-1to2'), (2, 2, 3, 'T-2to3'), (3, 3, 1, 'T-3to1'), (4, 3, null, 'T-3')`).execute(raw);
    db = raw.withPlugin(new RowScopePlugin(() => scope));
  });
  afterAll(async () => raw?.destroy());

  const as = <T>(s: RowScope | undefined, work: () => Promise<T>) => { scope = s; return work(); };
  const caseNumbers = async () => (await db.selectFrom('cases').select('pathology_number as name').execute()) as { name: string }[];

  it('narrows a plain select to the hospitals, then to the directories (cases of none are everyone’s)', async () => {
    expect(names(await as({ hospitals: [1] }, caseNumbers))).toEqual(['D1', 'D2', 'NONE']);
    expect(names(await as({ hospitals: [1], directories: [1] }, caseNumbers))).toEqual(['D1', 'NONE']);
    expect(names(await as({ hospitals: [1, 2], directories: [2] }, caseNumbers))).toEqual(['D2', 'H2', 'NONE']);
  });

  it('without a scope reaches no rows of a scoped table, and leaves other tables alone', async () => {
    expect(await as(undefined, caseNumbers)).toEqual([]);
    expect(await as({ hospitals: [] }, caseNumbers)).toEqual([]);
    expect(await as(undefined, async () => (await db.selectFrom(sql`(select 1 as one)`.as('t')).selectAll().execute()).length)).toBe(1);
  });

  it('narrows every scoped table by alias: joins, left joins, subqueries and CTEs', async () => {
    const scoped = { hospitals: [1], directories: [1] };
    const joined = await as(scoped, () => db.selectFrom('slides as s').innerJoin('cases as c', 'c.id', 's.case_id').select('s.name').execute());
    expect(names(joined)).toEqual(['s-d1', 's-none']);
    // A left join keeps its left rows: the slide of no case stays, with no case beside it.
    const left = await as(scoped, () => db.selectFrom('slides').leftJoin('cases', 'cases.id', 'slides.case_id').select(['slides.name', 'cases.pathology_number']).orderBy('slides.id').execute());
    expect(left).toEqual([{ name: 's-d1', pathology_number: 'D1' }, { name: 's-none', pathology_number: 'NONE' }, { name: 's-loose', pathology_number: null }]);
    // The joined side is narrowed in its ON: another directory's case is not joined to a visible row.
    const cases = await as(scoped, () => db.selectFrom(sql`(select 2 as cid union select 1)`.as('t')).leftJoin('cases', 'cases.id', 't.cid').select(['t.cid', 'cases.pathology_number']).orderBy('t.cid').execute());
    expect(cases).toEqual([{ cid: 1, pathology_number: 'D1' }, { cid: 2, pathology_number: null }]);
    const sub = await as(scoped, () => db.selectFrom('slide_annotations').select('label as name').where('slide_id', 'in', db.selectFrom('slides').select('id')).execute());
    expect(names(sub)).toEqual(['a-d1']);
    const counted = await as(scoped, () => db.selectFrom('cases').select((eb) => eb.selectFrom('slides').whereRef('slides.case_id', '=', 'cases.id').select((e) => e.fn.countAll().as('n')).as('n')).execute());
    expect(counted).toHaveLength(2);
    const cte = await as(scoped, () => db.with('mine', (w) => w.selectFrom('slides').select(['id', 'name'])).selectFrom('mine').select('name').execute());
    expect(names(cte)).toEqual(['s-d1', 's-loose', 's-none']);
  });

  it('keeps an OR of the statement from reaching past the scope', async () => {
    const rows = await as({ hospitals: [2] }, () => db.selectFrom('cases').select('pathology_number as name').where((eb) => eb.or([eb('id', '=', 1), eb('id', '=', 4)])).execute());
    expect(names(rows as { name: string }[])).toEqual(['H2']);
  });

  it('reaches tables without a hospital of their own through their slide, and keeps slide-less log lines', async () => {
    const focus = await as({ hospitals: [1], directories: [1] }, () => db.selectFrom('slide_focus').select('slide_id').execute());
    expect(focus.map((r) => r.slide_id)).toEqual([11]);
    const logs = await as({ hospitals: [1], directories: [1] }, () => db.selectFrom('section_logs').select('slide_name as name').execute());
    expect(names(logs as { name: string }[])).toEqual(['log-gone']);
  });

  it('keeps rows of no hospital (a hospitalOptional table) to administrators, and their own hospitals’ rows to everyone else', async () => {
    const ops = async () => names((await db.selectFrom('operation_logs').select('payload as name').execute()) as { name: string }[]);
    expect(await as({ hospitals: [1] }, ops)).toEqual(['op-h1']);
    expect(await as({ hospitals: [2], directories: [1] }, ops)).toEqual(['op-h2']);
    expect(await as({ hospitals: [2], admin: true }, ops)).toEqual(['op-h2', 'op-signed-out']);
    expect(await as({ hospitals: [], admin: true }, ops)).toEqual(['op-signed-out']);
    expect(await as(undefined, ops)).toEqual([]);
    // The OR that lets the administrator's null rows in does not let an OR of the statement reach another hospital.
    const either = await as({ hospitals: [2], admin: true }, () => db.selectFrom('operation_logs').select('payload as name').where((eb) => eb.or([eb('id', '=', 1), eb('id', '=', 3)])).execute());
    expect(names(either as { name: string }[])).toEqual(['op-signed-out']);
    const counted = await as({ hospitals: [1] }, () => db.selectFrom('operation_logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow());
    expect(Number(counted.n)).toBe(1);
  });

  it('lets only an administrator insert a row of no hospital into a hospitalOptional table, and no one another hospital’s', async () => {
    const insert = (row: Record<string, unknown>) => db.insertInto('operation_logs').values(row).execute();
    await expect(as({ hospitals: [1] }, () => insert({ id: 10, hospital_id: null, payload: 'x' }))).rejects.toMatchObject({ status: 403, key: 'access.outside_scope' });
    await expect(as({ hospitals: [1] }, () => insert({ id: 11, payload: 'x' }))).rejects.toBeInstanceOf(AppError);
    await expect(as({ hospitals: [1], admin: true }, () => insert({ id: 12, hospital_id: 2, payload: 'x' }))).rejects.toBeInstanceOf(AppError);
    await as({ hospitals: [1], admin: true }, () => insert({ id: 13, hospital_id: null, payload: 'x' }));
    await as({ hospitals: [1] }, () => insert({ id: 14, hospital_id: 1, payload: 'x' }));
    expect(await raw.selectFrom('operation_logs' as never).select('id' as never).where('id' as never, '>=', 10 as never).orderBy('id' as never).execute()).toEqual([{ id: 13 }, { id: 14 }]);
  });

  it('updates and deletes only rows in the scope', async () => {
    const updated = await as({ hospitals: [1], directories: [1] }, () => db.updateTable('cases').set({ pathology_number: sql`pathology_number` }).where('id', 'in', [1, 2, 4]).executeTakeFirst());
    expect(Number(updated.numUpdatedRows)).toBe(1);
    const deleted = await as({ hospitals: [2] }, () => db.deleteFrom('slide_annotations').where('id', '=', 1).executeTakeFirst());
    expect(Number(deleted.numDeletedRows)).toBe(0);
    expect(await raw.selectFrom('slide_annotations' as never).select('id' as never).where('id' as never, '=', 1 as never).executeTakeFirst()).toBeDefined();
  });

  it('refuses an insert into another hospital or directory, and one without a scope', async () => {
    const insert = (row: Record<string, unknown>) => db.insertInto('cases').values(row).execute();
    await expect(as({ hospitals: [1] }, () => insert({ id: 20, hospital_id: 2, subspecialty_id: null }))).rejects.toMatchObject({ status: 403, key: 'access.outside_scope' });
    await expect(as({ hospitals: [1], directories: [1] }, () => insert({ id: 21, hospital_id: 1, subspecialty_id: 2 }))).rejects.toBeInstanceOf(AppError);
    await expect(as(undefined, () => insert({ id: 22, hospital_id: 1, subspecialty_id: null }))).rejects.toBeInstanceOf(AppError);
    await as({ hospitals: [1], directories: [1] }, () => insert({ id: 23, hospital_id: 1, subspecialty_id: 1 }));
    expect(await raw.selectFrom('cases' as never).select('id' as never).where('id' as never, 'in', [20, 21, 22, 23] as never).execute()).toEqual([{ id: 23 }]);
  });

  it('reaches a shared row (sharedWith) from its own hospital and from the one it names, and inserts only as its own', async () => {
    const orders = () => db.selectFrom('logistics_orders').select('order_number as name').execute() as Promise<{ name: string }[]>;
    expect(names(await as({ hospitals: [1] }, orders))).toEqual(['T-1to2', 'T-3to1']);
    expect(names(await as({ hospitals: [2] }, orders))).toEqual(['T-1to2', 'T-2to3']);
    const signed = await as({ hospitals: [2] }, () => db.updateTable('logistics_orders').set({ order_number: 'T-1to2-signed' }).where('id', 'in', [1, 3]).executeTakeFirst());
    expect(Number(signed.numUpdatedRows)).toBe(1);
    await expect(as({ hospitals: [2] }, () => db.insertInto('logistics_orders').values({ id: 9, hospital_id: 1, to_hospital_id: 2, order_number: 'x' }).execute())).rejects.toBeInstanceOf(AppError);
  });

  it('refuses raw SQL that reads a scoped table, which it could not narrow', async () => {
    await expect(as({ hospitals: [1] }, () => sql`select name from slides`.execute(db))).rejects.toThrow(/raw SQL over a scoped table/);
    await expect(as({ hospitals: [1] }, () => db.selectFrom('cases').select(sql<number>`(select count(*) from "slides")`.as('n')).execute())).rejects.toThrow(/raw SQL/);
  });
});
