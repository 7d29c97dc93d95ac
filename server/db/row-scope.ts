import {
  AliasNode, AndNode, expressionBuilder, IdentifierNode, OperationNodeTransformer, ParensNode, sql, TableNode, WhereNode,
  type DeleteQueryNode, type Expression, type ExpressionBuilder, type InsertQueryNode, type JoinNode, type KyselyPlugin,
  type OperationNode, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryId, type QueryResult, type RawNode,
  type RootOperationNode, type SelectQueryNode, type SqlBool, type UnknownRow, type UpdateQueryNode,
} from 'kysely';
import { AppError } from '../http/errors.js';
import { clinicalApplicationPredicate, clinicalReportPredicate, type ClinicalReach } from './clinical-reach.js';
import { SCOPED_TABLES, type ScopedTable } from './scoped-tables.js';

/**
 * What a request may reach of the scoped tables: rows of these hospitals, and (when `directories` is set) of cases
 * filed under one of these directories or under none (src/core/subspecialty.ts).
 */
export interface RowScope {
  readonly hospitals: readonly number[];
  /** Undefined: every directory. */
  readonly directories?: readonly number[];
  /** An administrator (src/core/admin.ts): also reaches the rows of a `hospitalOptional` table that name no hospital. */
  readonly admin?: boolean;
  /** A clinician (src/core/clinicalReach.ts): reports only within their reach, signed and sent, and applications within it (clinical-reach.ts). */
  readonly clinical?: ClinicalReach;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- predicates name tables by data (scoped-tables.ts)
type AnyEb = ExpressionBuilder<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const eb: AnyEb = expressionBuilder<any, any>();
const NONE = sql<SqlBool>`1 = 0`;

/** Joins whose ON narrows the joined table's rows; the others (right, full, cross …) are narrowed in WHERE. */
const ON_NARROWS = new Set<JoinNode['joinType']>(['InnerJoin', 'LeftJoin', 'LateralInnerJoin', 'LateralLeftJoin']);

/** Raw SQL naming a scoped table where rows come from: the plugin cannot narrow it, so the scoped handle refuses it. */
const RAW_SCOPED = new RegExp(`\\b(?:from|join|update|into)\\s+"?(?:${Object.keys(SCOPED_TABLES).join('|')})"?(?![\\w])`, 'i');

const within = (column: string, ids: readonly number[]): Expression<SqlBool> => (ids.length ? eb(column, 'in', [...ids]) : NONE);

/** A row's own hospital is one of the scope's; one that names none is an administrator's (`hospitalOptional`). */
const hospitalWithin = (table: ScopedTable, column: string, scope: RowScope): Expression<SqlBool> =>
  (table.hospitalOptional && scope.admin ? eb.or([eb(column, 'is', null), within(column, scope.hospitals)]) : within(column, scope.hospitals));

/** Cases within the directories: filed under one of them or under none. */
const casesWithin = (dirs: readonly number[]) =>
  eb.selectFrom('cases as scope_case').select('scope_case.id')
    .where((c: AnyEb) => c.or([c('scope_case.subspecialty_id', 'is', null), within('scope_case.subspecialty_id', dirs)]));

const caseRefWithin = (key: string, dirs: readonly number[]) => eb.or([eb(key, 'is', null), eb(key, 'in', casesWithin(dirs))]);

/** Slides of the scope: of `hospitals` when given (a table with no hospital of its own), and of cases within `dirs`. */
function slidesWithin(hospitals: readonly number[] | undefined, dirs: readonly number[] | undefined) {
  const parts: Expression<SqlBool>[] = [];
  if (hospitals) parts.push(within('scope_slide.hospital_id', hospitals));
  if (dirs) parts.push(caseRefWithin('scope_slide.case_id', dirs));
  return eb.selectFrom('slides as scope_slide').select('scope_slide.id').where(eb.and(parts));
}

/** The condition a row of `table`, named `ref` in its statement, meets when it is within `scope` (undefined: every row does). */
export function rowPredicate(table: ScopedTable, ref: string, scope: RowScope | undefined): OperationNode | undefined {
  if (!scope) return NONE.toOperationNode();
  const col = (c: string) => `${ref}.${c}`;
  const dirs = scope.directories;
  const parts: Expression<SqlBool>[] = [];
  if (table.hospital) {
    const own = hospitalWithin(table, col(table.hospital), scope);
    parts.push(table.sharedWith ? eb.or([own, within(col(table.sharedWith), scope.hospitals)]) : own);
  }
  if (table.directory && dirs) parts.push(eb.or([eb(col(table.directory), 'is', null), within(col(table.directory), dirs)]));
  if (table.caseKey && dirs) parts.push(caseRefWithin(col(table.caseKey), dirs));
  if (table.slideKey && (!table.hospital || dirs)) {
    const inSlides = eb(col(table.slideKey), 'in', slidesWithin(table.hospital ? undefined : scope.hospitals, dirs));
    parts.push(table.slideOptional ? eb.or([eb(col(table.slideKey), 'is', null), inSlides]) : inSlides);
  }
  if (table.clinicalReports && scope.clinical) parts.push(clinicalReportPredicate(ref, scope.clinical));
  if (table.clinicalApplications && scope.clinical) parts.push(clinicalApplicationPredicate(ref, scope.clinical));
  return parts.length ? ParensNode.create(eb.and(parts).toOperationNode()) : undefined;
}

/** The scoped table a FROM / JOIN / UPDATE item names, and what the statement calls it (its alias, else its name). */
function scopedItem(node: OperationNode | undefined): { table: ScopedTable; ref: string } | undefined {
  if (!node) return undefined;
  if (AliasNode.is(node) && TableNode.is(node.node) && IdentifierNode.is(node.alias)) {
    const table = SCOPED_TABLES[node.node.table.identifier.name];
    return table ? { table, ref: node.alias.name } : undefined;
  }
  if (TableNode.is(node)) {
    const name = node.table.identifier.name;
    const table = SCOPED_TABLES[name];
    return table ? { table, ref: name } : undefined;
  }
  return undefined;
}

/** `existing AND p1 AND p2 …`, the existing condition in parentheses so an OR in it cannot swallow ours. */
function and(existing: OperationNode | undefined, predicates: OperationNode[]): OperationNode | undefined {
  const all = existing ? [ParensNode.create(existing), ...predicates] : predicates;
  return all.length ? all.reduce((left, right) => AndNode.create(left, right)) : undefined;
}

const withWhere = (where: WhereNode | undefined, predicates: OperationNode[]): WhereNode | undefined => {
  const condition = and(where?.where, predicates);
  return condition ? WhereNode.create(condition) : undefined;
};

/** The outside-scope refusal of a write (an insert into a hospital or directory the request does not reach). */
export const outsideScope = () => new AppError(403, 'access.outside_scope');

/**
 * Rewrites each statement over a scoped table so it only reaches rows within the scope: select, update and delete
 * get the scope's predicates for every scoped table they name (FROM, JOIN, USING, subqueries and CTEs included);
 * an insert into a table with its own hospital column must name a hospital (and, for a case, a directory) of the
 * scope. No scope: no rows, and no inserts.
 */
class ScopeTransformer extends OperationNodeTransformer {
  constructor(private readonly scope: RowScope | undefined) {
    super();
  }

  private predicates(items: readonly (OperationNode | undefined)[] | undefined): OperationNode[] {
    return (items ?? []).map(scopedItem).flatMap((s) => {
      const predicate = s && rowPredicate(s.table, s.ref, this.scope);
      return predicate ? [predicate] : [];
    });
  }

  /** Joins narrowed in their ON; those that cannot be (right, full, cross) hand their predicates to the WHERE. */
  private joins(joins: readonly JoinNode[] | undefined): { joins: JoinNode[] | undefined; where: OperationNode[] } {
    const where: OperationNode[] = [];
    const out = joins?.map((join) => {
      const predicates = this.predicates([join.table]);
      if (!predicates.length) return join;
      if (!ON_NARROWS.has(join.joinType) || !join.on) { where.push(...predicates); return join; }
      return Object.freeze({ ...join, on: Object.freeze({ ...join.on, on: and(join.on.on, predicates)! }) });
    });
    return { joins: out, where };
  }

  protected override transformSelectQuery(node: SelectQueryNode, queryId?: QueryId): SelectQueryNode {
    const out = super.transformSelectQuery(node, queryId);
    const { joins, where } = this.joins(out.joins);
    return Object.freeze({ ...out, joins, where: withWhere(out.where, [...this.predicates(out.from?.froms), ...where]) });
  }

  protected override transformUpdateQuery(node: UpdateQueryNode, queryId?: QueryId): UpdateQueryNode {
    const out = super.transformUpdateQuery(node, queryId);
    const { joins, where } = this.joins(out.joins);
    return Object.freeze({ ...out, joins, where: withWhere(out.where, [...this.predicates([out.table, ...(out.from?.froms ?? [])]), ...where]) });
  }

  protected override transformDeleteQuery(node: DeleteQueryNode, queryId?: QueryId): DeleteQueryNode {
    const out = super.transformDeleteQuery(node, queryId);
    const { joins, where } = this.joins(out.joins);
    return Object.freeze({ ...out, joins, where: withWhere(out.where, [...this.predicates([...out.from.froms, ...(out.using?.tables ?? [])]), ...where]) });
  }

  protected override transformInsertQuery(node: InsertQueryNode, queryId?: QueryId): InsertQueryNode {
    const out = super.transformInsertQuery(node, queryId);
    const table = out.into ? SCOPED_TABLES[out.into.table.identifier.name] : undefined;
    if (table?.hospital) this.checkInsert(out, table);
    return out;
  }

  protected override transformRaw(node: RawNode, queryId?: QueryId): RawNode {
    if (RAW_SCOPED.test(node.sqlFragments.join('?'))) throw new Error('raw SQL over a scoped table: build it with the query builder so the row scope applies');
    return super.transformRaw(node, queryId);
  }

  /**
   * Every inserted row names a hospital of the scope and, for a case, a directory of it (or none). A row of a
   * `hospitalOptional` table may name none only when an administrator writes it: no one else could read it back.
   */
  private checkInsert(node: InsertQueryNode, table: ScopedTable): void {
    if (!this.scope) throw outsideScope();
    const names = (node.columns ?? []).map((c) => c.column.name);
    const rows = node.values?.kind === 'ValuesNode' ? (node.values as unknown as { values: readonly OperationNode[] }).values : undefined;
    const hospitalAt = names.indexOf(table.hospital!);
    const noHospital = table.hospitalOptional === true && this.scope.admin === true;
    if (!rows || (hospitalAt < 0 && !noHospital)) throw outsideScope();
    const directoryAt = table.directory ? names.indexOf(table.directory) : -1;
    const dirs = this.scope.directories;
    for (const row of rows) {
      const hospital = hospitalAt < 0 ? null : valueAt(row, hospitalAt);
      if (!(hospital === null && noHospital) && !this.scope.hospitals.includes(idOf(hospital))) throw outsideScope();
      const directory = directoryAt >= 0 && dirs ? valueAt(row, directoryAt) : null;
      if (directory !== null && directory !== undefined && !dirs!.includes(idOf(directory))) throw outsideScope();
    }
  }
}

/** An id as a number (PostgreSQL's bigint arrives as text); NaN for anything else, which no scope holds. */
const idOf = (value: unknown): number => (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)) ? Number(value) : NaN);

/** The plain value at `index` of an inserted row; a value that is not plain (a subquery, SQL) reads as unknown. */
function valueAt(row: OperationNode, index: number): unknown {
  if (row.kind === 'PrimitiveValueListNode') return (row as unknown as { values: readonly unknown[] }).values[index];
  if (row.kind !== 'ValueListNode') return Symbol('unknown');
  const value = (row as unknown as { values: readonly OperationNode[] }).values[index];
  return value?.kind === 'ValueNode' ? (value as unknown as { value: unknown }).value : Symbol('unknown');
}

/** The Kysely plugin: the scope is asked per statement (the request the statement runs in). */
export class RowScopePlugin implements KyselyPlugin {
  constructor(private readonly scopeOf: () => RowScope | undefined) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return new ScopeTransformer(this.scopeOf()).transformNode(args.node, args.queryId);
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
