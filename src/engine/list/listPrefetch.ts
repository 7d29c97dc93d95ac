import { listDefaults, listParamsAt, listQueries } from '../../core/listPageState';
import { queryKey, type CountQuery, type ListQuery } from '../../core/listRequest';
import type { ResolvedSchema } from '../../core/pageSchema';
import { useSession } from '../../store/session';
import { scopedKey } from '../cache';
import { onWrite } from '../../api/client';
import { httpDataProvider, type DataProvider, type ListResult, type ResourceRef } from '../dataProvider';
import { readStoredListQuery } from './useListParams';

export { listDefaults } from '../../core/listPageState';

/**
 * How long a request sent ahead waits to be picked up by its page. The page mounts within a few frames of
 * the send; an older answer (a page that never mounted, say after an error) is not shown as fresh rows.
 */
const TAKE_WITHIN_MS = 2_000;
type Kind = 'list' | 'count';
interface Entry<T> { promise: Promise<T>; at: number; settled?: T }

export type ListsAheadProvider = DataProvider & Required<Pick<DataProvider, 'peekList' | 'peekCount'>> & {
  sendListAhead(page: ResolvedSchema, route: string, search: string): void;
};

/**
 * A data provider that sends a list page's first request (and its tab counts) as soon as its schema is known,
 * before the rule sets, the renderer's code and the page's own render, and hands the answer to the page when it
 * asks for the same query: under way (its getList takes it), or already here (`peekList`: the first render draws
 * the rows). A decorator over any provider, so the page asks the provider it was given and never checks which.
 */
export function withListsAhead(base: DataProvider): ListsAheadProvider {
  const ahead = new Map<string, Entry<unknown>>();
  // A write (through any part of the app, as it leaves and as it ends) changes what a list answers: nothing sent
  // before it is handed to a page after it. Nor is anything sent for another account or token.
  onWrite(() => ahead.clear());
  // The account arriving after a page load (no user, then the same session's user) is not another account: a list
  // sent ahead while it loads is still this account's.
  useSession.subscribe((state, previous) => {
    const otherToken = !!previous.token && state.token !== previous.token;
    const otherUser = !!previous.user && state.user?.id !== previous.user.id;
    if (otherToken || otherUser) ahead.clear();
  });
  const keyOf = (kind: Kind, resource: ResourceRef, query: ListQuery | CountQuery) => {
    const st = useSession.getState();
    return scopedKey(st.hospitalId, kind, resource.route, st.showAllData ? 'all' : 'one', queryKey(query));
  };
  function send<T>(key: string, now: number, call: () => Promise<T>) {
    if (ahead.has(key)) return;
    const entry: Entry<T> = { promise: call(), at: now };
    // The page meets a failure itself (it was shown); an answer nobody takes is not an unhandled rejection.
    entry.promise.then((v) => { entry.settled = v; }, () => undefined);
    ahead.set(key, entry);
  }
  function entryOf<T>(key: string): Entry<T> | undefined {
    const entry = ahead.get(key) as Entry<T> | undefined;
    return entry && Date.now() - entry.at <= TAKE_WITHIN_MS ? entry : undefined;
  }
  /** Once: the answer sent ahead for this query is handed to one read. */
  function take<T>(key: string): Promise<T> | undefined {
    const entry = entryOf<T>(key);
    ahead.delete(key);
    return entry?.promise;
  }
  return {
    ...base,
    // Only a read without options of its own (a page's list) is sent ahead, so only those take its answer.
    getList: (resource, query, options) => (options ? undefined : take<ListResult>(keyOf('list', resource, query))) ?? base.getList(resource, query, options),
    getCount: (resource, query, options) => (options ? undefined : take<Record<string, number>>(keyOf('count', resource, query))) ?? base.getCount(resource, query, options),
    peekList: (resource, query) => entryOf<ListResult>(keyOf('list', resource, query))?.settled,
    peekCount: (resource, query) => entryOf<Record<string, number>>(keyOf('count', resource, query))?.settled,
    /** The request is the one the page would send for the address (or the route's stored query) it opens at. */
    sendListAhead(page, route, search) {
      const list = page.schema.list;
      const resource = page.resource;
      if (page.schema.type !== 'list' || !list || !resource) return;
      const params = listParamsAt(search, readStoredListQuery(route), listDefaults(list, useSession.getState().user?.identification));
      const queries = listQueries(params, page.schema.search?.items ?? [], list.tabs ?? []);
      const now = Date.now();
      for (const [k, v] of ahead) if (now - v.at > TAKE_WITHIN_MS) ahead.delete(k);
      send(keyOf('list', resource, queries.list), now, () => base.getList(resource, queries.list));
      if (queries.count) send(keyOf('count', resource, queries.count), now, () => base.getCount(resource, queries.count!));
    },
  };
}

/** The app's provider: the HTTP one, with lists sent ahead of their pages (SchemaPage's navigation intent). */
export const appDataProvider = withListsAhead(httpDataProvider);
