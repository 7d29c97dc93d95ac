import { describe, expect, it } from 'vitest';
import { applyBounded, RULE_LIMITS, RuleCostError } from './ruleBudget.js';
import { logicCostProblems, schemaCostProblems } from './ruleCost.js';
import { checkRuleSet } from './rulesCheck.js';
import type { RuleSet } from './rules.js';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const nestedMap = (n: number) => ({ map: [range(n), { map: [range(n), { '+': [{ var: '' }, 1] }] }] });
const set = (name: string, rules: Record<string, unknown>): RuleSet => ({ name, description: { 'zh-CN': '测试', 'en-US': 'Test' }, rules });

describe('the cost of a rule, seen before it runs', () => {
  it('refuses a nested map over literal lists that the evaluator would stop, and passes one it would finish', () => {
    expect(logicCostProblems(nestedMap(200), '/rules/x')).toEqual([{ path: '/rules/x', message: `needs more than the ${RULE_LIMITS.operations} operations an evaluation may use` }]);
    expect(() => applyBounded(nestedMap(200), {})).toThrow(RuleCostError);
    expect(logicCostProblems(nestedMap(40))).toEqual([]);
    expect(() => applyBounded(nestedMap(40), {})).not.toThrow();
  });

  it('follows list lengths through merge, map and if', () => {
    const half = range(RULE_LIMITS.items / 2 + 1);
    expect(logicCostProblems({ merge: [half, half] })).toEqual([{ path: '/', message: `builds a list of more than ${RULE_LIMITS.items} items` }]);
    expect(logicCostProblems({ some: [{ if: [{ var: 'x' }, { map: [range(300), 1] }, []] }, { map: [range(300), 1] }] })).toHaveLength(1);
    expect(logicCostProblems({ some: [{ if: [{ var: 'x' }, range(3), []] }, { map: [range(300), 1] }] })).toEqual([]);
  });

  it('cannot see a list read from the data or grown by reduce: those stop when they run', () => {
    expect(logicCostProblems({ map: [{ var: 'rows' }, { map: [{ var: 'rows' }, 1] }] })).toEqual([]);
    const doubling = { reduce: [range(40), { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [0]] };
    expect(logicCostProblems(doubling)).toEqual([]);
    expect(() => applyBounded(doubling, {})).toThrow(RuleCostError);
  });

  it('checkRuleSet refuses a costly rule, by path, and one made costly by a rule it refers to', () => {
    expect(checkRuleSet(set('demo', { ok: { '==': [1, 1] }, heavy: nestedMap(200) }))).toEqual([
      { path: '/rules/heavy', message: `needs more than the ${RULE_LIMITS.operations} operations an evaluation may use` },
    ]);
    const inner = set('inner', { each: { map: [range(200), 1] } });
    const outer = set('outer', { all: { map: [range(200), { rule: 'inner.each' }] } });
    expect(checkRuleSet(outer, [inner])).toEqual([{ path: '/rules/all', message: `needs more than the ${RULE_LIMITS.operations} operations an evaluation may use` }]);
    expect(checkRuleSet(set('outer', { all: { map: [range(2), { rule: 'inner.each' }] } }), [inner])).toEqual([]);
  });

  it('costs the json-logic a page schema or contract extension carries: actions, and form rules by field', () => {
    const heavy = nestedMap(200);
    const page = {
      list: { rowActions: [{ key: 'a', visibleIf: { '==': [1, 1] } }, { key: 'b', visibleIf: heavy }] },
      form: { contract: { rules: { visibleIf: { ok: true, hidden: heavy }, requiredIf: { x: heavy }, checks: [{ field: 'y', rule: heavy, message: 'm' }] } } },
    };
    expect(schemaCostProblems(page).map((p) => p.path)).toEqual([
      '/list/rowActions/1/visibleIf', '/form/contract/rules/visibleIf/hidden', '/form/contract/rules/requiredIf/x', '/form/contract/rules/checks/0/rule',
    ]);
    expect(schemaCostProblems({ rules: { visibleIf: { ftpuser: { '==': [{ var: 'upload_protocol' }, 'ftp'] } } } })).toEqual([]);
  });
});
