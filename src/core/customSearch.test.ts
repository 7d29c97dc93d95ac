import { describe, expect, it } from 'vitest';
import { completeConditions, customToFilter, defaultOperator, filterToCustom, newCondition, operatorsFor, removeCondition, valueForOperator, type CustomCondition } from './customSearch.js';
import type { SearchItem } from './pageSchema.js';
import { ruleResolver, type RuleSet } from './rules.js';
import operatorRules from '../../schemas/rules/search-operators.json';

const resolve = ruleResolver([operatorRules as RuleSet]);

const items: SearchItem[] = [
  { name: 'name', label: 'x', type: 'input', operator: 'like', status: true },
  { name: 'role', label: 'x', type: 'select', model: 'role_id', status: true },
  { name: 'created_at', label: 'x', type: 'datetimerange', status: true },
];

describe('custom search (spec §5)', () => {
  it('"Removing the last extra condition resets the first combinator to and"', () => {
    const list: CustomCondition[] = [{ ...newCondition('except'), name: 'name', value: 'a' }, { ...newCondition('or'), name: 'role', value: 1 }];
    expect(removeCondition(list, 1)).toEqual([{ ...list[0], condition: 'and' }]);
    expect(removeCondition(list, 0)).toEqual([{ ...list[1], condition: 'and' }]);
  });
  it('removing one of several keeps the combinators', () => {
    const list = [newCondition('except'), newCondition('or'), newCondition('and')];
    expect(removeCondition(list, 2).map((c) => c.condition)).toEqual(['except', 'or']);
  });
  it('"Custom search keeps only conditions with name and value"', () => {
    const list: CustomCondition[] = [
      { name: 'name', operator: 'like', value: 'wang', condition: 'and' },
      { name: '', operator: '=', value: 'x', condition: 'and' },
      { name: 'role', operator: '=', value: '', condition: 'or' },
      { name: 'created_at', operator: 'between', value: ['2026-01-01 00:00:00'], condition: 'and' },
    ];
    expect(completeConditions(list)).toEqual([list[0]]);
  });
  it('maps names to model columns and back', () => {
    const list: CustomCondition[] = [{ name: 'role', operator: '=', value: 2, condition: 'except' }];
    const wire = customToFilter(list, items);
    expect(wire).toEqual([{ column: 'role_id', operator: '=', value: 2, condition: 'except' }]);
    expect(filterToCustom(wire, items)).toEqual(list);
  });
  it('offers operators by item type (schemas/rules/search-operators.json) and defaults ranges to between', () => {
    expect(operatorsFor({ type: 'input', name: 'name' }, resolve)).toContain('like');
    expect(operatorsFor({ type: 'datetimerange', name: 'created_at' }, resolve)).toContain('between');
    expect(operatorsFor({ type: 'select', name: 'role' }, resolve)).not.toContain('like');
    expect(defaultOperator({ type: 'datetimerange' })).toBe('between');
    expect(defaultOperator({ type: 'multiselect' })).toBe('in');
    expect(defaultOperator({ type: 'input', operator: 'like' })).toBe('like');
  });
  it('reshapes the value when the operator changes', () => {
    expect(valueForOperator('a', 'between')).toEqual([]);
    expect(valueForOperator('a', 'in')).toEqual(['a']);
    expect(valueForOperator(['a', 'b'], '=')).toBeUndefined();
  });
});
