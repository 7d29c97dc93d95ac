import { describe, expect, it } from 'vitest';
import { passRate } from './statRates';

describe('scan pass rate', () => {
  it('counts basically qualified as passing, to one decimal', () => {
    expect(passRate({ qualified: 2, basic: 1, unqualified: 0 })).toBe(100);
    expect(passRate({ qualified: 1, basic: 1, unqualified: 1 })).toBe(66.7);
    expect(passRate({ qualified: '3', unqualified: '1' })).toBe(75);
  });
  it('has no rate when nothing was graded', () => {
    expect(passRate({ qualified: 0, basic: 0, unqualified: 0 })).toBeNull();
    expect(passRate({})).toBeNull();
  });
});
