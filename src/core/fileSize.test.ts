import { describe, expect, it } from 'vitest';
import { formatFileSize } from './fileSize.js';

describe('file size display (spec §9: B, KB, MB, GB, TB, one decimal unless integer)', () => {
  it('uses B, KB, MB, GB, TB in steps of 1024', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1024 ** 2)).toBe('1 MB');
    expect(formatFileSize(1024 ** 3)).toBe('1 GB');
    expect(formatFileSize(1024 ** 4)).toBe('1 TB');
    expect(formatFileSize(1024 ** 5)).toBe('1024 TB');
  });
  it('one decimal unless integer', () => {
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(2_097_152)).toBe('2 MB');
    expect(formatFileSize(1.25 * 1024 ** 3)).toBe('1.3 GB');
    expect(formatFileSize(1075)).toBe('1 KB');
  });
  it('rounds up into the next unit rather than showing 1024.0', () => {
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1 MB');
  });
  it('accepts numeric strings and ignores what is not a size', () => {
    expect(formatFileSize('2048')).toBe('2 KB');
    expect(formatFileSize(null)).toBe('');
    expect(formatFileSize(-1)).toBe('');
    expect(formatFileSize('abc')).toBe('');
  });
});
