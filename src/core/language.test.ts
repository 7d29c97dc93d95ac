import { describe, expect, it } from 'vitest';
import { pickLanguage } from './language.js';
import { shouldAutoLock } from './autoLock.js';
import { throttle } from './throttle.js';

describe('language (spec §1)', () => {
  it('saved choice first, then server setting, then browser, else zh-CN', () => {
    expect(pickLanguage('en-US', 'zh-CN', ['zh-CN'])).toBe('en-US');
    expect(pickLanguage(null, 'en-US', ['zh-CN'])).toBe('en-US');
    expect(pickLanguage(null, null, ['fr-FR', 'en-GB'])).toBe('en-US');
    expect(pickLanguage(null, null, ['fr-FR'])).toBe('zh-CN');
  });
});

describe('auto-lock (spec §4)', () => {
  it('fires when idle seconds exceed 60 × N; 0 or empty means never', () => {
    expect(shouldAutoLock(60, 1)).toBe(false);
    expect(shouldAutoLock(61, 1)).toBe(true);
    expect(shouldAutoLock(10_000, 0)).toBe(false);
    expect(shouldAutoLock(10_000, '')).toBe(false);
    expect(shouldAutoLock(10_000, null)).toBe(false);
  });
});

describe('throttle (toasts 100 ms)', () => {
  it('runs the first call in each window and drops the rest', () => {
    let t = 0;
    const seen: number[] = [];
    const f = throttle((n: number) => seen.push(n), 100, () => t);
    f(1); t = 50; f(2); t = 100; f(3);
    expect(seen).toEqual([1, 3]);
  });
});
