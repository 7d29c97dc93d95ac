import {
  DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { FilterCondition } from '../../src/core/filters.js';
import type { ResourceDef } from './definition.js';
import { addedColumns, extraSqlText } from './extra-fields.js';
import { extraIndexName, extraIndexSql } from './extra-indexes.js';
import { whereFilter } from './filter-sql.js';
import { parseListQuery } from './list-query.js';
import type { Untyped } from './untyped.js';

const def = {
  name: 'cases', table: 'cases', route: '/api/pathology', extra: true, permissions: { list: 'x', read: 'x' },
  columns: { id: { type: 'integer', filter: true, sort: true }, age: { type: 'integer', filter: true, sort: true } },
} as unknown as ResourceDef;
const contract = {
  fields: { age: { type: 'integer' as const }, ward: { type: 'string' as const }, bed: { type: 'integer' as const }, seen: { type: 'date' as const },
    urgent: { type: 'boolean' as const }, tags: { type: 'array' as const } },
  extended: ['ward', 'bed', 'seen', 'urgent', 'tags'],
};
const added = addedColumns(def, contract);

/** Kysely that only compiles, for either database. */
const compiler = (pg: boolean) => new Kysely<Untyped>({
  dialect: {
    createAdapter: () => (pg ? new PostgresAdapter() : new SqliteAdapter()),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => (pg ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
    createQueryCompiler: () => (pg ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
  },
});
const where = (pg: boolean, filter: FilterCondition[]) =>
  compiler(pg).selectFrom('cases').select('id').where((eb) => whereFilter(eb, filter, def, pg, added)).compile();

describe('fields a hospital added, in list filters and sorting (kept in extra)', () => {
  it('takes the scalar added fields with their types, never an array, a real column or an unsafe name', () => {
    expect(added).toEqual({ ward: 'string', bed: 'integer', seen: 'date', urgent: 'boolean' });
    expect(addedColumns({ ...def, extra: false }, contract)).toEqual({});
    expect(addedColumns(def, { fields: { 'x-y': { type: 'string' } }, extended: ['x-y'] })).toEqual({});
    expect(() => extraSqlText('extra', "a'); drop table x; --", 'string', true)).toThrow();
  });

  it('compiles to a JSON extraction typed as the field, the values bound as parameters', () => {
    const sqlite = where(false, [{ column: 'ward', operator: '=', value: 'icu' }, { column: 'bed', operator: 'between', value: ['2', '9'] }]);
    expect(sqlite.sql).toBe(`select "id" from "cases" where (json_extract("cases"."extra", '$.ward') = ? and json_extract("cases"."extra", '$.bed') between ? and ?)`);
    expect(sqlite.parameters).toEqual(['icu', 2, 9]);
    const pg = where(true, [{ column: 'bed', operator: '>', value: 3 }]);
    expect(pg.sql).toContain(`(CASE WHEN jsonb_typeof("cases"."extra"::jsonb -> 'bed') = 'number' THEN ("cases"."extra"::jsonb ->> 'bed')::numeric END) > CAST($1 AS bigint)`);
    expect(pg.parameters).toEqual([3]);
    expect(where(true, [{ column: 'ward', operator: 'in', value: ['icu', 'er'] }]).sql).toContain(`("cases"."extra"::jsonb ->> 'ward') in ($1, $2)`);
    expect(where(true, [{ column: 'ward', operator: 'like', value: 'ic' }]).sql).toContain(`("cases"."extra"::jsonb ->> 'ward') ILIKE $1 ESCAPE`);
    expect(where(true, [{ column: 'urgent', operator: '=', value: true }]).parameters).toEqual([1]);
    // except: the operator's inversion, as for a real column; empty: NULL or '' for text.
    expect(where(false, [{ column: 'seen', operator: '>=', value: '2026-01-01', condition: 'except' }]).sql).toContain(`json_extract("cases"."extra", '$.seen') < ?`);
    expect(where(false, [{ column: 'ward', operator: 'empty' }]).sql).toContain(`(json_extract("cases"."extra", '$.ward') is null or json_extract("cases"."extra", '$.ward') = ?)`);
  });

  it('refuses a value of the wrong type, and a field the hospital did not add', () => {
    expect(() => where(false, [{ column: 'bed', operator: '=', value: 'three' }])).toThrow(expect.objectContaining({ key: 'resource.bad_value' }));
    expect(() => parseListQuery({ filter: JSON.stringify([{ column: 'ward', value: 'icu' }]) }, def)).toThrow(expect.objectContaining({ key: 'resource.unknown_column' }));
    expect(() => parseListQuery({ sort_by: JSON.stringify({ ward: 'asc' }) }, def)).toThrow(expect.objectContaining({ key: 'resource.unsortable_column' }));
    const q = parseListQuery({ filter: JSON.stringify([{ column: 'ward', value: 'icu' }]), sort_by: JSON.stringify({ bed: 'desc' }) }, def, added);
    expect(q.sortBy).toEqual([['bed', 'desc']]);
    expect(q.added).toBe(added);
  });

  it('indexes the very expression the filter compiles to, under a bounded name', () => {
    expect(extraIndexSql('cases', 'ward', 'string', false)).toBe(`CREATE INDEX IF NOT EXISTS "${extraIndexName('cases', 'ward', 'string')}" ON "cases" (json_extract(extra, '$.ward'))`);
    expect(extraIndexSql('cases', 'bed', 'integer', true)).toContain(`ON "cases" (((CASE WHEN jsonb_typeof(extra::jsonb -> 'bed') = 'number' THEN (extra::jsonb ->> 'bed')::numeric END)))`);
    const long = 'a'.repeat(63);
    expect(extraIndexName('cases', long, 'string').length).toBeLessThanOrEqual(63);
    expect(extraIndexName('cases', long, 'string')).not.toBe(extraIndexName('cases', long, 'integer'));
  });
});
