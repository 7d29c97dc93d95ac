import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../server/db/connect.js';
import { SCHEMAS_DIR } from '../../server/modules/schemas/repository.js';
import { loadResources } from '../../server/resources/definition.js';
import { extraIndexName } from '../../server/resources/extra-indexes.js';
import { whereFilter } from '../../server/resources/filter-sql.js';
import type { Untyped } from '../../server/resources/untyped.js';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * Issue 31 item 5: the fields a hospital adds to cases (kept in each case's `extra`) are filtered by every operator
 * and sorted by, typed as the field says (a number compares as a number), for that hospital only; saving the
 * extension builds an expression index the database's planner takes for those filters. Both databases.
 */
describe.each(databases)('lists filtered and sorted by the fields a hospital added [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let registrar: string;
  const ids: number[] = [];
  const cases = loadResources(path.join(SCHEMAS_DIR, 'resources')).find((d) => d.name === 'cases')!;
  const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
  /** Ids of the cases made here a list answers, in its order. */
  const listed = async (filter: unknown[], sort?: Record<string, string>, token = registrar) => {
    const res = await call(h.app, 'GET', `/api/pathology/lists?page=1&page_size=50&filter=${enc([{ column: 'id', operator: 'in', value: ids }, ...filter])}${sort ? `&sort_by=${enc(sort)}` : ''}`, { token, lang: 'en-US' });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.data as { id: number }[]).map((r) => ids.indexOf(r.id) + 1);
  };

  beforeAll(async () => {
    h = await startApp(kind);
    [admin, registrar] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar')]);
    const override = { fields: {
      referring_ward: { type: 'string', label: { 'zh-CN': '转诊病区', 'en-US': 'Referring ward' } },
      ward_bed: { type: 'integer', label: { 'zh-CN': '床号', 'en-US': 'Bed' } },
      seen_on: { type: 'date', label: { 'zh-CN': '就诊日期', 'en-US': 'Seen on' } },
    } };
    const saved = await call(h.app, 'PUT', '/api/contracts/cases', { token: admin, payload: { override, note: 'wards' } });
    expect(saved.statusCode, saved.body).toBe(200);
    // Cases 1–4: bed 12 sorts after 9 as a number (as text it would come before it).
    for (const extra of [
      { referring_ward: 'icu', ward_bed: 3, seen_on: '2026-01-05' },
      { referring_ward: 'er', ward_bed: 12, seen_on: '2026-02-01' },
      { referring_ward: 'ward3', ward_bed: 7 },
      { referring_ward: 'icu', seen_on: '2026-03-01' },
    ]) {
      const res = await call(h.app, 'POST', '/api/pathology/register', { token: registrar, payload: { case_type: 'routine', specimens: [{ name: '组织' }], ...extra } });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().data.id);
    }
  });
  afterAll(async () => h?.close());

  it('the list page\'s fields mark them filterable and sortable', async () => {
    const fields = (await call(h.app, 'GET', '/api/schemas/CaseList', { token: registrar })).json().data.resource.fields;
    expect(fields.ward_bed).toMatchObject({ type: 'integer', filter: true, sort: true, added: true });
  });

  it('filters by every operator, typed as the field is', async () => {
    const sorted = async (filter: unknown[]) => (await listed(filter)).sort();
    expect(await sorted([{ column: 'referring_ward', operator: '=', value: 'icu' }])).toEqual([1, 4]);
    expect(await sorted([{ column: 'referring_ward', operator: '!=', value: 'icu' }])).toEqual([2, 3]);
    expect(await sorted([{ column: 'ward_bed', operator: '<', value: 9 }])).toEqual([1, 3]);
    expect(await sorted([{ column: 'ward_bed', operator: '>=', value: '7' }])).toEqual([2, 3]);
    expect(await sorted([{ column: 'referring_ward', operator: 'like', value: 'WARD' }])).toEqual([3]);
    expect(await sorted([{ column: 'referring_ward', operator: 'in', value: ['er', 'ward3'] }])).toEqual([2, 3]);
    expect(await sorted([{ column: 'referring_ward', operator: 'not in', value: 'er,ward3' }])).toEqual([1, 4]);
    expect(await sorted([{ column: 'seen_on', operator: 'empty' }])).toEqual([3]);
    expect(await sorted([{ column: 'ward_bed', operator: 'not empty' }])).toEqual([1, 2, 3]);
    expect(await sorted([{ column: 'seen_on', operator: 'between', value: ['2026-01-01', '2026-02-15'] }])).toEqual([1, 2]);
    expect(await sorted([{ column: 'referring_ward', value: 'icu', condition: 'except' }])).toEqual([2, 3]);
    // The query string's params take them as well, and the tab counts.
    const params = await call(h.app, 'GET', `/api/pathology/lists?page=1&page_size=50&params=${enc({ referring_ward: 'er' })}&filter=${enc([{ column: 'id', operator: 'in', value: ids }])}`, { token: registrar });
    expect(params.json().data.data.map((r: { id: number }) => r.id)).toEqual([ids[1]]);
    const counts = await call(h.app, 'GET', `/api/pathology/count?filter=${enc([{ column: 'id', operator: 'in', value: ids }])}&tabs=${enc([{ key: 'icu', filter: [{ column: 'referring_ward', value: 'icu' }] }, { key: 'beds', filter: [{ column: 'ward_bed', operator: '>', value: 5 }] }])}`, { token: registrar });
    expect(counts.json().data).toEqual({ icu: 2, beds: 2 });
    const bad = await call(h.app, 'GET', `/api/pathology/lists?filter=${enc([{ column: 'ward_bed', value: 'three' }])}`, { token: registrar, lang: 'en-US' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('ward_bed');
  });

  it('sorts by them, numbers as numbers', async () => {
    const beds = [{ column: 'ward_bed', operator: 'not empty' }];
    expect(await listed(beds, { ward_bed: 'asc' })).toEqual([1, 3, 2]);
    expect(await listed(beds, { ward_bed: 'desc' })).toEqual([2, 3, 1]);
    expect(await listed([{ column: 'seen_on', operator: 'not empty' }], { seen_on: 'desc' })).toEqual([4, 2, 1]);
    expect(await listed([], { referring_ward: 'asc', id: 'asc' })).toEqual([2, 1, 4, 3]);
  });

  it('another hospital did not add them: refused in the user\'s language', async () => {
    const other = await tokenFor(h.app, 'admin');
    const hospitals = await h.db.selectFrom('hospitals').select(['id', 'code']).execute();
    const switched = await call(h.app, 'POST', '/api/auth/switch_hospital', { token: other, payload: { hospital_id: hospitals.find((x) => x.code === 'H002')!.id } });
    expect(switched.statusCode, switched.body).toBe(200);
    const filter = `/api/pathology/lists?filter=${enc([{ column: 'referring_ward', value: 'icu' }])}`;
    const en = await call(h.app, 'GET', filter, { token: other, lang: 'en-US' });
    expect(en.statusCode).toBe(422);
    expect(en.json().message).toBe('Cannot filter by referring_ward');
    expect((await call(h.app, 'GET', filter, { token: other, lang: 'zh-CN' })).json().message).toBe('不能按字段 referring_ward 筛选');
    const sort = await call(h.app, 'GET', `/api/pathology/lists?sort_by=${enc({ ward_bed: 'asc' })}`, { token: other, lang: 'zh-CN' });
    expect(sort.statusCode).toBe(422);
    expect(sort.json().message).toBe('不能按字段 ward_bed 排序');
  });

  it('the saved extension indexed each field, and the planner takes the index for its filter', async () => {
    const pg = isPostgres(h.db);
    for (const [name, type] of [['referring_ward', 'string'], ['ward_bed', 'integer'], ['seen_on', 'date']] as const) {
      const index = extraIndexName('cases', name, type);
      const exists = pg
        ? await sql`SELECT 1 FROM pg_indexes WHERE indexname = ${index} AND schemaname = current_schema()`.execute(h.db)
        : await sql`SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ${index}`.execute(h.db);
      expect(exists.rows, index).toHaveLength(1);
    }
    // The list's own WHERE text (filter-sql.ts), explained with its bound values.
    const added = { referring_ward: 'string', ward_bed: 'integer' } as const;
    const plan = async (column: string, value: unknown) => {
      const compiled = h.db.selectFrom('cases' as never).select('id' as never)
        .where((eb) => whereFilter(eb as never, [{ column, operator: '=', value }], cases, pg, added)).compile() as CompiledQuery<Untyped>;
      if (!pg) return (await h.db.executeQuery(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]))).rows.map((r) => (r as { detail: string }).detail).join('\n');
      // A few rows: PostgreSQL would rather read them all; without that choice it shows whether it can use the index.
      return h.db.connection().execute(async (conn) => {
        await sql`SET enable_seqscan = off`.execute(conn);
        try {
          return (await conn.executeQuery(CompiledQuery.raw(`EXPLAIN ${compiled.sql}`, [...compiled.parameters]))).rows.map((r) => (r as { 'QUERY PLAN': string })['QUERY PLAN']).join('\n');
        } finally {
          await sql`RESET enable_seqscan`.execute(conn);
        }
      });
    };
    expect(await plan('referring_ward', 'icu')).toContain(extraIndexName('cases', 'referring_ward', 'string'));
    expect(await plan('ward_bed', 3)).toContain(extraIndexName('cases', 'ward_bed', 'integer'));
  });

  it('saving again keeps the indexes (idempotent)', async () => {
    const again = await call(h.app, 'PUT', '/api/contracts/cases', { token: admin, payload: { override: (await call(h.app, 'GET', '/api/contracts/cases', { token: admin })).json().data.schema, note: 'again' } });
    expect(again.statusCode, again.body).toBe(200);
    expect(await listed([{ column: 'referring_ward', value: 'icu' }])).toHaveLength(2);
  });
});
