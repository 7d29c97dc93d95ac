import { describe, expect, it } from 'vitest';
import { residentIdFacts } from './residentId.js';

describe('resident identity card number (GB 11643)', () => {
  it('reads the birth date and sex of a number whose check character is right', () => {
    expect(residentIdFacts('110105196405170025')).toEqual({ birthDate: '19640517', sex: 'female' });
    expect(residentIdFacts('11010119630101003X')).toEqual({ birthDate: '19630101', sex: 'male' });
    // A lower-case x and surrounding spaces are how people type it.
    expect(residentIdFacts(' 11010119630101003x ')).toEqual({ birthDate: '19630101', sex: 'male' });
  });

  it('says nothing of a number it cannot trust', () => {
    expect(residentIdFacts('110105196405170020')).toBeNull(); // check character wrong
    expect(residentIdFacts('11010519640517002')).toBeNull(); // 17 characters
    expect(residentIdFacts('110105640517002')).toBeNull(); // the old 15-digit form carries no check character
    expect(residentIdFacts('E12345678')).toBeNull(); // a passport
    expect(residentIdFacts(null)).toBeNull();
    expect(residentIdFacts('')).toBeNull();
  });

  it('refuses impossible and future birth dates even with a matching check character', () => {
    const withCheck = (first17: string) => {
      const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
      return first17 + '10X98765432'[w.reduce((n, x, i) => n + x * Number(first17[i]), 0) % 11];
    };
    expect(residentIdFacts(withCheck('11010519650230002'))).toBeNull(); // 30 February
    expect(residentIdFacts(withCheck('11010518000101002'))).toBeNull(); // before 1850
    expect(residentIdFacts(withCheck('11010520300101002'), new Date('2026-01-01'))).toBeNull();
    expect(residentIdFacts(withCheck('11010520000229002'))).toEqual({ birthDate: '20000229', sex: 'female' });
  });
});
