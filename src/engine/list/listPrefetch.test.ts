import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResolvedSchema } from '../../core/pageSchema';

// The HTTP provider is replaced by a recorder: the test checks which request goes out ahead and who gets its answer.
const sent: { route: string; request: unknown }[] = [];
const counted: { route: string; request: unknown }[] = [];
const writeListeners: (() => void)[] = [];
const sessionListeners: ((s: object, p: object) => void)[] = [];
vi.mock('../dataProvider', () => ({
  httpDataProvider: {
    getList: vi.fn(async (resource: { route: string }, request: unknown) => {
      sent.push({ route: resource.route, request });
      return { data: [{ id: sent.length }], total: 1, current_page: 1, per_page: 20, total_pages: 1 };
    }),
    getCount: vi.fn(async (resource: { route: string }, request: unknown) => {
      counted.push({ route: resource.route, request });
      return { on: 7 };
    }),
  },
}));
vi.mock('../../api/client', () => ({ onWrite: (l: () => void) => { writeListeners.push(l); return () => undefined; } }));

// The session store reads its scope only (hospital, show-all-data) here.
vi.mock('../../store/session', () => ({
  useSession: {
    getState: () => ({ hospitalId: 1, showAllData: false }),
    subscribe: (l: (s: object, p: object) => void) => { sessionListeners.push(l); return () => undefined; },
  },
}));
vi.mock('./useListParams', () => ({ readStoredListQuery: () => null }));

const { listDefaults, peekCountAhead, peekListAhead, sendListAhead, takeCountAhead, takeListAhead } = await import('./listPrefetch');
const { buildCountRequest, buildListRequest } = await import('../../core/listRequest');
const { parseListQuery } = await import('../../core/listParams');

const page = {
  alias: 'SystemUser', version: 1, resource: { name: 'users', route: '/api/users' },
  schema: { type: 'list', alias: 'SystemUser', rowKey: 'id', list: { columns: [], defaultPageSize: 50, defaultSort: { id: 'desc' }, tabs: [{ key: 'on', label: 'On' }] } },
} as unknown as ResolvedSchema;
const list = page.schema.list!;
const requestFor = (search: string) => buildListRequest(parseListQuery(search, listDefaults(list)), [], list.tabs ?? []);
const countFor = (search: string) => buildCountRequest(parseListQuery(search, listDefaults(list)), [], list.tabs ?? []);

describe('a list request sent ahead of its page', () => {
  beforeEach(() => { sent.length = 0; counted.length = 0; });

  it('starts from the schema defaults (page size, sort, first tab)', () => {
    expect(listDefaults(list)).toMatchObject({ page: 1, pageSize: 50, sortBy: { id: 'desc' }, tab: 'on' });
  });

  it('is handed once to the page that asks for the same request, and sent only once', async () => {
    sendListAhead(page, '/system/user', '');
    sendListAhead(page, '/system/user', '');
    expect(sent).toHaveLength(1);
    const taken = takeListAhead('/api/users', requestFor(''));
    expect(taken).toBeDefined();
    expect((await taken!).data).toEqual([{ id: 1 }]);
    expect(takeListAhead('/api/users', requestFor(''))).toBeUndefined();
  });

  it('sends the tab counts beside the rows, and shows both once arrived without handing them out', async () => {
    sendListAhead(page, '/system/user', '?search=abc');
    expect(counted).toHaveLength(1);
    expect(peekListAhead('/api/users', requestFor('search=abc'))).toBeUndefined(); // not arrived in this tick
    await new Promise((r) => setTimeout(r, 0));
    expect(peekListAhead('/api/users', requestFor('search=abc'))?.data).toEqual([{ id: 1 }]);
    expect(peekCountAhead('/api/users', countFor('search=abc'))).toEqual({ on: 7 });
    // Peeking leaves them for the page's effect to take, once.
    expect(await takeCountAhead('/api/users', countFor('search=abc'))).toEqual({ on: 7 });
    expect(takeCountAhead('/api/users', countFor('search=abc'))).toBeUndefined();
    expect(takeListAhead('/api/users', requestFor('search=abc'))).toBeDefined();
    expect(peekListAhead('/api/users', requestFor('search=abc'))).toBeUndefined();
  });

  it('follows the address the page opens at, and is not handed to a different request', () => {
    sendListAhead(page, '/system/user', '?page=3');
    expect(sent[0].request).toEqual(requestFor('page=3'));
    expect(takeListAhead('/api/users', requestFor(''))).toBeUndefined();
    expect(takeListAhead('/api/users', requestFor('page=3'))).toBeDefined();
  });

  it('is dropped by a write, so a page after it asks again', () => {
    sendListAhead(page, '/system/user', '');
    for (const l of writeListeners) l();
    expect(takeListAhead('/api/users', requestFor(''))).toBeUndefined();
  });

  it('is dropped when the account or its token changes (another user signed in on this tab)', () => {
    sendListAhead(page, '/system/user', '');
    for (const l of sessionListeners) l({ token: 'b', user: { id: 2 } }, { token: 'a', user: { id: 1 } });
    expect(takeListAhead('/api/users', requestFor(''))).toBeUndefined();
  });

  it('is not handed to a page that asks for it past its time', () => {
    vi.useFakeTimers();
    try {
      sendListAhead(page, '/system/user', '');
      vi.advanceTimersByTime(2_500);
      expect(takeListAhead('/api/users', requestFor(''))).toBeUndefined();
    } finally { vi.useRealTimers(); }
  });

  it('is not sent for a page that is not a list', () => {
    sendListAhead({ ...page, schema: { ...page.schema, type: 'form' } } as ResolvedSchema, '/x', '');
    expect(sent).toHaveLength(0);
  });
});
