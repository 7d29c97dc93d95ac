import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { CASE_STATUS_RULE, caseStages, caseStatusKey } from '../../../src/core/rulesCaseStatus.js';
import { logicVars } from '../../../src/core/ruleVars.js';
import type { RuleResolver } from '../../../src/core/rules.js';
import casesResource from '../../../schemas/resources/cases.json';
import { statusData, withDisplay } from './status.js';

/**
 * Case columns a status rule may read. The latest report (`report`, `report.*`) is the case's `latest_report`
 * column (JSON text of its status fields): grouping by it groups by everything the rule may read of the report.
 */
const COLUMNS = new Set([...Object.keys(casesResource.columns), 'latest_report']);
const column = (v: string) => (v === 'report' || v.startsWith('report.') ? 'latest_report' : v);

/** A column a status rule reads, named in SQL only once checked against the whitelist above (COLUMNS). */
const caseColumn = (v: string) => sql.ref(`cases.${v}`);

/** What a case is filtered and counted by: its displayed status (one key) or its stage words (several). */
export type StatusView = 'status' | 'stages';
const VIEWS: Record<StatusView, { rule: string; keys(row: Record<string, unknown>, resolve: RuleResolver): string[] }> = {
  status: { rule: CASE_STATUS_RULE, keys: (row, resolve) => [caseStatusKey(row, resolve)] },
  stages: { rule: 'case-status.stages', keys: (row, resolve) => caseStages(row, resolve) },
};

/**
 * The hospital's cases grouped by exactly the fields the view's rule reads, each group with the keys the rule
 * gives it: one evaluation per distinct combination, by the one evaluator (src/core/rules.ts). This is how
 * the spec §4 status and stage words, json-logic a hospital may rewrite, filter and count lists in SQL: the
 * database groups and counts, the rule names each group, and a filter becomes "these combinations of those columns".
 */
/** Of the cases the request may see (its row scope: the reader's subspecialty directories) in `hospitalIds`. */
export async function statusGroups(db: Db, hospitalIds: number[], resolve: RuleResolver, view: StatusView = 'status') {
  const vars = [...new Set(logicVars(resolve(VIEWS[view].rule)).map(column))].filter((v) => COLUMNS.has(v));
  const rows = await db.selectFrom('cases')
    .select([...vars.map((v) => caseColumn(v).as(v)), sql<number>`count(*)`.as('n')])
    .where('hospital_id', 'in', hospitalIds.length ? hospitalIds : [-1])
    .$if(vars.length > 0, (q) => q.groupBy(vars.map(caseColumn)))
    .execute();
  return {
    vars,
    groups: rows.filter((r) => Number(r.n) > 0).map((r) => {
      const values = Object.fromEntries(vars.map((v) => [v, r[v] ?? null]));
      return { values, keys: VIEWS[view].keys(statusData(values), resolve), n: Number(r.n) };
    }),
  };
}

/** A derived field of the cases resource (schemas/resources/cases.json derivedFilters) and the view it filters by. */
export const DERIVED_VIEWS: Record<string, StatusView> = { case_status: 'status', case_stages: 'stages' };

/**
 * "A case whose status (stage word) is one of `keys`" as SQL: the combinations of the rule's columns whose
 * groups the rule names so, column by column (null as IS NULL), or false when no case has such a status.
 */
export function statusMatch(vars: string[], groups: Awaited<ReturnType<typeof statusGroups>>['groups'], keys: string[]) {
  const wanted = groups.filter((g) => g.keys.some((k) => keys.includes(k)));
  return (eb: ExpressionBuilder<Database, 'cases'>) => {
    if (!wanted.length) return sql<boolean>`1 = 0`;
    if (!vars.length) return sql<boolean>`1 = 1`;
    return eb.or(wanted.map((g) => eb.and(vars.map((v) => (g.values[v] === null ? eb(caseColumn(v), 'is', null) : eb(caseColumn(v), '=', g.values[v]))))));
  };
}

/** Tab counts by displayed status or stage word (spec §2 tabs with counts), exact for the hospital's rule. */
export async function statusCounts(db: Db, hospitalIds: number[], resolve: RuleResolver, view: StatusView = 'status') {
  const { groups } = await statusGroups(db, hospitalIds, resolve, view);
  const counts: Record<string, number> = {};
  for (const g of groups) for (const k of g.keys) counts[k] = (counts[k] ?? 0) + g.n;
  return { counts, total: groups.reduce((sum, g) => sum + g.n, 0) };
}

/** A page of the cases whose status (or one of whose stage words) is one of `keys`, newest first, each with its display fields. */
export async function casesByStatus(db: Db, hospitalIds: number[], resolve: RuleResolver, keys: string[], page: number, pageSize: number, view: StatusView = 'status') {
  const { vars, groups } = await statusGroups(db, hospitalIds, resolve, view);
  const wanted = groups.filter((g) => g.keys.some((k) => keys.includes(k)));
  const empty = { data: [], total: 0, current_page: page, per_page: pageSize, total_pages: 0 };
  if (!wanted.length) return empty;
  const base = db.selectFrom('cases').where('hospital_id', 'in', hospitalIds).where(statusMatch(vars, groups, keys));
  const total = wanted.reduce((sum, g) => sum + g.n, 0);
  const rows = await base.selectAll().orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute();
  return { data: rows.map((r) => withDisplay(r as Record<string, unknown>, resolve)), total, current_page: page, per_page: pageSize, total_pages: Math.ceil(total / pageSize) };
}
