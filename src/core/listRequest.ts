import { PAGER_DEFAULT_PAGE_SIZE } from './constants.js';
import { isEmptyValue, normaliseFilter, type FilterCondition } from './filters.js';
import { defaultOperator } from './customSearch.js';
import type { ListParams } from './listParams.js';
import type { SearchField, TabSchema } from './pageSchema.js';
import { tabFilterToWire } from './resolvePage.js';

/** The query of GET {route}/lists and GET {route}/count (spec §7), JSON values as text: the wire, not the engine's. */
export interface ListRequest {
  page: number;
  page_size: number;
  sort_by?: string;
  search?: string;
  params?: string;
  filter?: string;
  tabs?: string;
}
export type CountRequest = Omit<ListRequest, 'page' | 'page_size'>;

export interface Sorter { field: string; order: 'asc' | 'desc' }
/**
 * What the engine asks a data provider for, structured as refine's getList takes it
 * (packages/core/src/contexts/data/types.ts): pagination, sorters, filters (our condition groups), plus the
 * list API's text search and plain equalities (`equals`: an array value means any of them).
 */
export interface ListQuery {
  pagination?: { current: number; pageSize: number };
  sorters?: Sorter[];
  search?: string;
  equals?: Record<string, unknown>;
  filters?: FilterCondition[];
}
/** A count: the same filters, counted once per tab (each tab's own conditions). */
export interface CountQuery extends Omit<ListQuery, 'pagination' | 'sorters'> {
  tabs?: { key: string; filter: FilterCondition[] }[];
}

/** The structured query as the list API reads it (spec §7); empty parts are left out. */
export function listQueryToWire(q: ListQuery): ListRequest {
  const out: ListRequest = { page: q.pagination?.current ?? 1, page_size: q.pagination?.pageSize ?? PAGER_DEFAULT_PAGE_SIZE };
  if (q.sorters?.length) out.sort_by = JSON.stringify(Object.fromEntries(q.sorters.map((s) => [s.field, s.order])));
  return { ...out, ...filtersToWire(q) };
}
export function countQueryToWire(q: CountQuery): CountRequest {
  const out = filtersToWire(q);
  return q.tabs ? { ...out, tabs: JSON.stringify(q.tabs) } : out;
}
function filtersToWire(q: CountQuery): CountRequest {
  const out: CountRequest = {};
  if (q.search?.trim()) out.search = q.search.trim();
  if (q.equals && Object.keys(q.equals).length) out.params = JSON.stringify(q.equals);
  if (q.filters?.length) out.filter = JSON.stringify(q.filters);
  return out;
}

/** One text per query, the same for equal queries: what an answer sent ahead is matched by. */
export const queryKey = (q: ListQuery | CountQuery): string => JSON.stringify(listOrCountWire(q));
const listOrCountWire = (q: ListQuery | CountQuery) => ('pagination' in q || 'sorters' in q ? listQueryToWire(q) : countQueryToWire(q));

/**
 * Search-form values (by item key) → the wire: plain equality on a field under its own name goes to
 * `params` (an array becomes `in` on the server); anything else (like, ranges, a second item on one
 * field) becomes a filter condition. Empty values are dropped (spec §5).
 */
export function searchValuesToWire(values: Record<string, unknown>, items: readonly SearchField[]) {
  const params: Record<string, unknown> = {};
  const filter: FilterCondition[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (isEmptyValue(value)) continue;
    const item = items.find((i) => i.key === name);
    const operator = item ? defaultOperator(item) : Array.isArray(value) ? 'in' : '=';
    const column = item?.field ?? name;
    const equality = operator === '=' || (operator === 'in' && Array.isArray(value));
    if (equality && column === name) params[name] = value;
    else filter.push({ column, operator, value, condition: 'and' });
  }
  return { params, filter };
}

/** The tab's own conditions, joined to the rest as one group. */
const tabGroup = (tab?: TabSchema): FilterCondition[] => (tab?.filter?.length ? [{ condition: 'and', child: tabFilterToWire(tab.filter) }] : []);

/**
 * The query of a list page for its state. Custom-search conditions travel as one group so their `or`/`except`
 * combinators join them to each other, not to the search form; `except` is sent as is (the server inverts it
 * with the same `invertOperator`).
 */
export function buildListQuery(p: ListParams, items: readonly SearchField[], tabs: readonly TabSchema[] = []): ListQuery {
  const { params, filter } = searchValuesToWire(p.params, items);
  const custom = p.filter.length ? [{ condition: 'and' as const, child: p.filter }] : [];
  const filters = normaliseFilter([...filter, ...custom, ...tabGroup(tabs.find((t) => t.key === p.tab))]);
  return {
    pagination: { current: p.page, pageSize: p.pageSize },
    sorters: Object.entries(p.sortBy).map(([field, order]) => ({ field, order })),
    search: p.search.trim(),
    equals: params,
    filters,
  };
}

/** The count query: the same filters without the current tab, and every tab's own conditions. */
export function buildCountQuery(p: ListParams, items: readonly SearchField[], tabs: readonly TabSchema[]): CountQuery {
  const { pagination: _p, sorters: _s, ...rest } = buildListQuery({ ...p, tab: '' }, items);
  return { ...rest, tabs: tabs.map((t) => ({ key: t.key, filter: tabFilterToWire(t.filter ?? []) })) };
}

/** The list page's request on the wire (tests and links that build an address from a page state). */
export const buildListRequest = (p: ListParams, items: readonly SearchField[], tabs: readonly TabSchema[] = []) => listQueryToWire(buildListQuery(p, items, tabs));
export const buildCountRequest = (p: ListParams, items: readonly SearchField[], tabs: readonly TabSchema[]) => countQueryToWire(buildCountQuery(p, items, tabs));

/** GET query strings beyond this length go as POST {route}/lists with the same names in the body (spec §7). */
export const MAX_GET_QUERY = 1800;
export const queryLength = (req: object) =>
  Object.entries(req).reduce((n, [k, v]) => n + k.length + encodeURIComponent(String(v)).length + 2, 0);
