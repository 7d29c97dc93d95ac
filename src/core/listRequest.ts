import { isEmptyValue, normaliseFilter, type FilterCondition } from './filters.js';
import { defaultOperator } from './customSearch.js';
import type { ListParams } from './listParams.js';
import type { SearchField, TabSchema } from './pageSchema.js';
import { tabFilterToWire } from './resolvePage.js';

/** The query of GET {route}/lists and GET {route}/count (spec §7), JSON values as text. */
export interface ListRequest {
  page: number;
  page_size: number;
  sort_by?: string;
  search?: string;
  params?: string;
  filter?: string;
  tabs?: string;
}

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
    if (equality && column === name && name !== 'age') params[name] = value;
    else filter.push({ column, operator, value, condition: 'and' });
  }
  return { params, filter };
}

/** The tab's own conditions, joined to the rest as one group. */
const tabGroup = (tab?: TabSchema): FilterCondition[] => (tab?.filter?.length ? [{ condition: 'and', child: tabFilterToWire(tab.filter) }] : []);

/**
 * Builds the list request of a page. Custom-search conditions travel as one group so their
 * `or`/`except` combinators join them to each other, not to the search form; `except` is sent as is
 * (the server inverts it with the same `invertOperator`).
 */
export function buildListRequest(p: ListParams, items: readonly SearchField[], tabs: readonly TabSchema[] = []): ListRequest {
  const { params, filter } = searchValuesToWire(p.params, items);
  const custom = p.filter.length ? [{ condition: 'and' as const, child: p.filter }] : [];
  const conditions = normaliseFilter([...filter, ...custom, ...tabGroup(tabs.find((t) => t.key === p.tab))]);
  const out: ListRequest = { page: p.page, page_size: p.pageSize };
  if (Object.keys(p.sortBy).length) out.sort_by = JSON.stringify(p.sortBy);
  if (p.search.trim()) out.search = p.search.trim();
  if (Object.keys(params).length) out.params = JSON.stringify(params);
  if (conditions.length) out.filter = JSON.stringify(conditions);
  return out;
}

/** The count request: the same filters without the current tab, and every tab's own conditions. */
export function buildCountRequest(p: ListParams, items: readonly SearchField[], tabs: readonly TabSchema[]): Omit<ListRequest, 'page' | 'page_size'> {
  const { page: _p, page_size: _s, sort_by: _o, ...rest } = buildListRequest({ ...p, tab: '' }, items);
  return { ...rest, tabs: JSON.stringify(tabs.map((t) => ({ key: t.key, filter: tabFilterToWire(t.filter ?? []) }))) };
}

/** GET query strings beyond this length go as POST {route}/lists with the same names in the body (spec §7). */
export const MAX_GET_QUERY = 1800;
export const queryLength = (req: object) =>
  Object.entries(req).reduce((n, [k, v]) => n + k.length + encodeURIComponent(String(v)).length + 2, 0);
