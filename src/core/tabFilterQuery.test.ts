import { describe, expect, it } from 'vitest';
import type { TabCondition } from './pageSchema';
import { queryToTabFilter, tabFilterToQuery, type QueryGroupIC } from './tabFilterQuery';

describe('tab filters in the rule builder', () => {
  it('reads and writes the base files\' filters unchanged', () => {
    const frozen: TabCondition[] = [{ field: 'case_type', operator: '=', value: 'frozen' }];
    expect(tabFilterToQuery(frozen)).toEqual({ rules: [{ field: 'case_type', operator: '=', value: 'frozen' }] });
    expect(queryToTabFilter(tabFilterToQuery(frozen))).toEqual(frozen);
    const mixed: TabCondition[] = [
      { field: 'case_type', operator: 'in', value: ['frozen', 'cell'] },
      { field: 'patient_name', operator: 'like', value: 'Li', condition: 'or' },
      { condition: 'except', child: [{ field: 'main_phase', operator: 'empty' }, { field: 'age', operator: 'between', value: [1, 9], condition: 'and' }] },
    ];
    const q = tabFilterToQuery(mixed);
    expect(q.rules.filter((r) => typeof r === 'string')).toEqual(['or', 'except']);
    expect((q.rules[2] as { operator: string }).operator).toBe('contains');
    expect(queryToTabFilter(q, (f) => f === 'age')).toEqual(mixed);
  });
  it('keeps a timeout tab\'s `ago` and turns a leading except into the inverted operator', () => {
    const ago: TabCondition[] = [{ field: 'registration_at', operator: '<', ago: { hours: 72 } }];
    expect(queryToTabFilter(tabFilterToQuery(ago))).toEqual(ago);
    const q = tabFilterToQuery([{ field: 'status', operator: '=', value: 1, condition: 'except' }]);
    expect(q.rules[0]).toMatchObject({ operator: '!=' });
    expect(queryToTabFilter(q)).toEqual([{ field: 'status', operator: '!=', value: 1 }]);
  });
  it('leaves half-built conditions out and gives numbers to numeric fields', () => {
    const q: QueryGroupIC = { rules: [
      { field: '', operator: '=', value: 'x' }, 'and',
      { field: 'age', operator: '>=', value: ' 18 ' }, 'or',
      { field: 'case_type', operator: 'in', value: 'frozen, cell,' }, 'and',
      { field: 'case_type', operator: 'between', value: ['a', ''] }, 'and',
      { field: 'slide_id', operator: 'null', value: '' }, 'and',
      { rules: [] },
    ] };
    expect(queryToTabFilter(q, (f) => f === 'age')).toEqual([
      { field: 'age', operator: '>=', value: 18 },
      { field: 'case_type', operator: 'in', value: ['frozen', 'cell'], condition: 'or' },
      { field: 'slide_id', operator: 'empty', condition: 'and' },
    ]);
    expect(queryToTabFilter({ rules: [] })).toEqual([]);
  });
});
