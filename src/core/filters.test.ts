import { describe, expect, it } from 'vitest';
import { invertOperator, normaliseFilter, paramsToFilter, OPERATORS } from './filters.js';

describe('filter conditions (spec §5, §7)', () => {
  it('except inverts operators: = to !=, > to <=, like to not like, in to not in, between to not between', () => {
    expect(invertOperator('=')).toBe('!=');
    expect(invertOperator('>')).toBe('<=');
    expect(invertOperator('like')).toBe('not like');
    expect(invertOperator('in')).toBe('not in');
    expect(invertOperator('between')).toBe('not between');
  });

  it('inversion is its own inverse for every operator', () => {
    for (const op of OPERATORS) expect(invertOperator(invertOperator(op))).toBe(op);
  });

  it('drops empty values from filter payloads', () => {
    expect(normaliseFilter([
      { column: 'name', operator: 'like', value: '' },
      { column: 'status', operator: '=', value: null },
      { column: 'ids', operator: 'in', value: [] },
      { column: 'realname', operator: 'like', value: '王', condition: 'and' },
    ])).toEqual([{ column: 'realname', operator: 'like', value: '王', condition: 'and' }]);
  });

  it('keeps between only with both ends', () => {
    expect(normaliseFilter([{ column: 'created_at', operator: 'between', value: ['2026-01-01', ''] }])).toEqual([]);
    expect(normaliseFilter([{ column: 'created_at', operator: 'between', value: ['2026-01-01', '2026-02-01'] }])).toHaveLength(1);
  });

  it('a condition brings what its resource declares it implies (cases: an age is in years, spec §5), and nothing else does', () => {
    const implied = { age: [{ column: 'age_unit', operator: '=' as const, value: 'year' }] };
    expect(normaliseFilter([{ column: 'age', operator: '>=', value: 60 }])).toEqual([{ column: 'age', operator: '>=', value: 60, condition: 'and' }]);
    expect(normaliseFilter([{ column: 'age', operator: '>=', value: 60 }], implied)).toEqual([
      { column: 'age', operator: '>=', value: 60, condition: 'and' },
      { column: 'age_unit', operator: '=', value: 'year', condition: 'and' },
    ]);
  });

  it('drops groups left empty and keeps non-empty ones as groups', () => {
    expect(normaliseFilter([
      { column: 'a', value: 1 },
      { condition: 'or', child: [{ column: 'b', value: '' }] },
      { condition: 'except', child: [{ column: 'c', value: 2 }] },
    ])).toEqual([
      { column: 'a', operator: '=', value: 1, condition: 'and' },
      { condition: 'except', child: [{ column: 'c', operator: '=', value: 2, condition: 'and' }] },
    ]);
  });

  it('turns params into equality and in conditions', () => {
    expect(paramsToFilter({ status: 1, role_id: [2, 3], empty: '' })).toEqual([
      { column: 'status', operator: '=', value: 1, condition: 'and' },
      { column: 'role_id', operator: 'in', value: [2, 3], condition: 'and' },
    ]);
  });
});
