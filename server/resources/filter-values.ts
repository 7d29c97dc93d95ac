import { AppError } from '../http/errors.js';
import { LIST_LIMITS } from './limits.js';

/**
 * The shapes a condition's value may take, read the same way by the budget check (before any SQL is
 * built) and by the SQL translation: one value, a list (`in`), or a pair (`between`).
 */
export function scalar(value: unknown, column: string): unknown {
  if (Array.isArray(value) || (value !== null && typeof value === 'object')) throw new AppError(422, 'resource.bad_value', { column, expected: 'msg:expected.string' });
  return value;
}

/** A list is a JSON array or comma-separated text (a query string's multiselect). */
export function listOf(value: unknown, column: string): unknown[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : [value];
  if (list.length === 0) throw new AppError(422, 'resource.bad_value', { column, expected: 'msg:expected.list' });
  if (list.length > LIST_LIMITS.inValues) throw new AppError(422, 'resource.too_many_values', { column, limit: LIST_LIMITS.inValues });
  return list.map((v) => scalar(v, column));
}

export function pairOf(value: unknown, column: string): [unknown, unknown] {
  if (!Array.isArray(value) || value.length !== 2) throw new AppError(422, 'resource.bad_value', { column, expected: 'msg:expected.pair' });
  return [scalar(value[0], column), scalar(value[1], column)];
}
