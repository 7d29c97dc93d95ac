import { describe, expect, it } from 'vitest';
import type { ListRequest } from '../../core/listRequest';
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
    const request = { page: 2, page_size: 20, search: 'x', filter: JSON.stringify([{ column: 'remark', operator: 'like', value: 'a' }, { column: 'remark', operator: 'like', value: 'b', condition: 'or' }]) };
    const out = withCategory(request, 4);
    expect(out).toMatchObject({ page: 2, page_size: 20, search: 'x' });
    expect(JSON.parse(out.filter!)).toEqual([
      { condition: 'and', child: JSON.parse(request.filter) },
      { column: 'category_id', operator: '=', value: 4, condition: 'and' },
    ]);
    const bare: ListRequest = { page: 1, page_size: 20 };
    expect(JSON.parse(withCategory(bare, 'none').filter!)).toEqual(categoryConditions('none'));
    expect(withCategory(request, 'all')).toBe(request);
  });
});
