import { describe, expect, it } from 'vitest';
import { badgeText, defaultListParams, hasListKeys, pagerPages, pageToJumpTo, readListAddress, pickListQuery, settledListQuery, totalPages, writeListQuery } from './listParams.js';

const defaults = defaultListParams({ pageSize: 20, sortBy: { id: 'desc' } });

describe('list state in the address query (spec §2: page, page_size, sort_by (JSON), search, params (JSON))', () => {
  it('parses a deep link', () => {
    const q = 'page=3&page_size=50&sort_by=%7B%22name%22%3A%22asc%22%7D&search=wang&params=%7B%22status%22%3A1%7D&filter=%5B%7B%22column%22%3A%22id%22%2C%22operator%22%3A%22%3E%22%2C%22value%22%3A5%7D%5D&tab=enabled';
    expect(readListAddress(q, defaults)).toEqual({
      page: 3, pageSize: 50, sortBy: { name: 'asc' }, search: 'wang', params: { status: 1 },
      filter: [{ column: 'id', operator: '>', value: 5 }], tab: 'enabled',
    });
  });
  it('falls back to the defaults for malformed values', () => {
    expect(readListAddress('page=-2&page_size=x&sort_by={bad&params=[1]&filter={}', defaults)).toEqual(defaults);
    expect(readListAddress('sort_by={"id":"sideways","name":"asc"}', defaults).sortBy).toEqual({ name: 'asc' });
  });
  it('rewrites its own keys and keeps the others', () => {
    const out = new URLSearchParams(writeListQuery('hospital=2&page=9', { ...defaults, page: 2, search: 'x' }));
    expect(out.get('hospital')).toBe('2');
    expect(out.get('page')).toBe('2');
    expect(out.get('search')).toBe('x');
    expect(out.has('params')).toBe(false);
    expect(JSON.parse(out.get('sort_by')!)).toEqual({ id: 'desc' });
  });
  it('round-trips', () => {
    const p = { ...defaults, page: 4, params: { status: 0 }, filter: [{ column: 'name', operator: 'like' as const, value: 'a', condition: 'except' as const }], tab: 'locked' };
    expect(readListAddress(writeListQuery('', p), defaults)).toEqual(p);
  });
});

describe('stored copy per route (react-admin useListParams)', () => {
  it('an address with list keys wins', () => {
    expect(pickListQuery('page=2', 'page=5&search=a')).toBe('page=2');
  });
  it('an address without list keys takes the stored copy, keeping its own keys', () => {
    const q = new URLSearchParams(pickListQuery('x=1', 'page=5&search=a'));
    expect(q.get('x')).toBe('1');
    expect(q.get('page')).toBe('5');
    expect(q.get('search')).toBe('a');
    expect(hasListKeys('x=1')).toBe(false);
  });
  it('settles an address: its own keys, else the stored copy, else the defaults written out (what a menu click opens)', () => {
    const defaults = defaultListParams({ pageSize: 20, sortBy: { id: 'desc' }, tab: 'all' });
    expect(settledListQuery('page=2', 'page=5', defaults)).toBe('page=2');
    expect(settledListQuery('', 'page=5&search=a', defaults)).toBe('page=5&search=a');
    const fresh = new URLSearchParams(settledListQuery('', null, defaults));
    expect(readListAddress(fresh, defaults)).toEqual(defaults);
    expect(fresh.get('page_size')).toBe('20');
    expect(JSON.parse(fresh.get('sort_by')!)).toEqual({ id: 'desc' });
  });
});

describe('empty page beyond 1 (spec §2: "it jumps to the last page")', () => {
  it('jumps to the last page when the page is empty and beyond page 1', () => {
    expect(pageToJumpTo(5, 0, 41, 20)).toBe(3);
    expect(pageToJumpTo(2, 0, 0, 20)).toBe(1);
  });
  it('stays when the page has rows or is page 1', () => {
    expect(pageToJumpTo(3, 1, 41, 20)).toBeUndefined();
    expect(pageToJumpTo(1, 0, 0, 20)).toBeUndefined();
  });
  it('counts pages', () => {
    expect(totalPages(0, 20)).toBe(1);
    expect(totalPages(41, 20)).toBe(3);
  });
});

describe('pager and tab badge (spec §9: 3 page buttons; badge caps at 999+)', () => {
  it('shows 3 page buttons around the current page', () => {
    expect(pagerPages(1, 10)).toEqual([1, 2, 3]);
    expect(pagerPages(5, 10)).toEqual([4, 5, 6]);
    expect(pagerPages(10, 10)).toEqual([8, 9, 10]);
    expect(pagerPages(1, 2)).toEqual([1, 2]);
  });
  it('caps the badge at 999+', () => {
    expect(badgeText(999)).toBe('999');
    expect(badgeText(1000)).toBe('999+');
  });
});
