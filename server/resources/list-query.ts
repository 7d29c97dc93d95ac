import { Type } from '@sinclair/typebox';
import { isCombinator, isOperator, normaliseFilter, paramsToFilter, type FilterCondition } from '../../src/core/filters.js';
import { labelSearchCondition } from '../../src/core/labelCode.js';
import { AppError } from '../http/errors.js';
import type { ResourceDef } from './definition.js';
import type { AddedColumns } from './extra-fields.js';
import { checkListBudget } from './list-budget.js';
import { LIST_LIMITS } from './limits.js';

export const MAX_PAGE_SIZE = 2000;
export const DEFAULT_PAGE_SIZE = 100;

/** How far a list may be paged: its page size when none is asked, the largest it serves, the last page it reaches. */
export interface PageLimits { defaultSize: number; maxSize: number; maxPage: number }

const RESOURCE_PAGES: PageLimits = { defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE, maxPage: 1_000_000 };

/**
 * A list's `page` and `page_size` query params as its route schema declares them: text, read by `pageParams` (not
 * by the validator, which takes `1e309` for an integer, Infinity, and lets it reach SQL).
 */
export const PageParam = Type.Optional(Type.String({ description: 'a whole number from 1' }));

/**
 * `page` and `page_size` of a request (query string text or body values), checked: whole numbers from 1 within
 * `limits`, else the translated 422 `resource.bad_page`. Every list reads its paging through here, the resource
 * lists and the hand-written ones (messages, meetings, case status lists …), so each refuses a bad page alike.
 */
export function pageParams(raw: { page?: unknown; page_size?: unknown }, limits: PageLimits = RESOURCE_PAGES): { page: number; pageSize: number } {
  const page = positiveInt(raw.page, 1);
  const pageSize = positiveInt(raw.page_size, limits.defaultSize);
  if (pageSize > limits.maxSize || page > limits.maxPage) throw new AppError(422, 'resource.bad_page');
  return { page, pageSize };
}

export interface ListQuery {
  page: number;
  pageSize: number;
  sortBy: [string, 'asc' | 'desc'][];
  filter: FilterCondition[];
  tabs: { key: string; filter: FilterCondition[] }[];
  /** Owner ids (hospitals or the user) a scoped resource is limited to; set by the route, never by the client. */
  scope?: number[];
  /** The fields the requesting hospital added (kept in `extra`) that this query may filter and sort by. */
  added?: AddedColumns;
}

/**
 * Reads page, page_size, sort_by, search, params, filter and tabs from a query string (JSON text) or a
 * POST body (JSON values), and checks every column against the resource's whitelist and the whole
 * request against the limits of limits.ts. Anything it cannot vouch for is a 422; nothing unchecked
 * goes on to SQL. `added`: the fields the requesting hospital's contract adds (extra-fields.ts addedColumns),
 * which join the whitelist for filters and sorting, and only for that hospital.
 */
export function parseListQuery(raw: Record<string, unknown>, def: ResourceDef, added: AddedColumns = {}): ListQuery {
  const { page, pageSize } = pageParams(raw);
  const known = { def, added };

  const sortBy = parseSort(json(raw.sort_by, 'sort_by') ?? def.defaultSort ?? { id: 'desc' }, known);
  const params = json(raw.params, 'params') ?? {};
  if (typeof params !== 'object' || Array.isArray(params)) throw new AppError(422, 'resource.bad_shape', { param: 'params' });
  // One count of the client's items across every part, so no part's size multiplies another's.
  const items = { count: 0 };
  const filter = [
    ...checkConditions(paramsToFilter(params as Record<string, unknown>), known, 'params', items),
    ...checkConditions(asConditions(json(raw.filter, 'filter') ?? [], 'filter'), known, 'filter', items),
    ...searchConditions(raw.search, def),
  ];
  const tabsRaw = json(raw.tabs, 'tabs') ?? [];
  if (!Array.isArray(tabsRaw)) throw new AppError(422, 'resource.bad_shape', { param: 'tabs' });
  if (tabsRaw.length > LIST_LIMITS.tabs) throw new AppError(422, 'resource.too_many_tabs', { limit: LIST_LIMITS.tabs });
  const tabs = tabsRaw.map((t) => {
    if (!t || typeof t !== 'object' || typeof (t as { key?: unknown }).key !== 'string') throw new AppError(422, 'resource.bad_shape', { param: 'tabs' });
    const tab = t as { key: string; filter?: unknown };
    return { key: tab.key.slice(0, 64), filter: checkConditions(asConditions(tab.filter ?? [], 'tabs'), known, 'tabs', items) };
  });
  checkListBudget([filter, ...tabs.map((t) => t.filter)]);
  return { page, pageSize, sortBy, filter, tabs, ...(Object.keys(added).length ? { added } : {}) };
}

/** What a query may name: the resource's columns and the hospital's added fields. */
interface Known { def: ResourceDef; added: AddedColumns }

function positiveInt(v: unknown, fallback: number): number {
  if (v === undefined || v === null || v === '') return fallback;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new AppError(422, 'resource.bad_page');
  return n;
}

/** Query strings carry JSON text; bodies and qs-parsed `a[0][b]=` forms carry values already. */
function json(v: unknown, param: string): unknown {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    throw new AppError(422, 'resource.bad_json', { param });
  }
}

function parseSort(v: unknown, { def, added }: Known): [string, 'asc' | 'desc'][] {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new AppError(422, 'resource.bad_shape', { param: 'sort_by' });
  return Object.entries(v as Record<string, unknown>).slice(0, 5).map(([column, dir]) => {
    if (!def.columns[column]?.sort && !Object.hasOwn(added, column)) throw new AppError(422, 'resource.unsortable_column', { column });
    const d = String(dir).toLowerCase();
    if (d !== 'asc' && d !== 'desc') throw new AppError(422, 'resource.bad_sort_direction');
    return [column, d];
  });
}

function asConditions(v: unknown, param: string): FilterCondition[] {
  if (!Array.isArray(v)) throw new AppError(422, 'resource.bad_shape', { param });
  return v as FilterCondition[];
}

function searchConditions(search: unknown, def: ResourceDef): FilterCondition[] {
  if (typeof search !== 'string' || !search.trim()) return [];
  const columns = [...Object.entries(def.columns), ...Object.entries(def.virtual ?? {})].filter(([, c]) => c.search).map(([n]) => n);
  if (!columns.length) return [];
  const value = search.trim();
  if (value.length > LIST_LIMITS.valueLength) throw new AppError(422, 'resource.value_too_long', { column: 'search', limit: LIST_LIMITS.valueLength });
  const keyword: FilterCondition[] = columns.map((column) => ({ column, operator: 'like', value, condition: 'or' }));
  // A scanned cassette or slide label (keyboard wedge) finds its case: the numbers the code may name, exactly, in the
  // column the resource declares (`labelSearch`).
  const scanned = def.labelSearch ? labelSearchCondition(value, def.labelSearch) : null;
  return [{ condition: 'and', child: scanned ? [...keyword, scanned] : keyword }];
}

/**
 * Shape, operators, combinators and columns, recursively; values are coerced later, per column type.
 * `items` counts the client's conditions and groups across the request's parts, before any is kept.
 */
function checkConditions(list: FilterCondition[], { def, added }: Known, param: string, items: { count: number }): FilterCondition[] {
  const walk = (children: unknown[], depth: number): void => {
    if (depth > LIST_LIMITS.depth) throw new AppError(422, 'resource.too_complex');
    for (const item of children) {
      if (++items.count > LIST_LIMITS.conditions) throw new AppError(422, 'resource.too_many_conditions', { limit: LIST_LIMITS.conditions });
      if (!item || typeof item !== 'object' || Array.isArray(item)) throw new AppError(422, 'resource.bad_shape', { param });
      const c = item as Record<string, unknown>;
      if (c.condition !== undefined && !isCombinator(c.condition)) throw new AppError(422, 'resource.bad_combinator', { condition: String(c.condition).slice(0, 20) });
      if (c.child !== undefined) {
        if (!Array.isArray(c.child)) throw new AppError(422, 'resource.bad_shape', { param });
        walk(c.child, depth + 1);
        continue;
      }
      if (c.operator !== undefined && !isOperator(c.operator)) throw new AppError(422, 'resource.bad_operator', { operator: String(c.operator).slice(0, 20) });
      if (typeof c.column !== 'string' || !(def.columns[c.column]?.filter || def.virtual?.[c.column]?.filter || def.derivedFilters?.includes(c.column) || Object.hasOwn(added, c.column))) {
        throw new AppError(422, 'resource.unknown_column', { column: String(c.column).slice(0, 64) });
      }
    }
  };
  walk(list, 0);
  return normaliseFilter(list, def.impliedFilters);
}
