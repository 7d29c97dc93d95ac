import jsonLogic from 'json-logic-js';
import { describe, expect, it } from 'vitest';
import { evaluateRule as formRule } from './formRules.js';
import { applyBounded, RULE_LIMITS, RuleCostError } from './ruleBudget.js';
import { evaluateRule } from './rules.js';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
/** The rule that froze a shared worker: a map over a map over literal lists. */
const nestedMap = (n: number) => ({ map: [range(n), { map: [range(n), { '+': [{ var: '' }, 1] }] }] });
/** A list doubled `steps` times: few operations, an exponential list. */
const doubling = (steps: number) => ({ reduce: [range(steps), { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [0]] });
const limitOf = (run: () => unknown) => {
  try {
    run();
  } catch (e) {
    if (e instanceof RuleCostError) return e.limit;
    throw e;
  }
  return 'none';
};

describe('the work of one json-logic evaluation is bounded (RULE_LIMITS)', () => {
  it('answers as json-logic-js does within the limits', () => {
    expect(applyBounded({ '+': [1, 2] }, {})).toBe(3);
    const specimens = range(50).map((i) => ({ site: `S${i}`, blocks: i % 3 }));
    expect(applyBounded({ map: [{ filter: [{ var: 'specimens' }, { '>': [{ var: 'blocks' }, 1] }] }, { var: 'site' }] }, { specimens }))
      .toEqual(specimens.filter((s) => s.blocks > 1).map((s) => s.site));
    expect(applyBounded(nestedMap(20), {})).toEqual(jsonLogic.apply(nestedMap(20) as never, {} as never));
  });

  it('stops a nested map past the operations limit', () => {
    expect(limitOf(() => applyBounded(nestedMap(200), {}))).toBe('operations');
    expect(RULE_LIMITS.operations).toBeLessThan(200 * 200);
  });

  it('stops a list that grows past the items limit before it grows further', () => {
    expect(limitOf(() => applyBounded(doubling(40), {}))).toBe('items');
    expect((applyBounded(doubling(10), {}) as number[]).length).toBe(1024);
  });

  it('stops a string that grows past the characters limit', () => {
    const rule = { reduce: [range(30), { cat: [{ var: 'accumulator' }, { var: 'accumulator' }] }, 'x'.repeat(1000)] };
    expect(limitOf(() => applyBounded(rule, {}))).toBe('chars');
  });

  it('counts what a rule builds, not the data it reads', () => {
    const report = `${'a'.repeat(2 * RULE_LIMITS.chars)}carcinoma`;
    expect(applyBounded({ in: ['carcinoma', { var: 'report' }] }, { report })).toBe(true);
    expect(applyBounded({ var: 'rows.length' }, { rows: range(5 * RULE_LIMITS.items) })).toBe(5 * RULE_LIMITS.items);
  });

  it('gives every evaluation its own budget, after an aborted one too', () => {
    const heavy = nestedMap(55); // nine tenths of the operations
    expect(limitOf(() => applyBounded(heavy, {}))).toBe('none');
    expect(limitOf(() => applyBounded(heavy, {}))).toBe('none');
    expect(limitOf(() => applyBounded(nestedMap(200), {}))).toBe('operations');
    expect(limitOf(() => applyBounded(heavy, {}))).toBe('none');
  });

  it('leaves json-logic-js itself unbounded outside an evaluation of ours', () => {
    expect((jsonLogic.apply(nestedMap(200) as never, {} as never) as unknown[]).length).toBe(200);
  });

  it('the evaluators throw it where every other failure falls back', () => {
    expect(evaluateRule({ unknown_op: [] }, {}, { fallback: 'fb', warn: () => undefined })).toBe('fb');
    expect(() => evaluateRule(nestedMap(200), {}, { fallback: 'fb', warn: () => undefined })).toThrow(RuleCostError);
    expect(formRule({ unknown_op: [] } as never, {}, false)).toBeUndefined();
    expect(() => formRule({ some: [doubling(40), { '==': [{ var: '' }, 1] }] } as never, {}, false)).toThrow(RuleCostError);
  });
});
