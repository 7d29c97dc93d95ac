import { sql, type RawBuilder } from 'kysely';
import type { Contract, FieldType } from '../../src/core/contract.js';
import type { ColumnType, ResourceDef } from './definition.js';

/** The fields a hospital's contract adds (kept in `extra`) that lists may filter and sort by, with the type they compare as. */
export type AddedColumns = Record<string, ColumnType>;

/**
 * Only a declared identifier ever reaches SQL as an `extra` key: the extension's own check (checkExtension) allows no
 * other, and this one is applied again where the key is written into a statement.
 */
export const ADDED_FIELD = /^[a-z][a-z0-9_]{0,62}$/;

/** Scalar types compare; an array or JSON value has no order and no equality a list filter could use. */
const COMPARED: Partial<Record<FieldType, ColumnType>> = {
  string: 'string', integer: 'integer', number: 'number', boolean: 'boolean', date: 'date', datetime: 'datetime',
};

/** The added fields of `contract` a list of `def` may filter and sort by: none unless the resource keeps `extra`. */
export function addedColumns(def: Pick<ResourceDef, 'extra' | 'columns' | 'virtual'>, contract: Contract | undefined): AddedColumns {
  if (!def.extra || !contract) return {};
  const out: AddedColumns = {};
  for (const name of contract.extended ?? []) {
    const type = COMPARED[contract.fields[name]?.type];
    if (type && ADDED_FIELD.test(name) && !def.columns[name] && !def.virtual?.[name]) out[name] = type;
  }
  return out;
}

/**
 * The SQL text of an added field's value in a row's `extra` (text on both databases, JSON inside), typed as the field
 * says, so a filter value bound as that type compares with it and an expression index on the same text serves it.
 * SQLite's json_extract answers the JSON number, text or boolean (as 1/0) as it is. PostgreSQL's ->> answers text,
 * which dates and times (ISO text, as in real columns) compare as; numbers and booleans are cast, but only when the
 * JSON value is one (jsonb_typeof), so a value stored before the field's type changed is no value, never an error.
 * `column` is the (validated) reference to `extra`: qualified in queries, bare in the index.
 */
export function extraSqlText(column: string, name: string, type: ColumnType, pg: boolean): string {
  if (!ADDED_FIELD.test(name)) throw new Error(`not an added field name: ${name}`);
  if (!pg) return `json_extract(${column}, '$.${name}')`;
  const value = `(${column}::jsonb -> '${name}')`;
  const text = `(${column}::jsonb ->> '${name}')`;
  if (type === 'integer' || type === 'number') return `(CASE WHEN jsonb_typeof${value} = 'number' THEN ${text}::numeric END)`;
  // A boolean compares as 1/0, as a real boolean column (coerce.ts) does.
  if (type === 'boolean') return `(CASE WHEN jsonb_typeof${value} = 'boolean' THEN CASE WHEN ${text}::boolean THEN 1 ELSE 0 END END)`;
  return text;
}

/** An added field's value as an expression of a list query over `table`. */
export function extraExpression(table: string, name: string, type: ColumnType, pg: boolean): RawBuilder<unknown> {
  return sql.raw(extraSqlText(`"${table}"."extra"`, name, type, pg));
}
