import { LIST_PAGE_SIZES } from '../../core/constants';
import { defaultListParams, parseListQuery, pickListQuery, type ListParams } from '../../core/listParams';
import { buildCountRequest, buildListRequest, type ListRequest } from '../../core/listRequest';
import type { ResolvedSchema } from '../../core/pageSchema';
import { useSession } from '../../store/session';
import { scopedKey } from '../cache';
import { onWrite } from '../../api/client';
import { httpDataProvider, type ListResult } from '../dataProvider';
import { readStoredListQuery } from './useListParams';

type ListSection = NonNullable<ResolvedSchema['schema']['list']>;

/** A list page's state before the address says otherwise: the schema's page size, sort and first tab. */
export function listDefaults(list: Pick<ListSection, 'pageSizes' | 'defaultPageSize' | 'defaultSort' | 'tabs'>): ListParams {
  const sizes = list.pageSizes ?? LIST_PAGE_SIZES;
  return defaultListParams({ pageSize: list.defaultPageSize ?? sizes[0] ?? LIST_PAGE_SIZES[0], sortBy: list.defaultSort ?? {}, tab: list.tabs?.[0]?.key ?? '' });
}

/**
 * How long a request sent ahead waits to be picked up by its page. The page mounts within a few frames of
 * the send; an older answer (a page that never mounted, say after an error) is not shown as fresh rows.
 */
const TAKE_WITHIN_MS = 2_000;
type Kind = 'list' | 'count';
type CountRequest = ReturnType<typeof buildCountRequest>;
interface Entry<T> { promise: Promise<T>; at: number; settled?: T }
const ahead = new Map<string, Entry<unknown>>();
// A write (through any part of the app, as it leaves and as it ends) changes what a list answers: nothing sent
// before it is handed to a page after it. Nor is anything sent for another account or token.
onWrite(() => ahead.clear());
useSession.subscribe((state, previous) => { if (state.token !== previous.token || state.user?.id !== previous.user?.id) ahead.clear(); });
const keyOf = (kind: Kind, route: string, request: object) => {
  const st = useSession.getState();
  return scopedKey(st.hospitalId, kind, route, st.showAllData ? 'all' : 'one', JSON.stringify(request));
};

function send<T>(key: string, now: number, call: () => Promise<T>) {
  if (ahead.has(key)) return;
  const entry: Entry<T> = { promise: call(), at: now };
  // The page meets a failure itself (it shows the message); an answer nobody takes is not an unhandled rejection.
  entry.promise.then((v) => { entry.settled = v; }, () => undefined);
  ahead.set(key, entry);
}

/**
 * Sends a list page's first request (and its tab counts) as soon as its schema is known, before the rule sets,
 * the renderer's code and the page's own render: the page then finds the answer under way (`takeAhead`), or
 * already here (`peekAhead`: its first render draws the rows), instead of sending it after all of those. The
 * request is the one the page would send for the address (or the route's stored query) it opens at.
 */
export function sendListAhead(page: ResolvedSchema, route: string, search: string): void {
  const list = page.schema.list;
  const resource = page.resource;
  if (page.schema.type !== 'list' || !list || !resource) return;
  const params = parseListQuery(pickListQuery(search.replace(/^\?/, ''), readStoredListQuery(route)), listDefaults(list));
  const items = page.schema.search?.items ?? [];
  const tabs = list.tabs ?? [];
  const now = Date.now();
  for (const [k, v] of ahead) if (now - v.at > TAKE_WITHIN_MS) ahead.delete(k);
  const request = buildListRequest(params, items, tabs);
  send(keyOf('list', resource.route, request), now, () => httpDataProvider.getList(resource, request));
  if (tabs.length) {
    const counts = buildCountRequest(params, items, tabs);
    send(keyOf('count', resource.route, counts), now, () => httpDataProvider.getCount(resource, counts));
  }
}

function entryOf<T>(kind: Kind, route: string, request: object): Entry<T> | undefined {
  const entry = ahead.get(keyOf(kind, route, request)) as Entry<T> | undefined;
  return entry && Date.now() - entry.at <= TAKE_WITHIN_MS ? entry : undefined;
}

/** The answer of a request sent ahead with the same route, request, hospital and scope, once; otherwise undefined. */
export function takeListAhead(route: string, request: ListRequest): Promise<ListResult> | undefined {
  const entry = entryOf<ListResult>('list', route, request);
  ahead.delete(keyOf('list', route, request));
  return entry?.promise;
}
export function takeCountAhead(route: string, request: CountRequest): Promise<Record<string, number>> | undefined {
  const entry = entryOf<Record<string, number>>('count', route, request);
  ahead.delete(keyOf('count', route, request));
  return entry?.promise;
}

/** The answer of a request sent ahead when it has already arrived (left in place: the page's effect takes it). */
export const peekListAhead = (route: string, request: ListRequest) => entryOf<ListResult>('list', route, request)?.settled;
export const peekCountAhead = (route: string, request: CountRequest) => entryOf<Record<string, number>>('count', route, request)?.settled;
