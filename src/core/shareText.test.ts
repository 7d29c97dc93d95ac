import { describe, expect, it } from 'vitest';
import { shareText } from './shareText';

describe('a share as a percentage (QC: tissue out of focus)', () => {
  it('shows at most one decimal, in either language', () => {
    expect(shareText(0.8888888888888888, 'zh-CN')).toBe('88.9%');
    expect(shareText(0.8888888888888888, 'en-US')).toBe('88.9%');
    expect(shareText(0, 'en-US')).toBe('0%');
    expect(shareText(1, 'zh-CN')).toBe('100%');
    expect(shareText('0.05', 'en-US')).toBe('5%');
  });

  it('shows nothing for what is not a number', () => {
    for (const v of [null, undefined, '', ' ', 'n/a', NaN, Infinity, {}]) expect(shareText(v, 'en-US')).toBe('');
  });
});
