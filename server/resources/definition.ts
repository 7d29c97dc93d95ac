import fs from 'node:fs';
import path from 'node:path';
import { resourceContract, type Contract, type FieldDef } from '../../src/core/contract.js';
import { isOperator, type FilterCondition, type ImpliedFilters } from '../../src/core/filters.js';
import { resourceMetaProblems } from './meta-check.js';
import type { WriteGuard } from '../../src/core/writeGuards.js';
import { checkCrossResource } from './resource-links.js';

export type ColumnType = 'integer' | 'number' | 'string' | 'date' | 'datetime' | 'boolean' | 'json';

/** A column: what SQL may do with it, and (FieldDef) its label, options and what a write may put in it. */
export interface ColumnDef extends Omit<FieldDef, 'type'> {
  type: ColumnType;
  filter?: boolean;
  sort?: boolean;
  search?: boolean;
  unique?: boolean;
  /** false: never sent to the browser (password hashes). */
  readable?: boolean;
  /** Kept for the system: the designer's pickers leave it out (default: true when the column has no label). */
  internal?: boolean;
  /** false: never taken from a request body (ids, timestamps, server-managed state). */
  writable?: boolean;
}

/**
 * A filterable field stored in another table: `local IN (SELECT key FROM table WHERE column <op> value)`.
 * `local` defaults to id (a join table keyed by this row); a foreign key (slides.case_id) reaches a parent's fields.
 */
export interface VirtualDef extends Omit<FieldDef, 'type'> {
  type: ColumnType;
  filter: true;
  /** Part of the keyword search, as a column's `search`. */
  search?: boolean;
  /** Answered with each row too (server/resources/virtual-read.ts): for joins that reach one row per step. */
  read?: boolean;
  via: VirtualHop & { local?: string };
}

/** One join of a virtual column: rows of `table` whose `column` matches, answered by `key`; `then` joins further. */
export interface VirtualHop {
  table: string;
  key: string;
  column: string;
  then?: VirtualHop;
}

/**
 * A ledger (server/resources/ledger.ts): a row of this resource moves `quantity` of the balance row of resource
 * `balances` that `key` names (the same columns in both, within the row's hospital). A `direction` value in `add`
 * adds (creating the balance row, with the `copy` columns, when it is the first); one in `take` takes, refused when the
 * balance would fall below zero. `link`: this row's column the balance row's id is written to.
 */
export interface LedgerDef {
  balances: string;
  key: string[];
  balance: string;
  quantity: string;
  direction: string;
  add: string[];
  take: string[];
  copy?: string[];
  link?: string;
}

/** `op` over `column` of resource `from`'s rows whose `key` is the row's id, optionally only rows matching `where`. */
export interface AggregateDef {
  from: string;
  key: string;
  op: 'sum' | 'count' | 'min' | 'max';
  column?: string;
  where?: FilterCondition[];
}

export interface ResourceDef {
  name: string;
  table: string;
  route: string;
  /** The column naming a row in selects, or one per UI language: `{ "zh-CN": "name", "en-US": "en_name" }`. */
  optionLabel?: string | Record<string, string>;
  optionValue?: string;
  permissions: { list: string; read: string; create?: string; update?: string; delete?: string };
  defaultSort?: Record<string, 'asc' | 'desc'>;
  hooks?: string;
  /** Fields a hospital adds to the form without a migration are kept in the `extra` JSON column. */
  extra?: boolean;
  columns: Record<string, ColumnDef>;
  virtual?: Record<string, VirtualDef>;
  /** Fields the resource's hooks attach to rows it reads (counts, thumbnails, names of joined rows). */
  computed?: Record<string, FieldDef>;
  /**
   * Computed fields lists may filter and count by (`=`, `!=`, `in`, `not in`): the resource's hooks
   * (`derivedFilter`) turn such a condition into SQL over real columns (a case's spec §4 status, derived by rules).
   */
  derivedFilters?: string[];
  /** Conditions a condition on a column brings with it (cases: `age` brings `age_unit = year`, spec §5). */
  impliedFilters?: ImpliedFilters;
  /** The column a search's scanned cassette or slide label code matches exactly (src/core/labelCode.ts). */
  labelSearch?: string;
  /**
   * The rule set whose `machine` rule is this resource's state machine (src/core/stateMachine.ts): its steps are taken
   * with `POST <route>/transition/{id}` (server/resources/transitions.ts), never by an update.
   */
  stateMachine?: string;
  /** Computed fields given by named rules (`<set>.<rule>`), evaluated on every row read (src/core/ruleFields.ts). */
  ruleFields?: Record<string, string>;
  /**
   * Rules every store, update and destroy must pass, over the stored row and the row the write makes, and the day
   * (src/core/writeGuards.ts): "a past day's duty is not changed". A refusal is a 422 with the guard's message.
   */
  writeGuards?: WriteGuard[];
  /**
   * Each row created moves a balance another resource's rows hold (a stock order → its batch's stock), in the same
   * transaction, never below zero (ledger.ts). A ledger's rows are `appendOnly`: a correction is a new row.
   */
  ledger?: LedgerDef;
  /** Computed fields summed (counted, min, max) over another resource's rows that point at each row read (aggregates.ts). */
  aggregates?: Record<string, AggregateDef>;
  /** Rows are created and read, never changed or deleted (a ledger's movements): no update or destroy route. */
  appendOnly?: boolean;
  /** Fields a write carries that are no column: its hooks consume them (passwords, join-table ids). */
  inputs?: Record<string, FieldDef>;
  /** What a write must carry and the rules between its fields (the contract's; src/core/contract.ts). */
  write?: Pick<Contract, 'required' | 'createOnly' | 'rules'>;
  /** Logs: only lists, counts and items; no write routes exist. */
  readOnly?: boolean;
  /** Rows may hold a parent id (menus, labels); deleting a parent deletes its subtree. */
  parentField?: string;
  /** Composite indexes for the filter combinations a hospital uses most, e.g. [["main_phase", "registration_at"]]. */
  indexes?: string[][];
  /**
   * Whose rows these are. 'hospital': rows belong to a hospital (`hospital_id`); a user sees and changes
   * only the chosen one's (spec §6). 'user': rows belong to the user who made them (`user_id`: favourites,
   * personal categories); nobody else sees them. 'members': rows are people who belong to hospitals (through the
   * `hospital_id` virtual's join: users → user_hospitals); 'hospitals': the rows are the hospitals themselves. For
   * these two an administrator sees every row and anyone else only rows wholly within their own hospitals: a
   * sub-centre's administrator manages that sub-centre's people and settings and no other (spec §6).
   */
  scope?: 'hospital' | 'user' | 'members' | 'hospitals';
  // Subspecialty directories (spec §6) are not declared here: the row scope of every statement applies them to the
  // tables of cases and slides (server/db/scoped-tables.ts), whatever reads them.
}

/** The server-set column that says whose a scoped resource's row is. */
export function scopeColumn(def: Pick<ResourceDef, 'scope'>): 'hospital_id' | 'user_id' | undefined {
  if (def.scope === 'hospital') return 'hospital_id';
  if (def.scope === 'user') return 'user_id';
  return undefined;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

/** Resource files are data, but they name tables and columns that reach SQL: check every identifier once, at load. */
export function checkResource(def: ResourceDef, file: string): ResourceDef {
  const bad = (what: string) => { throw new Error(`${file}: ${what}`); };
  if (!IDENT.test(def.name) || !IDENT.test(def.table)) bad('name and table must be lower-case identifiers');
  if (!def.route?.startsWith('/api/')) bad('route must start with /api/');
  if (!def.columns?.id) bad('an id column is required');
  for (const col of [...Object.keys(def.columns), ...Object.keys(def.virtual ?? {})]) if (!IDENT.test(col)) bad(`bad column name ${col}`);
  for (const v of Object.values(def.virtual ?? {})) {
    for (let hop: VirtualHop | undefined = v.via; hop; hop = hop.then) {
      if (![hop.table, hop.key, hop.column].every((x) => IDENT.test(x))) bad('bad virtual join');
    }
    if (v.via.local !== undefined && !def.columns[v.via.local]) bad(`virtual join: ${v.via.local} is not a column`);
  }
  const needed = def.readOnly ? (['list', 'read'] as const) : def.appendOnly ? (['list', 'read', 'create'] as const) : (['list', 'read', 'create', 'update', 'delete'] as const);
  if (def.ledger && !def.appendOnly) bad('a ledger resource must be appendOnly: a changed or deleted movement would leave its balance wrong');
  for (const name of Object.keys(def.aggregates ?? {})) if (!def.computed?.[name] || def.ruleFields?.[name]) bad(`aggregates: ${name} must be a computed field no rule gives`);
  for (const key of needed) if (!def.permissions?.[key]) bad(`permissions.${key} is required`);
  if (def.parentField && !def.columns[def.parentField]) bad(`parentField ${def.parentField} is not a column`);
  const labels = typeof def.optionLabel === 'object' ? Object.values(def.optionLabel) : def.optionLabel ? [def.optionLabel] : [];
  for (const c of labels) if (!(def.columns[c] ? def.columns[c].readable !== false : def.virtual?.[c])) bad(`optionLabel ${c} is not a readable column`);
  const owner = scopeColumn(def);
  if (def.scope !== undefined && !owner && !['members', 'hospitals'].includes(def.scope)) bad(`unknown scope ${String(def.scope)}`);
  const membership = def.virtual?.hospital_id?.via;
  if (def.scope === 'members' && (!membership || membership.then || membership.local)) bad('a members-scoped resource needs a one-join hospital_id virtual');
  if (owner && def.columns[owner]?.writable !== false) bad(`a ${def.scope}-scoped resource needs a read-only ${owner} column`);
  for (const cols of def.indexes ?? []) if (!cols.length || cols.some((c) => !def.columns[c])) bad(`index ${cols.join(',')} names an unknown column`);
  const fields = contractOf(def).fields;
  const named = (list: string[] | undefined, what: string) => { for (const f of list ?? []) if (!fields[f]) bad(`write.${what} names ${f}, which no write carries`); };
  named(def.write?.required, 'required');
  named(def.write?.createOnly, 'createOnly');
  named(Object.keys(def.write?.rules?.requiredIf ?? {}), 'rules.requiredIf');
  named(Object.keys(def.write?.rules?.visibleIf ?? {}), 'rules.visibleIf');
  const filterable = (c: string) => !!(def.columns[c]?.filter || def.virtual?.[c]?.filter);
  for (const [column, implied] of Object.entries(def.impliedFilters ?? {})) {
    if (!filterable(column) || !implied.every((i) => filterable(i.column) && isOperator(i.operator))) bad(`impliedFilters: ${column} and what it implies must be filterable columns`);
  }
  if (def.labelSearch !== undefined && !filterable(def.labelSearch)) bad(`labelSearch: ${def.labelSearch} is not a filterable column`);
  for (const name of Object.keys(def.ruleFields ?? {})) if (!def.computed?.[name]) bad(`ruleFields: ${name} must be a computed field`);
  for (const g of def.writeGuards ?? []) if (g.field !== undefined && !fields[g.field]) bad(`writeGuards: ${g.field} is not a field a write carries`);
  for (const name of def.derivedFilters ?? []) if (!def.computed?.[name] || !def.hooks) bad(`derivedFilters: ${name} must be a computed field of a resource with hooks`);
  for (const name of Object.keys({ ...def.computed, ...def.inputs })) if (!IDENT.test(name) || def.columns[name]) bad(`computed or input field ${name} must be a new lower-case name`);
  return def;
}

/** The resource's write contract (base, as the repository ships it): writable columns and inputs, and the write rules. */
export const contractOf = (def: ResourceDef): Contract => resourceContract(def);

/** Every resource file of `dir`, checked against the meta-schema and then checkResource: the first bad file throws, naming it. */
export function loadResources(dir: string): ResourceDef[] {
  const defs = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => {
    const def: unknown = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    const problems = resourceMetaProblems(def);
    if (problems.length) throw new Error(`${f}: ${problems.join('; ')}`);
    return checkResource(def as ResourceDef, f);
  });
  return checkCrossResource(defs);
}

export const readableColumns = (def: ResourceDef) => Object.entries(def.columns).filter(([, c]) => c.readable !== false).map(([n]) => n);
export const writableColumns = (def: ResourceDef) =>
  Object.entries(def.columns).filter(([n, c]) => c.writable !== false && c.readable !== false && n !== 'id').map(([n]) => n);
