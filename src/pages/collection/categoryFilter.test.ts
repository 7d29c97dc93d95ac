import { describe, expect, it } from 'vitest';
import type { FilterCondition } from '../../core/filters';
import type { ListQuery } from '../../core/listRequest';
import { categoryConditions, categoryParam, parseCategory, withCategory } from './categoryFilter';

describe('the chosen collection category', () => {
  it('reads the address: all, uncategorised or an id; anything else is all', () => {
    expect(parseCategory(null)).toBe('all');
    expect(parseCategory('none')).toBe('none');
    expect(parseCategory('12')).toBe(12);
    for (const bad of ['', '0', '-3', '1.5', 'abc', '99999999999999999999']) expect(parseCategory(bad), bad).toBe('all');
    expect(categoryParam('all')).toBeNull();
    expect(categoryParam('none')).toBe('none');
    expect(categoryParam(12)).toBe('12');
  });

  it('becomes a filter on category_id: none for all, empty for uncategorised, equality for one', () => {
    expect(categoryConditions('all')).toEqual([]);
    expect(categoryConditions('none')).toEqual([{ column: 'category_id', operator: 'empty', condition: 'and' }]);
    expect(categoryConditions(4)).toEqual([{ column: 'category_id', operator: '=', value: 4, condition: 'and' }]);
  });

  it('joins the search bar\'s conditions as one group, so their `or` stays inside it', () => {
    const search: FilterCondition[] = [{ column: 'remark', operator: 'like', value: 'a' }, { column: 'remark', operator: 'like', value: 'b', condition: 'or' }];
    const request: ListQuery = { pagination: { current: 2, pageSize: 20 }, search: 'x', filters: search };
    const out = withCategory(request, 4);
    expect(out).toMatchObject({ pagination: { current: 2, pageSize: 20 }, search: 'x' });
    expect(out.filters).toEqual([
      { condition: 'and', child: search },
      { column: 'category_id', operator: '=', value: 4, condition: 'and' },
    ]);
    const bare: ListQuery = { pagination: { current: 1, pageSize: 20 } };
    expect(withCategory(bare, 'none').filters).toEqual(categoryConditions('none'));
    expect(withCategory(request, 'all')).toBe(request);
  });
});
