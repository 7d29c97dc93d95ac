import { describe, expect, it, vi } from 'vitest';
import type { ColumnPref } from '../../src/core/columnPrefs';

/**
 * A list's stored column order and visibility (src/engine/list/useColumnPrefs.ts) in the orders a browser can give:
 * the user's preferences are shown however their answer and the hook's effect fall, never the schema's defaults in
 * their place. The effect used to skip a cached answer that landed after the render read the cache.
 */
vi.mock('react', async () => (await import('./hook-runner')).fakeReact);

// GET /api/schemas/{alias}/columns answers when the test says; each call is one request.
const requests: { url: string; resolve(columns: ColumnPref[]): void }[] = [];
vi.mock('../../src/api/client', () => ({
  api: {
    get: (url: string) => new Promise((resolve) => {
      requests.push({ url, resolve: (columns) => resolve({ data: { code: 0, data: { columns } } }) });
    }),
    put: async () => ({ data: { code: 0, data: null } }),
  },
  unwrap: async <T,>(request: Promise<{ data: { data: T } }>) => (await request).data.data,
}));
// The browser's copy (dexie) has nothing: the server's answer is the one to show.
vi.mock('../../src/db/pis', () => ({ pis: { table_menu: { get: async () => undefined, put: async () => undefined } } }));
const session = { hospitalId: 1, user: { id: 0 } };
vi.mock('../../src/store/session', () => ({
  useSession: Object.assign((pick: (s: typeof session) => unknown) => pick(session), { getState: () => session }),
}));

const { renderHook } = await import('./hook-runner');
const { fetchColumnPrefs } = await import('../../src/engine/schemaApi');
const { useColumnPrefs } = await import('../../src/engine/list/useColumnPrefs');

const columns = [{ field: 'number' }, { field: 'name' }, { field: 'status' }] as never;
const saved: ColumnPref[] = [{ prop: 'status', hidden: false }, { prop: 'number', hidden: false }, { prop: 'name', hidden: true }];
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a list’s stored columns', () => {
  it('are shown when they land between the list’s render and that render’s effect', async () => {
    session.user.id = 1;
    requests.length = 0;
    // Asked for already (another list of the same page a moment before).
    const asked = fetchColumnPrefs('CaseList');
    const list = renderHook(() => useColumnPrefs('CaseList', '/manage/case/list', columns));
    expect(list.result.prefs.map((p) => p.prop)).toEqual(['number', 'name', 'status']);
    requests[0]!.resolve(saved);
    await asked;
    list.runEffects();
    await settle();
    expect(list.result.prefs).toEqual(saved);
    expect(requests).toHaveLength(1);
  });

  it('are shown when they land after the effect', async () => {
    session.user.id = 2;
    requests.length = 0;
    const list = renderHook(() => useColumnPrefs('CaseList', '/manage/case/list', columns));
    list.runEffects();
    await settle();
    expect(requests.map((r) => r.url)).toEqual(['/schemas/CaseList/columns']);
    requests[0]!.resolve(saved);
    await settle();
    expect(list.result.prefs).toEqual(saved);
  });

  it('are drawn in the first render when already here, and the list renders once', async () => {
    session.user.id = 3;
    requests.length = 0;
    const asked = fetchColumnPrefs('CaseList');
    requests[0]!.resolve(saved);
    await asked;
    const list = renderHook(() => useColumnPrefs('CaseList', '/manage/case/list', columns));
    expect(list.result.prefs).toEqual(saved);
    list.runEffects();
    await settle();
    expect(list.renders).toBe(1);
    expect(requests).toHaveLength(1);
  });
});
