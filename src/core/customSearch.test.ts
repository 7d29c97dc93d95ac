import { describe, expect, it } from 'vitest';
import { completeConditions, customToFilter, defaultOperator, filterToCustom, newCondition, operatorsFor, removeCondition, valueForOperator, type CustomCondition } from './customSearch.js';
import { ruleResolver, type RuleSet } from './rules.js';
import operatorRules from '../../schemas/rules/search-operators.json';

const resolve = ruleResolver([operatorRules as RuleSet]);


describe('custom search (spec §5)', () => {
  it('"Removing the last extra condition resets the first combinator to and"', () => {
    const list: CustomCondition[] = [{ ...newCondition('except'), field: 'name', value: 'a' }, { ...newCondition('or'), field: 'role_id', value: 1 }];
    expect(removeCondition(list, 1)).toEqual([{ ...list[0], condition: 'and' }]);
    expect(removeCondition(list, 0)).toEqual([{ ...list[1], condition: 'and' }]);
  });
  it('removing one of several keeps the combinators', () => {
    const list = [newCondition('except'), newCondition('or'), newCondition('and')];
    expect(removeCondition(list, 2).map((c) => c.condition)).toEqual(['except', 'or']);
  });
  it('"Custom search keeps only conditions with name and value"', () => {
    const list: CustomCondition[] = [
      { field: 'name', operator: 'like', value: 'wang', condition: 'and' },
      { field: '', operator: '=', value: 'x', condition: 'and' },
      { field: 'role_id', operator: '=', value: '', condition: 'or' },
      { field: 'created_at', operator: 'between', value: ['2026-01-01 00:00:00'], condition: 'and' },
    ];
    expect(completeConditions(list)).toEqual([list[0]]);
  });
  it('maps fields to the wire\'s columns and back', () => {
    const list: CustomCondition[] = [{ field: 'role_id', operator: '=', value: 2, condition: 'except' }];
    const wire = customToFilter(list);
    expect(wire).toEqual([{ column: 'role_id', operator: '=', value: 2, condition: 'except' }]);
    expect(filterToCustom(wire)).toEqual(list);
  });
  it('offers operators by item type (schemas/rules/search-operators.json) and defaults ranges to between', () => {
    expect(operatorsFor({ widget: 'input', field: 'name' }, resolve)).toContain('like');
    expect(operatorsFor({ widget: 'datetimerange', field: 'created_at' }, resolve)).toContain('between');
    expect(operatorsFor({ widget: 'select', field: 'role_id' }, resolve)).not.toContain('like');
    expect(defaultOperator({ widget: 'datetimerange' })).toBe('between');
    expect(defaultOperator({ widget: 'multiselect' })).toBe('in');
    expect(defaultOperator({ widget: 'input', operator: 'like' })).toBe('like');
  });
  it('reshapes the value when the operator changes', () => {
    expect(valueForOperator('a', 'between')).toEqual([]);
    expect(valueForOperator('a', 'in')).toEqual(['a']);
    expect(valueForOperator(['a', 'b'], '=')).toBeUndefined();
  });
});
