import { LIST_PAGE_SIZES } from '../../core/constants';
import { defaultListParams, parseListQuery, pickListQuery, type ListParams } from '../../core/listParams';
import { buildListRequest, type ListRequest } from '../../core/listRequest';
import type { ResolvedSchema } from '../../core/pageSchema';
import { useSession } from '../../store/session';
import { scopedKey } from '../cache';
import { httpDataProvider, onDataWrite, type ListResult } from '../dataProvider';
import { readStoredListQuery } from './useListParams';

type ListSection = NonNullable<ResolvedSchema['schema']['list']>;

/** A list page's state before the address says otherwise: the schema's page size, sort and first tab. */
export function listDefaults(list: ListSection): ListParams {
  const sizes = list.pageSizes ?? LIST_PAGE_SIZES;
  return defaultListParams({ pageSize: list.defaultPageSize ?? sizes[0] ?? LIST_PAGE_SIZES[0], sortBy: list.defaultSort ?? {}, tab: list.tabs?.[0]?.key ?? '' });
}

/**
 * How long a request sent ahead waits to be picked up by its page. The page mounts within a few frames of
 * the send; an older answer (a page that never mounted, say after an error) is not shown as fresh rows.
 */
const TAKE_WITHIN_MS = 5_000;
const ahead = new Map<string, { promise: Promise<ListResult>; at: number }>();
// A write changes what a list answers: nothing sent before it is handed to a page after it.
onDataWrite(() => ahead.clear());
const keyOf = (route: string, request: ListRequest) => {
  const st = useSession.getState();
  return scopedKey(st.hospitalId, route, st.showAllData ? 'all' : 'one', JSON.stringify(request));
};

/**
 * Sends a list page's first request as soon as its schema is known, before the rule sets, the renderer's
 * code and the page's own render: the page then finds the answer under way (`takeListAhead`) instead of
 * sending it after all of those, one after another. The request is the one the page would send for the
 * address (or the route's stored query) it opens at.
 */
export function sendListAhead(page: ResolvedSchema, route: string, search: string): void {
  const list = page.schema.list;
  if (page.schema.type !== 'list' || !list || !page.resource) return;
  const params = parseListQuery(pickListQuery(search.replace(/^\?/, ''), readStoredListQuery(route)), listDefaults(list));
  const request = buildListRequest(params, page.schema.search?.items ?? [], list.tabs ?? []);
  const key = keyOf(page.resource.route, request);
  const now = Date.now();
  for (const [k, v] of ahead) if (now - v.at > TAKE_WITHIN_MS) ahead.delete(k);
  if (ahead.has(key)) return;
  const promise = httpDataProvider.getList(page.resource, request);
  // The page meets a failure itself (it shows the message); an answer nobody takes is not an unhandled rejection.
  promise.catch(() => undefined);
  ahead.set(key, { promise, at: now });
}

/** The answer of a request sent ahead with the same route, request, hospital and scope, once; otherwise undefined. */
export function takeListAhead(route: string, request: ListRequest): Promise<ListResult> | undefined {
  const key = keyOf(route, request);
  const entry = ahead.get(key);
  if (!entry) return undefined;
  ahead.delete(key);
  return Date.now() - entry.at <= TAKE_WITHIN_MS ? entry.promise : undefined;
}
