import { beforeEach, describe, expect, it, vi } from 'vitest';

// The API client is a recorder: the test checks what the HTTP provider puts on the wire for a structured query.
const calls: { method: string; url: string; params?: unknown; body?: unknown }[] = [];
const answer = (data: unknown) => Promise.resolve({ data: { code: 0, data } });
vi.mock('../api/client', () => ({
  api: {
    get: (url: string, config: { params?: unknown }) => { calls.push({ method: 'GET', url, params: config.params }); return answer({}); },
    post: (url: string, body: unknown) => { calls.push({ method: 'POST', url, body }); return answer({}); },
  },
  unwrap: async (request: Promise<{ data: { data: unknown } }>) => (await request).data.data,
}));

const { httpDataProvider } = await import('./dataProvider');
const { MAX_GET_QUERY } = await import('../core/listRequest');
const cases = { route: '/api/pathology' };
const longValue = 'x'.repeat(MAX_GET_QUERY);

describe('the HTTP data provider', () => {
  beforeEach(() => { calls.length = 0; });

  it('takes a structured list query and sends the list API\'s names (spec §7)', async () => {
    await httpDataProvider.getList(cases, {
      pagination: { current: 2, pageSize: 20 }, sorters: [{ field: 'id', order: 'desc' }], search: ' wang ',
      equals: { main_phase: 'diagnosis' }, filters: [{ column: 'age', operator: '>=', value: 60, condition: 'and' }],
    });
    expect(calls).toEqual([{
      method: 'GET', url: '/pathology/lists',
      params: { page: 2, page_size: 20, sort_by: '{"id":"desc"}', search: 'wang', params: '{"main_phase":"diagnosis"}', filter: '[{"column":"age","operator":">=","value":60,"condition":"and"}]' },
    }]);
  });

  it('sends a long list query as a POST with the same names', async () => {
    await httpDataProvider.getList(cases, { pagination: { current: 1, pageSize: 10 }, search: longValue });
    expect(calls).toEqual([{ method: 'POST', url: '/pathology/lists', body: { page: 1, page_size: 10, search: longValue } }]);
  });

  it('counts with a GET, and with a POST once the query is long, as lists do', async () => {
    const tabs = [{ key: 'all', filter: [] }];
    await httpDataProvider.getCount(cases, { tabs });
    await httpDataProvider.getCount(cases, { search: longValue, tabs });
    expect(calls).toEqual([
      { method: 'GET', url: '/pathology/count', params: { tabs: JSON.stringify(tabs) } },
      { method: 'POST', url: '/pathology/count', body: { search: longValue, tabs: JSON.stringify(tabs) } },
    ]);
  });
});
