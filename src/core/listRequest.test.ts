import { tabFilterToWire } from './resolvePage';
import { describe, expect, it } from 'vitest';
import { defaultListParams } from './listParams.js';
import { buildCountRequest, buildListRequest, searchValuesToWire } from './listRequest.js';
import type { SearchField, TabSchema } from './pageSchema.js';

const items: SearchField[] = [
  { field: 'name', key: 'name', label: 'x', widget: 'input', operator: 'like' },
  { field: 'status', key: 'status', label: 'x', widget: 'select' },
  { field: 'role_id', key: 'role_id', label: 'x', widget: 'multiselect' },
  { field: 'created_at', key: 'created_at', label: 'x', widget: 'datetimerange' },
  { field: 'age', key: 'age', label: 'x', widget: 'number', operator: '>=' },
];
const tabs: TabSchema[] = [{ key: 'all', label: 'x' }, { key: 'enabled', label: 'x', filter: [{ field: 'status', operator: '=', value: 1 }] }];

describe('filter payload (spec §5, §7)', () => {
  it('drops empty values and splits equality (params) from other operators (filter)', () => {
    expect(searchValuesToWire({ name: 'wang', status: 1, role_id: [1, 2], created_at: [], empty: '' }, items)).toEqual({
      params: { status: 1, role_id: [1, 2] },
      filter: [{ column: 'name', operator: 'like', value: 'wang', condition: 'and' }],
    });
  });
  it('sends an age search as it is: what it implies (age_unit = year) is the resource\'s rule, applied by the server', () => {
    const req = buildListRequest(defaultListParams({ params: { age: 60 } }), items);
    expect(JSON.parse(req.filter!)).toEqual([{ column: 'age', operator: '>=', value: 60, condition: 'and' }]);
    // Equality on a field named `age` is plain equality like any other's.
    expect(searchValuesToWire({ age: 60 }, [])).toEqual({ params: { age: 60 }, filter: [] });
  });
  it('sends custom conditions as one group with except kept as is, and the tab as another', () => {
    const p = defaultListParams({
      sortBy: { id: 'desc' }, search: ' wang ', tab: 'enabled',
      filter: [
        { column: 'name', operator: 'like', value: 'a', condition: 'and' },
        { column: 'created_at', operator: 'between', value: ['2026-01-01 00:00:00', '2026-01-31 23:59:59'], condition: 'except' },
      ],
    });
    const req = buildListRequest(p, items, tabs);
    expect(req).toMatchObject({ page: 1, page_size: 10, sort_by: '{"id":"desc"}', search: 'wang' });
    expect(JSON.parse(req.filter!)).toEqual([
      { condition: 'and', child: p.filter },
      { condition: 'and', child: [{ column: 'status', operator: '=', value: 1, condition: 'and' }] },
    ]);
  });
  it('counts with the same filters, without the current tab, and every tab', () => {
    const req = buildCountRequest(defaultListParams({ tab: 'enabled', params: { status: 0 } }), items, tabs);
    expect(req.params).toBe('{"status":0}');
    expect(req.filter).toBeUndefined();
    expect(JSON.parse(req.tabs!)).toEqual([{ key: 'all', filter: [] }, { key: 'enabled', filter: [{ column: 'status', operator: '=', value: 1 }] }]);
  });
  it('turns a tab condition’s `ago` into the time that long before now, rounded down to the minute', () => {
    const now = Date.parse('2026-11-24T10:30:45.123Z');
    const wire = tabFilterToWire([
      { field: 'main_phase', operator: '=', value: 'diagnosis' },
      { field: 'registration_at', operator: '<', ago: { hours: 72 } },
      { condition: 'and', child: [{ field: 'sign_at', operator: '<', ago: { hours: 1 } }] },
    ], now);
    expect(wire).toEqual([
      { column: 'main_phase', operator: '=', value: 'diagnosis' },
      { column: 'registration_at', operator: '<', value: '2026-11-21T10:30:00.000Z' },
      { condition: 'and', child: [{ column: 'sign_at', operator: '<', value: '2026-11-24T09:30:00.000Z' }] },
    ]);
    // Within the same minute, the same request (the list sent ahead and the one the page builds match).
    expect(tabFilterToWire([{ field: 'x', operator: '<', ago: { hours: 2 } }], now + 10_000)).toEqual(tabFilterToWire([{ field: 'x', operator: '<', ago: { hours: 2 } }], now));
  });
});
