import { LIST_PAGE_SIZES } from './constants.js';
import { defaultListParams, pickListQuery, readListAddress, type ListParams } from './listParams.js';
import { buildCountQuery, buildListQuery, type CountQuery, type ListQuery } from './listRequest.js';
import type { ListSchema, SearchField, TabSchema } from './pageSchema.js';

/**
 * A list page's state from its address to its requests, worked out here only: the request sent ahead of the page
 * (listPrefetch), the page's own address state (useListParams) and its requests (useListData) all read it, so the
 * answer sent ahead is the one the page asks for.
 */
export type ListShape = Pick<ListSchema, 'pageSizes' | 'defaultPageSize' | 'defaultSort' | 'tabs'>;

/**
 * The tab a page opens on for a user of `roles`: the first whose `openFor` names one of them (an auditor's work is
 * under "to review", not "to first diagnosis"); else the first tab; '' without tabs.
 */
export function openingTab(tabs: readonly TabSchema[] | undefined, roles: readonly string[] = []): string {
  return (tabs?.find((t) => t.openFor?.some((r) => roles.includes(r))) ?? tabs?.[0])?.key ?? '';
}

/** A list page's state before the address says otherwise: the schema's page size, sort and the user's opening tab. */
export function listDefaults(list: ListShape, roles: readonly string[] = []): ListParams {
  const sizes = list.pageSizes ?? LIST_PAGE_SIZES;
  return defaultListParams({ pageSize: list.defaultPageSize ?? sizes[0] ?? LIST_PAGE_SIZES[0], sortBy: list.defaultSort ?? {}, tab: openingTab(list.tabs, roles) });
}

/** The state an address (or, without list keys, the route's stored query) opens the page at. */
export const listParamsAt = (urlQuery: string, stored: string | null | undefined, defaults: ListParams): ListParams =>
  readListAddress(pickListQuery(urlQuery.replace(/^\?/, ''), stored), defaults);

/** The requests of a state: its rows, and its tab counts when the page has tabs. */
export function listQueries(params: ListParams, items: readonly SearchField[], tabs: readonly TabSchema[]): { list: ListQuery; count: CountQuery | null } {
  return { list: buildListQuery(params, items, tabs), count: tabs.length ? buildCountQuery(params, items, tabs) : null };
}
