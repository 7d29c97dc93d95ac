import { PAGER_DEFAULT_PAGE_SIZE, TAB_BADGE_CAP } from './constants.js';
import type { FilterCondition } from './filters.js';

/**
 * The state of a list page, kept in the address query (spec §2): page, page_size, sort_by (JSON),
 * search, params (JSON of the search form's values), filter (JSON of custom-search conditions) and tab.
 */
export interface ListParams {
  page: number;
  pageSize: number;
  sortBy: Record<string, 'asc' | 'desc'>;
  search: string;
  params: Record<string, unknown>;
  filter: FilterCondition[];
  tab: string;
}

/** The query keys a list page owns; any other key in the address is left as it is. */
export const LIST_KEYS = ['page', 'page_size', 'sort_by', 'search', 'params', 'filter', 'tab'] as const;

export function defaultListParams(over: Partial<ListParams> = {}): ListParams {
  return { page: 1, pageSize: PAGER_DEFAULT_PAGE_SIZE, sortBy: {}, search: '', params: {}, filter: [], tab: '', ...over };
}

function json<T>(text: string | null, fallback: T, ok: (v: unknown) => boolean): T {
  if (!text) return fallback;
  try {
    const v = JSON.parse(text);
    return ok(v) ? (v as T) : fallback;
  } catch {
    return fallback;
  }
}
const isPlainObject = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);
const positiveInt = (text: string | null, fallback: number) => {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
};

/** Reads a deep link; malformed values fall back to the defaults instead of breaking the page. */
export function readListAddress(query: string | URLSearchParams, defaults: ListParams): ListParams {
  const q = typeof query === 'string' ? new URLSearchParams(query) : query;
  const sortBy = json<Record<string, string>>(q.get('sort_by'), defaults.sortBy, isPlainObject);
  return {
    page: positiveInt(q.get('page'), defaults.page),
    pageSize: positiveInt(q.get('page_size'), defaults.pageSize),
    sortBy: Object.fromEntries(Object.entries(sortBy).filter(([, d]) => d === 'asc' || d === 'desc')) as ListParams['sortBy'],
    search: q.get('search') ?? defaults.search,
    params: json(q.get('params'), defaults.params, isPlainObject),
    filter: json(q.get('filter'), defaults.filter, Array.isArray),
    tab: q.get('tab') ?? defaults.tab,
  };
}

export const hasListKeys = (query: string | URLSearchParams) => {
  const q = typeof query === 'string' ? new URLSearchParams(query) : query;
  return LIST_KEYS.some((k) => q.has(k));
};

/**
 * Writes the list state into a query string, keeping the keys the list does not own (refine's
 * syncWithLocation does the same). Empty search, params, filter and tab are left out.
 */
export function writeListQuery(current: string | URLSearchParams, p: ListParams): string {
  const q = new URLSearchParams(current);
  for (const k of LIST_KEYS) q.delete(k);
  q.set('page', String(p.page));
  q.set('page_size', String(p.pageSize));
  if (Object.keys(p.sortBy).length) q.set('sort_by', JSON.stringify(p.sortBy));
  if (p.search) q.set('search', p.search);
  if (Object.keys(p.params).length) q.set('params', JSON.stringify(p.params));
  if (p.filter.length) q.set('filter', JSON.stringify(p.filter));
  if (p.tab) q.set('tab', p.tab);
  return q.toString();
}

/**
 * react-admin's useListParams rule: an address with list keys wins (deep links, reloads); an address
 * without any (coming back from a detail page through the menu) takes the stored copy for the route.
 */
export function pickListQuery(urlQuery: string, stored: string | null | undefined): string {
  if (hasListKeys(urlQuery) || !stored) return urlQuery;
  const merged = new URLSearchParams(urlQuery);
  new URLSearchParams(stored).forEach((v, k) => {
    if ((LIST_KEYS as readonly string[]).includes(k)) merged.set(k, v);
  });
  return merged.toString();
}

/**
 * The query a list's address settles at: the address's own list keys, else the stored copy's, else the defaults
 * written out (the address always shows the state, so it can be copied as a link).
 */
export function settledListQuery(urlQuery: string, stored: string | null | undefined, defaults: ListParams): string {
  const effective = pickListQuery(urlQuery, stored);
  return hasListKeys(effective) ? effective : writeListQuery(effective, readListAddress(effective, defaults));
}

/**
 * Spec §2: "If the current page becomes empty and is beyond page 1, it jumps to the last page."
 * Returns the page to jump to, or undefined when the page is fine.
 */
export function pageToJumpTo(page: number, rowCount: number, total: number, pageSize: number): number | undefined {
  if (rowCount > 0 || page <= 1) return undefined;
  const last = Math.max(1, Math.ceil(total / pageSize));
  return last < page ? last : undefined;
}

export const totalPages = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / Math.max(1, pageSize)));

/** Spec §9: the pager shows 3 page buttons around the current page. */
export function pagerPages(current: number, pages: number, buttons = 3): number[] {
  const count = Math.min(buttons, pages);
  let start = Math.max(1, current - Math.floor(count / 2));
  start = Math.min(start, pages - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

/** Spec §2/§9: a tab badge above 999 shows 999+. */
export const badgeText = (n: number, cap = TAB_BADGE_CAP) => (n > cap ? `${cap}+` : String(n));
