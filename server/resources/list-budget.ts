import type { FilterCondition } from '../../src/core/filters.js';
import { AppError } from '../http/errors.js';
import { listOf } from './filter-values.js';
import { LIST_LIMITS } from './limits.js';

/**
 * The work one list or count request asks of the database, bounded before any SQL is built: its leaf
 * conditions across the filter and every tab (keyword search and added age units included), and the
 * values they bind. One budget for the whole request, not one per part: 20 tabs of 200 conditions each
 * passed a per-part bound and held a synchronous SQLite process for 700 ms a request.
 */
export function checkListBudget(parts: FilterCondition[][]): void {
  let conditions = 0;
  let parameters = 0;
  const walk = (items: FilterCondition[]): void => {
    for (const c of items) {
      if (c.child) walk(c.child);
      else {
        conditions += 1;
        parameters += valuesBound(c);
      }
    }
  };
  parts.forEach(walk);
  if (conditions > LIST_LIMITS.conditions) throw new AppError(422, 'resource.too_many_conditions', { limit: LIST_LIMITS.conditions });
  if (parameters > LIST_LIMITS.parameters) throw new AppError(422, 'resource.too_many_parameters', { count: parameters, limit: LIST_LIMITS.parameters });
}

/** Values a condition binds: each of an `in` list's, both ends of a `between`, the '' an `empty` compares with, else one. */
function valuesBound(c: FilterCondition): number {
  switch (c.operator) {
    case 'in': case 'not in': return listOf(c.value, c.column ?? '').length;
    case 'between': case 'not between': return 2;
    default: return 1;
  }
}
