import { describe, expect, it } from 'vitest';
import { DEFAULT_RULE, formatNumber, middleOf, numberMatchesRule, ruleProblems } from './pathologyNumber.js';

describe('pathology numbering rules (spec §3, §9)', () => {
  const day = new Date(2026, 10, 5, 12);

  it('builds prefix + middle + connector + zero-padded serial; the middle is a date pattern or fixed text', () => {
    expect(formatNumber(DEFAULT_RULE, middleOf(DEFAULT_RULE, day), 7)).toBe('P2026-00007');
    const frozen = { prefix: 'F', middle: 'YYYYMMDD', connector: '_', length: 3 };
    expect(formatNumber(frozen, middleOf(frozen, day), 12)).toBe('F20261105_012');
    expect(middleOf({ middle: 'YY' }, day)).toBe('26');
    expect(middleOf({ middle: 'YYYYMM' }, day)).toBe('202611');
    expect(middleOf({ middle: 'XB' }, day)).toBe('XB');
    expect(formatNumber({ prefix: 'C', middle: '', connector: ' ', length: 4 }, '', 1)).toBe('C 0001');
    expect(formatNumber({ prefix: '', middle: 'YY', connector: '', length: 2 }, '26', 99)).toBe('2699');
  });

  it('refuses a serial that no longer fits the length (never a longer number)', () => {
    expect(formatNumber({ ...DEFAULT_RULE, length: 2 }, '2026', 100)).toBeUndefined();
    expect(formatNumber(DEFAULT_RULE, '2026', 0)).toBeUndefined();
  });

  it('checks a rule: prefix, middle, the four separators, length, regex', () => {
    expect(ruleProblems(DEFAULT_RULE)).toEqual({});
    expect(Object.keys(ruleProblems({ prefix: 'P-', middle: 'Y Y', connector: '/', length: 0, regex: '(' }))).toEqual(['prefix', 'middle', 'connector', 'length', 'regex']);
  });

  it('a number typed by hand must match the whole regex', () => {
    expect(numberMatchesRule('W2026-0001', { regex: 'W\\d{4}-\\d{4}' })).toBe(true);
    expect(numberMatchesRule('XW2026-0001', { regex: 'W\\d{4}-\\d{4}' })).toBe(false);
    expect(numberMatchesRule('anything', { regex: null })).toBe(true);
    expect(numberMatchesRule('x', { regex: '(' })).toBe(false);
  });
});
