import { describe, expect, it } from 'vitest';
import { caseItem, orderItem, PRICE_ITEMS, priceCents, priceKind, yuan } from './prices';

describe('price items', () => {
  it('names every case kind, special examination and additional request once', () => {
    expect(new Set(PRICE_ITEMS).size).toBe(PRICE_ITEMS.length);
    expect(PRICE_ITEMS).toContain('case:routine');
    expect(PRICE_ITEMS).toContain('special:immunohistochemisty');
    expect(PRICE_ITEMS).toContain('additional:re_cut');
  });
  it('knows the kind of an item and refuses what is none', () => {
    expect(priceKind(caseItem('frozen'))).toBe('case');
    expect(priceKind(orderItem('special', 'special_stain'))).toBe('special');
    expect(priceKind(orderItem('additional', 'deep_cut'))).toBe('additional');
    expect(priceKind('case:nothing')).toBeNull();
    expect(priceKind('special')).toBeNull();
  });
});

describe('priceCents', () => {
  it('turns yuan with at most two decimals into whole cents', () => {
    expect(priceCents(0)).toBe(0);
    expect(priceCents(19.99)).toBe(1999);
    expect(priceCents(0.1)).toBe(10);
    expect(priceCents('120.5')).toBe(12050);
    expect(priceCents(1_000_000)).toBe(100_000_000);
  });
  it('refuses negatives, too many decimals, too much and what is no number', () => {
    for (const bad of [-1, 1.005, 1_000_000.01, Number.NaN, Infinity, '', 'abc', null, undefined, {}]) expect(priceCents(bad)).toBeNull();
  });
  it('gives cents back as yuan without float noise', () => {
    expect(yuan(10 + 20)).toBe(0.3);
    expect(yuan(1999)).toBe(19.99);
  });
});
