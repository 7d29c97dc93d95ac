import { describe, expect, it } from 'vitest';
import type { FilterCondition } from '../../src/core/filters.js';
import { AppError } from '../http/errors.js';
import { checkListBudget } from './list-budget.js';
import { LIST_LIMITS } from './limits.js';

const like = (n: number): FilterCondition[] => Array.from({ length: n }, () => ({ column: 'name', operator: 'like', value: 'a' }));
const refusal = (parts: FilterCondition[][]) => {
  try {
    checkListBudget(parts);
    return undefined;
  } catch (e) {
    return e instanceof AppError ? { status: e.status, key: e.key, params: e.params } : e;
  }
};

describe('the work budget of one list request', () => {
  it('counts leaf conditions across the filter and every tab, inside groups too', () => {
    expect(refusal([like(20), like(20), [{ child: like(10) }]])).toBeUndefined();
    expect(refusal([like(20), like(20), [{ child: like(11) }]])).toEqual({ status: 422, key: 'resource.too_many_conditions', params: { limit: LIST_LIMITS.conditions } });
  });

  it('counts each value an in binds, both ends of a between, and one for anything else', () => {
    const ins = (n: number, size: number): FilterCondition[] => Array.from({ length: n }, () => ({ column: 'id', operator: 'in', value: Array.from({ length: size }, (_, i) => i) }));
    expect(refusal([ins(4, 500)])).toBeUndefined();
    expect(refusal([ins(4, 500), [{ column: 'id', operator: 'between', value: [1, 2] }]])).toEqual({ status: 422, key: 'resource.too_many_parameters', params: { count: 2002, limit: 2000 } });
    expect(refusal([[{ column: 'id', operator: 'in', value: '1,2,3' }], like(1)])).toBeUndefined();
  });

  it('refuses an in longer than its bound, naming the column', () => {
    expect(refusal([[{ column: 'role_id', operator: 'not in', value: Array.from({ length: 501 }, (_, i) => i) }]]))
      .toEqual({ status: 422, key: 'resource.too_many_values', params: { column: 'role_id', limit: 500 } });
  });
});
