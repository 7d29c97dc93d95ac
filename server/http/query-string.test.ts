import { parse as qsParse } from 'qs';
import { describe, expect, it } from 'vitest';
import { parseQuery } from './query-string.js';

describe('query string', () => {
  it('reads bracketed keys as qs does (arrays and objects)', () => {
    expect(parseQuery('ids[0]=3&ids[1]=4&sort[name]=asc')).toEqual({ ids: ['3', '4'], sort: { name: 'asc' } });
    expect(parseQuery('page=2&ids%5B0%5D=3&ids%5b1%5d=4')).toEqual({ page: '2', ids: ['3', '4'] });
  });

  it('keeps JSON values with brackets as text, as qs would', () => {
    const filter = JSON.stringify([{ column: 'main_phase', operator: 'in', value: ['a', 'b'] }]);
    const s = new URLSearchParams({ page: '1', filter, sort_by: '{"id":"desc"}' }).toString();
    expect(parseQuery(s)).toEqual({ page: '1', filter, sort_by: '{"id":"desc"}' });
    expect(parseQuery(s)).toEqual(qsParse(s));
    expect(parseQuery('filter=[1,2]&x=a[b]')).toEqual({ filter: '[1,2]', x: 'a[b]' });
  });

  it('reads repeated keys, empty values and plus signs alike either way', () => {
    for (const s of ['a=1&a=2', 'a=&b', 'q=two+words', 'tabs=%5B%5D&a=1&a=%5B']) expect(parseQuery(s)).toEqual(qsParse(s));
  });
});
