import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResolvedSchema } from '../../core/pageSchema';
import type { DataProvider } from '../dataProvider';

// The provider under the decorator is a recorder: the test checks which request goes out ahead and who gets its answer.
const sent: { route: string; query: unknown }[] = [];
const counted: { route: string; query: unknown }[] = [];
const writeListeners: (() => void)[] = [];
const sessionListeners: ((s: object, p: object) => void)[] = [];
vi.mock('../dataProvider', () => ({ httpDataProvider: {} }));
vi.mock('../../api/client', () => ({ onWrite: (l: () => void) => { writeListeners.push(l); return () => undefined; } }));

// The session store reads its scope only (hospital, show-all-data) here.
vi.mock('../../store/session', () => ({
  useSession: {
    getState: () => ({ hospitalId: 1, showAllData: false }),
    subscribe: (l: (s: object, p: object) => void) => { sessionListeners.push(l); return () => undefined; },
  },
}));
vi.mock('./useListParams', () => ({ readStoredListQuery: () => null }));

const { withListsAhead } = await import('./listPrefetch');
const { listDefaults, listParamsAt, listQueries } = await import('../../core/listPageState');

const base = {
  getList: vi.fn(async (resource: { route: string }, query: unknown) => {
    sent.push({ route: resource.route, query });
    return { data: [{ id: sent.length }], total: 1, current_page: 1, per_page: 20, total_pages: 1 };
  }),
  getCount: vi.fn(async (resource: { route: string }, query: unknown) => {
    counted.push({ route: resource.route, query });
    return { on: 7 };
  }),
} as unknown as DataProvider;
const dp = withListsAhead(base);
const users = { route: '/api/users' };

const page = {
  alias: 'SystemUser', version: 1, resource: { name: 'users', route: '/api/users' },
  schema: { type: 'list', alias: 'SystemUser', rowKey: 'id', list: { columns: [], defaultPageSize: 50, defaultSort: { id: 'desc' }, tabs: [{ key: 'on', label: 'On' }] } },
} as unknown as ResolvedSchema;
const list = page.schema.list!;
const queriesFor = (search: string) => listQueries(listParamsAt(search, null, listDefaults(list)), [], list.tabs ?? []);
const requestFor = (search: string) => queriesFor(search).list;
const countFor = (search: string) => queriesFor(search).count!;
/** What the page reads: an answer sent ahead, or (undefined) a request of its own. */
const takeList = async (search: string) => {
  const before = sent.length;
  const answer = await dp.getList(users, requestFor(search));
  return sent.length === before ? answer : undefined;
};
const takeCount = async (search: string) => {
  const before = counted.length;
  const answer = await dp.getCount(users, countFor(search));
  return counted.length === before ? answer : undefined;
};

describe('a list request sent ahead of its page', () => {
  // A write clears what earlier tests left on the shelf.
  beforeEach(() => { for (const l of writeListeners) l(); sent.length = 0; counted.length = 0; });

  it('starts from the schema defaults (page size, sort, first tab)', () => {
    expect(listDefaults(list)).toMatchObject({ page: 1, pageSize: 50, sortBy: { id: 'desc' }, tab: 'on' });
  });

  it('is handed once to the page that asks for the same query, and sent only once', async () => {
    dp.sendListAhead(page, '/system/user', '');
    dp.sendListAhead(page, '/system/user', '');
    expect(sent).toHaveLength(1);
    expect((await takeList(''))?.data).toEqual([{ id: 1 }]);
    // Taken once: the next read is a request of its own.
    expect(await takeList('')).toBeUndefined();
  });

  it('sends the tab counts beside the rows, and shows both once arrived, left for the page to take', async () => {
    dp.sendListAhead(page, '/system/user', '?search=abc');
    expect(counted).toHaveLength(1);
    expect(dp.peekList(users, requestFor('search=abc'))).toBeUndefined(); // not arrived in this tick
    await new Promise((r) => setTimeout(r, 0));
    expect(dp.peekList(users, requestFor('search=abc'))?.data).toEqual([{ id: 1 }]);
    expect(dp.peekCount(users, countFor('search=abc'))).toEqual({ on: 7 });
    // Peeking leaves them for the page's read to take, once.
    expect(await takeCount('search=abc')).toEqual({ on: 7 });
    expect(await takeCount('search=abc')).toBeUndefined();
    expect(await takeList('search=abc')).toBeDefined();
    expect(dp.peekList(users, requestFor('search=abc'))).toBeUndefined();
  });

  it('follows the address the page opens at, and is not handed to a different query', async () => {
    dp.sendListAhead(page, '/system/user', '?page=3');
    expect(sent[0].query).toEqual(requestFor('page=3'));
    expect(await takeList('')).toBeUndefined();
    expect(await takeList('page=3')).toBeDefined();
  });

  it('is not handed to a read with options of its own (a select\'s options, another scope)', async () => {
    dp.sendListAhead(page, '/system/user', '');
    await dp.getList(users, requestFor(''), { showAllData: false });
    expect(sent).toHaveLength(2);
  });

  it('is dropped by a write, so a page after it asks again', async () => {
    dp.sendListAhead(page, '/system/user', '');
    for (const l of writeListeners) l();
    expect(await takeList('')).toBeUndefined();
  });

  it('is dropped when the account or its token changes (another user signed in on this tab)', async () => {
    dp.sendListAhead(page, '/system/user', '');
    for (const l of sessionListeners) l({ token: 'b', user: { id: 2 } }, { token: 'a', user: { id: 1 } });
    expect(await takeList('')).toBeUndefined();
  });

  it('is kept while a reloaded page\'s account arrives (no user, then the same session\'s user)', async () => {
    dp.sendListAhead(page, '/system/user', '');
    for (const l of sessionListeners) l({ token: 'a', user: { id: 1 } }, { token: 'a', user: null });
    expect(await takeList('')).toBeDefined();
  });

  it('is not handed to a page that asks for it past its time', async () => {
    vi.useFakeTimers();
    try {
      dp.sendListAhead(page, '/system/user', '');
      vi.advanceTimersByTime(2_500);
      expect(dp.peekList(users, requestFor(''))).toBeUndefined();
      expect(await takeList('')).toBeUndefined();
    } finally { vi.useRealTimers(); }
  });

  it('is not sent for a page that is not a list', () => {
    dp.sendListAhead({ ...page, schema: { ...page.schema, type: 'form' } } as ResolvedSchema, '/x', '');
    expect(sent).toHaveLength(0);
  });
});
