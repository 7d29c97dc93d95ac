import { describe, expect, it } from 'vitest';
import { addSearchHistory, searchSuggestions } from './searchHistory.js';

const many = (n: number) => Array.from({ length: n }, (_, i) => `case-${i}`);

describe('search history (spec §5: "per search type, capped at 20 (oldest removed)")', () => {
  it('puts the newest first and removes the oldest beyond 20', () => {
    let h: string[] = [];
    for (const e of many(21)) h = addSearchHistory(h, e);
    expect(h).toHaveLength(20);
    expect(h[0]).toBe('case-20');
    expect(h).not.toContain('case-0');
  });
  it('moves a repeated search to the front instead of storing it twice', () => {
    expect(addSearchHistory(['b', 'a'], 'a')).toEqual(['a', 'b']);
  });
  it('ignores blank searches', () => {
    expect(addSearchHistory(['a'], '  ')).toEqual(['a']);
  });
});

describe('search suggestions (spec §5: "at most 10 when input empty; filtered by case-insensitive substring and must be longer than the input")', () => {
  it('shows at most 10 when the input is empty', () => {
    expect(searchSuggestions(many(20), '')).toHaveLength(10);
    expect(searchSuggestions(['x'], '')).toEqual(['x']);
  });
  it('filters by case-insensitive substring', () => {
    expect(searchSuggestions(['S2026-001', 's2026-002', 'F2026-001'], 's2026')).toEqual(['S2026-001', 's2026-002']);
  });
  it('keeps only entries longer than the input', () => {
    expect(searchSuggestions(['abc', 'abcd'], 'ABC')).toEqual(['abcd']);
  });
});
